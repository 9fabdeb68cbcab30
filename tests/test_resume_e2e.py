"""An interrupted run resumes with the README's command, unchanged, and ends with the values
of an uninterrupted run.

A smoke run in a scratch copy of the project is stopped with SIGINT (Ctrl-C in a terminal
signals the whole process group) once about a third of its Parquet files exist; the same
command is started again and its Snakemake process alone is killed with SIGKILL at about two
thirds (its running jobs live on as orphans, as after ``kill -9``); the same command then
runs to the end. Every Parquet file must equal, value for value, the shared uninterrupted
smoke run's, measured run times aside, and no temporary file may be left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest
from workflow_runs import (
    SMOKE,
    copy_project,
    error_logs,
    exclusive_scenarios,
    reproducible_values,
    snakemake,
    start,
    tail,
)

pytestmark = [pytest.mark.e2e, pytest.mark.workflow]


def _parquet(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for p in (root / "results").rglob("*.parquet")}


def _interrupt(workdir: Path, share: float, total: int, sig: int, group: bool) -> int:
    """Start the README's command and send ``sig`` once ``share`` of ``total`` Parquet files
    exist (to the process group, or to Snakemake alone); the run must stop with an error
    before its remaining jobs run (a SIGINT at any moment: imlbench.interrupt). Returns the
    process group."""
    proc = start(workdir, *SMOKE)
    deadline = time.monotonic() + 900
    while len(_parquet(workdir)) < share * total:
        assert proc.poll() is None, (workdir / "console.txt").read_text()[-3000:]
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.5)
    if group:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    proc.wait(timeout=300)
    console = (workdir / "console.txt").read_text()[-3000:]
    assert proc.returncode != 0, f"the run was not interrupted\n{console}"
    assert len(_parquet(workdir)) < total, f"the remaining jobs ran\n{console}"
    return proc.pid


def test_an_interrupted_run_resumes_with_the_same_command(tmp_path, workdir, smoke_run):
    reference = _parquet(workdir)
    resumed = copy_project(tmp_path / "project")
    _interrupt(resumed, 0.3, len(reference), signal.SIGINT, group=True)
    orphans = _interrupt(resumed, 0.6, len(reference), signal.SIGKILL, group=False)
    try:
        res = snakemake(resumed, *SMOKE, timeout=1500)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(orphans, signal.SIGKILL)
    assert res.returncode == 0, f"{tail(res)}\n{error_logs(resumed)}"

    assert not list((resumed / "results").rglob(".*.tmp")), "temporary files left"
    files = _parquet(resumed)
    assert set(files) == set(reference)
    exclusive = exclusive_scenarios(workdir)
    assert exclusive, "the smoke profile runs no timing scenario to set aside"
    for name, path in sorted(reference.items()):
        pd.testing.assert_frame_equal(reproducible_values(files[name], exclusive),
                                      reproducible_values(path, exclusive),
                                      check_exact=True, obj=name)

