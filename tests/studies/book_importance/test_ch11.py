"""Chapter 11 of the book (PFI on training against test data): the claim kinds on orders,
places and ranges (each on a case that holds and one that fails) and the figures on synthetic
inputs."""

from __future__ import annotations

import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_importance  # noqa: F401  (registers the method, kinds, figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.metrics.ranks import add_ranks


def _ranked(values: dict[str, list[float]], learner: str = "l", method: str = "test",
            scenario: str = "s") -> pd.DataFrame:
    """Importances by feature, one entry per repetition, ranked as the summaries rank them."""
    rows = [{"scenario": scenario, "learner": learner, "method": method, "rep": r,
             "feature": f, "value": v} for f, vs in values.items() for r, v in enumerate(vs)]
    return add_ranks(pd.DataFrame(rows))


def _row(kind: str, ranked: pd.DataFrame, learner: str = "l", method: str = "test",
         **params) -> dict:
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": "s", "learner": learner, "method": method}, **params}
    (row,) = CLAIMS.get(kind)(claim, Tables(ranked=ranked, truth={}, other=ranked))
    return row


NOISE = [0.0, 0.02, -0.02, 0.01, -0.01, 0.03]
FOUR = {"x4": [2.4 + e for e in NOISE], "x2": [1.9 + e for e in NOISE],
        "x1": [1.5 - e for e in NOISE], "x3": [1.05 + e / 2 for e in NOISE]}


def test_tt_place_is_a_prediction_interval_of_one_runs_place():
    r = _ranked(FOUR)
    assert _row("tt_place", r, feature="x1", value=3)["verdict"] == REPRODUCED  # 3rd always
    assert _row("tt_place", r, feature="x1", value=1)["verdict"] == NOT_REPRODUCED


def test_tt_range_compares_ranges_across_methods_and_learners():
    test = _ranked(FOUR)  # range 1.35
    train = _ranked({f: [2 * v - 1 for v in vs] for f, vs in FOUR.items()}, method="train")
    over_test = _ranked(FOUR, learner="o")
    over_train = _ranked({f: [3 * v - 2 for v in vs] for f, vs in FOUR.items()}, learner="o",
                         method="train")
    both = pd.concat([test, train, over_test, over_train])
    wider = {"than_method": "test", "value": 0.0, "compare": "above"}
    assert _row("tt_range", both, method="train", **wider)["verdict"] == REPRODUCED
    assert _row("tt_range", both, method="test", than_method="train", value=0.0,
                compare="above")["verdict"] == NOT_REPRODUCED
    gap = {**wider, "than_learner": "l"}
    row = _row("tt_range", both, learner="o", method="train", **gap)
    assert row["verdict"] == REPRODUCED and "range(o/train) - range(o/test)" in row["reproduced"]
    assert _row("tt_range", both, learner="l", method="train",
                **{**gap, "than_learner": "o"})["verdict"] == NOT_REPRODUCED
    top = {"statistic": "max", "interval": "prediction", "compare": "equal", "atol": 0.05}
    assert _row("tt_range", both, value=2.4, **top)["verdict"] == REPRODUCED
    assert _row("tt_range", both, value=3.0, **top)["verdict"] == NOT_REPRODUCED


def test_train_test_pfi_draws_scenarios_by_methods(tmp_path):
    w = WrittenInputs(tmp_path)
    for scenario in ("a", "b"):
        for method in ("test", "train"):
            w.table(scenario, "l", method, "importance", _ranked(FOUR, method=method,
                                                                 scenario=scenario))
    inputs = FigureInputs(w.paths, w.methods, ["a", "b"])
    spec = {"title": "t", "caption": "c", "params": {"learner": "l",
                                                      "titles": {"test": "test rows"}}}
    FIGURES.get("book_importance.train_test_pfi")(inputs, spec, tmp_path / "f.png",
                                                  tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="no importances of learner"):
        FIGURES.get("book_importance.train_test_pfi")(
            inputs, {**spec, "params": {"learner": "x"}}, tmp_path / "g.png",
            tmp_path / "g.pdf")


@pytest.mark.parametrize("name", ["book_importance.gbm_schematic",
                                  "book_importance.correlation_schematic"])
def test_schematics_read_nothing(tmp_path, name):
    inputs = FigureInputs({}, {}, ["a"])
    FIGURES.get(name)(inputs, {"title": "t", "caption": "c", "params": {}},
                      tmp_path / "s.png", tmp_path / "s.pdf")
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"
