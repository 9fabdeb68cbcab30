"""The book's ch. 9 simulations ("PFI, LOCO and Correlated Features", Altmann, Sect. 9.2):
permutation importance and leave-one-covariate-out, both as ratios of test MSEs (Sect. 9.1),
of a forest, an SVM and a linear model over a sweep of the correlation rho of x1 and x2, with
the models' benchmark errors.

PFI, LOCO and the benchmark errors are the layer's ``pfi``, ``loco`` and ``model_fit``; the
ranks are the layer's (:mod:`imlbench.metrics.ranks`: per repetition, 1 = least important).
A feature's importance or place against another correlation, learner or feature set is the
layer's ``importance_contrast``; a learner's benchmark error against a bound or against one
other learner is a ``contrast`` claim on the layer's statistic ``metric``.

Claim kind ``book_importance.fit_better``: the benchmark errors of ``model_fit`` (Figs 9.2, 9.16,
9.23): the claim's learner predicts better than *each* learner of ``than`` by ``metric``
(``mse_test``: lower is better; ``r2_test``: higher), one row for "the best of the three". Per
learner of ``than`` the kit's ``paired`` test of the metric on the repetitions' shared splits (d =
ours - theirs below 0 for an MSE, above 0 for an R^2); the row holds when every one of them holds
(:meth:`imlbench.metrics.claims.Check.joint`). A joint test over several other cells is not the
``contrast`` shape, whose ``than`` names one cell.
"""

from __future__ import annotations

from imlbench.metrics.claims import Check, NoData, Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.contrasts import Cell, K, Sample, paired
from imlbench.metrics.statistics import metric
from imlbench.params import choice, items, study_name

#: the benchmark metrics of ``book_importance.fit_better`` and whether higher is better
FIT_METRICS = {"mse_test": False, "r2_test": True}


@claim_kind("book_importance.fit_better", params={
    "metric": choice("mse_test", tuple(FIT_METRICS)), "than": items(study_name("learners")),
    **K})
def s_fit_better(claim: dict, t: Tables) -> list[dict]:
    """The claim's learner predicts better than each of ``than`` by ``metric`` (see the module
    doc)."""
    name, than, k = claim["metric"], claim["than"], claim["k"]
    compare = "above" if FIT_METRICS[name] else "below"
    scenario = claim["where"]["scenario"]

    def of(learner: str, method: str) -> Sample | NoData:
        return metric(Cell(scenario, learner, method, {"metric": name}), t)

    def one(claim: dict, ours: Sample, learner: str, method: str) -> dict | NoData:
        judged = []
        for other in than:
            where = f"{scenario}/{other}/{method}"
            theirs = of(other, method)
            if isinstance(theirs, NoData):
                return NoData(theirs.reason or f"no {name} of {where}")
            j = paired(ours, theirs, where, 0.0, k=k, compare=compare)
            if isinstance(j, NoData):
                return j
            judged.append(j)
        return claim_row(claim, learner, method, "; ".join(j.reproduced for j in judged),
                         f"for each of {', '.join(than)}: {judged[0].tolerance}",
                         Check.joint([j.check for j in judged],
                                     scale=float(abs(ours.values.mean()))))

    return per_combo(claim, t, lambda c, t_, learner, method: of(learner, method), one)
