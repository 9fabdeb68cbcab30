"""The estimands: what a method estimates (declared where it is registered,
:func:`imlbench.explain.api.method`) and what a truth holds (:mod:`imlbench.truth`).

Every truth table, of every DGP, has one long shape: the columns :data:`TRUTH_COLUMNS` with
their dtypes (the truth stage puts the scenario and its swept ``p_*`` parameters in front):

``estimand``  one of :data:`TABLE_OF`;
``feature``   the feature (or group) the value is of;
``row``       the reference row of a per-row curve (``ice``), else -1;
``x``         the feature's value of a curve point; NaN for an importance;
``value``     the true value;
``se``        its Monte Carlo standard error; 0 when exact (closed forms, quadrature);
``lo, hi``    for a per-row curve, the range of x within its row's conditional band (the
              feature within two conditional standard deviations of its partner, the region
              without extrapolation); NaN otherwise.

A truth's tables are named after the kind of estimand they hold (:data:`TABLE_OF`): one file
per scenario and table, which figures and claims select by name.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: the truth table of every estimand: its name is the estimand's, its meaning (of feature j
#: at value z, under the DGP's f and joint law):
#: ``pd`` the interventional partial dependence E_{X_-j}[f(z, X_-j)]; ``conditional`` the
#: conditional expectation E[f(X) | x_j = z] (the M-plot's estimand); ``ale`` the uncentred
#: accumulated local effect, up to its additive constant; ``ice`` f(z, x_-j) of reference row
#: ``row``; ``interventional`` E[f(X) | do(x_j = z)]; ``pfi_marginal`` and
#: ``pfi_conditional`` the permutation importance of the true f under squared loss, contrast
#: difference, x_j replaced from its marginal or from its conditional law given x_-j;
#: ``pfi_marginal_ratio`` and ``pfi_conditional_ratio`` the same with contrast ratio;
#: ``loco`` the squared-loss increase when f is replaced by the best predictor without x_j,
#: E[(f(X) - E[f(X) | X_-j])^2] = E Var(f(X) | X_-j) (the population target of leaving x_j
#: out and refitting; Hooker, Mentch & Zhou 2021, Theorem 2), derived from the conditional
#: PFI by :func:`derived_importances`
TABLE_OF: dict[str, str] = {
    "pd": "effects",
    "conditional": "effects",
    "ale": "effects",
    "ice": "effects",
    "interventional": "effects",
    "pfi_marginal": "importance",
    "pfi_conditional": "importance",
    "pfi_marginal_ratio": "importance",
    "pfi_conditional_ratio": "importance",
    "loco": "importance",
}
#: the truth tables by name, with the estimands each may hold
TABLES: dict[str, tuple[str, ...]] = {
    table: tuple(e for e, t in TABLE_OF.items() if t == table)
    for table in dict.fromkeys(TABLE_OF.values())
}
#: the columns of every truth table and their dtypes (see the module doc)
TRUTH_COLUMNS: dict[str, str] = {
    "estimand": "str", "feature": "str", "row": "int64", "x": "float64", "value": "float64",
    "se": "float64", "lo": "float64", "hi": "float64",
}


def derived_importances(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (an importance truth table in the one shape) with ``loco`` rows where it
    holds ``pfi_conditional`` and no ``loco``: value and standard error halved. With
    y = f(X) + e, E[e | X] = 0 and X~_j drawn from the law of x_j given x_-j independently of
    x_j, the conditional PFI of f is E[(f(X) - f(X~_j, X_-j))^2] = 2 E Var(f(X) | X_-j), twice
    the ``loco`` target."""
    held = set(table["estimand"])
    if "pfi_conditional" not in held or "loco" in held:
        return table
    rows = table[table["estimand"] == "pfi_conditional"]
    return pd.concat([table, rows.assign(estimand="loco", value=rows["value"] / 2,
                                         se=rows["se"] / 2)], ignore_index=True)


def check_estimand(estimand: str, owner: str) -> str:
    """``estimand`` when it is one of :data:`TABLE_OF`, else a ValueError naming ``owner``."""
    if estimand not in TABLE_OF:
        raise ValueError(f"{owner}: unknown estimand {estimand!r}; allowed: "
                         f"{', '.join(TABLE_OF)}")
    return estimand


def held_by(tables: list[str] | tuple[str, ...]) -> set[str]:
    """The estimands truth tables of these names may hold."""
    return {e for t in tables for e in TABLES.get(t, ())}


def truth_frame(estimand: str, feature: str | list[str] | np.ndarray,
                value: float | np.ndarray, *, x: float | np.ndarray = np.nan,
                se: float | np.ndarray = 0.0, row: int | np.ndarray = -1,
                lo: float | np.ndarray = np.nan, hi: float | np.ndarray = np.nan
                ) -> pd.DataFrame:
    """Truth rows of one estimand in the one shape (:data:`TRUTH_COLUMNS`); every argument is
    a scalar or an array of the rows' length."""
    columns = {"estimand": estimand, "feature": feature, "row": row, "x": x, "value": value,
               "se": se, "lo": lo, "hi": hi}
    n = max(np.size(v) for v in columns.values())
    return one_shape(pd.DataFrame({c: np.array(np.broadcast_to(np.asarray(v), (n,)))
                                   for c, v in columns.items()}))


def one_shape(table: pd.DataFrame, owner: str = "truth table") -> pd.DataFrame:
    """``table`` (columns :data:`TRUTH_COLUMNS`, in any order) in the one shape: those columns
    in order and of their dtypes, with a known estimand in every row; a ValueError otherwise."""
    got = set(table.columns)
    if got != set(TRUTH_COLUMNS):
        raise ValueError(f"{owner}: columns {', '.join(table.columns)}; a truth table has "
                         f"exactly {', '.join(TRUTH_COLUMNS)}")
    for estimand in dict.fromkeys(table["estimand"]):
        check_estimand(estimand, owner)
    return table[list(TRUTH_COLUMNS)].astype(TRUTH_COLUMNS).reset_index(drop=True)
