"""The whole workflow on the smoke profile, in a scratch copy of the project.

After the README's smoke command (the ``smoke_run`` fixture of ``conftest.py``, minutes),
checks that every figure of every enabled study, the scorecards, rank tables and coverage
summaries exist, that a second dry run has nothing to do, that ``snakemake --report`` builds
the report, and which jobs an edit of the study file reruns. Deselect with
``pytest -m "not e2e"``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from workflow_runs import dry_run_jobs, snakemake, tail

from imlbench import targets
from imlbench.explain.api import METHODS
from imlbench.io import read_parquet
from imlbench.metrics.claims import SOURCES
from imlbench.validate import check_config

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]


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
            ["reproduced", "consistent", "not reproduced", "inconclusive", "reported",
             "no data", "not run in this profile"]).all()
        assert card["source"].isin(SOURCES).all()
        scored = card[card["verdict"].isin(
            ["reproduced", "consistent", "not reproduced", "inconclusive"])]
        assert (scored["power"] != "").all(), "a scored row states no power"
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
    res = snakemake(workdir, "-n", "--cores", "2", "--config", "profile=smoke", timeout=300)
    assert res.returncode == 0, tail(res)
    assert "Nothing to be done" in res.stdout + res.stderr, tail(res)


def test_report(workdir, smoke_run):
    res = snakemake(workdir, "--config", "profile=smoke", "--report", "results/report.html",
                     timeout=600)
    assert res.returncode == 0, tail(res)
    report = workdir / "results" / "report.html"
    assert report.is_file() and report.stat().st_size > 0
    assert "site/index.html" in report.read_text(errors="replace")
    assert (workdir / "results" / "site" / "index.html").is_file()


def _jobs_after_edit(workdir: Path, study: str, change) -> set[str]:
    """The rules a dry run would run after ``change`` edits the study file (then undone)."""
    yaml = __import__("yaml")
    study_file = workdir / "config" / "studies" / f"{study}.yaml"
    original = study_file.read_text()
    doc = yaml.safe_load(original)
    change(doc)
    try:
        study_file.write_text(yaml.safe_dump(doc, sort_keys=False))
        return dry_run_jobs(workdir)
    finally:
        study_file.write_text(original)


def _checked(workdir: Path, study: str):
    cfg = __import__("yaml").safe_load((workdir / "config" / "config.yaml").read_text())
    return check_config(workdir, {**cfg, "profile": "smoke"})[1][study]


def test_restyling_a_figure_reruns_only_its_figure_job(workdir, smoke_run):
    """The figure job that draws fig_8 (with the other figures of its group) and the site
    that links it, nothing else."""
    def restyle(doc):
        doc["figures"]["fig_8"]["style"] = {"font_size": 11}

    groups = targets.figure_groups(_checked(workdir, "extrapolation"))
    k = next(i for i, figs in enumerate(groups) if "fig_8" in figs)
    assert len(groups) > 1
    assert _jobs_after_edit(workdir, "extrapolation", restyle) == {
        f"figures__extrapolation__{k}", "site"}


def test_editing_one_scenario_reruns_its_job_and_its_readers_only(workdir, smoke_run):
    """One of the two smoke scenarios of stratpd's `growth` family (one `run` job) gets another
    noise level: that job reruns, with the study's truths (a new scenario has new truths) and
    what reads the family's estimates; no other `run` job of any study."""
    study = _checked(workdir, "stratpd")
    family = {sc.name for sc in study.scenarios.values() if sc.family == "growth"}
    (batch,) = {b for b in targets.batches(study) if {sc for sc, _ in b.units} & family}
    assert len(batch.units) > 1 and len(family) > 1

    def one_more_noise(doc):
        doc["scenarios"]["growth"]["sweep"]["noise_sd"]["smoke"][-1] += 1

    jobs = _jobs_after_edit(workdir, "stratpd", one_more_noise)
    groups = targets.figure_groups(study)
    readers = {f"figures__stratpd__{k}" for k, figs in enumerate(groups)
               if any("growth" in study.figures[f]["scenarios"] for f in figs)}
    assert readers and readers <= jobs
    assert {j for j in jobs if j.startswith("run__")} == {f"run__stratpd__{batch.name}"}
    # the rest: the study's truths, summaries, claims and figures (rule names shared by the
    # studies have no study in them: the run jobs above show no other study reruns)
    assert jobs - {f"run__stratpd__{batch.name}"} <= {
        "truth__stratpd", "summaries", "claims", "scorecard", "site",
        *(f"figures__stratpd__{k}" for k in range(len(groups)))}


def test_a_missing_data_file_reruns_its_job(tmp_path, workdir, smoke_run):
    """A run job's data file is read by no later job, yet the job runs again when it is gone:
    a killed run's orphaned job may write its estimates after the next run cleared the data
    file it had marked incomplete (imlbench.runlock), and the run must still end complete."""
    study = _checked(workdir, "stratpd")
    batch = targets.batches(study)[0]
    scenario, chunk = batch.units[0]
    data = workdir / targets.data_path("stratpd", scenario, chunk)
    aside = tmp_path / data.name
    shutil.move(data, aside)  # keeps its modification time, which later dry runs compare
    try:
        jobs = {j for j in dry_run_jobs(workdir) if j.startswith("run__")}
    finally:
        shutil.move(aside, data)
    assert jobs == {f"run__stratpd__{batch.name}"}


def test_a_description_edit_reruns_only_the_site(workdir, smoke_run):
    def describe(doc):
        doc["description"] += " Edited."
        for spec in doc["scenarios"].values():
            spec["description"] = "edited"

    assert _jobs_after_edit(workdir, "extrapolation", describe) == {"site"}


def test_a_claim_tolerance_edit_reruns_only_the_scorecard(workdir, smoke_run):
    """No data, fit, explain, truth, summaries or figure job: only the study's claims, the
    scorecard over all studies and the site that shows it."""

    def tolerance(doc):
        doc["claims"][0]["k"] = 2.5

    assert _jobs_after_edit(workdir, "extrapolation", tolerance) == {
        "claims", "scorecard", "site"}


def test_report_of_the_last_run_without_config(workdir, smoke_run):
    """The README's command, without --config, reports on the smoke run that ran (its profile
    and studies, recorded in results/run.json) and warns of nothing (with the config file's
    profile it would warn of every missing output)."""
    run = __import__("json").loads((workdir / "results" / "run.json").read_text())
    assert run["profile"] == "smoke"
    res = snakemake(workdir, "--report", "results/report.html", timeout=600)
    assert res.returncode == 0, tail(res)
    warnings = [line for line in res.stderr.splitlines()
                if "warning" in line.lower() or "missing" in line.lower()]
    assert warnings == []
    md = (workdir / "results" / "SCORECARD.md").read_text()
    assert f"Profile: smoke. Studies: {', '.join(run['studies'])}." in md
    for study in run["studies"]:
        card = read_parquet(workdir / "results" / study / "scorecard.parquet")
        without = card[card["verdict"].isin(["no data", "not run in this profile"])]
        assert (without["reason"] != "").all(), without[["claim", "learner", "method"]]
