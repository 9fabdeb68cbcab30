"""The whole workflow on the smoke profile, in a scratch copy of the project.

Runs ``snakemake --cores 2 --config profile=smoke`` (minutes), checks that every figure of
every enabled study, the scorecards, rank tables and coverage summaries exist, that a
second dry run has nothing to do, and that ``snakemake --report`` builds the report.
Deselect with ``pytest -m "not e2e"``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from imlbench.explain.api import METHODS
from imlbench.io import read_parquet
from imlbench.validate import check_config

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"

pytestmark = pytest.mark.e2e


def _snakemake(workdir: Path, *args: str, timeout: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)  # jobs must import the project's src, nothing else
    return subprocess.run(
        [str(VENV_BIN / "snakemake"), *args], cwd=workdir, env=env,
        capture_output=True, text=True, timeout=timeout,
    )


def _tail(res: subprocess.CompletedProcess, n: int = 60) -> str:
    return "\n".join((res.stdout + res.stderr).splitlines()[-n:])


def _logs(workdir: Path, n: int = 30) -> str:
    """The last lines of every job log that mentions an error (for the failure message)."""
    out = []
    for log in sorted((workdir / "results").rglob("*.log")):
        text = log.read_text(errors="replace")
        if "Error" in text or "Traceback" in text:
            out.append(f"--- {log.relative_to(workdir)}\n" + "\n".join(text.splitlines()[-n:]))
    return "\n".join(out)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    wd = tmp_path_factory.mktemp("e2e")
    shutil.copy(REPO / "Snakefile", wd / "Snakefile")
    shutil.copy(REPO / "environment.yml", wd / "environment.yml")
    shutil.copytree(REPO / "config", wd / "config")
    shutil.copytree(REPO / "workflow", wd / "workflow")
    (wd / "src").symlink_to(REPO / "src")
    return wd


@pytest.fixture(scope="module")
def smoke_run(workdir: Path) -> subprocess.CompletedProcess:
    res = _snakemake(workdir, "--cores", "2", "--config", "profile=smoke", timeout=1500)
    assert res.returncode == 0, f"{_tail(res)}\n{_logs(workdir)}"
    return res


def _expected_outputs(workdir: Path) -> list[Path]:
    cfg = __import__("yaml").safe_load((workdir / "config" / "config.yaml").read_text())
    _, studies = check_config(workdir, {**cfg, "profile": "smoke"})
    assert studies
    out = [workdir / "results" / "SCORECARD.md", workdir / "results" / "scorecard.html"]
    for name, study in studies.items():
        base = workdir / "results" / name
        out += [base / "scorecard.parquet", base / "metrics" / "ranks.parquet",
                base / "metrics" / "mean_ranks.parquet", base / "metrics" / "summary.parquet"]
        assert study.figures, f"study {name} lists no figures"
        for fig in study.figures:
            out += [base / "figures" / f"{fig}.png", base / "figures" / f"{fig}.pdf"]
    return out


def test_every_output_exists_and_is_not_empty(workdir, smoke_run):
    missing = [str(p.relative_to(workdir)) for p in _expected_outputs(workdir)
               if not p.is_file() or p.stat().st_size == 0]
    assert not missing, f"missing or empty: {missing}"
    for p in _expected_outputs(workdir):
        head = p.read_bytes()[:8]
        if p.suffix == ".png":
            assert head == b"\x89PNG\r\n\x1a\n", p
        elif p.suffix == ".pdf":
            assert head.startswith(b"%PDF"), p


def test_scorecard_has_every_claim(workdir, smoke_run):
    cfg = __import__("yaml").safe_load((workdir / "config" / "config.yaml").read_text())
    _, studies = check_config(workdir, {**cfg, "profile": "smoke"})
    md = (workdir / "results" / "SCORECARD.md").read_text()
    for name, study in studies.items():
        card = read_parquet(workdir / "results" / name / "scorecard.parquet")
        assert set(card["claim"]) == {c["id"] for c in study.claims}
        assert card["verdict"].isin(
            ["reproduced", "not reproduced", "no data", "not run in this profile"]).all()
        for claim in study.claims:
            assert claim["id"] in md
        kinds = {METHODS.get(spec["method"]).kind for spec in study.methods.values()}
        if "importance" in kinds:
            ranks = read_parquet(workdir / "results" / name / "metrics" / "ranks.parquet")
            assert len(ranks) and ranks["rank"].notna().all()
        if "refits" in kinds:
            summary = read_parquet(workdir / "results" / name / "metrics" / "summary.parquet")
            assert len(summary) and summary["coverage"].between(0, 1).all()


def test_second_dry_run_has_nothing_to_do(workdir, smoke_run):
    res = _snakemake(workdir, "-n", "--cores", "2", "--config", "profile=smoke", timeout=300)
    assert res.returncode == 0, _tail(res)
    assert "Nothing to be done" in res.stdout + res.stderr, _tail(res)


def test_report(workdir, smoke_run):
    res = _snakemake(workdir, "--config", "profile=smoke", "--report", "results/report.html",
                     timeout=600)
    assert res.returncode == 0, _tail(res)
    report = workdir / "results" / "report.html"
    assert report.is_file() and report.stat().st_size > 0


def _jobs_after_edit(workdir: Path, study: str, change) -> set[str]:
    """The rules a dry run would run after ``change`` edits the study file (then undone);
    ``all``, the target rule, reruns whenever any of its inputs does and is left out."""
    yaml = __import__("yaml")
    study_file = workdir / "config" / "studies" / f"{study}.yaml"
    original = study_file.read_text()
    doc = yaml.safe_load(original)
    change(doc)
    try:
        study_file.write_text(yaml.safe_dump(doc, sort_keys=False))
        res = _snakemake(workdir, "-n", "--cores", "2", "--config", "profile=smoke",
                         "--quiet", "rules", timeout=300)
        assert res.returncode == 0, _tail(res)
        jobs = {line.split()[0] for line in res.stdout.splitlines()
                if line.strip() and line.split()[-1].isdigit() and line.split()[0] != "total"}
        return jobs - {"all"}
    finally:
        study_file.write_text(original)


def test_restyling_a_figure_reruns_only_that_figure(workdir, smoke_run):
    def restyle(doc):
        doc["figures"]["fig_8"]["style"] = {"font_size": 11}

    assert _jobs_after_edit(workdir, "extrapolation", restyle) == {"figure__extrapolation__fig_8"}


def test_a_description_edit_reruns_nothing(workdir, smoke_run):
    def describe(doc):
        doc["description"] += " Edited."
        for spec in doc["scenarios"].values():
            spec["description"] = "edited"

    assert _jobs_after_edit(workdir, "extrapolation", describe) == set()


def test_a_claim_tolerance_edit_reruns_only_the_scorecard(workdir, smoke_run):
    """No data, fit, explain, truth, summaries or figure job: only the study's claims and the
    scorecard over all studies."""

    def tolerance(doc):
        doc["claims"][0]["z"] = 2.5

    assert _jobs_after_edit(workdir, "extrapolation", tolerance) == {"claims", "scorecard"}
