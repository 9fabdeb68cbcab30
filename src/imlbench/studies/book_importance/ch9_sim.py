"""The book's ch. 9 simulations ("PFI, LOCO and Correlated Features", Altmann, Sect. 9.2):
permutation importance and leave-one-covariate-out, both as ratios of test MSEs (Sect. 9.1),
of a forest, an SVM and a linear model over a sweep of the correlation rho of x1 and x2, with
the models' benchmark errors.

PFI, LOCO and the benchmark errors are the layer's ``pfi``, ``loco`` and ``model_fit``; the
ranks are the layer's (:mod:`imlbench.metrics.ranks`: per repetition, 1 = least important).
Claim kinds for what the layer's rank kinds do not say (a feature's importance or place
against another correlation, learner or feature set is the layer's ``importance_contrast``):

``s_fit_better``  the benchmark errors of ``model_fit`` (Figs 9.2, 9.16): the claim's learner
                  predicts better than each learner of ``than`` by ``metric`` (``mse_test``:
                  lower is better; ``r2_test``: higher), per repetition on the same split
                  d = error of the other - error of ours (or R^2 of ours - R^2 of the other),
                  mean(d) - t' SE > 0 for every learner of ``than``; or, with ``bound``
                  instead, the mean metric is on the good side of it (R^2 above, MSE below)
"""

from __future__ import annotations

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
from imlbench.params import choice, items, number, study_name
from imlbench.stats import t_multiplier

#: the benchmark metrics of ``s_fit_better`` and whether higher is better
FIT_METRICS = {"mse_test": False, "r2_test": True}


def _metric(t: Tables, scenario: str, learner: str, method: str, metric: str
            ) -> pd.Series | NoData:
    """The benchmark ``metric`` of one learner by repetition, or why there is none."""
    r = select_rows(t.other, scenario, learner, method) if not t.other.empty else t.other
    if r.empty or "metric" not in r:
        return NoData(f"no model_fit rows of {scenario}/{learner}/{method}")
    v = r[r["metric"] == metric].set_index("rep")["value"].dropna()
    return v if len(v) else NoData(f"no {metric} in {scenario}/{learner}/{method}")


@claim_kind("s_fit_better", params={
    "metric": choice("mse_test", tuple(FIT_METRICS)),
    "than": items(study_name("learners"), []), "bound": number(None, nullable=True),
    "z": number(2.0, minimum=0)})
def s_fit_better(claim: dict, t: Tables) -> list[dict]:
    """The claim's learner predicts better than each of ``than`` by ``metric``, or better than
    ``bound`` (see the module doc)."""
    metric, than, bound, z = claim["metric"], claim["than"], claim["bound"], claim["z"]
    if bool(than) == (bound is not None):
        raise ValueError(f"claim {claim['id']} (s_fit_better): give exactly one of than (a "
                         f"list of learners) and bound (a number); got than {than}, bound "
                         f"{bound}")
    higher = FIT_METRICS[metric]
    scenario = claim["where"]["scenario"]

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        ours = _metric(t, scenario, learner, method, metric)
        if isinstance(ours, NoData):
            return ours
        if bound is not None:
            se, df = ours.std(ddof=1) / np.sqrt(len(ours)), len(ours) - 1
            if df < 1:
                return NoData(f"an SE needs 2 repetitions or more; {len(ours)} here")
            half = float(t_multiplier(z, df)) * se
            return claim_row(
                claim, learner, method,
                f"{metric} of {learner}: {ours.mean():.4g} (SE {se:.3g}, {len(ours)} reps, "
                f"from {ours.min():.4g} to {ours.max():.4g})",
                f"mean {'-' if higher else '+'} t({z:g}) SE {'>' if higher else '<'} "
                f"{bound:g} (half-width {half:.3g}, {df} df)",
                Check(float(ours.mean()), half, "above" if higher else "below", bound,
                      scale=bound))
        checks, parts = [], [f"{metric} of {learner}: {ours.mean():.4g}"]
        for other in than:
            theirs = _metric(t, scenario, other, method, metric)
            if isinstance(theirs, NoData):
                return theirs
            d = ((ours - theirs) if higher else (theirs - ours)).dropna()
            if len(d) < 2:
                return NoData(f"an SE needs 2 paired repetitions or more; {len(d)} here")
            se = d.std(ddof=1) / np.sqrt(len(d))
            half = float(t_multiplier(z, len(d) - 1)) * se
            checks.append(Check(float(d.mean()), half, "above", 0.0))
            parts.append(f"{other}: {theirs.mean():.4g} (advantage {d.mean():.3g}, SE "
                         f"{se:.3g})")
        return claim_row(
            claim, learner, method, "; ".join(parts),
            f"per learner of {', '.join(than)}: advantage - t({z:g}) SE > 0, paired over "
            f"the repetitions' splits",
            Check.joint(checks, scale=float(abs(ours.mean()))))

    return per_combo(claim, t, "other", one)
