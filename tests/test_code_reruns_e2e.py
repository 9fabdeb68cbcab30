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
from imlbench.validate import check_config

pytestmark = pytest.mark.e2e

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


def _rule(stage: str, scenario: str) -> str:
    return f"{stage}__{STUDY}__{scenario.replace('.', 'p')}"


def test_editing_a_method_reruns_the_explain_jobs_that_run_it(workdir, smoke_run):
    study = _study(workdir)
    users = {_rule("explain", sc.name) for sc in study.scenarios.values()
             if any(METHODS.get(study.methods[m]["method"]).run.__module__ == METHOD_MODULE
                    for m in sc.methods)}
    assert users and len(users) < len(study.scenarios)
    jobs = _jobs_after(workdir, METHOD_MODULE, lambda text: text + "\n_EDITED = 1\n")
    assert _stage(jobs, "explain") == users
    assert not _stage(jobs, "data") | _stage(jobs, "truth")
    # the fitted models are temporary: the explain jobs that run again fit theirs again
    assert _stage(jobs, "fit") == {j.replace("explain__", "fit__", 1) for j in users}


def test_a_dgp_edit_reruns_the_data_of_its_scenarios_only(workdir, smoke_run):
    study = _study(workdir)
    dgp = "copula_linear"
    module = DGPS.get(dgp).__module__
    jobs = _jobs_after(workdir, module, lambda text: text + "\n_EDITED = 1\n")
    assert "data" in jobs  # the data rule is shared by every scenario: see the explain jobs
    explained = {_rule("explain", sc.name) for sc in study.scenarios.values() if sc.dgp == dgp}
    assert _stage(jobs, "explain") == explained


def test_a_claim_kind_edit_reruns_only_the_scorecard(workdir, smoke_run):
    jobs = _jobs_after(workdir, "imlbench.studies.extrapolation.claims",
                       lambda text: text + "\n_EDITED = 1\n")
    assert jobs == {"claims", "scorecard"}


@pytest.mark.parametrize("edit", ["comment", "docstring"])
def test_comments_and_docstrings_rerun_nothing(workdir, smoke_run, edit):
    def cosmetic(text: str) -> str:
        if edit == "comment":
            return text.replace("\n\n", "\n\n# an added comment\n", 1) + "# the end\n"
        return text.replace('"""', '"""Edited. ', 1)

    assert _jobs_after(workdir, METHOD_MODULE, cosmetic) == set()
