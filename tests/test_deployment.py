"""The README's command and the ways the workflow's users deploy it, checked with dry runs in
a scratch copy of the project (seconds each).

- ``snakemake --cores 2`` with no other flag runs the default profile: Snakemake finds the
  workflow profile next to the top-level Snakefile, and the graph is the default profile's.
- ``snakemake --sdm conda -n`` lists jobs whose commands call the ``python`` of the job's
  environment, never the absolute path of the submitting host's interpreter.
- ``workflow/Snakefile`` (where the Snakemake workflow catalog looks) runs the same workflow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml
from workflow_runs import VENV_BIN, copy_project, snakemake, tail

from imlbench.targets import batches
from imlbench.validate import check_config

pytestmark = pytest.mark.workflow  # every test runs Snakemake (dry runs)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("deploy"))


def _run_jobs(root, profile: str) -> set[str]:
    cfg = yaml.safe_load((root / "config" / "config.yaml").read_text())
    studies = check_config(root, {**cfg, "profile": profile})[1]
    return {f"run__{s.name}__{b.name}" for s in studies.values() for b in batches(s)}


def _jobs(output: str) -> set[str]:
    """The rule names of a dry run's job table."""
    return {line.split()[0] for line in output.splitlines()
            if len(line.split()) == 2 and line.split()[1].isdigit()
            and not line.split()[0].endswith(":")}


def test_no_flag_runs_the_default_profile(project):
    res = snakemake(project, "-n", "--cores", "2", timeout=300)
    assert res.returncode == 0, tail(res)
    out = res.stdout + res.stderr
    assert "Using workflow specific profile profiles/default" in out
    jobs = {j for j in _jobs(out) if j.startswith("run__")}
    assert jobs == _run_jobs(project, "default") != _run_jobs(project, "smoke")


def test_the_catalogs_snakefile_runs_the_same_workflow(project):
    top = snakemake(project, "-n", "--cores", "2", "--config", "profile=smoke", timeout=300)
    inner = snakemake(project, "-n", "--cores", "2", "--config", "profile=smoke",
                      "-s", "workflow/Snakefile", timeout=300)
    assert top.returncode == 0 and inner.returncode == 0, tail(top) + tail(inner)
    assert _jobs(top.stdout) - {"default"} == _jobs(inner.stdout) - {"all"}
    assert "Using workflow specific profile" in inner.stdout + inner.stderr


def test_conda_deployment_commands_call_the_environments_python(project, tmp_path):
    """A dry run builds no environment; Snakemake only asks conda for its version and
    settings, which a stand-in answers."""
    stand_in = tmp_path / "bin" / "conda"
    stand_in.parent.mkdir()
    answers = {"info --json": json.dumps({"conda_prefix": str(tmp_path / "conda"),
                                          "platform": "linux-64"}),
               "--version": "conda 24.7.1",
               "config --get channel_priority --json": json.dumps(
                   {"get": {"channel_priority": "strict"}})}
    cases = "\n".join(f'    "{k}") echo {json.dumps(v)} ;;' for k, v in answers.items())
    stand_in.write_text(f'#!/bin/sh\ncase "$*" in\n{cases}\n    *) exit 1 ;;\nesac\n')
    stand_in.chmod(0o755)
    res = snakemake(project, "-n", "-p", "--sdm", "conda", "--cores", "2", "--config",
                    "profile=smoke", timeout=300,
                    path_prefix=[stand_in.parent])
    assert res.returncode == 0, tail(res)
    commands = [line.strip().removeprefix("Shell command:").strip()
                for line in res.stdout.splitlines() if "-m imlbench" in line]
    assert len(commands) >= len(_run_jobs(project, "smoke"))
    for command in commands:
        assert command.startswith("python -m imlbench "), command
        assert sys.executable not in command and str(VENV_BIN) not in command, command


def test_a_run_whose_python_is_another_environment_stops_before_any_job(project):
    """The jobs' `python` is checked when a run starts: a dry run and the linter, which run no
    job, pass; a run stops with the message and writes nothing."""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}  # no project environment on PATH
    env.pop("PYTHONPATH", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(VENV_BIN / "snakemake"), *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=300)

    assert run("-n", "--cores", "1", "--config", "profile=smoke").returncode == 0
    assert run("--lint").returncode == 0
    res = run("--cores", "1", "--config", "profile=smoke", "studies=[pd_pfi_dgp]")
    assert res.returncode != 0
    assert "the jobs run `python -m imlbench` with the `python` found on PATH" in res.stderr
    assert not (project / "results").exists()
