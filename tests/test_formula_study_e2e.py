"""A study written in YAML alone (``tests/study_files/formula_demo.yaml``: formula DGPs with
a correlated normal pair, an interaction and a structural equation model) runs through the
smoke profile: automatic truths, the generic figures, the estimate-vs-truth table and claims.
A wrong expression stops the dry run with the file, the key and the token."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from workflow_runs import SMOKE, copy_project, error_logs, snakemake, tail

from imlbench.io import read_parquet

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]

STUDY = Path(__file__).parent / "study_files" / "formula_demo.yaml"
ONLY = "studies=[formula_demo]"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("formula"))
    (root / "config" / "studies" / STUDY.name).write_text(STUDY.read_text())
    return root


def test_a_yaml_only_study_runs_through_the_smoke_profile(project):
    res = snakemake(project, *SMOKE, ONLY, timeout=900)
    assert res.returncode == 0, f"{tail(res)}\n{error_logs(project)}"
    base = project / "results" / "formula_demo"
    # a PD/ICE curve grid and an importance bar figure, drawn by layer functions alone
    for fig in ("fig_effects", "fig_ice", "fig_importance"):
        assert (base / "figures" / f"{fig}.png").stat().st_size > 0
    for scenario in ("linear", "interaction", "sem"):
        effects = read_parquet(base / "truth" / scenario / "effects.parquet")
        assert {"pd", "conditional", "ale"} <= set(effects["estimand"])
    sem = read_parquet(base / "truth" / "sem" / "effects.parquet")
    assert "interventional" in set(sem["estimand"])
    errors = read_parquet(base / "metrics" / "truth_errors.parquet")
    assert {"pdp", "ale", "pfi", "cpfi"} <= set(errors["method"])
    card = read_parquet(base / "scorecard.parquet")
    assert set(card["claim"]) == {"lm-pd-matches-truth", "lm-pfi-matches-truth",
                                  "rf-ale-closer-than-pd"}
    # every claim is scored (a one-sided comparison on the smoke profile's few repetitions
    # may straddle its bound: inconclusive)
    assert card["verdict"].isin(
        ["reproduced", "consistent", "not reproduced", "inconclusive"]).all()
    assert (card["power"] != "").all()


@pytest.mark.parametrize(("expression", "token"), [
    ("__import__('os').system('touch HACKED')", "__import__"),
    ("x1.__class__", "__class__"),
    ("2*x1 + x9", "x9"),
    ("2*x1 +", "syntax"),
])
def test_a_wrong_expression_stops_the_dry_run(project, expression, token):
    path = project / "config" / "studies" / STUDY.name
    original = path.read_text()
    doc = yaml.safe_load(original)
    doc["scenarios"]["linear"]["params"]["f"] = expression
    try:
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        res = snakemake(project, "-n", *SMOKE, ONLY, timeout=300)
    finally:
        path.write_text(original)
    message = res.stdout + res.stderr
    assert res.returncode != 0
    assert "formula_demo.yaml" in message and "scenarios.linear.params.f" in message
    assert token in message
    assert not list(project.rglob("HACKED"))
