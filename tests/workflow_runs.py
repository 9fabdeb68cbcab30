"""Running the workflow in a scratch copy of the project, for the end-to-end tests."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"
#: the README's smoke-profile command, less the ``uv run`` in front
SMOKE = ("--cores", "2", "--config", "profile=smoke")


def copy_project(dst: Path) -> Path:
    """A copy of what a run needs: the Snakefile, the configuration, the workflow and the
    package source (a copy, so that a test may edit it: the workflow reads the code of every
    job from ``src/`` next to the Snakefile)."""
    dst.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "environment.yml", "environment.post-deploy.sh"):
        shutil.copy(REPO / name, dst / name)
    for name in ("config", "workflow", "src"):
        shutil.copytree(REPO / name, dst / name, ignore=shutil.ignore_patterns("__pycache__"))
    # the workflow profile next to the top-level Snakefile: a link, as in the repository
    (dst / "profiles").symlink_to(os.readlink(REPO / "profiles"))
    return dst


def environment(path_prefix: list[Path] = ()) -> dict[str, str]:
    """The environment of ``uv run``: the project's environment first on PATH (the jobs call
    its ``python``), after ``path_prefix``."""
    path = [*map(str, path_prefix), str(VENV_BIN), os.environ.get("PATH", "")]
    env = {**os.environ, "PATH": os.pathsep.join(path)}
    env.pop("PYTHONPATH", None)  # jobs must import the project's src, nothing else
    return env


def snakemake(workdir: Path, *args: str, timeout: int,
              path_prefix: list[Path] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(VENV_BIN / "snakemake"), *args], cwd=workdir, env=environment(path_prefix),
        capture_output=True, text=True, timeout=timeout,
    )


def default_sigint() -> None:
    """``preexec_fn`` of a process that must act on SIGINT as a run in a terminal does, also
    when the tests run with SIGINT ignored: a shell without job control starts a background
    command (``uv run pytest &``) so, Python leaves an ignored SIGINT ignored, and the
    processes the tests start would inherit it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(workdir: Path, *args: str) -> subprocess.Popen:
    """Snakemake started in its own process group (so a test can signal it as a terminal
    does) with SIGINT's default action, its console sent to ``workdir/console.txt``."""
    console = open(workdir / "console.txt", "a")  # noqa: SIM115  (closed with the process)
    return subprocess.Popen([str(VENV_BIN / "snakemake"), *args], cwd=workdir,
                            env=environment(), stdout=console, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=default_sigint)


def tail(res: subprocess.CompletedProcess, n: int = 60) -> str:
    return "\n".join((res.stdout + res.stderr).splitlines()[-n:])


def error_logs(workdir: Path, n: int = 30) -> str:
    """The last lines of every job log that mentions an error (for a failure message)."""
    out = []
    for log in sorted((workdir / "results").rglob("*.log")):
        text = log.read_text(errors="replace")
        if "Error" in text or "Traceback" in text:
            out.append(f"--- {log.relative_to(workdir)}\n" + "\n".join(text.splitlines()[-n:]))
    return "\n".join(out)


def dry_run_jobs(workdir: Path) -> set[str]:
    """The rules a dry run of the smoke profile would run; ``default`` and ``all``, the target
    rules, rerun whenever any of their inputs does and are left out."""
    res = snakemake(workdir, "-n", "--cores", "2", "--config", "profile=smoke",
                    "--quiet", "rules", timeout=300)
    assert res.returncode == 0, tail(res)
    jobs = {line.split()[0] for line in res.stdout.splitlines()
            if line.strip() and line.split()[-1].isdigit() and line.split()[0] != "total"}
    return jobs - {"default", "all"}


def exclusive_scenarios(workdir: Path, profile: str = "smoke") -> set[str]:
    """The scenarios of the enabled studies whose jobs measure run time (``exclusive``)."""
    import yaml

    from imlbench.config import load_study, study_path

    names = yaml.safe_load((workdir / "config" / "config.yaml").read_text())["studies"]
    return {sc.name for name in names
            for sc in load_study(study_path(workdir, name), profile).scenarios.values()
            if sc.exclusive}


def reproducible_values(path: Path, exclusive: set[str]) -> pd.DataFrame:
    """A result table without what measures run time: the wall-clock columns
    (:data:`imlbench.explain.timing.MEASURED_COLUMNS`) and, in a scorecard, the rows of the
    claims on the exclusive (timing) scenarios, whose values come from those columns."""
    from imlbench.explain.timing import MEASURED_COLUMNS

    df = pd.read_parquet(path).drop(columns=list(MEASURED_COLUMNS), errors="ignore")
    if path.name == "scorecard.parquet":
        df = df[~df["scenario"].isin(exclusive)].reset_index(drop=True)
    return df
