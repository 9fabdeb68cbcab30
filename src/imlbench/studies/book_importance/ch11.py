"""The book's ch. 11 ("PFI: Training vs. Test Data", Dankers): permutation feature importance
of a gradient-boosting classifier on the rows it was fitted on against held-out test rows,
for well-, over- and under-fitted models (Sect. 11.2-11.4).

The importances are the layer's ``pfi`` (iml's ``FeatureImp``: ratio, median of 5 repeats) on
the test rows or on the ``fitted`` rows, the training rows less the validation rows the
learner held out for early stopping: the book's h2o training frame, 70% of the rows, beside
its 15% validation and 15% test frames.

Statistics per repetition of the importances (``Tables.ranked``: one row per feature and
repetition; ``value`` the median over the permutation repeats; repetitions are fresh data sets
or fresh splits of a table), for ``contrast`` claims (orders of the values are the layer's
``importance_order``):

``book_importance.place``           a feature's place among the features (1 = most important;
                                    ties share the mean place); against the place the book
                                    printed from its one run it is the kit's ``prediction`` test
``book_importance.importance_stat`` a statistic of the repetition's importances over the
                                    features: ``range`` (largest minus smallest), ``max`` or
                                    ``min``; with ``minus_method``, less the same statistic
                                    under that method on the same fit (the train-test gap).
                                    Training against test rows is a ``paired`` test with
                                    ``than: {method: <test>}``; the gap of one fit regime
                                    against another's is the gap statistic ``paired`` with
                                    ``than: {learner: <other regime>}``
"""

from __future__ import annotations

from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.rank_claims import by_repetition
from imlbench.params import choice, feature_name, study_name


@statistic("book_importance.place", params={"feature": feature_name()})
def place(cell: Cell, t: Tables) -> Sample | NoData:
    """The place of ``feature`` (1 = most important) per repetition (see the module doc)."""
    r = cell.rows(t, "ranked")
    if r.empty:
        return NoData()
    f, v = cell.params["feature"], by_repetition(r)
    if f not in v:
        return NoData(f"{f} is not among the features ({', '.join(v)})")
    places = (len(v.columns) + 1 - v.rank(axis=1, method="average")[f]).dropna()
    counts = places.value_counts().sort_index()
    return Sample(places, f"place of {f}",
                  "; " + ", ".join(f"{p:g}: {n}x" for p, n in counts.items()))


#: the statistics of a repetition's importances over the features
STATS = {"range": lambda v: v.max(axis=1) - v.min(axis=1), "max": lambda v: v.max(axis=1),
         "min": lambda v: v.min(axis=1)}


@statistic("book_importance.importance_stat", params={
    "stat": choice("range", tuple(STATS)), "minus_method": study_name("methods", None)})
def importance_stat(cell: Cell, t: Tables) -> Sample | NoData:
    """The range, max or min of the importances per repetition, less that under
    ``minus_method`` when given (see the module doc)."""
    stat, minus = cell.params.get("stat", "range"), cell.params.get("minus_method")
    parts = []
    for method in (cell.method, minus) if minus else (cell.method,):
        r = Cell(cell.scenario, cell.learner, method).rows(t, "ranked")
        if r.empty:
            return NoData() if method == cell.method else NoData(
                f"no importances of {cell.scenario}/{cell.learner}/{method}")
        parts.append(STATS[stat](by_repetition(r)))
    what = f"{stat}({cell.learner}/{cell.method})" + (
        f" - {stat}({cell.learner}/{minus})" if minus else "")
    d = parts[0] - parts[1] if minus else parts[0]
    return Sample(d.dropna(), what)
