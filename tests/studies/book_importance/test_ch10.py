"""Chapter 10 of the book (partial and individual importance): the illustration's numbers,
the ``ici`` method's derived output on the book's simulation 2 with its true function as the
model, and the figures on synthetic inputs written where the workflow puts them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_importance  # noqa: F401  (registers the kinds and figures)
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables

NAMES = ["x1", "x2", "x3"]


def _claim(**params) -> dict:
    return {"id": "c", "kind": "book_importance.toy", "text": "", "published": "",
            "where": {"scenario": "s", "learner": "rf", "method": "m"}, **params}


@pytest.mark.parametrize(("point", "value", "atol"), [
    (1, 0.17, 0.005), (2, 0.25, 0.005), (3, 0.533, 0.0005), (None, 0.317, 0.0005)])
def test_the_illustrations_printed_pi_and_pfi(point, value, atol):
    (row,) = CLAIMS.get("book_importance.toy")(_claim(point=point, value=value, atol=atol),
                                 Tables(pd.DataFrame(), {}, pd.DataFrame()))
    assert row["verdict"] == REPRODUCED
    (row,) = CLAIMS.get("book_importance.toy")(_claim(point=point, value=value + 0.01, atol=atol),
                                 Tables(pd.DataFrame(), {}, pd.DataFrame()))
    assert row["verdict"] == NOT_REPRODUCED
    with pytest.raises(ValueError, match="point must be one of"):
        CLAIMS.get("book_importance.toy")(_claim(point=4, value=value), Tables(pd.DataFrame(), {},
                                                                pd.DataFrame()))


class _Sim2:
    """Simulation 2's true function as the model."""

    def predict(self, X: np.ndarray) -> np.ndarray:
        x2 = X[:, 1]
        return X[:, 0] + 5 * x2 + 5 * x2 * (x2 > 2) * (X[:, 2] < 0.5)


def _ctx(n: int = 300, seed: int = 0) -> ExplainContext:
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.normal(0, 4, n), rng.integers(0, 2, n)])
    y = _Sim2().predict(X) + rng.normal(size=n)
    return ExplainContext(model=_Sim2(), X=X, y=y, feature_names=NAMES, dgp=None, fit=None,
                          fixed_rng=lambda label: np.random.default_rng(0))


def _ici(output: str, **params) -> pd.DataFrame:
    base = {"features": ["x2"], "n_values": 60, "loss": "squared", "data": "train",
            "n_rows": None, "output": output, "min_leaf": 7}
    return METHODS.get("ici")(_ctx(), {**base, **params}, np.random.default_rng(9))


def test_heterogeneity_output_derives_from_the_same_ici_curves():
    """The PI of side all is the mean of the curves the same draw gives; the stump splits
    x3 at 0.5 with the x3 = 0 rows the more important; within |x2| <= 4 the largest mean
    |d-ICI| is near the true jump at x2 = 2."""
    curves, het = _ici("curves"), _ici("heterogeneity")
    assert set(het["part"]) == {"dici", "split", "pi"}
    pi = het[(het["part"] == "pi") & (het["side"] == "all")]
    mean = curves.groupby("x")["value"].mean()
    np.testing.assert_allclose(pi.groupby("x")["value"].mean().to_numpy(), mean.to_numpy())
    split = het[het["part"] == "split"]
    assert set(split["split_feature"]) == {"x3"} and set(split["threshold"]) == {0.5}
    by_side = split.groupby("side")["value"].mean()
    # x3 = 1 rows: 25 E(v - x2)^2 = 25 * 2 * 16 = 800; the jump adds as much again at x3 = 0
    assert by_side["left"] > 1.5 * by_side["right"]
    # the true f keeps rising beyond the data (a forest would not), so the spike at the jump
    # is the largest only away from the ends
    d = het[(het["part"] == "dici") & (het["x"].abs() <= 4)]
    peak = d.assign(value=d["value"].abs()).groupby("x")["value"].mean().idxmax()
    assert abs(peak - 2) < 0.5


def test_n_rows_explains_a_subsample_and_curves_stay_unchanged():
    full = _ici("curves")
    assert full["row"].nunique() == 300 and full["x"].nunique() <= 60
    sub = _ici("curves", n_rows=50)
    assert sub["row"].nunique() == 50


def _inputs(tmp_path, scenarios: list[str]) -> FigureInputs:
    w = WrittenInputs(tmp_path)
    for scenario in scenarios:
        for rep in range(2):
            ctx = _ctx(seed=rep)
            for method, output in (("ici", "curves"), ("het", "heterogeneity")):
                est = METHODS.get("ici")(ctx, {"features": ["x2"], "n_values": 40,
                                               "loss": "squared", "data": "train",
                                               "n_rows": 80, "output": output,
                                               "min_leaf": 7}, np.random.default_rng(rep))
                role = "curves" if output == "curves" else "heterogeneity"
                w.table(scenario, "rf", method, role, est.assign(rep=rep))
    return FigureInputs(w.paths, w.methods, scenarios)


@pytest.mark.parametrize(("name", "params"), [
    ("book_importance.pi_ici", {"highlight": {"a": "yes"}, "labels": {"a": "sim 2"}}),
    ("book_importance.dici", {"xlim": [-5, 10]}),
    ("book_importance.stump", {}),
    ("book_importance.conditional_pi", {}),
])
def test_figures_draw_one_row_per_scenario(tmp_path, name, params):
    inputs = _inputs(tmp_path, ["a", "b"])
    FIGURES.get(name)(inputs, {"title": "t", "caption": "c", "params": params},
                      tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"


def test_the_illustration_reads_nothing(tmp_path):
    FIGURES.get("book_importance.ici_toy")(FigureInputs({}, {}, ["a"]),
                                           {"title": "t", "caption": "c", "params": {}},
                                           tmp_path / "t.png", tmp_path / "t.pdf")
    assert (tmp_path / "t.pdf").read_bytes()[:4] == b"%PDF"
