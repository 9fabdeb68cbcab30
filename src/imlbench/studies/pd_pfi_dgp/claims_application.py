"""Claim kinds of the application of Molnar et al. (PD and PFI and the data generating process,
Sect. 9, Fig. 6), over the estimates of :mod:`imlbench.studies.pd_pfi_dgp.methods_application`.

Two sorts of claims:

- the paper's numbers for the red wine data (out-of-bag MSEs, the corrected t-test intervals,
  the top features, alcohol against sulphates). A claim with ``needs: wine`` is checked only
  when the estimates come from the wine file (``source: wine``); on the offline substitute
  table it gives one row with the verdict "no data", saying why.
- the paper's general findings, checked on whatever table ran: the forest has the lowest MSE
  (the corrected t interval of its MSE difference to each other learner lies below 0),
  learner-level intervals are wider than model-level ones (PD and PFI), and learner-PD bands
  widen at the ends of the feature's range.

Tolerances come from the statistics themselves: for a published number from the same data,
the resampling SE s / sqrt(m) of a mean over m splits (two such means differ by sqrt(2) of
it); for a published interval, its half-width and ours; for a ratio of interval widths, the
jackknife SE over the m refits. ``z`` (default 2) multiplies the SEs. Verdicts and power are
those of :class:`imlbench.metrics.claims.Check` (power: margin + 2 half): an interval that
straddles a one-sided bound, or two intervals that overlap where the claim orders them, give
``inconclusive``.

Claims that compare the learner level with the model level name both methods in
``where.method``: the learner-level method first, the model-level one second.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Check, Tables, as_list, claim_kind, claim_row, select_rows
from imlbench.params import REQUIRED, choice, feature_name, items, number, study_name, table
from imlbench.stats import t_halfwidth
from imlbench.studies.pd_pfi_dgp.dgp_application import SOURCES

#: the table a claim's published values are for (null: any table)
NEEDS = {"needs": choice(None, SOURCES, nullable=True)}
Z = {"z": number(2.0, minimum=0)}


def _where(claim: dict) -> tuple[str, list[str], list[str]]:
    w = claim["where"]
    return w["scenario"], as_list(w["learner"]), as_list(w["method"])


def _est(t: Tables, scenario: str, learner: str, method: str) -> pd.DataFrame:
    return t.other if t.other.empty else select_rows(t.other, scenario, learner, method)


def _sub(claim: dict, published: str) -> dict:
    """The claim for one of its rows: the same id, with the row's own published value."""
    return {**claim, "published": published}


def _not_checkable(claim: dict, learner: str, method: str, source: str) -> dict | None:
    """The "no data" row of a claim that ``needs`` data other than ``source``, else None."""
    need = claim["needs"]
    if need is None or source == need:
        return None
    return claim_row(claim, learner, method, "not checkable", "", None,
                     f"the run uses the table {source!r}, the published value is for the "
                     f"{need} data (set the scenario's source: {need} and its path)")


def _source(est: pd.DataFrame) -> str:
    return str(est["source"].iloc[0]) if "source" in est.columns and len(est) else ""


def _guard(claim: dict, est: pd.DataFrame, learner: str, method: str) -> dict | None:
    """A "no data" row when the estimates are missing or come from the wrong table."""
    if est.empty:
        return claim_row(claim, learner, method, "", "", None)
    return _not_checkable(claim, learner, method, _source(est))


def _mse(est: pd.DataFrame) -> pd.Series:
    return est[est["quantity"] == "mse"].sort_values(["rep", "split"]).set_index(
        ["rep", "split"])["value"]


def _rows(est: pd.DataFrame, quantity: str) -> pd.DataFrame:
    return est[est["quantity"] == quantity]


def jackknife_se(values: np.ndarray, stat: Callable[[np.ndarray], float]) -> float:
    """Jackknife SE over the first axis (the refits) of ``stat(values)``."""
    m = len(values)
    loo = np.array([stat(np.delete(values, d, axis=0)) for d in range(m)])
    return float(np.sqrt((m - 1) / m * np.sum((loo - loo.mean()) ** 2)))


def _refits(est: pd.DataFrame, quantity: str) -> np.ndarray:
    """Per-refit values (refits x points) of ``pd`` or ``pfi`` (rep 0)."""
    r = _rows(est, f"{quantity}_refit")
    r = r[r["rep"] == r["rep"].min()]
    key = "x" if quantity == "pd" else "feature"
    return r.pivot_table(index="split", columns=key, values="value", sort=False).to_numpy()


@claim_kind("pd_pfi_mse", params={**NEEDS, **Z, "values": table(value=number(minimum=0))})
def pd_pfi_mse(claim: dict, t: Tables) -> list[dict]:
    """The mean out-of-bag MSE of each learner of ``values`` (published numbers): |ours -
    published| <= z sqrt(2) s / sqrt(m), s the SD of the per-split MSEs (both numbers are
    means over m bootstrap splits of the same data); verdict and power per
    :class:`imlbench.metrics.claims.Check` (ours +- z sqrt(2) SE equal to the published
    value, relative to it)."""
    z = claim["z"]
    sc, _, (m_name, *_) = _where(claim)
    rows = []
    for learner, published in claim["values"].items():
        sub = _sub(claim, f"{learner}: {published:g}")
        est = _est(t, sc, learner, m_name)
        if (row := _guard(sub, est, learner, m_name)) is not None:
            rows.append(row)
            continue
        mse = _mse(est)
        se = float(mse.std(ddof=1) / np.sqrt(len(mse)))
        tol = z * np.sqrt(2) * se
        rows.append(claim_row(sub, learner, m_name,
                              f"{mse.mean():.3f} (SE over {len(mse)} splits {se:.4f})",
                              f"|gap| <= {z:g} sqrt(2) SE = {tol:.3f}",
                              Check(float(mse.mean()), tol, "equal", published,
                                    scale=published)))
    return rows


@claim_kind("pd_pfi_mse_difference", params={
    **NEEDS, **Z, "best": study_name("learners"), "expect": choice("negative", ("negative",)),
    "intervals": table(value=items(number(), length=2), default={})})
def pd_pfi_mse_difference(claim: dict, t: Tables) -> list[dict]:
    """The corrected resampled t-test of ``best`` against each other learner of
    ``where.learner``: the mean paired MSE difference (best - other) over the shared splits
    and its interval mean +- t_{m-1} sqrt((1/m + c) s^2).

    Without ``intervals`` the interval lies below 0 (``expect: negative``, the only
    expectation). With ``intervals`` ({learner: [lo, hi]}, published) the midpoint and
    half-width each lie within z sqrt(2) of their resampling SEs from the published ones:
    s / sqrt(m) for the midpoint, half-width / sqrt(2 (m - 1)) for the half-width (the
    relative SE of a sample SD).

    Verdict and power per :class:`imlbench.metrics.claims.Check`: the corrected t interval
    below 0 (relative to the mean MSE of ``best``), or the midpoint and half-width, each +- its
    tolerance, equal to the published ones."""
    from imlbench.studies.pd_pfi_dgp.methods_application import corrected_t_interval

    z = claim["z"]
    sc, learners, (m_name, *_) = _where(claim)
    best = claim["best"]
    published = claim["intervals"]
    rows = []
    for other in [lrn for lrn in learners if lrn != best]:
        pub = published.get(other)
        sub = _sub(claim, f"{best} - {other}: [{pub[0]:g}, {pub[1]:g}]" if pub
                   else claim["published"])
        a, b = _est(t, sc, best, m_name), _est(t, sc, other, m_name)
        guards = [r for r in (_guard(sub, a, other, m_name), _guard(sub, b, other, m_name))
                  if r is not None]
        if guards:
            rows.append(guards[0])
            continue
        d = (_mse(a) - _mse(b)).dropna().to_numpy()
        c = float(a["c"].dropna().iloc[0])
        alpha = float(a["alpha"].dropna().iloc[0])
        mean, se, lo, hi = corrected_t_interval(d, c, alpha)
        ours = (f"{mean:.4f} [{lo:.4f}, {hi:.4f}] (corrected SE {se:.4f}, {len(d)} splits, "
                f"c = {c:.3f})")
        if pub is None:
            rows.append(claim_row(sub, other, m_name, ours, "upper limit < 0",
                                  Check(mean, hi - mean, "below", 0.0,
                                        scale=float(_mse(a).mean()))))
            continue
        naive = float(np.std(d, ddof=1) / np.sqrt(len(d)))
        half, pub_mid, pub_half = (hi - lo) / 2, (pub[0] + pub[1]) / 2, (pub[1] - pub[0]) / 2
        tol_mid = z * np.sqrt(2) * naive
        tol_half = z * np.sqrt(2) * half / np.sqrt(2 * (len(d) - 1))
        check = Check.joint([Check(mean, tol_mid, "equal", pub_mid),
                             Check(half, tol_half, "equal", pub_half)])
        rows.append(claim_row(
            sub, other, m_name, ours,
            f"|midpoint gap| {abs(mean - pub_mid):.4f} <= {tol_mid:.4f}, |half-width gap| "
            f"{abs(half - pub_half):.4f} <= {tol_half:.4f} ({z:g} sqrt(2) resampling SEs)",
            check))
    return rows


def _pfi(est: pd.DataFrame) -> pd.DataFrame:
    r = _rows(est, "pfi")
    return r[r["rep"] == r["rep"].min()].set_index("feature")


@claim_kind("pd_pfi_top_features", params={**NEEDS, "top": items(feature_name())})
def pd_pfi_top_features(claim: dict, t: Tables) -> list[dict]:
    """The features of ``top`` are the k most important by PFI, per method of
    ``where.method``: our top k by point estimate equal them, or each mismatch (a published
    feature outside our top k against one of ours inside) has overlapping 95% intervals.

    The same set is an exact agreement (reproduced); with mismatches, verdict and power per
    :class:`imlbench.metrics.claims.Check` of the claimed order of every mismatched pair: the
    difference of the interval midpoints +- the sum of the half-widths above 0 (relative to
    our k-th largest PFI); overlapping intervals straddle 0 (inconclusive), a published
    feature's interval wholly below one of ours is not reproduced."""
    sc, (learner, *_), methods = _where(claim)
    top = list(claim["top"])
    rows = []
    for m_name in methods:
        est = _est(t, sc, learner, m_name)
        if (row := _guard(claim, est, learner, m_name)) is not None:
            rows.append(row)
            continue
        pfi = _pfi(est).sort_values("value", ascending=False)
        ours = list(pfi.index[:len(top)])
        missed = [f for f in top if f not in ours]
        extra = [f for f in ours if f not in top]
        mid, hw = (pfi["upper"] + pfi["lower"]) / 2, (pfi["upper"] - pfi["lower"]) / 2
        pairs = [(f, g) for f in missed for g in extra]
        ok: Check | bool = all(f in pfi.index for f in top)
        if ok and pairs:
            ok = Check.joint([Check(mid[f] - mid[g], hw[f] + hw[g], "above", 0.0)
                              for f, g in pairs],
                             scale=float(pfi["value"].iloc[min(len(top), len(pfi)) - 1]))
        rows.append(claim_row(
            claim, learner, m_name,
            "top: " + ", ".join(f"{f} {pfi.loc[f, 'value']:.3g} [{pfi.loc[f, 'lower']:.3g}, "
                                f"{pfi.loc[f, 'upper']:.3g}]" for f in pfi.index[:len(top) + 1]),
            "same set; a mismatch with overlapping 95% intervals is undecided",
            ok))
    return rows


@claim_kind("pd_pfi_pfi_separation",
            params={**NEEDS, "features": items(feature_name(), length=2)})
def pd_pfi_pfi_separation(claim: dict, t: Tables) -> list[dict]:
    """``features`` [a, b]: at the learner level (first method) a's interval lies above b's
    (no overlap); at the model level (second method) the two intervals overlap. Verdict and
    power per :class:`imlbench.metrics.claims.Check` of the difference of the interval
    midpoints +- the sum of the half-widths (relative to a's PFI): above 0 at the learner
    level (overlap: inconclusive), equal to 0 at the model level (disjoint either way: not
    reproduced)."""
    sc, (learner, *_), methods = _where(claim)
    a, b = claim["features"]
    rows = []
    for m_name, expect in zip(methods, ("disjoint", "overlap"), strict=False):
        est = _est(t, sc, learner, m_name)
        if (row := _guard(claim, est, learner, m_name)) is not None:
            rows.append(row)
            continue
        pfi = _pfi(est)
        lo, hi = pfi.loc[[a, b], "lower"], pfi.loc[[a, b], "upper"]
        check = Check((hi[a] + lo[a]) / 2 - (hi[b] + lo[b]) / 2,
                      (hi[a] - lo[a]) / 2 + (hi[b] - lo[b]) / 2,
                      "above" if expect == "disjoint" else "equal", 0.0,
                      scale=float(pfi.loc[a, "value"]))
        rows.append(claim_row(
            claim, learner, m_name,
            f"{a} {pfi.loc[a, 'value']:.3g} [{pfi.loc[a, 'lower']:.3g}, "
            f"{pfi.loc[a, 'upper']:.3g}], {b} {pfi.loc[b, 'value']:.3g} "
            f"[{pfi.loc[b, 'lower']:.3g}, {pfi.loc[b, 'upper']:.3g}]",
            f"95% intervals {'do not overlap' if expect == 'disjoint' else 'overlap'}",
            check))
    return rows


def _widths(est: pd.DataFrame, quantity: str) -> np.ndarray:
    r = _rows(est, quantity)
    r = r[r["rep"] == r["rep"].min()]
    return (r["upper"] - r["lower"]).to_numpy()


@claim_kind("pd_pfi_width_ratio",
            params={**NEEDS, **Z, "quantity": choice(REQUIRED, ("pd", "pfi"))})
def pd_pfi_width_ratio(claim: dict, t: Tables) -> list[dict]:
    """Learner-level intervals (first method) are wider than model-level ones (second) for
    ``quantity`` (pd or pfi): R = mean learner width / mean model width, R - z SE > 1, SE the
    jackknife SE of R over the refits (the model widths held fixed: their own relative error,
    about 1 / sqrt(2 n2), is negligible); verdict and power per
    :class:`imlbench.metrics.claims.Check` (R +- z SE above 1)."""
    z = claim["z"]
    sc, (learner, *_), (lm_name, mm_name) = _where(claim)
    q = claim["quantity"]
    le, me = _est(t, sc, learner, lm_name), _est(t, sc, learner, mm_name)
    for est, m_name in ((le, lm_name), (me, mm_name)):
        if (row := _guard(claim, est, learner, m_name)) is not None:
            return [row]
    model_width = float(np.mean(_widths(me, q)))
    values = _refits(le, q)
    c = float(le["c"].dropna().iloc[0])
    alpha = float(le["alpha"].dropna().iloc[0])

    def ratio(v: np.ndarray) -> float:
        half = t_halfwidth(v.var(axis=0, ddof=1), len(v), c, alpha)
        return float(np.mean(2 * half)) / model_width

    r = float(np.mean(_widths(le, q))) / model_width
    se = jackknife_se(values, ratio)
    return [claim_row(claim, learner, lm_name,
                      f"width ratio learner/model {r:.2f} (jackknife SE {se:.2f}; mean widths "
                      f"{np.mean(_widths(le, q)):.4g} vs {model_width:.4g})",
                      f"ratio - {z:g} SE = {r - z * se:.2f} > 1",
                      Check(r, z * se, "above", 1.0, scale=1.0))]


@claim_kind("pd_pfi_pd_extremes",
            params={**NEEDS, **Z, "share": number(0.1, minimum=0, maximum=0.5)})
def pd_pfi_pd_extremes(claim: dict, t: Tables) -> list[dict]:
    """The learner-PD band is wider at the ends of the grid (the lowest and highest ``share``
    of its points, default 0.1) than inside: R = mean half-width at the ends / inside (the
    ratio of the refits' SDs), R - z SE > 1, SE the jackknife SE over the refits; verdict and
    power per :class:`imlbench.metrics.claims.Check` (R +- z SE above 1)."""
    z = claim["z"]
    sc, (learner, *_), (m_name, *_) = _where(claim)
    est = _est(t, sc, learner, m_name)
    if (row := _guard(claim, est, learner, m_name)) is not None:
        return [row]
    values = _refits(est, "pd")
    g = values.shape[1]
    k = max(1, int(round(claim["share"] * g)))
    ends = np.r_[np.arange(k), np.arange(g - k, g)]
    inner = np.arange(k, g - k)

    def ratio(v: np.ndarray) -> float:
        sd = v.std(axis=0, ddof=1)
        return float(sd[ends].mean() / sd[inner].mean())

    r, se = ratio(values), jackknife_se(values, ratio)
    return [claim_row(claim, learner, m_name,
                      f"band width at the {2 * k} outer grid points / the {len(inner)} inner "
                      f"ones {r:.2f} (jackknife SE {se:.2f})",
                      f"ratio - {z:g} SE = {r - z * se:.2f} > 1",
                      Check(r, z * se, "above", 1.0, scale=1.0))]
