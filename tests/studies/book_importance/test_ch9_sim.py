"""Chapter 9 simulations of the book (PFI and LOCO over a correlation sweep): the claim kinds
importance_contrast (the layer's) and book_importance.fit_better and the benchmark errors through
``contrast``
(each on a case that holds and one that fails), the book's places from the layer's ranks, and
the figures on synthetic inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

import imlbench.studies.book_importance  # noqa: F401  (registers the kinds and figures)
from imlbench.config import load_study, study_path
from imlbench.figures import FIGURES
from imlbench.figures.importance import level_name, mean_places, summarise
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.metrics.ranks import add_ranks

#: the study's figure entries (the rank figures are entries of the layer's importance_dots)
ENTRIES = load_study(study_path(Path(__file__).parents[3], "book_importance"), "smoke").figures
#: a repetition's offset of every value, so that SEs are small but not 0
NOISE = [0.0, 0.02, -0.02, 0.01, -0.01, 0.03]


def _ranked(scenario: str, values: dict[str, float], learner: str = "l", method: str = "m",
            rho: float = 0.0) -> pd.DataFrame:
    """Importances of each feature, its value plus NOISE over 6 repetitions, ranked as the
    summaries rank them (1 = least important)."""
    rows = [{"scenario": scenario, "learner": learner, "method": method, "p_rho": rho,
             "rep": r, "feature": f, "value": v + e}
            for f, v in values.items() for r, e in enumerate(NOISE)]
    return add_ranks(pd.DataFrame(rows))


#: the forest's PFI of scenario 1 as the book reads it: at rho 0 all four equal (x1 and x3
#: alternate on top), at rho 0.99 x1 and x2 inflated above x3 and x4
LOW = {"x1": 2.0, "x2": 1.95, "x3": 2.02, "x4": 1.97, "uninf": 1.0}
HIGH = {"x1": 3.0, "x2": 2.9, "x3": 1.6, "x4": 1.5, "uninf": 1.0}
RANKED = pd.concat([_ranked("s_rho0", LOW), _ranked("s_rho0.99", HIGH, rho=0.99),
                    _ranked("s_rho0.99", LOW, learner="other", rho=0.99)], ignore_index=True)


def _row(kind: str, tables: Tables, scenario: str = "s_rho0.99", learner: str = "l",
         method: str = "m", **params) -> dict:
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": scenario, "learner": learner, "method": method}, **params}
    (row,) = CLAIMS.get(kind)(claim, tables)
    return row


def _tables(other: pd.DataFrame | None = None) -> Tables:
    return Tables(ranked=RANKED, truth={}, other=RANKED if other is None else other)


def test_places_turn_the_layers_ranks_over():
    """The rank panels' places (the layer's ``importance_dots``): 1 = most important."""
    places = mean_places(RANKED[RANKED["learner"] == "l"], "p_rho").set_index(
        ["p_rho", "feature"])
    assert places.loc[(0.99, "x1"), "place"] == 1.0  # most important: place 1
    assert places.loc[(0.99, "uninf"), "place"] == 5.0
    assert places.loc[(0.99, "x4"), "place"] == 4.0


def test_over_splits_is_the_mean_with_the_5_and_95_percent_quantiles():
    rows = summarise(RANKED[RANKED["learner"] == "l"], "p_rho", "mean", [0.05, 0.95])
    rows = rows.set_index(["p_rho", "feature"])
    x1 = RANKED[(RANKED["scenario"] == "s_rho0") & (RANKED["feature"] == "x1")]["value"]
    assert rows.loc[(0.0, "x1"), "centre"] == pytest.approx(x1.mean())
    assert rows.loc[(0.0, "x1"), "low"] == pytest.approx(np.quantile(x1, 0.05))
    assert level_name(0.0, "p_rho", {}) == "rho = 0"


def test_importance_contrast_compares_across_the_sweep():
    t = _tables()
    grows = {"features": ["x1", "x2"], "than_scenario": "s_rho0"}
    assert _row("importance_contrast", t, **grows, compare="above")["verdict"] == REPRODUCED
    assert _row("importance_contrast", t, **grows, compare="below")["verdict"] == NOT_REPRODUCED
    assert _row("importance_contrast", t, **grows, compare="at_most")["verdict"] == NOT_REPRODUCED
    # x3 and x4 fell: "not above" holds, "above" fails
    falls = {"features": ["x3", "x4"], "than_scenario": "s_rho0"}
    assert _row("importance_contrast", t, **falls, compare="at_most")["verdict"] == REPRODUCED
    assert _row("importance_contrast", t, **falls, compare="above")["verdict"] == NOT_REPRODUCED


def test_importance_contrast_levels_places_and_pairs():
    t = _tables()
    place = {"statistic": "place", "compare": "equal"}
    assert _row("importance_contrast", t, features=["x1", "x2"], value=1.5,
                **place)["verdict"] == REPRODUCED
    assert _row("importance_contrast", t, features=["x1", "x2"], value=3.5, **place)["verdict"] == \
        NOT_REPRODUCED
    # within one scenario, paired by repetition: x1's place minus x4's is -3
    pair = {"features": ["x1"], "than_features": ["x4"], "statistic": "place"}
    assert _row("importance_contrast", t, **pair, compare="below")["verdict"] == REPRODUCED
    assert _row("importance_contrast", t, **pair, compare="at_least")["verdict"] == NOT_REPRODUCED
    # against another learner on the same splits: "other" places x1 lower than "l"
    learner = {"features": ["x1", "x2"], "than_learner": "other", "statistic": "place"}
    assert _row("importance_contrast", t, **learner, compare="below")["verdict"] == REPRODUCED
    assert _row("importance_contrast", t, **learner, compare="above")["verdict"] == NOT_REPRODUCED


def test_importance_contrast_without_data_says_why():
    t = _tables()
    row = _row("importance_contrast", t, features=["x9"])
    assert row["verdict"] == NO_DATA and "x9 not among the features" in row["reason"]
    row = _row("importance_contrast", t, features=["x1"], than_scenario="s_rho0.5")
    assert row["verdict"] == NO_DATA and "no importances of s_rho0.5" in row["reason"]


def _fit(scenario: str, mse: dict[str, float]) -> pd.DataFrame:
    """model_fit rows: each learner's test MSE (times 1 + NOISE) and R^2 1 - MSE per rep."""
    rows = []
    for learner, m in mse.items():
        for r, e in enumerate(NOISE):
            rows += [{"scenario": scenario, "learner": learner, "method": "fit", "rep": r,
                      "metric": "mse_test", "value": m * (1 + e)},
                     {"scenario": scenario, "learner": learner, "method": "fit", "rep": r,
                      "metric": "r2_test", "value": 1 - m * (1 + e)}]
    return pd.DataFrame(rows)


def test_s_fit_better_orders_learners_by_their_errors():
    t = _tables(_fit("s", {"lm": 1e-4, "svm": 0.02, "rf": 0.08}))
    where = {"scenario": "s", "method": "fit"}
    best = _row("book_importance.fit_better", t, **where, learner="lm", than=["svm", "rf"], k=2.0)
    assert best["verdict"] == REPRODUCED and "s/rf/fit" in best["reproduced"]
    # one of the two fails: the joint fails
    assert _row("book_importance.fit_better", t, **where, learner="svm", than=["lm", "rf"],
                k=2.0)["verdict"] == NOT_REPRODUCED
    assert _row("book_importance.fit_better", t, **where, learner="svm", than=["rf"],
                metric="r2_test", k=2.0)["verdict"] == REPRODUCED
    gone = _row("book_importance.fit_better", t, **where, learner="lm", than=["knn"], k=2.0)
    assert gone["verdict"] == NO_DATA and "s/knn/fit" in gone["reason"]


def test_benchmark_errors_through_the_kit():
    t = _tables(_fit("s", {"lm": 1e-4, "svm": 0.02, "rf": 0.08}))
    where = {"scenario": "s", "method": "fit"}
    fit = {"statistic": "metric", "k": 2.0}
    # lower MSE than one other learner on the same splits
    assert _row("contrast", t, **where, learner="svm", **fit, metric="mse_test", test="paired",
                than={"learner": "rf"}, compare="below")["verdict"] == REPRODUCED
    assert _row("contrast", t, **where, learner="rf", **fit, metric="mse_test", test="paired",
                than={"learner": "svm"}, compare="below")["verdict"] == NOT_REPRODUCED
    # a bound on the mean R^2
    assert _row("contrast", t, **where, learner="rf", **fit, metric="r2_test", value=0.9,
                compare="above")["verdict"] == REPRODUCED
    assert _row("contrast", t, **where, learner="rf", **fit, metric="r2_test", value=0.95,
                compare="above")["verdict"] == NOT_REPRODUCED


def test_figures_draw_synthetic_inputs(tmp_path):
    w = WrittenInputs(tmp_path)
    for scenario in ("s_rho0", "s_rho0.99"):
        part = RANKED[(RANKED["scenario"] == scenario) & (RANKED["learner"] == "l")]
        w.table(scenario, "l", "m", "importance",
                part.drop(columns=["scenario", "learner", "method", "rank"]))
    inputs = FigureInputs(w.paths, w.methods, ["s_rho0", "s_rho0.99"])
    # the study's entry of Fig. 9.3, for the synthetic learner
    params = {**ENTRIES["fig_9_3"]["params"], "learner": "l"}
    spec = {"title": "t", "caption": "c", "params": params}
    FIGURES.get("importance_dots")(inputs, spec, tmp_path / "a.png", tmp_path / "a.pdf")
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="no importances of learner"):
        FIGURES.get("importance_dots")(
            inputs, {**spec, "params": {**params, "learner": "x"}}, tmp_path / "b.png",
            tmp_path / "b.pdf")

    w = WrittenInputs(tmp_path / "fit")
    for scenario, rho in (("s_rho0", 0.0), ("s_rho0.99", 0.99)):
        fit = _fit(scenario, {"lm": 1e-4, "svm": 0.02, "rf": 0.08})
        for learner, rows in fit.groupby("learner"):
            w.table(scenario, learner, "fit", "fit",
                    rows.drop(columns=["scenario", "learner", "method"]), p_rho=rho)
    inputs = FigureInputs(w.paths, w.methods, ["s_rho0", "s_rho0.99"])
    spec = {"title": "t", "caption": "c",
            "params": {"learners": {"rf": "forest", "svm": "SVM", "lm": "LM"}}}
    FIGURES.get("book_importance.sim_benchmark")(inputs, spec, tmp_path / "c.png",
                                               tmp_path / "c.pdf")
    assert (tmp_path / "c.pdf").read_bytes()[:4] == b"%PDF"


def test_surface_draws_each_scenario_with_its_rows(tmp_path):
    w = WrittenInputs(tmp_path)
    grid = np.linspace(-3, 3, 7)
    for scenario, rho in (("a", 0.0), ("b", 0.99)):
        x, z = np.meshgrid(grid, grid)
        w.table(scenario, "rf", "surf", "surface",
                pd.DataFrame({"x": x.ravel(), "z": z.ravel(), "value": (x + z).ravel()}),
                rep=0, p_rho=rho)
        rows = pd.DataFrame({"rep": 0, "split": "train", "x1": grid, "x2": grid, "y": 2 * grid})
        w.paths["data"].append(write(rows, tmp_path / "data" / scenario / "c0.parquet"))
    inputs = FigureInputs(w.paths, w.methods, ["a", "b"])
    params = {"panels": [{"scenario": "a", "title": "rho = 0"},
                         {"scenario": "b", "title": "rho = 0.99"}],
              "stat": "first", "points": "dots", "arrows": [[-2.0, -2.0, 2.3, -2.0]],
              "marks": [[2.5, -2.0]], "zlabel": "forest prediction"}  # as Fig. 9.4's entry
    FIGURES.get("surface")(inputs, {"title": "t", "caption": "c", "params": params},
                           tmp_path / "s.png", tmp_path / "s.pdf")
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
