"""Claim kinds of Hooker, Mentch & Zhou (2021) on curves, surfaces and single importances.

They read the estimates of the claim's methods from ``Tables.other`` (importances from
``Tables.ranked``), per repetition. A statistic computed per repetition is compared through
its mean over the R repetitions and SE = sd / sqrt(R); a spread over repetitions (an SD
between fits) has no per-repetition value, so its SE is the SD of the statistic over
bootstrap resamples of the repetitions (:data:`N_BOOT`, a fixed seed). The multiplier is t',
the Student-t quantile with R - 1 df at the normal probability of ``k``
(:func:`imlbench.stats.t_multiplier`). Every test is one-sided; the tolerance is written into
the scorecard row.

``spread_ratio``         (Fig. 3) the between-fit SD of a curve, averaged over its grid, is
                         larger in the claim's scenario than in scenario ``than``:
                         log(ratio) - t' SE > log(``min_ratio``)
``region_spread_ratio``  (Fig. 5) the between-fit SD of a surface, averaged over the grid
                         points off the diagonal (|x - z| >= ``corner``), is larger than on it
                         (|x - z| <= ``diagonal``): as above
``region_gradient_gap``  (Fig. 4) the mean |d surface / d z| (finite differences along the
                         second feature) is larger off the diagonal than on it, per
                         repetition: mean - t' SE > 0
``band_error_gap``       (Figs. 3, 6) ICE curves of the reference rows are further from their
                         true curves outside the rows' conditional band than inside it: per
                         repetition the RMS error outside minus inside; mean - t' SE > 0
``importance_level``     (Fig. 4) a feature's importance (optionally relative to another
                         feature's, per repetition) is above ``value`` (mean - t' SE > value)
                         or below it (mean + t' SE < value)

Fig. 9's claim that a feature's rank under one method exceeds its rank under another uses the
layer's kind ``rank_shift`` (:mod:`imlbench.metrics.rank_claims`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.metrics.curve_claims import compared_row
from imlbench.params import choice, feature_name, number, text
from imlbench.stats import t_multiplier

#: bootstrap resamples of the repetitions for the SE of a spread ratio, and their seed
N_BOOT, BOOT_SEED = 2000, 20210
K = {"k": number(2.0, minimum=0)}
COMPARES = ("above", "below")


def _t(k: float, reps: int) -> float:
    return float(t_multiplier(k, reps - 1))


def _where(claim: dict, learner: str, method: str, scenario: str | None = None) -> str:
    return f"{scenario or claim['where']['scenario']}/{learner}/{method}"


def _rows(t: Tables, scenario: str, learner: str, method: str) -> pd.DataFrame:
    o = t.other
    if o.empty or not {"scenario", "learner", "method"} <= set(o):
        return pd.DataFrame()
    r = select_rows(o, scenario, learner, method)
    return r.assign(rep=0) if len(r) and "rep" not in r else r


def _estimates(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): :func:`_rows` of the claim's
    scenario."""
    r = _rows(t, claim["where"]["scenario"], learner, method)
    return NoData() if r.empty else r


def mean_curves(r: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per repetition and x, the curve of ``feature`` (the mean over reference rows for curves
    of rows): a table with one row per repetition and one column per x."""
    c = r[r["feature"] == feature].dropna(subset=["x", "value"])
    return c.pivot_table(index="rep", columns="x", values="value", aggfunc="mean")


def spread(wide: pd.DataFrame | np.ndarray) -> float:
    """The SD over repetitions (rows) at every grid point (columns), averaged over the grid."""
    return float(np.nanmean(np.nanstd(np.asarray(wide, dtype=float), axis=0, ddof=1)))


def log_ratio_se(a: pd.DataFrame, b: pd.DataFrame | None,
                 stat: Callable[[np.ndarray, np.ndarray | None], float]) -> float:
    """Bootstrap SE of ``log stat(a, b)`` over resamples of the repetitions (rows) of ``a``
    and, independently, of ``b`` (None: a single table)."""
    rng = np.random.default_rng(BOOT_SEED)
    va = a.to_numpy(float)
    vb = None if b is None else b.to_numpy(float)
    out = []
    for _ in range(N_BOOT):
        ra = va[rng.integers(0, len(va), len(va))]
        rb = None if vb is None else vb[rng.integers(0, len(vb), len(vb))]
        out.append(np.log(stat(ra, rb)))
    out = np.asarray(out)
    return float(np.std(out[np.isfinite(out)], ddof=1))


def _ratio_row(claim: dict, learner: str, method: str, ratio: float, se: float, reps: int,
               what: str) -> dict:
    k, floor = claim["k"], claim["min_ratio"]
    tk = _t(k, reps)
    check = Check(float(np.log(ratio)), tk * se, "above", float(np.log(floor)), scale=1.0)
    return claim_row(
        claim, learner, method, f"{what}: ratio {ratio:.3g} (SE of its log {se:.3g})",
        f"log ratio - t({k:g}) SE > log {floor:g} (t({k:g}) = {tk:.3g}, {reps - 1} df); SE of "
        f"the log ratio over {N_BOOT} bootstrap resamples of the repetitions", check)


def _spread_ratio(a: np.ndarray, b: np.ndarray | None) -> float:
    return spread(a) / spread(b)


def _region_ratio(a: np.ndarray, _: np.ndarray | None, off: np.ndarray, on: np.ndarray
                  ) -> float:
    a = np.asarray(a, dtype=float)
    return spread(a[:, off]) / spread(a[:, on])


@claim_kind("spread_ratio", params={"feature": feature_name(), "than": text(),
                                    "min_ratio": number(1.0, above=0), **K})
def spread_ratio(claim: dict, t: Tables) -> list[dict]:
    """The between-fit SD of the curve of ``feature``, averaged over the grid, in the claim's
    scenario divided by that in scenario ``than`` exceeds ``min_ratio`` (see the module doc)."""
    scs = (claim["where"]["scenario"], claim["than"])

    def both_curves(claim: dict, t: Tables, learner: str, method: str
                    ) -> list[pd.DataFrame] | NoData:
        wide = [mean_curves(_rows(t, sc, learner, method), claim["feature"])
                if len(_rows(t, sc, learner, method)) else pd.DataFrame() for sc in scs]
        short = [f"{_where(claim, learner, method, sc)} has {len(w)}"
                 for sc, w in zip(scs, wide, strict=True) if len(w) < 3]
        if short:
            return NoData("a between-fit SD with a bootstrap SE needs curves of 3 repetitions "
                          "or more: " + "; ".join(short))
        return wide

    def one(claim: dict, wide: list[pd.DataFrame], learner: str, method: str) -> dict:
        ratio = _spread_ratio(wide[0].to_numpy(float), wide[1].to_numpy(float))
        return _ratio_row(
            claim, learner, method, ratio, log_ratio_se(*wide, _spread_ratio),
            min(map(len, wide)),
            f"mean between-fit SD of {claim['feature']}: {spread(wide[0]):.4g} in "
            f"{scs[0]} vs {spread(wide[1]):.4g} in {scs[1]} ({len(wide[0])} and "
            f"{len(wide[1])} reps)")

    return per_combo(claim, t, both_curves, one)


def _surfaces(r: pd.DataFrame) -> pd.DataFrame:
    """Per repetition (rows), the surface at every grid point (columns: (x, z))."""
    return r.pivot_table(index="rep", columns=["x", "z"], values="value", aggfunc="mean")


def _regions(claim: dict, points: pd.MultiIndex) -> tuple[np.ndarray, np.ndarray]:
    gap = np.abs(points.get_level_values("x").to_numpy(float)
                 - points.get_level_values("z").to_numpy(float))
    return gap >= claim["corner"], gap <= claim["diagonal"]


REGIONS = {"corner": number(0.5, minimum=0), "diagonal": number(0.1, minimum=0)}


def _surface(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): the claim's estimates when they
    are a surface (columns x, z), else why not."""
    r = _rows(t, claim["where"]["scenario"], learner, method)
    if r.empty or "z" not in r:
        return NoData("" if r.empty else f"the estimates of {_where(claim, learner, method)} "
                      f"are no surface (no column z)")
    return r


@claim_kind("region_spread_ratio", params={**REGIONS, "min_ratio": number(1.0, above=0), **K})
def region_spread_ratio(claim: dict, t: Tables) -> list[dict]:
    """The between-fit SD of a surface (columns x, z), averaged over the grid points with
    |x - z| >= ``corner``, divided by that over the points with |x - z| <= ``diagonal``, exceeds
    ``min_ratio`` (see the module doc)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        wide = _surfaces(r)
        off, on = _regions(claim, wide.columns)
        if len(wide) < 3 or not off.any() or not on.any():
            return NoData(f"{_where(claim, learner, method)} has {len(wide)} repetitions (3 "
                          f"needed), {int(off.sum())} points off and {int(on.sum())} on the "
                          f"diagonal")
        stat = partial(_region_ratio, off=off, on=on)
        ratio = stat(wide.to_numpy(float), None)
        return _ratio_row(
            claim, learner, method, ratio, log_ratio_se(wide, None, stat), len(wide),
            f"mean between-fit SD {spread(wide.loc[:, off]):.4g} at |x - z| >= "
            f"{claim['corner']:g} ({int(off.sum())} points) vs {spread(wide.loc[:, on]):.4g} at "
            f"|x - z| <= {claim['diagonal']:g} ({int(on.sum())}); {len(wide)} reps")

    return per_combo(claim, t, _surface, one)


@claim_kind("region_gradient_gap", params={**REGIONS, **K})
def region_gradient_gap(claim: dict, t: Tables) -> list[dict]:
    """Per repetition, the mean |finite difference of the surface along z| over the grid
    points with |x - z| >= ``corner`` minus that over the points with |x - z| <= ``diagonal``
    (differences between neighbouring z at the same x, placed at their midpoint); its mean
    over repetitions is above 0 (see the module doc)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        r = r.sort_values(["rep", "x", "z"])
        g = r.groupby(["rep", "x"])
        slope = (g["value"].diff() / g["z"].diff()).abs()
        mid = (r["z"] + g["z"].shift()) / 2
        d = pd.DataFrame({"rep": r["rep"], "gap": (r["x"] - mid).abs(), "slope": slope}
                         ).dropna()
        off = d[d["gap"] >= claim["corner"]].groupby("rep")["slope"].mean()
        on = d[d["gap"] <= claim["diagonal"]].groupby("rep")["slope"].mean()
        diff = (off - on).dropna()
        if len(diff) < 2:
            return NoData(f"{_where(claim, learner, method)}: an SE needs both regions in 2 "
                          f"repetitions or more, it has {len(diff)}")
        return compared_row(
            claim, learner, method, diff,
            f"mean |d f / d z| {off.mean():.4g} at |x - z| >= {claim['corner']:g} vs "
            f"{on.mean():.4g} at |x - z| <= {claim['diagonal']:g}; difference",
            value=0.0, compare="above")

    return per_combo(claim, t, _surface, one)


def _ice_truth(t: Tables, scenario: str, feature: str) -> pd.DataFrame:
    """The true ICE curves of the reference rows that have a band (columns row, x, value, lo,
    hi), from the scenario's ``effects`` truth."""
    e = t.truths.get((scenario, "effects"), pd.DataFrame())
    if e.empty:
        return pd.DataFrame()
    return e[(e["estimand"] == "ice") & (e["feature"] == feature)].dropna(subset=["lo", "hi"])


@claim_kind("band_error_gap", params={"feature": feature_name(), **K})
def band_error_gap(claim: dict, t: Tables) -> list[dict]:
    """ICE curves of the reference rows against their true curves (the scenario's
    ``effects`` truth, interpolated onto the estimate's grid, not anchored): per repetition,
    the RMS error over the grid points outside each row's conditional band [lo, hi] minus that
    over the points inside it, pooled over the rows; its mean is above 0 (module doc)."""
    sc, feature = claim["where"]["scenario"], claim["feature"]
    truth = _ice_truth(t, sc, feature)

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if truth.empty or "row" not in r:
            return NoData(f"{sc} has no true ICE curves of {feature} with a band, or "
                          f"{_where(claim, learner, method)} no curves of rows")
        est = r[r["feature"] == feature].dropna(subset=["x", "value"])
        parts = []
        for row, tr in truth.groupby("row"):
            e = est[est["row"] == row]
            tr = tr.sort_values("x")
            err = e["value"] - np.interp(e["x"], tr["x"], tr["value"])
            inside = (e["x"] >= tr["lo"].iloc[0]) & (e["x"] <= tr["hi"].iloc[0])
            parts.append(pd.DataFrame({"rep": e["rep"], "sq": err**2, "inside": inside}))
        p = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
        rms = (p.groupby(["rep", "inside"])["sq"].mean() ** 0.5).unstack() if len(p) else p
        if len(rms) < 2 or not {True, False} <= set(rms.columns):
            return NoData(f"{_where(claim, learner, method)}: an SE needs ICE points inside and "
                          f"outside the bands in 2 repetitions or more")
        d = (rms[False] - rms[True]).dropna()
        return compared_row(
            claim, learner, method, d,
            f"RMS error of the ICE of {feature} outside the band {rms[False].mean():.4g} vs "
            f"inside {rms[True].mean():.4g}; difference", value=0.0, compare="above")

    return per_combo(claim, t, _estimates, one)


@claim_kind("importance_level", params={
    "feature": feature_name(), "relative_to": feature_name(None), "value": number(0.0),
    "compare": choice("above", COMPARES), **K})
def importance_level(claim: dict, t: Tables) -> list[dict]:
    """A feature's importance per repetition (divided by that of ``relative_to`` when
    given) is above or below ``value`` (see the module doc)."""
    f, rel = claim["feature"], claim["relative_to"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        v = r.pivot_table(index="rep", columns="feature", values="value")
        missing = [x for x in (f, rel) if x is not None and x not in v]
        if missing or len(v) < 2:
            return NoData(f"{_where(claim, learner, method)} has {len(v)} repetitions (2 "
                          f"needed) and features {', '.join(map(str, v.columns))}")
        d = v[f] / v[rel] if rel else v[f]
        what = f"importance of {f}" + (f" / importance of {rel}" if rel else "")
        return compared_row(claim, learner, method, d.dropna(), what, value=claim["value"],
                            compare=claim["compare"])

    return per_combo(claim, t, "ranked", one)

