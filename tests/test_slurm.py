"""The workflow on a real SLURM cluster: the profile workflow/profiles/slurm on a one-node
cluster on this machine (workflow/slurm_node.sh) ends with the values of a local run.

The smoke profile of the pd_pfi_dgp study (the study whose smoke run has the fewest jobs: 50)
runs in one scratch copy of the project through SLURM and, at the same time, in another one
locally with the README's command. Every Parquet file must equal the local run's value for
value, measured run times aside; the Snakemake log must show the jobs submitted with sbatch
(as group jobs: fewer cluster jobs than workflow jobs) and the run complete.

Deselected by default (pyproject.toml); run it with ``uv run pytest -m cluster``. It needs
root (the script installs slurm-wlm and munge with apt-get when missing and starts the
daemons) and the ``cluster`` dependency group (``uv sync --group cluster``); otherwise it is
skipped with the reason. A node it started is stopped at the end.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from workflow_runs import (
    REPO,
    SMOKE,
    copy_project,
    error_logs,
    exclusive_scenarios,
    reproducible_values,
    start,
)

pytestmark = [pytest.mark.cluster, pytest.mark.e2e, pytest.mark.workflow]

STUDY = "pd_pfi_dgp"
NODE = REPO / "workflow" / "slurm_node.sh"
#: first status check 2 s after a submission (the plugin waits 40 s by default)
SLURM = ("--profile", "workflow/profiles/slurm", "--slurm-init-seconds-before-status-checks",
         "2", "--config", "profile=smoke", f"studies=[{STUDY}]")
LOCAL = (*SMOKE, f"studies=[{STUDY}]")
#: "Job <uuid> has been submitted with SLURM jobid <id> (log: ...)", one line per sbatch
SUBMITTED = re.compile(r"^Job \S+ has been submitted with SLURM jobid (\d+) ", re.MULTILINE)
TIMEOUT_S = 900


def _skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "needs root: starts a SLURM node (workflow/slurm_node.sh)"
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return "snakemake-executor-plugin-slurm missing: uv sync --group cluster"
    if shutil.which("slurmctld") is None and shutil.which("apt-get") is None:
        return "neither SLURM nor apt-get to install it"
    return None


@pytest.fixture(scope="module")
def slurm_node() -> Iterator[None]:
    """A running one-node cluster; stopped afterwards if this fixture started it."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    running = subprocess.run([str(NODE), "status"], capture_output=True).returncode == 0
    res = subprocess.run([str(NODE), "start"], capture_output=True, text=True, timeout=600)
    if res.returncode == 2:
        pytest.skip(f"no SLURM node: {res.stderr.strip()}")
    assert res.returncode == 0, res.stdout + res.stderr
    yield
    if not running:
        subprocess.run([str(NODE), "stop"], check=True, timeout=120)


def _finish(proc: subprocess.Popen, workdir: Path) -> str:
    """Wait for a run started with ``workflow_runs.start``; a run past the time limit gets
    SIGINT (a hung Snakemake ignores SIGTERM; SIGINT also cancels its SLURM jobs)."""
    try:
        proc.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=120)
    console = (workdir / "console.txt").read_text()
    assert proc.returncode == 0, f"{console[-4000:]}\n{error_logs(workdir)}"
    return console


def _parquet(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for p in (root / "results").rglob("*.parquet")}


def test_the_slurm_profile_reproduces_a_local_run(slurm_node, tmp_path):
    on_slurm = copy_project(tmp_path / "slurm")
    local = copy_project(tmp_path / "local")
    slurm_run = start(on_slurm, *SLURM)
    local_run = start(local, *LOCAL)
    try:
        console = _finish(slurm_run, on_slurm)
    finally:
        _finish(local_run, local)

    jobids = SUBMITTED.findall(console)
    steps = re.search(r"^(\d+) of (\d+) steps \(100%\) done$", console, re.MULTILINE)
    assert steps and steps[1] == steps[2], console[-2000:]
    print(f"{len(jobids)} SLURM jobs for {steps[2]} workflow jobs")
    # the scorecard runs locally and `default` runs nothing: every other job ran in a group job
    assert 1 <= len(jobids) < int(steps[2]) - 2, console[-2000:]
    assert len(set(jobids)) == len(jobids)

    reference, files = _parquet(local), _parquet(on_slurm)
    assert files.keys() == reference.keys()
    exclusive = exclusive_scenarios(local)
    for name, path in sorted(reference.items()):
        pd.testing.assert_frame_equal(reproducible_values(files[name], exclusive),
                                      reproducible_values(path, exclusive),
                                      check_exact=True, obj=name)
