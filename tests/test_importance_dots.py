"""The layer's importance dots (:mod:`imlbench.figures.importance`): the summaries it draws,
its facets, the places panel, the reported spread of one repetition, and its declared
parameters, on synthetic importances."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.figures import FIGURES
from imlbench.figures.importance import (
    facet_column,
    level_name,
    mean_places,
    over_repetitions,
    reps_text,
)
from imlbench.figures.inputs import FigureInputs
from imlbench.io import write_parquet
from imlbench.params import ParamError, check_all

NOISE = [0.0, 0.1, -0.1, 0.05]
VALUES = {"x1": 3.0, "x2": 2.0, "x3": 1.0}


def _importances(scenario: str, method: str = "pfi", learner: str = "rf", shift: float = 0.0,
                 reps: int = 4, **columns: object) -> pd.DataFrame:
    return pd.DataFrame([{"scenario": scenario, "learner": learner, "method": method,
                          "rep": r, "feature": f, "value": v + shift + NOISE[r], **columns}
                         for f, v in VALUES.items() for r in range(reps)])


def _inputs(tmp_path: Path, tables: list[pd.DataFrame]) -> FigureInputs:
    paths, methods = [], []
    for t in tables:
        sc, lrn, m = t[["scenario", "learner", "method"]].iloc[0]
        path = tmp_path / "estimates" / sc / lrn / m / "c0.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_parquet(t, path, config_hash="test", seed=0)
        paths.append(path)
        methods.append(m)
    scenarios = list(dict.fromkeys(t["scenario"].iloc[0] for t in tables))
    return FigureInputs({"estimates": paths}, {"importance": list(dict.fromkeys(methods))},
                        scenarios)


def _draw(inputs: FigureInputs, tmp_path: Path, **params) -> None:
    spec = FIGURES.get("importance_dots")
    check_all(spec.params, params)
    spec(inputs, {"title": "t", "caption": "c", "params": params}, tmp_path / "f.png",
         tmp_path / "f.pdf")


def test_over_repetitions_is_the_centre_and_the_quantiles():
    rows = _importances("s")
    out = over_repetitions(rows, "median", [0.05, 0.95]).set_index("feature")
    x1 = rows.loc[rows["feature"] == "x1", "value"]
    assert out.loc["x1", "centre"] == pytest.approx(x1.median())
    assert out.loc["x1", "low"] == pytest.approx(np.quantile(x1, 0.05))
    assert out.loc["x1", "high"] == pytest.approx(np.quantile(x1, 0.95))


def test_places_are_one_for_the_most_important_and_share_ties():
    rows = pd.DataFrame({"scenario": "s", "learner": "rf", "method": "m", "rep": [0, 0, 0],
                         "feature": ["a", "b", "c"], "value": [1.0, 2.0, 2.0]})
    places = mean_places(rows, None).set_index("feature")["place"]
    assert places.to_dict() == {"a": 3.0, "b": 1.5, "c": 1.5}


def test_facets_name_their_columns_and_values():
    rows = _importances("s", p_rho=0.5)
    assert facet_column(rows, "none") is None
    assert facet_column(rows, "rho") == "p_rho"
    with pytest.raises(ValueError, match="allowed: none, scenario, method, learner, rho"):
        facet_column(rows, "noise")
    assert level_name(0.5, "p_rho", {}) == "rho = 0.5"
    assert level_name(0.5, "p_rho", {"0.5": "half"}) == "half"
    assert level_name("s", "scenario", {}) == "s"


def test_reps_count_each_group():
    rows = pd.concat([_importances("a"), _importances("b", reps=2)])
    assert reps_text(rows, "scenario") == "2-4"
    assert reps_text(rows[rows["scenario"] == "a"], None) == "4"


def test_panels_by_scenario_and_method_with_their_titles(tmp_path, drawn):
    inputs = _inputs(tmp_path, [_importances(s, m, shift=i) for i, s in enumerate(("a", "b"))
                                for m in ("test", "train")])
    _draw(inputs, tmp_path, rows="scenario", columns="method", names={"test": "test rows"},
          panel_title="{row}: {column} ({reps} reps, {low:.0%}-{high:.0%})")
    (fig,) = drawn
    assert [ax.get_title() for ax in fig.axes] == [
        "a: test rows (4 reps, 5%-95%)", "a: train (4 reps, 5%-95%)",
        "b: test rows (4 reps, 5%-95%)", "b: train (4 reps, 5%-95%)"]
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == ["x1", "x2", "x3"]  # top first: the most important


def test_groups_in_colour_a_fixed_order_and_the_places_beside(tmp_path, drawn):
    inputs = _inputs(tmp_path, [_importances("a"), _importances("b", shift=1.0)])
    _draw(inputs, tmp_path, groups="scenario", centre="mean", order=["x3", "x2", "x1"],
          colours=["#ff0000", "#00ff00"], names={"a": "first"}, log_scale=True,
          legend_title="mean over {reps} splits", places={"references": [2.0]})
    (fig,) = drawn
    dots, places = fig.axes
    assert [t.get_text() for t in dots.get_yticklabels()] == ["x3", "x2", "x1"]
    legend = dots.get_legend()
    assert legend.get_title().get_text() == "mean over 4 splits"
    assert [t.get_text() for t in legend.get_texts()] == ["first", "b"]
    assert dots.get_xscale() == "log"
    assert [t.get_text() for t in places.get_xticklabels()] == ["first", "b"]
    assert places.get_ylim()[0] > places.get_ylim()[1]  # place 1 on top


def test_a_reported_spread_draws_the_first_repetition_and_the_others(tmp_path, drawn):
    rows = _importances("s").assign(lower=lambda t: t["value"] - 0.2,
                                    upper=lambda t: t["value"] + 0.2, lower_q=0.05,
                                    upper_q=0.95, n_repeats=5)
    _draw(_inputs(tmp_path, [rows]), tmp_path, spread="reported", labels={"x1": "one"},
          first_label="first: {low:.0%}-{high:.0%} of {n_repeats}",
          others_label="{others} others")
    (fig,) = drawn
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["3 others",
                                                                  "first: 5%-95% of 5"]
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "one"


def test_one_learner_or_none(tmp_path):
    inputs = _inputs(tmp_path, [_importances("s")])
    with pytest.raises(ValueError, match="no importances of learner 'svm'"):
        _draw(inputs, tmp_path, learner="svm")
    with pytest.raises(ValueError, match="have no lower, upper"):
        _draw(inputs, tmp_path, spread="reported")


def test_the_parameters_are_declared():
    params = FIGURES.get("importance_dots").params
    check_all(params, {"places": {"references": [1, 3], "colours": {"x1": "red"}}})
    with pytest.raises(ParamError, match="places: unknown parameter"):
        check_all(params, {"places": {"refs": [1]}})
    with pytest.raises(ParamError, match="centre"):
        check_all(params, {"centre": "mode"})
