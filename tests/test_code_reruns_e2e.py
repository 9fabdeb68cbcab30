"""Editing code reruns exactly the jobs that run it (after the shared smoke run).

Each case edits one module in the smoke run's scratch copy of the package, asks a dry run
which jobs would run, and undoes the edit. A job's fingerprint holds the code of its DGP,
learners, methods, claim kinds or figure (:mod:`imlbench.codehash`); comments and docstrings
are not code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from workflow_runs import dry_run_jobs

from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.targets import batches
from imlbench.validate import check_config

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]

STUDY = "extrapolation"
METHOD_MODULE = "imlbench.studies.extrapolation.methods"


def _study(workdir: Path):
    cfg = yaml.safe_load((workdir / "config" / "config.yaml").read_text())
    return check_config(workdir, {**cfg, "profile": "smoke"})[1][STUDY]


def _jobs_after(workdir: Path, module: str, edit) -> set[str]:
    path = workdir.joinpath("src", *module.split(".")).with_suffix(".py")
    original = path.read_text()
    try:
        path.write_text(edit(original))
        return dry_run_jobs(workdir)
    finally:
        path.write_text(original)


def _stage(jobs: set[str], stage: str) -> set[str]:
    return {j for j in jobs if j == stage or j.startswith(f"{stage}__")}


def _run_jobs(study, scenarios: set[str]) -> set[str]:
    """The `run` jobs that hold a chunk of one of ``scenarios``."""
    return {f"run__{STUDY}__{b.name}" for b in batches(study)
            if any(sc in scenarios for sc, _ in b.units)}


def test_editing_a_method_reruns_the_run_jobs_that_run_it(workdir, smoke_run):
    study = _study(workdir)
    users = {sc.name for sc in study.scenarios.values()
             if any(METHODS.get(study.methods[m]["method"]).run.__module__ == METHOD_MODULE
                    for m in sc.methods)}
    assert users and _run_jobs(study, users) != _run_jobs(study, set(study.scenarios))
    jobs = _jobs_after(workdir, METHOD_MODULE, lambda text: text + "\n_EDITED = 1\n")
    assert _stage(jobs, "run") == _run_jobs(study, users)
    assert not _stage(jobs, "truth")


def test_a_dgp_edit_reruns_the_jobs_of_its_scenarios_only(workdir, smoke_run):
    study = _study(workdir)
    dgp = "extrapolation.copula_linear"
    module = DGPS.get(dgp).__module__
    jobs = _jobs_after(workdir, module, lambda text: text + "\n_EDITED = 1\n")
    users = {sc.name for sc in study.scenarios.values() if sc.dgp == dgp}
    assert _stage(jobs, "run") == _run_jobs(study, users)
    assert _run_jobs(study, users) != _run_jobs(study, set(study.scenarios))
    # the study's truths are one job, which holds the DGP's closed forms
    assert _stage(jobs, "truth") == {f"truth__{STUDY}"}


def test_a_claim_kind_edit_reruns_only_the_scorecard_and_the_site(workdir, smoke_run):
    jobs = _jobs_after(workdir, "imlbench.studies.extrapolation.claims",
                       lambda text: text + "\n_EDITED = 1\n")
    assert jobs == {"claims", "scorecard", "site"}


@pytest.mark.parametrize("edit", ["comment", "docstring"])
def test_comments_and_docstrings_rerun_nothing(workdir, smoke_run, edit):
    def cosmetic(text: str) -> str:
        if edit == "comment":
            return text.replace("\n\n", "\n\n# an added comment\n", 1) + "# the end\n"
        return text.replace('"""', '"""Edited. ', 1)

    assert _jobs_after(workdir, METHOD_MODULE, cosmetic) == set()
