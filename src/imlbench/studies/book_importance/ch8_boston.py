"""The book's ch. 8 ("Introduction to Feature Importance", Sect. 8.1-8.2) and the real-data
parts of ch. 9 ("PFI, LOCO and Correlated Features", Sect. 9.1 and 9.3): the PFI and LOCO
illustration tables, a forest's PFI on the Boston housing data, the shuffled bike days, and
Boston with an exact and a noisy copy of ``lstat``.

``book_importance.illustration_rows`` writes the rows the tables of Figs 8.1, 8.3 and 9.1 show: the
data (every feature, ``y`` and, with ``predict``, the model's f(x)), each feature of ``permute``
shuffled ``shuffles`` times over all rows (PFI's X_perm,j, Sect. 8.1) with f(X_perm,j), and each
feature of ``drop`` left out and the learner refitted, f_-j(X_-j) (LOCO, Sect. 8.1).

Statistics per repetition for ``contrast`` claims (:mod:`imlbench.metrics.contrasts`: the
test, its SE and the other cell are the kit's):

``book_importance.association_bound``  the smallest (``stat: min``) or largest |association|
                         of ``feature`` with each of ``others`` (metric rows
                         ``<measure>:<a>:<b>`` of the ``association`` method) per repetition
``book_importance.shuffle_conflicts``  the share of shuffled rows whose day of the week
                         contradicts the working-day flag (working day = a day Monday-Friday
                         that is no holiday, the UCI definition), one value per shuffle of the
                         first repetition; with ``minus_expected``, less its expectation under a
                         uniform permutation: the shuffled weekday of a row is a uniform draw
                         from the column, so a row conflicts with probability 1[work = 1] if it
                         is a holiday, else p if work = 0 and 1 - p if work = 1, p the share of
                         Monday-Friday values

Claim kind ``book_importance.permuted_marginal``: a permuted column holds the original column's
values (the same multiset in every shuffle), so PFI changes the joint law only. An exact check on
one run, no statistic over repetitions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import ExplainContext, method
from imlbench.metrics.claims import (
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
)
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.params import (
    choice,
    feature_name,
    feature_names,
    flag,
    integer,
    items,
    number,
)

#: the tables ``book_importance.illustration_rows`` writes
ORIGINAL, PERMUTED, DROPPED = "original", "permuted", "dropped"


def _long(table: str, feature: str, shuffle: int, columns: dict[str, np.ndarray]
          ) -> pd.DataFrame:
    """Columns of one table in long form: table, feature, shuffle, row, column, value."""
    n = len(next(iter(columns.values())))
    return pd.DataFrame({
        "table": table, "feature": feature, "shuffle": shuffle,
        "row": np.tile(np.arange(n), len(columns)),
        "column": np.repeat(list(columns), n),
        "value": np.concatenate([np.asarray(v, float) for v in columns.values()]),
    })


@method("book_importance.illustration_rows", kind="other", params={
    "permute": feature_names([]), "drop": feature_names([]),
    "shuffles": integer(1, minimum=1), "predict": flag(True)})
def _illustration_rows(ctx: ExplainContext, params: dict, rng: np.random.Generator
                       ) -> pd.DataFrame:
    """The training rows as the book's illustration tables show them (see the module doc):
    ``original`` (features, y, f(x) with ``predict``), ``permuted`` (per feature of ``permute``
    and shuffle: the shuffled column and f(X_perm,j)), ``dropped`` (per feature of ``drop``:
    f_-j(X_-j) of the learner refitted without it)."""
    X, y = ctx.X, ctx.y
    original = {name: X[:, j] for j, name in enumerate(ctx.feature_names)} | {"y": y}
    if params["predict"]:
        original["prediction"] = ctx.predict(X)
    frames = [_long(ORIGINAL, "", 0, original)]
    for name in params["permute"]:
        j = ctx.index(name)
        for s in range(params["shuffles"]):
            Xp = X.copy()
            Xp[:, j] = rng.permutation(X[:, j])
            cols = {name: Xp[:, j]}
            if params["predict"]:
                cols["prediction"] = ctx.predict(Xp)
            frames.append(_long(PERMUTED, name, s, cols))
    for name in params["drop"]:
        keep = [k for k in range(X.shape[1]) if k != ctx.index(name)]
        refit = ctx.fit(X[:, keep], y)
        frames.append(_long(DROPPED, name, 0, {"prediction": refit(X[:, keep])}))
    return pd.concat(frames, ignore_index=True)


@statistic("book_importance.association_bound", params={
    "feature": feature_name(), "others": items(feature_name()),
    "stat": choice("min", ("min", "max"))})
def association_bound(cell: Cell, t: Tables) -> Sample | NoData:
    """The smallest or largest |association| of ``feature`` with ``others`` per repetition
    (see the module doc)."""
    rows = cell.rows(t)
    if rows.empty:
        return NoData()
    p = cell.params
    f, others, stat = p["feature"], p["others"], p.get("stat", "min")
    if "metric" not in rows:
        return NoData(f"{cell.method} writes no association metrics")
    parts = rows["metric"].str.split(":", expand=True)
    if parts.shape[1] != 3:
        return NoData(f"{cell.method} writes no association metrics (<measure>:<a>:<b>)")
    pair = [frozenset((a, b)) for a, b in zip(parts[1], parts[2], strict=True)]
    wanted = {frozenset((f, o)): o for o in others}
    chosen = rows.assign(other=[wanted.get(ab) for ab in pair]).dropna(subset=["other"])
    missing = sorted(set(others) - set(chosen["other"]))
    if missing:
        return NoData(f"no association of {f} with {', '.join(missing)} in {cell.method}")
    wide = chosen.pivot_table(index="rep", columns="other", values="value").abs()
    means = wide.mean().sort_values()
    return Sample(wide.min(axis=1) if stat == "min" else wide.max(axis=1),
                  f"{stat} |association| of {f} with the others",
                  "; mean |r| " + ", ".join(f"{o} {v:.3f}" for o, v in means.items()))


def shuffled_tables(rows: pd.DataFrame, feature: str) -> tuple[pd.DataFrame, pd.DataFrame] | NoData:
    """The original rows (one column per variable) and the shuffles of ``feature`` (one column
    per shuffle) of one repetition of ``book_importance.illustration_rows``."""
    if "table" not in rows:
        return NoData("the estimates are no illustration rows (column table)")
    rows = rows[rows["rep"] == rows["rep"].min()] if "rep" in rows else rows
    original = rows[rows["table"] == ORIGINAL].pivot(index="row", columns="column",
                                                     values="value")
    shuffled = rows[(rows["table"] == PERMUTED) & (rows["feature"] == feature)
                    & (rows["column"] == feature)]
    if shuffled.empty:
        return NoData(f"{feature} is not permuted by the method")
    return original, shuffled.pivot(index="row", columns="shuffle", values="value")


@claim_kind("book_importance.permuted_marginal", params={"feature": feature_name()})
def permuted_marginal(claim: dict, t: Tables) -> list[dict]:
    """Every shuffle of ``feature`` holds the original column's values (exact)."""
    f = claim["feature"]

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        got = shuffled_tables(rows, f)
        if isinstance(got, NoData):
            return got
        original, shuffled = got
        base = np.sort(original[f].to_numpy(float))
        same = [np.array_equal(np.sort(shuffled[s].to_numpy(float)), base) for s in shuffled]
        moved = float((shuffled.to_numpy(float) != original[[f]].to_numpy(float)).mean())
        return claim_row(
            claim, learner, method,
            f"{sum(same)} of {len(same)} shuffles of {f} hold the original's {len(base)} "
            f"values; {moved:.0%} of the rows changed their value",
            "sorted shuffled column equal to the sorted original in every shuffle (exact)",
            all(same))

    return per_combo(claim, t, "other", one)


def conflicts(weekday: np.ndarray, work: np.ndarray, holiday: np.ndarray,
              weekend: list[float]) -> np.ndarray:
    """Rows whose weekday contradicts the working-day flag: working day = Monday-Friday and
    no holiday (UCI ``day.csv``)."""
    return work != (~np.isin(weekday, weekend) & (holiday == 0)).astype(float)


def expected_conflicts(weekday: np.ndarray, work: np.ndarray, holiday: np.ndarray,
                       weekend: list[float]) -> float:
    """The expected share of :func:`conflicts` after a uniform permutation of ``weekday``
    (see the module doc)."""
    p = float((~np.isin(weekday, weekend)).mean())
    each = np.where(holiday == 1, (work == 1).astype(float), np.where(work == 1, 1 - p, p))
    return float(each.mean())


@statistic("book_importance.shuffle_conflicts", params={
    "feature": feature_name("weekday"), "flag": feature_name("work"),
    "holiday": feature_name("holiday"), "weekend": items(number(), [0, 6]),
    "minus_expected": flag(False)})
def shuffle_conflicts(cell: Cell, t: Tables) -> Sample | NoData:
    """The share of rows whose shuffled ``feature`` (day of the week) contradicts ``flag``
    (working day), one value per shuffle, less its expectation with ``minus_expected`` (see the
    module doc)."""
    rows = cell.rows(t)
    if rows.empty:
        return NoData()
    p = cell.params
    f, flag_, hol = p.get("feature", "weekday"), p.get("flag", "work"), p.get("holiday", "holiday")
    weekend = p.get("weekend", [0, 6])
    got = shuffled_tables(rows, f)
    if isinstance(got, NoData):
        return got
    original, shuffled = got
    missing = [c for c in (flag_, hol) if c not in original]
    if missing:
        return NoData(f"{', '.join(missing)} not in the data")
    work, holiday = original[flag_].to_numpy(float), original[hol].to_numpy(float)
    share = pd.Series({s: float(conflicts(shuffled[s].to_numpy(float), work, holiday,
                                          weekend).mean()) for s in shuffled})
    base = float(conflicts(original[f].to_numpy(float), work, holiday, weekend).mean())
    expected = expected_conflicts(original[f].to_numpy(float), work, holiday, weekend)
    minus = p.get("minus_expected", False)
    return Sample(share - expected if minus else share,
                  f"share of rows whose shuffled {f} contradicts {flag_}"
                  + (" minus its expectation" if minus else ""),
                  f", each a shuffle; original data {base:.3f}, expected under a uniform "
                  f"permutation {expected:.4f}")
