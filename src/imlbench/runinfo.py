"""The profile and studies of the last completed run, so that ``snakemake --report`` shows it.

The scorecard job, the last job of a run, records the run's profile, studies, time and package
versions in ``results/run.json`` (:func:`write_run`). ``snakemake --report
results/report.html`` builds the graph of the run it reports on: :func:`workflow_config` gives
the workflow that run's profile and studies, unless the command line sets them with
``--config``. Snakemake 9 parses the Snakefile before it knows what it is asked for (its
``workflow`` object holds the same settings for a run and for ``--report``), so the command
line tells a report apart; ``--report`` with ``--report-after-run`` runs the workflow first and
keeps the configuration as given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from imlbench.config import PROFILES, ConfigError
from imlbench.io import atomic_path

#: where the run is recorded, relative to the project root
RUN_FILE = Path("results") / "run.json"
#: the configuration keys a report takes from the recorded run
RECORDED = ("profile", "studies")
#: the packages whose versions a run records
PACKAGES = ("imlbench", "snakemake", "numpy", "pandas", "scikit-learn", "xgboost", "shap",
            "matplotlib", "pyarrow")


def package_versions() -> dict[str, str]:
    """The installed versions of :data:`PACKAGES` (those installed)."""
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def write_run(path: Path, profile: str, studies: list[str], when: datetime) -> None:
    """Record a completed run: its profile, studies, UTC time (ISO 8601) and the versions of
    the packages it ran with (:func:`package_versions`)."""
    record = {"profile": profile, "studies": list(studies), "finished_utc": when.isoformat(),
              "versions": package_versions()}
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(record, indent=1) + "\n")


def read_run(path: Path) -> dict[str, Any] | None:
    """The recorded run at ``path`` (its profile and studies), or None when there is none."""
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); delete it or rerun the "
                          "workflow") from None
    if not isinstance(record, dict) or record.get("profile") not in PROFILES:
        got = record.get("profile") if isinstance(record, dict) else record
        raise ConfigError(f"{path}: key profile: {got!r}; allowed: {', '.join(PROFILES)}")
    studies = record.get("studies")
    if not isinstance(studies, list) or not all(isinstance(s, str) for s in studies):
        raise ConfigError(f"{path}: key studies: {studies!r}; allowed: a list of study names")
    return {k: record[k] for k in RECORDED}


def is_report(argv: Sequence[str]) -> bool:
    """Whether the Snakemake command line ``argv`` asks for a report of existing results:
    ``--report`` (or ``--report=PATH``) without ``--report-after-run``."""
    flags = {arg.split("=", 1)[0] for arg in argv}
    return "--report" in flags and "--report-after-run" not in flags


def workflow_config(config: Mapping[str, Any], given: Mapping[str, Any], root: Path,
                    argv: Sequence[str]) -> dict[str, Any]:
    """The configuration the workflow builds its graph from.

    ``config`` is Snakemake's (the config file updated by ``--config``), ``given`` the keys
    set with ``--config`` and ``argv`` Snakemake's command line. For a report, the profile and
    studies of the recorded run under ``root`` replace those of the config file (the keys in
    ``given`` stay); otherwise, or with no recorded run, ``config`` is returned unchanged.
    """
    run = read_run(root / RUN_FILE) if is_report(argv) else None
    if run is None:
        return dict(config)
    return {**config, **{k: v for k, v in run.items() if k not in given}}
