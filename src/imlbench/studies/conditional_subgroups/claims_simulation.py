"""Claims of the conditional-PFI simulation (Molnar et al., conditional subgroups, Sect. 6-7).

Every repetition r gives an estimate of the conditional PFI of x1 and its error
e_r = estimate_r - truth. The truth is the closed form of the true model (setting I, the truth
stage's ``importance`` table, estimand ``pfi_conditional``) or, for a fitted model (setting
II), the cell's mean of the per-model Monte Carlo truths (method ``truth_method``), as the
paper's code averages them. All
tolerances are standard errors over the repetitions (squared errors are paired: every method
of a cell sees the same data sets). Verdicts and power (margin + 2 half) per
:class:`imlbench.metrics.claims.Check`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import chi2, norm

from imlbench.metrics.claims import (
    Check,
    Tables,
    as_list,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.params import REQUIRED, choice, feature_name, integer, items, number, study_name, text
from imlbench.stats import mean_and_se

#: what the errors are taken of and against: the feature, and the truth of setting II (a
#: method of per-model truths, averaged per cell) or else of setting I (a truth table)
TRUTH = {
    "feature": feature_name("x1"),
    "truth_method": study_name("methods", None),
    "truth_table": text("importance"),
}


def errors(claim: dict, t: Tables, learner: str, method: str) -> pd.Series:
    """Per-repetition estimate minus truth of the claim's feature (index: rep); empty when the
    estimates or the truth are missing (the selector of the kinds,
    :func:`imlbench.metrics.claims.per_combo`: they say so in their rows)."""
    sc = claim["where"]["scenario"]
    feature = claim["feature"]
    est = select_rows(t.ranked, sc, learner, method)
    if est.empty:
        return pd.Series(dtype=float)
    est = est[est["feature"] == feature].set_index("rep")["value"]
    return est - claim_truth(claim, t, learner)


def claim_truth(claim: dict, t: Tables, learner: str) -> float:
    """The conditional PFI the claim's estimates are compared with (see the module doc)."""
    sc = claim["where"]["scenario"]
    feature = claim["feature"]
    if claim["truth_method"] is not None:
        tm = select_rows(t.other, sc, learner, claim["truth_method"])
        tm = tm[tm["feature"] == feature]
        return float(tm["value"].mean()) if len(tm) else np.nan
    table = t.truths.get((sc, claim["truth_table"]))
    if table is None:
        return np.nan
    table = table[(table["feature"] == feature) & (table["estimand"] == "pfi_conditional")]
    return float(table["value"].iloc[0])


def squared_error_sd(errors: pd.Series, z: float) -> float:
    """The sd of e^2 for the SE sd / sqrt(R) of MSE = mean(e^2) over R repetitions.

    The sample sd of e^2 over a few repetitions shrinks with the MSE itself when the errors
    happen to be small, so that a low draw also narrows the tolerance meant to absorb it. For
    e ~ N(b, s^2), Var(e^2) = 2 s^4 + 4 b^2 s^2; this takes that form at the upper end of the
    chi-square interval of s^2 at the normal level of ``z`` (two-sided, R - 1 df), b the mean
    error, and returns the larger of it and the sample sd of e^2 (heavier tails than the
    normal's). NaN with fewer than two errors."""
    e = errors.dropna().to_numpy(dtype=float)
    R = len(e)
    if R < 2:
        return float("nan")
    s2_hi = (R - 1) * e.var(ddof=1) / chi2.ppf(norm.sf(z), R - 1)
    normal = np.sqrt(2 * s2_hi**2 + 4 * e.mean() ** 2 * s2_hi)
    return float(max(normal, np.std(e**2, ddof=1)))


@claim_kind("pfi_mse", params={
    **TRUTH, "values": items(number()), "published_reps": integer(1000, minimum=1),
    "z": number(3.0, minimum=0),
})
def pfi_mse(claim: dict, t: Tables) -> list[dict]:
    """Published MSE of each method (``values``, in the order of ``where.method``) against ours.

    MSE = mean_r e_r^2. Both are Monte Carlo estimates: ours has SE = sd(e^2) / sqrt(R), the
    published one SE_pub = sd(e^2) / sqrt(R_pub) (``published_reps``, 1000 in the paper), with
    sd(e^2) from our repetitions by :func:`squared_error_sd` (the normal
    errors' sd of e^2 at the upper confidence bound of their variance, or the sample sd of e^2
    if larger: over 16 repetitions a low draw of the errors would otherwise shrink the
    tolerance with the MSE). Reproduced when |MSE - published| <= z sqrt(SE^2 + SE_pub^2)
    (z = 3, a two-sided test at 0.27%: a correct cell keeps its verdict under three seeds
    with probability 0.99); verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check` (one repetition: no SE, ``inconclusive``).
    """
    z = claim["z"]
    r_pub = claim["published_reps"]
    methods = as_list(claim["where"]["method"])
    if len(methods) != len(claim["values"]):
        raise ValueError(f"claim {claim['id']}: {len(methods)} methods but "
                         f"{len(claim['values'])} values")
    published_of = dict(zip(methods, claim["values"], strict=True))

    def one(claim: dict, e: pd.Series, learner: str, method: str) -> dict:
        published = published_of[method]
        sq = (e ** 2).dropna()
        if sq.empty:
            return claim_row(claim, learner, method, "", "", None) | {"published": f"{published:g}"}
        mse = float(sq.mean())
        sd = squared_error_sd(e, z) if len(sq) > 1 else np.inf
        se, se_pub = sd / np.sqrt(len(sq)), sd / np.sqrt(r_pub)
        bound = z * float(np.hypot(se, se_pub))
        return claim_row(
            claim, learner, method, f"MSE {mse:.3g} (SE {se:.2g}, {len(sq)} reps)",
            f"|MSE - published| <= {z:g} sqrt(SE^2 + SE_pub^2) = {bound:.3g} "
            f"(SE_pub = sd / sqrt({r_pub}))",
            Check(mse, bound, "equal", published, scale=published),
        ) | {"published": f"{published:g}"}

    return per_combo(claim, t, errors, one)


@claim_kind("mse_order", params={
    **TRUTH, "worse": items(study_name("methods")),
    "expect": choice("better", ("better", "not_worse")), "z": number(2.0, minimum=0),
})
def mse_order(claim: dict, t: Tables) -> list[dict]:
    """Each method of ``where.method`` has a lower MSE than every method of ``worse``:
    d_r = e_a,r^2 - e_b,r^2 over the repetitions, mean(d) + z SE(d) < 0 (z = 2).
    With ``expect: not_worse`` the method is only not detectably worse: mean(d) - z SE(d) <= 0.
    Verdict and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check` over the
    methods of ``worse`` (``better``: ``below`` 0, a straddle is ``inconclusive``;
    ``not_worse``: ``at_most`` 0, a straddle passes), scaled by the largest MSE of ``worse``."""
    z = claim["z"]
    strict = claim["expect"] == "better"

    def one(claim: dict, e: pd.Series, learner: str, method: str) -> dict:
        parts, means, ses, mses = [], [], [], []
        for other in claim["worse"]:
            # per repetition e_method^2 - e_other^2: the two methods on the same data sets
            e_other = errors(claim, t, learner, other)
            d = (e ** 2 - e_other ** 2).dropna()
            if d.empty:
                means.append(None)
                continue
            mean, se = mean_and_se(d)
            means.append(mean)
            ses.append(se)
            mses.append(float((e_other ** 2).mean()))
            parts.append(f"vs {other}: {mean:+.3g} (SE {se:.2g})")
        ok = None
        if None not in means:
            mean_, half, scale = np.array(means), z * np.array(ses), max(mses)
            ok = (Check(mean_, half, "below", 0.0, scale=scale) if strict
                  else Check(mean_, half, "at_most", 0.0, scale=scale))
        test = "< 0" if strict else "<= 0"
        sign = "+" if strict else "-"
        return claim_row(
            claim, learner, method,
            f"MSE difference {'; '.join(parts)}" if parts else "",
            f"paired MSE difference {sign} {z:g} SE {test}", ok,
        )

    return per_combo(claim, t, errors, one)


@claim_kind("pfi_bias", params={
    **TRUTH, "expect": choice(REQUIRED, ("below", "above")), "z": number(2.0, minimum=0),
})
def pfi_bias(claim: dict, t: Tables) -> list[dict]:
    """The estimates lie below (``expect: below``) or above the truth on average:
    mean(e) + z SE < 0, or mean(e) - z SE > 0 (z = 2); verdict and power (2 half) per
    :class:`imlbench.metrics.claims.Check`, scaled by the truth."""
    z = claim["z"]
    below = claim["expect"] == "below"

    def one(claim: dict, e: pd.Series, learner: str, method: str) -> dict:
        e = e.dropna()
        if e.empty:
            return claim_row(claim, learner, method, "", "", None)
        mean, se = mean_and_se(e)
        truth = claim_truth(claim, t, learner)
        check = Check(mean, z * se, "below" if below else "above", 0.0, scale=truth)
        return claim_row(
            claim, learner, method,
            f"mean estimate {truth + mean:.3g} vs truth {truth:.3g} (SE {se:.2g})",
            f"mean error {'+' if below else '-'} {z:g} SE {'< 0' if below else '> 0'}", check,
        )

    return per_combo(claim, t, errors, one)


@claim_kind("depth_trend", params={
    **TRUTH, "depths": items(integer(minimum=0), length=2),
    "expect": choice(REQUIRED, ("approaches", "flat")), "z": number(3.0, minimum=0),
})
def depth_trend(claim: dict, t: Tables) -> list[dict]:
    """cs-PFI against the tree depth (method of kind metric with ``depth`` rows), comparing
    ``depths: [shallow, deep]`` over the repetitions. ``expect: approaches``: the deep tree's
    squared error is lower, mean(e_deep^2 - e_shallow^2) + z SE < 0; ``expect: flat``: the
    estimate does not move, |mean(est_deep - est_shallow)| <= z SE (z = 3). Verdict and power
    (margin + 2 half) per :class:`imlbench.metrics.claims.Check`, scaled by the shallow tree's
    MSE (``approaches``) or mean estimate (``flat``)."""
    z = claim["z"]
    shallow, deep = claim["depths"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        truth = claim_truth(claim, t, learner)
        r = r[r["feature"] == claim["feature"]]
        wide = r.pivot_table(index="rep", columns="depth", values="value")
        lo, hi = wide[shallow], wide[deep]
        if claim["expect"] == "approaches":
            mean, se = mean_and_se((hi - truth) ** 2 - (lo - truth) ** 2)
            check = Check(mean, z * se, "below", 0.0, scale=float(((lo - truth) ** 2).mean()))
            test = f"mean(e_{deep}^2 - e_{shallow}^2) + {z:g} SE < 0"
        else:
            mean, se = mean_and_se(hi - lo)
            check = Check(mean, z * se, "equal", 0.0, scale=float(lo.mean()))
            test = f"|mean(est_{deep} - est_{shallow})| <= {z:g} SE"
        return claim_row(
            claim, learner, method,
            f"mean cs-PFI depth {shallow}: {lo.mean():.3g}, depth {deep}: {hi.mean():.3g} "
            f"(truth {truth:.3g}; difference {mean:+.3g}, SE {se:.2g}, {len(wide)} reps)",
            test, check,
        )

    return per_combo(claim, t, "other", one)
