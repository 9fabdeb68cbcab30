"""A new study needs its YAML, its folder and its tests, and nothing else: a ninth study (a
formula DGP, one figure from a layer drawer, two claims through ``contrast``: one on a layer
statistic, one on a statistic of its own folder) is added to a copy of the project and runs
through the smoke profile into its scorecard, figure and site page, with no other file of the
project edited."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from workflow_runs import SMOKE, VENV_BIN, copy_project, environment, error_logs, tail

from imlbench.io import read_parquet

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]

STUDY = {
    "title": "A ninth study, added as a user would",
    "reference": "imlbench test study (no paper)",
    "description": "A linear model on a correlated normal pair: PD and ALE against each other.",
    "learners": {"lm": {"learner": "lm"}},
    "methods": {"pdp": {"method": "pdp", "params": {"grid": {"kind": "quantile", "size": 11}}},
                "ale": {"method": "ale", "params": {"intervals": {"kind": "quantile",
                                                                  "size": 10}}}},
    "scenarios": {"linear": {
        "description": "f = 2 x1 + x2, (x1, x2) normal with correlation 0.7.",
        "dgp": "formula",
        "params": {"features": {"x1": {"law": "normal", "mean": 0, "sd": 1},
                                "x2": {"law": "normal", "mean": 0, "sd": 1}},
                   "dependence": {"features": ["x1", "x2"],
                                  "correlation": [[1, 0.7], [0.7, 1]]},
                   "f": "2*x1 + x2", "noise_sd": 0.5},
        "n": {"smoke": 300, "default": 1000, "paper": 1000},
        "reps": {"smoke": 3, "default": 20, "paper": 50},
        "learners": ["lm"], "methods": ["pdp", "ale"]}},
    "figures": {"fig_effects": {
        "function": "curve_grid", "scenarios": ["linear"], "methods": {"curves": ["pdp", "ale"]},
        "title": "PD and ALE", "caption": "PD and ALE of each feature against the truths."}},
    "claims": [
        {"id": "pd-slope-is-2", "kind": "contrast", "figure": "fig_effects",
         "source": "derived", "text": "The PD of x1 of a linear model has slope 2.",
         "published": "f = 2 x1 + x2", "where": {"scenario": "linear", "learner": "lm",
                                                 "method": "pdp"},
         "statistic": "curve_slope", "feature": "x1", "range": [-1, 1], "test": "one_sample",
         "value": 2.0, "atol": 0.05},
        {"id": "pd-and-ale-span-alike", "kind": "contrast", "figure": "fig_effects",
         "source": "derived", "text": "For a linear model PD and ALE of x1 span the same range.",
         "published": "f = 2 x1 + x2", "where": {"scenario": "linear", "learner": "lm",
                                                 "method": "pdp"},
         "statistic": "ninth.span", "feature": "x1", "test": "paired",
         "than": {"method": "ale"}, "value": 0.0, "atol": 0.5},
    ],
}
#: the study's own folder: one statistic
PACKAGE = '''"""The ninth study's statistic: the span of a curve."""

from imlbench.metrics.claims import NoData
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.statistics import cell_curves
from imlbench.params import feature_name


@statistic("ninth.span", params={"feature": feature_name()})
def span(cell: Cell, t):
    """max - min of the curve of ``feature``, per repetition."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    return Sample(curves.max(axis=1) - curves.min(axis=1), f"span of {cell.params['feature']}")
'''


def _files(root: Path) -> dict[str, bytes]:
    """The project's files under ``root`` (configuration, code, workflow) and their bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for d in ("config", "src", "workflow") for p in sorted((root / d).rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def test_a_ninth_study_needs_its_yaml_and_its_folder_only(tmp_path):
    root = copy_project(tmp_path / "project")
    before = _files(root)
    (root / "config" / "studies" / "ninth.yaml").write_text(yaml.safe_dump(STUDY))
    package = root / "src" / "imlbench" / "studies" / "ninth"
    package.mkdir()
    (package / "__init__.py").write_text(PACKAGE)
    # the copy's package is the project's (a user's clone has its own installed)
    res = subprocess.run([str(VENV_BIN / "snakemake"), *SMOKE, "studies=[ninth]"], cwd=root,
                         env={**environment(), "PYTHONPATH": str(root / "src")},
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"{tail(res)}\n{error_logs(root)}"
    card = read_parquet(root / "results" / "ninth" / "scorecard.parquet")
    assert list(card["claim"]) == ["pd-slope-is-2", "pd-and-ale-span-alike"]
    assert card["verdict"].isin(
        ["reproduced", "consistent", "not reproduced", "inconclusive"]).all()
    assert "paired difference" in card["reproduced"].iloc[1]
    assert (root / "results" / "ninth" / "figures" / "fig_effects.png").stat().st_size > 0
    page = (root / "results" / "site" / "study-ninth.html").read_text()
    assert ("contrast/paired of ninth.span in src/imlbench/metrics/contrasts.py, "
            "src/imlbench/studies/ninth/__init__.py") in page
    after = _files(root)
    changed = {f for f in before.keys() | after.keys() if before.get(f) != after.get(f)}
    assert changed == {"config/studies/ninth.yaml", "src/imlbench/studies/ninth/__init__.py"}
