"""Chapter 3.2 of the book (bike rentals): the claims comparing PDPs across models and
testing association measures, on cases that hold and cases that fail, and the figures on
synthetic inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_pdp  # noqa: F401  (registers the kinds and figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.matrix import pairs_matrix
from imlbench.metrics.claims import CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables

GRID = np.linspace(0.1, 0.9, 50)


def _curve(scenario: str, feature: str, slope: float, reps: int = 4, method: str = "m",
           jitter: float = 0.0, x: np.ndarray = GRID) -> pd.DataFrame:
    """Linear PDPs slope * x, one per repetition (rep r shifted by jitter * r in slope)."""
    return pd.DataFrame([{"scenario": scenario, "learner": "lm", "method": method, "rep": r,
                          "feature": feature, "x": xi, "value": (slope + jitter * r) * xi}
                         for r in range(reps) for xi in x])


def _row(kind: str, est: pd.DataFrame, scenario: str, method: str = "m", **params) -> dict:
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": scenario, "learner": "lm", "method": method}, **params}
    (row,) = CLAIMS.get(kind)(claim, Tables(ranked=pd.DataFrame(), truth={}, other=est))
    return row


def test_the_ratio_of_spans_sees_a_flattened_pdp():
    """A ``contrast`` of ``book_pdp.span`` by ``log_ratio``: the ratio of the mean spans of
    the two models' PDPs (0.8 (600 + 7.5) over 0.8 (1000 + 7.5) here)."""
    est = pd.concat([_curve("one", "temp", 1000.0, jitter=5.0),
                     _curve("both", "temp", 600.0, jitter=5.0)])
    args = {"statistic": "book_pdp.span", "feature": "temp", "test": "log_ratio",
            "than": {"scenario": "one"}}
    row = _row("contrast", est, "both", **args, compare="below")
    assert row["verdict"] == REPRODUCED and "ratio 0.603" in row["reproduced"]
    assert _row("contrast", est, "both", **args, compare="above")["verdict"] == NOT_REPRODUCED
    assert _row("contrast", est, "one", **{**args, "than": {"scenario": "both"}},
                compare="below")["verdict"] == NOT_REPRODUCED


def test_shape_gap_compares_curves_on_their_own_ranges():
    """Same line on different grids (temp vs atemp units): gap 0; half the slope: the RMS gap
    over the other curve's range is that of 0.5 u against u on [0, 1] (times range / range)."""
    atemp = GRID * 50 / 41
    est = pd.concat([_curve("m31", "temp", 1000.0),
                     _curve("m32", "atemp", 1000.0 * 41 / 50, x=atemp, method="a"),
                     _curve("half", "temp", 500.0)])
    args = {"feature": "temp", "statistic": "shape_gap", "value": 0.1, "compare": "below",
            "than": {"scenario": "m32", "feature": "atemp", "method": "a"}}
    row = _row("book_pdp.bike_pdp_vs", est, "m31", **args)
    assert row["verdict"] == REPRODUCED and row["detectable"] == 0.0
    # 500 x vs 1000 x on the grid: gap 500 (x), RMS over u in [0, 1] relative to 800
    x = 0.1 + 0.8 * np.linspace(0, 1, 101)
    expected = np.sqrt(np.mean((500 * x) ** 2)) / 800
    row = _row("book_pdp.bike_pdp_vs", est, "half", **args)
    assert row["verdict"] == NOT_REPRODUCED and f"{expected:.4g}" in row["reproduced"]


def test_rise_sum_ratio_adds_two_features_effects():
    est = pd.concat([_curve("single", "temp", 1000.0),
                     _curve("both", "temp", 600.0), _curve("both", "atemp", 400.0, method="a"),
                     _curve("both2", "temp", 600.0), _curve("both2", "atemp", 100.0, method="a")])
    args = {"feature": "temp", "statistic": "rise_sum_ratio", "than": {"scenario": "single"},
            "plus": {"feature": "atemp", "method": "a"}, "value": 1.0, "atol": 0.05}
    assert _row("book_pdp.bike_pdp_vs", est, "both", **args)["verdict"] == REPRODUCED
    assert _row("book_pdp.bike_pdp_vs", est, "both2", **args)["verdict"] == NOT_REPRODUCED
    with pytest.raises(ValueError, match="needs plus"):
        _row("book_pdp.bike_pdp_vs", est, "both", **{**args, "plus": None})


def test_a_missing_curve_is_no_data():
    est = _curve("one", "temp", 1.0)
    row = _row("book_pdp.bike_pdp_vs", est, "one", feature="temp", than={"scenario": "two"},
               value=1.0)
    assert row["verdict"] == NO_DATA and "two" in row["reason"]


def _metrics(values: dict[str, float], reps: int = 2) -> pd.DataFrame:
    return pd.DataFrame([{"scenario": "s", "learner": "lm", "method": "m", "rep": r,
                          "metric": k, "value": v} for r in range(reps)
                         for k, v in values.items()])


def test_metric_and_top_pair():
    est = _metrics({"pearson:temp:atemp": 0.99, "kstar:season:mnth": 0.97,
                    "kstar:season:holiday": 0.05, "kstar:mnth:weathersit": 0.38})
    args = {"statistic": "metric", "metric": "pearson:temp:atemp", "compare": "above"}
    assert _row("contrast", est, "s", **args, value=0.95)["verdict"] == REPRODUCED
    assert _row("contrast", est, "s", **args, value=0.995)["verdict"] == NOT_REPRODUCED
    top = {"measure": "kstar", "pair": "season:mnth"}
    assert _row("book_pdp.bike_top_pair", est, "s", **top, ratio=0.5)["verdict"] == REPRODUCED
    assert _row("book_pdp.bike_top_pair", est, "s", **top, ratio=0.3)["verdict"] == NOT_REPRODUCED
    assert _row("book_pdp.bike_top_pair", est, "s", measure="kstar", pair="mnth:weathersit",
                ratio=0.9)["verdict"] == NOT_REPRODUCED


def test_association_matrix_is_symmetric_with_a_unit_diagonal():
    est = _metrics({"kstar:season:mnth": 0.97, "kstar:season:holiday": 0.05})
    m = pairs_matrix(est, "kstar", ["mnth", "season", "holiday"])
    assert m.loc["mnth", "season"] == m.loc["season", "mnth"] == pytest.approx(0.97)
    assert np.isnan(m.loc["mnth", "holiday"]) and (np.diag(m) == 1).all()


def test_the_figures_draw_from_synthetic_inputs(tmp_path):
    written = WrittenInputs(tmp_path)
    written.table("assoc", "lm", "b_assoc", "matrix",
                  _metrics({"pearson:temp:atemp": 0.99, "pearson:temp:cnt": 0.7,
                            "pearson:atemp:cnt": 0.7, "kstar:season:mnth": 0.9}))
    for scenario, feature, method, x in [("m1", "temp", "p_t", GRID),
                                         ("m2", "season", "p_s", np.arange(1.0, 5.0))]:
        written.table(scenario, "lm", method, "curves",
                      _curve(scenario, feature, 100.0, x=x).drop(columns=["scenario", "learner",
                                                                         "method"]))
    spec = {"title": "t", "caption": "c"}
    inputs = FigureInputs(written.paths, {"matrix": "b_assoc"}, ["assoc"])
    FIGURES.get("matrix")(
        inputs, {**spec, "params": {"measure": "pearson",
                                    "variables": ["temp", "atemp", "hum", "cnt"]}},
        tmp_path / "a.png", tmp_path / "a.pdf")
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="fewer than 2"):
        FIGURES.get("matrix")(
            inputs, {**spec, "params": {"measure": "kstar", "variables": ["season", "yr"]}},
            tmp_path / "b.png", tmp_path / "b.pdf")
    inputs = FigureInputs(written.paths, {"curves": ["p_t", "p_s"]}, ["m1", "m2"])
    params = {"learner": "lm", "levels": {"season": ["w", "sp", "su", "f"]}, "ncols": 2,
              "look": "book", "error_bars": "none", "share": "y", "truths": [],
              "panels": [{"scenario": "m1", "feature": "temp"},
                         {"scenario": "m2", "feature": "season"},
                         {"scenario": "m1", "feature": "season"}]}
    FIGURES.get("rep_curve_grid")(inputs, {**spec, "params": params}, tmp_path / "p.png",
                                  tmp_path / "p.pdf")
    assert (tmp_path / "p.pdf").read_bytes()[:4] == b"%PDF"
    with pytest.raises(ValueError, match="params.learner"):
        FIGURES.get("rep_curve_grid")(inputs, {**spec, "params": {
            **params, "learner": "rf"}}, tmp_path / "q.png", tmp_path / "q.pdf")
