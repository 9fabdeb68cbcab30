"""Association of two features by their classes: ``method: association`` (metric kind).

The measures of the LMU book's ch. 3.2 (Fahrmeir et al. 2016), one per pair of variables:

- both numeric: Pearson's correlation r, in [-1, 1] (metric ``pearson:a:b``);
- both categorical: the corrected contingency coefficient
  K* = sqrt(chi2 / (chi2 + n)) / sqrt((M - 1) / M), M the smaller number of levels, chi2 the
  Pearson statistic of the contingency table without continuity correction (R's
  ``chisq.test(correct = FALSE)``), in [0, 1] (metric ``kstar:a:b``);
- one numeric, one categorical: the book's "variance-explained measure", the correlation of
  the numeric variable with its least-squares fit on the categorical's levels (its group
  means), i.e. sqrt(R^2), in [0, 1] (metric ``eta:a:b``).

Pairs are the unordered pairs of ``features`` in their order (``a`` before ``b``); a variable
is categorical when the DGP says so or ``categorical`` lists it; ``target`` adds ``y`` as a
numeric variable of that name after the features.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from imlbench.explain.api import CATEGORICAL, DATA, FEATURES, ExplainContext, method
from imlbench.params import text


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson's correlation of two numeric vectors."""
    return float(np.corrcoef(np.asarray(a, float), np.asarray(b, float))[0, 1])


def chi_squared(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson's chi2 statistic of the contingency table of ``a`` and ``b`` (observed levels
    only), without continuity correction."""
    table = pd.crosstab(np.asarray(a), np.asarray(b)).to_numpy(float)
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    return float(((table - expected) ** 2 / expected).sum())


def corrected_contingency(a: np.ndarray, b: np.ndarray) -> float:
    """K* = sqrt(chi2 / (chi2 + n)) / sqrt((M - 1) / M), M = min(levels of a, levels of b);
    NaN when either has a single level (M = 1: no association can be measured)."""
    m = min(len(np.unique(a)), len(np.unique(b)))
    if m < 2:
        return float("nan")
    chi2 = chi_squared(a, b)
    return float(np.sqrt(chi2 / (chi2 + len(a))) / np.sqrt((m - 1) / m))


def variance_explained(x: np.ndarray, groups: np.ndarray) -> float:
    """sqrt(R^2) of the least-squares fit of numeric ``x`` on the levels of ``groups``: the
    fitted values are the group means, so R^2 = between-group over total sum of squares."""
    x = np.asarray(x, float)
    means = pd.Series(x).groupby(np.asarray(groups)).transform("mean").to_numpy()
    total = float(((x - x.mean()) ** 2).sum())
    return float(np.sqrt(((means - x.mean()) ** 2).sum() / total)) if total > 0 else float("nan")


def association(a: np.ndarray, b: np.ndarray, a_categorical: bool, b_categorical: bool
                ) -> tuple[str, float]:
    """The measure of the pair by the classes of its variables and its value (see the
    module doc)."""
    if a_categorical and b_categorical:
        return "kstar", corrected_contingency(a, b)
    if a_categorical or b_categorical:
        x, g = (b, a) if a_categorical else (a, b)
        return "eta", variance_explained(x, g)
    return "pearson", pearson(a, b)


@method("association", kind="metric",
        params={**FEATURES, **CATEGORICAL, "target": text(None, nullable=True), **DATA})
def _association(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The association of every unordered pair of ``features`` (default: all; ``target``
    appends y under that name): metric ``<measure>:<a>:<b>``, the measure by the pair's classes
    (see the module doc)."""
    X, y = ctx.data(params)
    names = list(params["features"] or ctx.feature_names)
    columns = {name: X[:, ctx.index(name)] for name in names}
    categorical = set(getattr(ctx.dgp, "categorical", ())) | set(params["categorical"] or ())
    if params["target"] is not None:
        if params["target"] in columns:
            raise ValueError(f"target name {params['target']!r} is a feature's; allowed: "
                             "another name")
        columns[params["target"]] = y
        names.append(params["target"])
    rows = []
    for a, b in combinations(names, 2):
        kind, value = association(columns[a], columns[b], a in categorical, b in categorical)
        rows.append((f"{kind}:{a}:{b}", value))
    return pd.DataFrame(rows, columns=["metric", "value"])
