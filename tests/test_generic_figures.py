"""The generic figures (:mod:`imlbench.figures.generic`) draw from synthetic estimate and
truth tables in both truth layouts (estimand column ``kind`` or ``estimand``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.io import write_parquet

SPEC = {"title": "test", "caption": "test"}


def _write(table: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_parquet(table, path, config_hash="test", seed=0)
    return path


def _curves(tmp_path: Path, column: str) -> dict[str, list[Path]]:
    x = np.linspace(0, 1, 11)
    est = pd.concat([pd.DataFrame({"scenario": "s", "learner": "lm", "method": "pdp",
                                   "rep": rep, "feature": f, "x": x, "value": 2 * x + rep})
                     for rep in range(3) for f in ("x1", "x2")])
    truth = pd.concat([pd.DataFrame({"scenario": "s", column: kind, "feature": f, "row": -1,
                                     "x": x, "value": 2 * x})
                       for kind in ("pd", "ale") for f in ("x1", "x2")])
    return {"estimates": [_write(est, tmp_path / "estimates/s/lm/pdp/c0.parquet")],
            "truth": [_write(truth, tmp_path / "truth/s/effects.parquet")]}


@pytest.mark.parametrize("column", ["kind", "estimand"])
def test_effects_figure(tmp_path, column):
    inputs = FigureInputs(_curves(tmp_path, column), {"effects": ["pdp"]}, ["s"])
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    FIGURES.get("effects").draw(inputs, SPEC, png, pdf)
    assert png.read_bytes()[:4] == b"\x89PNG" and pdf.read_bytes()[:4] == b"%PDF"


def test_importance_figure(tmp_path):
    est = pd.DataFrame({"scenario": "s", "learner": "rf", "method": "pfi",
                        "rep": np.repeat(range(4), 3), "feature": ["x1", "x2", "x3"] * 4,
                        "value": np.tile([2.0, 1.0, 0.0], 4)})
    truth = pd.DataFrame({"scenario": "s", "feature": ["x1", "x2", "x3"],
                          "marginal": [2.0, 1.0, 0.0], "conditional": [1.5, 0.5, 0.0]})
    paths = {"estimates": [_write(est, tmp_path / "estimates/s/rf/pfi/c0.parquet")],
             "truth": [_write(truth, tmp_path / "truth/s/importance.parquet")]}
    inputs = FigureInputs(paths, {"importance": ["pfi"]}, ["s"])
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    FIGURES.get("importance").draw(inputs, SPEC, png, pdf)
    assert png.stat().st_size > 0 and pdf.stat().st_size > 0
