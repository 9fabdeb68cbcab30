"""Claim kinds of the application of Molnar et al. (PD and PFI and the data generating process,
Sect. 9, Fig. 6), over the estimates of :mod:`imlbench.studies.pd_pfi_dgp.methods_application`,
for the claims that are not one statistic per split against a value or another cell (those
are ``contrast`` claims on the statistics of :mod:`.statistics`: the out-of-bag MSE, the
forest's corrected t-test against the other learners, the learner-PD band's width at the ends
of the grid).

- the paper's numbers for the red wine data: the corrected t-test intervals of the MSE
  differences, the top features, alcohol against sulphates. A claim with ``needs: wine`` is
  checked only when the estimates come from the wine file (``source: wine``); on the offline
  substitute table it gives one row with the verdict "no data", saying why.
- learner-level intervals are wider than model-level ones (PD and PFI), on whatever table ran.

Why these stay kinds: a published interval is compared by its midpoint (a mean over splits,
by the kit's prediction interval) and its half-width (a spread over splits against a printed
number, which no test of the kit takes); the top features and the separation of two features
compare the intervals of one run as printed (an exact set, overlapping intervals); the width
ratio divides a spread over refits (the learner-level width) by the model-level width, a
fixed number of another method whose per-row values are not stored, so neither
``spread_ratio`` (two spreads) nor ``log_ratio`` (two means) applies: its SE is the jackknife
over the refits. ``k`` (default 2) multiplies the SEs. Verdicts and power are those of
:class:`imlbench.metrics.claims.Check` (power: margin + 2 half): an interval that straddles a
one-sided bound, or two intervals that overlap where the claim orders them, give
``inconclusive``.

Claims that compare the learner level with the model level name both methods in
``where.method``: the learner-level method first, the model-level one second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Check, Tables, as_list, claim_kind, claim_row, select_rows
from imlbench.metrics.contrasts import jackknife_se, prediction_check, sd_se
from imlbench.params import REQUIRED, choice, feature_name, items, number, study_name, table
from imlbench.stats import t_halfwidth
from imlbench.studies.pd_pfi_dgp.dgp_application import SOURCES
from imlbench.studies.pd_pfi_dgp.statistics import source_gap, split_mse

#: the table a claim's published values are for (null: any table)
NEEDS = {"needs": choice(None, SOURCES, nullable=True)}
K = {"k": number(2.0, minimum=0)}


def _where(claim: dict) -> tuple[str, list[str], list[str]]:
    w = claim["where"]
    return w["scenario"], as_list(w["learner"]), as_list(w["method"])


def _est(t: Tables, scenario: str, learner: str, method: str) -> pd.DataFrame:
    return t.other if t.other.empty else select_rows(t.other, scenario, learner, method)


def _sub(claim: dict, published: str) -> dict:
    """The claim for one of its rows: the same id, with the row's own published value."""
    return {**claim, "published": published}


def _guard(claim: dict, est: pd.DataFrame, learner: str, method: str) -> dict | None:
    """A "no data" row when the estimates are missing or come from the wrong table."""
    if est.empty:
        return claim_row(claim, learner, method, "", "", None)
    gap = source_gap(est, claim["needs"])
    return None if gap is None else claim_row(claim, learner, method, "not checkable", "",
                                               None, gap.reason)


def _rows(est: pd.DataFrame, quantity: str) -> pd.DataFrame:
    return est[est["quantity"] == quantity]


def _refits(est: pd.DataFrame, quantity: str) -> np.ndarray:
    """Per-refit values (refits x points) of ``pd`` or ``pfi`` (rep 0)."""
    r = _rows(est, f"{quantity}_refit")
    r = r[r["rep"] == r["rep"].min()]
    key = "x" if quantity == "pd" else "feature"
    return r.pivot_table(index="split", columns=key, values="value", sort=False).to_numpy()


@claim_kind("pd_pfi_dgp.mse_difference", params={
    **NEEDS, **K, "best": study_name("learners"),
    "intervals": table(value=items(number(), length=2))})
def pd_pfi_mse_difference(claim: dict, t: Tables) -> list[dict]:
    """The corrected resampled t-test of ``best`` against each other learner of
    ``where.learner`` against its published interval (``intervals``: {learner: [lo, hi]}):
    the mean paired MSE difference d (best - other) over the shared splits, with its interval
    mean +- t_{m-1} sqrt((1/m + c) s^2).

    The midpoint is the mean of d over m splits, as the published one (the paper's m = 15):
    the kit's prediction interval of a mean of m further splits,
    :func:`imlbench.metrics.contrasts.prediction_check` (t' s sqrt(1/m + 1/m)). The half-width
    is a spread of d against a printed number: within k sqrt(2) of its normal-theory SE
    half-width / sqrt(2 (m - 1)) (the relative SE of a sample SD; the kit has no test of one
    spread against a value). Verdict and power per :class:`imlbench.metrics.claims.Check`:
    both parts, each +- its tolerance, equal to the published ones."""
    from imlbench.studies.pd_pfi_dgp.methods_application import corrected_t_interval

    k = claim["k"]
    sc, learners, (m_name, *_) = _where(claim)
    best = claim["best"]
    rows = []
    for other in [lrn for lrn in learners if lrn != best and lrn in claim["intervals"]]:
        pub = claim["intervals"][other]
        sub = _sub(claim, f"{best} - {other}: [{pub[0]:g}, {pub[1]:g}]")
        a, b = _est(t, sc, best, m_name), _est(t, sc, other, m_name)
        guards = [r for r in (_guard(sub, a, other, m_name), _guard(sub, b, other, m_name))
                  if r is not None]
        if guards:
            rows.append(guards[0])
            continue
        d = (split_mse(a) - split_mse(b)).dropna()
        c = float(a["c"].dropna().iloc[0])
        alpha = float(a["alpha"].dropna().iloc[0])
        mean, se, lo, hi = corrected_t_interval(d.to_numpy(), c, alpha)
        half, pub_mid, pub_half = (hi - lo) / 2, (pub[0] + pub[1]) / 2, (pub[1] - pub[0]) / 2
        mid_check, mid_text = prediction_check(d, pub_mid, k, 0.0, runs=len(d))
        tol_half = k * np.sqrt(2) * sd_se(half, len(d))
        rows.append(claim_row(
            sub, other, m_name,
            f"{mean:.4f} [{lo:.4f}, {hi:.4f}] (corrected SE {se:.4f}, {len(d)} splits, "
            f"c = {c:.3f})",
            f"midpoint: {mid_text}; |half-width gap| {abs(half - pub_half):.4f} <= "
            f"{tol_half:.4f} ({k:g} sqrt(2) normal-theory SEs of a half-width)",
            Check.joint([mid_check, Check(half, tol_half, "equal", pub_half)])))
    return rows


def _pfi(est: pd.DataFrame) -> pd.DataFrame:
    r = _rows(est, "pfi")
    return r[r["rep"] == r["rep"].min()].set_index("feature")


@claim_kind("pd_pfi_dgp.top_features", params={**NEEDS, "top": items(feature_name())})
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


@claim_kind("pd_pfi_dgp.pfi_separation",
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


@claim_kind("pd_pfi_dgp.width_ratio",
            params={**NEEDS, **K, "quantity": choice(REQUIRED, ("pd", "pfi"))})
def pd_pfi_width_ratio(claim: dict, t: Tables) -> list[dict]:
    """Learner-level intervals (first method) are wider than model-level ones (second) for
    ``quantity`` (pd or pfi): R = mean learner width / mean model width, R - k SE > 1, SE the
    jackknife SE of R over the refits (the model widths held fixed: their own relative error,
    about 1 / sqrt(2 n2), is negligible); verdict and power per
    :class:`imlbench.metrics.claims.Check` (R +- k SE above 1)."""
    k = claim["k"]
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
                      f"ratio - {k:g} SE = {r - k * se:.2f} > 1",
                      Check(r, k * se, "above", 1.0, scale=1.0))]


