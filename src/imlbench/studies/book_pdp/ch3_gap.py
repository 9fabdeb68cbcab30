"""The book's chapter 3.1, 3.3.5 and 3.4 (Kronseder): the toy data with and without a gap in
the data (Figs 3.1, 3.2), the categorical simulation (Figs 3.22-3.24), extrapolation with the
gap (Figs 3.25, 3.26) and the hand-made "potato" prediction function (Figs 3.27, 3.28).

The data are formula DGPs (the gap is the law truncated by ``exclude``), the PDPs, 2-D PDPs
and association measures the layer's methods; this part adds one data method and one claim
kind:

``book_pdp.gap_marginal`` (method, metric kind)
    the law of each of ``features`` in the data against the normal law N(``mean``, ``sd``^2) it has
    without the gap: the sample mean (``mean:<f>``), the sample sd (``sd:<f>``) and the
    Kolmogorov-Smirnov distance sup_x |F_n(x) - Phi((x - mean) / sd)| (``ks:<f>``), so that the
    change of x2's marginal law by the gap (ch. 3.1, Fig. 3.2) is measured per data set; a
    scenario's measure against another's is a ``contrast`` of the layer's ``metric`` by
    ``difference``.
``book_pdp.surface_equals_f`` (claim kind)
    a 2-D PDP equals a given function f of its two features at every point of its grid: the PD of S
    = {j, l} is (1/n) sum_i f(x_j, x_l, x_C^(i)), which is f(x_j, x_l) itself when C is empty (the
    book's "the two-dimensional PDP perfectly depicts the prediction function", ch. 3.4.2). Exact up
    to floating-point rounding: holds when the largest |surface - f| over the points and repetitions
    is at most the floating-point floor of the values (:func:`imlbench.metrics.truth_tolerance.
    fp_floor` of the largest |surface| or |f|, the one floor of every comparison with a closed
    form) plus ``atol`` (0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.explain.api import DATA, FEATURES, ExplainContext, method
from imlbench.metrics.claims import NoData, Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.truth_tolerance import FP_ATOL, FP_RTOL, fp_floor
from imlbench.params import feature_name, items, number, text


def ks_distance(x: np.ndarray, mean: float, sd: float) -> float:
    """sup_x |F_n(x) - Phi((x - mean) / sd)|: the Kolmogorov-Smirnov distance of the sample
    ``x`` from N(mean, sd^2)."""
    return float(stats.kstest(np.asarray(x, float), "norm", args=(mean, sd)).statistic)


@method("book_pdp.gap_marginal", kind="metric", params={
    **FEATURES, "mean": number(0.0), "sd": number(1.0, above=0), **DATA})
def _gap_marginal(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Per feature of ``features`` (default: all): the data's mean, sd and Kolmogorov-Smirnov
    distance from N(``mean``, ``sd``^2) (metrics ``mean:<f>``, ``sd:<f>``, ``ks:<f>``; see the
    module doc)."""
    X, _ = ctx.data(params)
    rows = []
    for j in ctx.features(params):
        x, name = X[:, j], ctx.feature_names[j]
        rows += [(f"mean:{name}", float(np.mean(x))), (f"sd:{name}", float(np.std(x, ddof=1))),
                 (f"ks:{name}", ks_distance(x, params["mean"], params["sd"]))]
    return pd.DataFrame(rows, columns=["metric", "value"])


@claim_kind("book_pdp.surface_equals_f", params={
    "f": text(), "features": items(feature_name(), length=2),
    "atol": number(0.0, minimum=0)})
def surface_equals_f(claim: dict, t: Tables) -> list[dict]:
    """The 2-D PDP (columns x and z: the first and second of ``features``) equals ``f`` at every
    point of its grid in every repetition (see the module doc)."""
    first, second = claim["features"]
    try:
        f = parse(claim["f"], [first, second], label="the surface's features")
    except ExpressionError as err:
        raise ValueError(f"claim {claim['id']}: f: {err}") from None

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if not {"x", "z", "value"} <= set(r):
            return NoData(f"the estimates of {claim['where']['scenario']}/{learner}/{method} "
                          "are no surface (columns x, z)")
        x, z = r["x"].to_numpy(float), r["z"].to_numpy(float)
        surface, exact = r["value"].to_numpy(float), f({first: x, second: z}, len(r))
        largest = float(np.max(np.abs(surface - exact)))
        floor = float(fp_floor(max(np.max(np.abs(surface)), np.max(np.abs(exact)))))
        reps = r["rep"].nunique() if "rep" in r else 1
        return claim_row(
            claim, learner, method,
            f"largest |2-D PDP - f| over {len(r)} points ({reps} reps): {largest:.3g}",
            f"largest |difference| <= floating-point floor {FP_RTOL:g} x scale + {FP_ATOL:g} "
            f"(scale: the largest |value|) + {claim['atol']:g} = {floor + claim['atol']:.3g} "
            f"(exact)",
            largest <= floor + claim["atol"])

    return per_combo(claim, t, "other", one)
