"""The layer's figures (:mod:`imlbench.figures.generic`) and curve rules
(:mod:`imlbench.figures.curves`), from synthetic estimate and truth tables in the one truth
shape; a study file draws them with no Python of its own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from imlbench.curves import anchored, mean_band, on_common_grid, rep_curves
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.io import write_parquet

SPEC = {"title": "test", "caption": "test"}
DEMO = Path(__file__).parent / "study_files" / "formula_demo.yaml"


def _write(table: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_parquet(table, path, config_hash="test", seed=0)
    return path


def _truth_rows(estimand: str, feature: str, x: np.ndarray, value: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"scenario": "s", "estimand": estimand, "feature": feature, "row": -1,
                         "x": x, "value": value, "se": 0.0})


def _curves(tmp_path: Path, method: str, rows: int = 0) -> dict[str, list[Path]]:
    x = np.linspace(0, 1, 11)
    est = pd.concat([pd.DataFrame({"scenario": "s", "learner": "lm", "method": method,
                                   "rep": rep, "feature": f, "row": row, "x": x,
                                   "value": 2 * x + rep + row})
                     for rep in range(3) for f in ("x1", "x2") for row in range(max(1, rows))])
    truth = pd.concat([_truth_rows(e, f, x, 2 * x) for e in ("pd", "ale") for f in ("x1", "x2")])
    return {"estimates": [_write(est, tmp_path / f"estimates/s/lm/{method}/c0.parquet")],
            "truth": [_write(truth, tmp_path / "truth/s/effects.parquet")]}


def _draw(name: str, inputs: FigureInputs, tmp_path: Path, **params) -> None:
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    FIGURES.get(name)(inputs, {**SPEC, "params": params}, png, pdf)
    assert png.read_bytes()[:4] == b"\x89PNG" and pdf.read_bytes()[:4] == b"%PDF"


@pytest.mark.parametrize("show", ["average", "individual", "both"])
@pytest.mark.parametrize("anchor", ["mean", "first", "none"])
def test_curve_grid_of_pd_and_ice(tmp_path, show, anchor):
    inputs = FigureInputs(_curves(tmp_path, "ice", rows=4), {"curves": ["ice"]}, ["s"],
                          method_kinds={"ice": "ice"}, learner_kinds={"lm": "lm"},
                          estimands={"ice": "pd"})
    _draw("curve_grid", inputs, tmp_path, show=show, anchor=anchor)


def test_curve_grid_draws_the_truths_asked_for(tmp_path):
    inputs = FigureInputs(_curves(tmp_path, "pdp"), {"curves": ["pdp"]}, ["s"])
    _draw("curve_grid", inputs, tmp_path, truths=["pd", "ale"])


@pytest.mark.parametrize("kind", ["bars", "box"])
def test_importance_bars(tmp_path, kind):
    est = pd.DataFrame({"scenario": "s", "learner": "rf", "method": "pfi",
                        "rep": np.repeat(range(4), 3), "feature": ["x1", "x2", "x3"] * 4,
                        "value": np.tile([2.0, 1.0, 0.0], 4) + np.repeat(range(4), 3) / 10})
    truth = pd.concat([_truth_rows(e, f, np.array([np.nan]), np.array([v]))
                       for e, values in (("pfi_marginal", [2.0, 1.0, 0.0]),
                                         ("pfi_conditional", [1.5, 0.5, 0.0]))
                       for f, v in zip(("x1", "x2", "x3"), values, strict=True)])
    paths = {"estimates": [_write(est, tmp_path / "estimates/s/rf/pfi/c0.parquet")],
             "truth": [_write(truth, tmp_path / "truth/s/importance.parquet")]}
    inputs = FigureInputs(paths, {"importance": ["pfi"]}, ["s"], method_kinds={"pfi": "pfi"},
                          learner_kinds={"rf": "rf"})
    _draw("importance_bars", inputs, tmp_path, kind=kind)


def test_the_demo_study_draws_its_figures_with_layer_functions_only():
    """The YAML-only study names a PD/ICE curve grid and an importance bar figure, and every
    figure function it names belongs to no study."""
    figures = yaml.safe_load(DEMO.read_text())["figures"]
    functions = {spec["function"] for spec in figures.values()}
    assert {"curve_grid", "importance_bars"} <= functions
    assert any(spec.get("params", {}).get("show") == "both" for spec in figures.values())
    assert all(FIGURES.owner(f) is None for f in functions)


def test_curves_on_different_grids_are_averaged_on_their_common_span():
    est = pd.DataFrame({"rep": [0, 0, 0, 1, 1, 1], "x": [0.0, 1.0, 2.0, 0.5, 1.5, 2.5],
                        "value": [0.0, 1.0, 2.0, 0.5, 1.5, 2.5]})
    curves = on_common_grid(rep_curves(est))
    x, mean, se = mean_band(curves)
    assert x.min() == 0.5 and x.max() == 2.0
    np.testing.assert_allclose(mean, x)  # both repetitions lie on y = x
    np.testing.assert_allclose(se, 0.0, atol=1e-12)


def test_anchors():
    curves = pd.DataFrame([[1.0, 2.0, 3.0]], columns=[0.0, 1.0, 2.0])
    np.testing.assert_allclose(anchored(curves, "first").to_numpy(), [[0.0, 1.0, 2.0]])
    np.testing.assert_allclose(anchored(curves, "mean").to_numpy(), [[-1.0, 0.0, 1.0]])
    np.testing.assert_allclose(anchored(curves, "mean", (1.0, 2.0)).to_numpy(),
                               [[-1.5, -0.5, 0.5]])
    np.testing.assert_allclose(anchored(curves, "none").to_numpy(), curves.to_numpy())
    with pytest.raises(ValueError, match="allowed: mean, first, none"):
        anchored(curves, "median")
