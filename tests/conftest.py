"""Shared pytest configuration, and the smoke run the end-to-end tests share."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from workflow_runs import SMOKE, copy_project, error_logs, snakemake, tail


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    """A scratch copy of the project for the smoke run (see tests/workflow_runs.py)."""
    return copy_project(tmp_path_factory.mktemp("e2e"))


@pytest.fixture(scope="session")
def smoke_run(workdir: Path) -> subprocess.CompletedProcess:
    """One uninterrupted smoke run with the README's command, shared by the e2e tests."""
    res = snakemake(workdir, *SMOKE, timeout=1500)
    assert res.returncode == 0, f"{tail(res)}\n{error_logs(workdir)}"
    return res


@pytest.fixture
def drawn(monkeypatch):
    """The figures a drawer draws, kept open instead of saved (closed after the test)."""
    import matplotlib.pyplot as plt

    from imlbench.figures import style

    figures = []
    monkeypatch.setattr(style, "save", lambda fig, *_: figures.append(fig))
    yield figures
    for fig in figures:
        plt.close(fig)
