"""Chapter 11 of the book (PFI on training against test data): the statistics of places and
ranges through ``contrast`` (each on a case that holds and one that fails) and the figures on
synthetic inputs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_importance  # noqa: F401  (registers the method, kinds, figures)
from imlbench.config import load_study, study_path
from imlbench.figures import FIGURES
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.metrics.ranks import add_ranks


def _ranked(values: dict[str, list[float]], learner: str = "l", method: str = "test",
            scenario: str = "s") -> pd.DataFrame:
    """Importances by feature, one entry per repetition, ranked as the summaries rank them."""
    rows = [{"scenario": scenario, "learner": learner, "method": method, "rep": r,
             "feature": f, "value": v} for f, vs in values.items() for r, v in enumerate(vs)]
    return add_ranks(pd.DataFrame(rows))


def _row(statistic: str, ranked: pd.DataFrame, learner: str = "l", method: str = "test",
         **params) -> dict:
    """The row of a ``contrast`` claim on the study's ``statistic``."""
    claim = {"id": "c", "kind": "contrast", "text": "", "published": "",
             "statistic": f"book_importance.{statistic}",
             "where": {"scenario": "s", "learner": learner, "method": method}, **params}
    (row,) = CLAIMS.get("contrast")(claim, Tables(ranked=ranked, truth={}, other=ranked))
    return row


NOISE = [0.0, 0.02, -0.02, 0.01, -0.01, 0.03]
FOUR = {"x4": [2.4 + e for e in NOISE], "x2": [1.9 + e for e in NOISE],
        "x1": [1.5 - e for e in NOISE], "x3": [1.05 + e / 2 for e in NOISE]}


def test_a_place_against_one_runs_place_is_a_prediction_interval():
    r = _ranked(FOUR)
    third = {"feature": "x1", "test": "prediction"}
    assert _row("place", r, **third, value=3)["verdict"] == REPRODUCED  # 3rd always
    assert _row("place", r, **third, value=1)["verdict"] == NOT_REPRODUCED


def test_ranges_compare_across_methods_and_learners():
    test = _ranked(FOUR)  # range 1.35
    train = _ranked({f: [2 * v - 1 for v in vs] for f, vs in FOUR.items()}, method="train")
    over_test = _ranked(FOUR, learner="o")
    over_train = _ranked({f: [3 * v - 2 for v in vs] for f, vs in FOUR.items()}, learner="o",
                         method="train")
    both = pd.concat([test, train, over_test, over_train])
    wider = {"test": "paired", "than": {"method": "test"}, "compare": "above"}
    assert _row("importance_stat", both, method="train", **wider)["verdict"] == REPRODUCED
    assert _row("importance_stat", both, method="test", test="paired",
                than={"method": "train"}, compare="above")["verdict"] == NOT_REPRODUCED
    # the train-test gap of the overfitted fit against the well-fitted one's
    gap = {"minus_method": "test", "test": "paired", "than": {"learner": "l"},
           "compare": "above"}
    row = _row("importance_stat", both, learner="o", method="train", **gap)
    assert row["verdict"] == REPRODUCED and "range(o/train) - range(o/test)" in row["reproduced"]
    assert _row("importance_stat", both, learner="l", method="train",
                **{**gap, "than": {"learner": "o"}})["verdict"] == NOT_REPRODUCED
    top = {"stat": "max", "test": "prediction", "atol": 0.05}
    assert _row("importance_stat", both, value=2.4, **top)["verdict"] == REPRODUCED
    assert _row("importance_stat", both, value=3.0, **top)["verdict"] == NOT_REPRODUCED
    gone = _row("importance_stat", both, minus_method="valid")
    assert gone["verdict"] == "no data" and "s/l/valid" in gone["reason"]


def test_train_test_pfi_draws_scenarios_by_methods(tmp_path, monkeypatch):
    """The study's entry of Fig. 11.6 (the layer's importance_dots): rows of scenarios, columns
    of methods, each panel the median and 5%-95% range over the repetitions, sorted."""
    import matplotlib.pyplot as plt

    w = WrittenInputs(tmp_path)
    for scenario in ("a", "b"):
        for method in ("test", "train"):
            w.table(scenario, "l", method, "importance", _ranked(FOUR, method=method,
                                                                 scenario=scenario))
    inputs = FigureInputs(w.paths, w.methods, ["a", "b"])
    entry = load_study(study_path(Path(__file__).parents[3], "book_importance"),
                       "smoke").figures["fig_11_6"]
    params = {**entry["params"], "learner": "l", "names": {"test": "test rows", "a": "text"}}
    spec = {"title": "t", "caption": "c", "params": params}
    drawn = []
    monkeypatch.setattr(st, "save", lambda fig, *_: drawn.append(fig))
    FIGURES.get("importance_dots")(inputs, spec, tmp_path / "f.png", tmp_path / "f.pdf")
    (fig,) = drawn
    assert [ax.get_title() for ax in fig.axes] == [
        "text: test rows (6 reps)", "text: train (6 reps)", "b: test rows (6 reps)",
        "b: train (6 reps)"]
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["x4", "x2", "x1", "x3"]
    plt.close(fig)
    with pytest.raises(ValueError, match="no importances of learner"):
        FIGURES.get("importance_dots")(
            inputs, {**spec, "params": {**params, "learner": "x"}}, tmp_path / "g.png",
            tmp_path / "g.pdf")


@pytest.mark.parametrize("name", ["book_importance.gbm_schematic",
                                  "book_importance.correlation_schematic"])
def test_schematics_read_nothing(tmp_path, name):
    inputs = FigureInputs({}, {}, ["a"])
    FIGURES.get(name)(inputs, {"title": "t", "caption": "c", "params": {}},
                      tmp_path / "s.png", tmp_path / "s.pdf")
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"
