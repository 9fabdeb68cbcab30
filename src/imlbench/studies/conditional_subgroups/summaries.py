"""Summaries of data-fidelity estimates (Molnar et al., Sect. 8): what the claims and the
figures of the experiment read.

The input has one row per (scenario = data set, rep, feature, sampler) with the fidelity in
``value`` (-log MMD^2, larger is better), as the ``conditional_subgroups.data_fidelity`` method
writes it. The unit of the summaries is a (data set, feature) pair, whose repetitions are averaged
first.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

PAIR = ["scenario", "feature"]


def _only(df: pd.DataFrame, samplers: Sequence[str]) -> pd.DataFrame:
    missing = sorted(set(samplers) - set(df["sampler"]))
    if missing:
        raise ValueError(f"no fidelity estimates of sampler(s) {', '.join(missing)}")
    return df[df["sampler"].isin(samplers)]


def pair_means(df: pd.DataFrame, samplers: Sequence[str]) -> pd.DataFrame:
    """Fidelity averaged over repetitions: rows (data set, feature), columns ``samplers``."""
    means = _only(df, samplers).groupby([*PAIR, "sampler"])["value"].mean().unstack("sampler")
    return means[list(samplers)]


def pair_mean_ranks(df: pd.DataFrame, samplers: Sequence[str]) -> pd.DataFrame:
    """Rank of each sampler among ``samplers`` (1 = highest fidelity, ties averaged) within
    each (data set, feature, repetition), averaged over repetitions (Table 3's ranks)."""
    sub = _only(df, samplers)
    ranks = sub.assign(rank=sub.groupby([*PAIR, "rep"])["value"].rank(ascending=False))
    means = ranks.groupby([*PAIR, "sampler"])["rank"].mean().unstack("sampler")
    return means[list(samplers)]


def random_intercept_effects(df: pd.DataFrame, samplers: Sequence[str],
                             reference: str = "perm", alpha: float = 0.05) -> pd.DataFrame:
    """Fixed effects of a random-intercept model of the fidelity (Sect. 8, Fig. 9).

    value ~ sampler (treatment coding, ``reference`` as baseline) + a random intercept per
    data set + a random intercept per feature within its data set, fitted by REML with
    statsmodels' MixedLM on the per-repetition values. Returns one row per other sampler:
    ``estimate`` (its difference to the reference), ``se`` and the Wald (1 - alpha) interval
    ``lower``, ``upper``.
    """
    import warnings

    import statsmodels.formula.api as smf
    from scipy.stats import norm

    if reference not in samplers:
        raise ValueError(f"the reference sampler {reference!r} is not among {list(samplers)}")
    data = _only(df, samplers)[["scenario", "feature", "sampler", "value"]].copy()
    data["sampler"] = pd.Categorical(data["sampler"],
                                     [reference, *[s for s in samplers if s != reference]])
    model = smf.mixedlm("value ~ C(sampler)", data, groups="scenario", re_formula="1",
                        vc_formula={"feature": "0 + C(feature)"})
    with warnings.catch_warnings():  # convergence chatter on near-zero variance components
        warnings.simplefilter("ignore")
        fit = model.fit(reml=True)
    z = norm.ppf(1 - alpha / 2)
    rows = []
    for s in samplers:
        if s == reference:
            continue
        name = f"C(sampler)[T.{s}]"
        est, se = float(fit.fe_params[name]), float(fit.bse_fe[name])
        rows.append({"sampler": s, "estimate": est, "se": se,
                     "lower": est - z * se, "upper": est + z * se})
    return pd.DataFrame(rows)


