"""Names from the YAML that end up in file paths, rule names and shell commands (study names,
scenario families, learner, method and figure keys, claim ids) must match a strict ASCII
pattern: a hostile name stops the run before any job, with one message naming the file, the key
and the pattern in words, and no file appears outside the project.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from broken_configs import HOSTILE_NAMES, REPO, STUDY, dry_run, hostile, workflow_copy

from imlbench.cli import main as cli_main
from imlbench.config import ConfigError
from imlbench.validate import check_config, check_study

PLACES = ("learners", "methods", "scenarios", "figures", "claims", "studies")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=ascii)
def test_check_config_rejects_a_hostile_name(root, place, name):
    case = hostile(place, name)
    path = case.apply(root)
    with pytest.raises(ConfigError) as err:
        check_config(root)
    msg = str(err.value)
    assert "\n" not in msg, msg
    assert msg.startswith(f"{path}: {case.key}: "), msg  # the file and the key
    for fragment in case.fragments:  # the name, and the pattern in words
        assert fragment in msg, msg


def test_every_hostile_name_is_also_an_invalid_file_name_for_a_study(root, capsys, monkeypatch):
    """A study file whose name breaks the pattern (checked with ``check --study``) is rejected
    before its package is imported; names that no file system allows are left out."""
    monkeypatch.setattr(os, "environ", dict(os.environ))
    study = yaml.safe_load((root / "config" / "studies" / f"{STUDY}.yaml").read_text())
    names = [n for n in HOSTILE_NAMES if n and "/" not in n]
    names += ["k$(touch pwned)", "x`touch pwned`", "a;touch pwned", "Extrapolation"]
    for name in names:
        path = root / "config" / "studies" / f"{name}.yaml"
        path.write_text(yaml.safe_dump(study, sort_keys=False))
        with pytest.raises(ConfigError) as err:
            check_study(path, "smoke", root)
        msg = str(err.value)
        assert msg.startswith(f"{path}: key (the file name): {ascii(name)} is "), msg
        assert "; allowed: a study name of at most 64" in msg, msg
        assert cli_main(["--root", str(root), "check", "--study", str(path)]) == 2
        assert "(the file name)" in capsys.readouterr().err
        path.unlink()


def _outside(tmp_path: Path, project: Path) -> set[Path]:
    return {p for p in tmp_path.rglob("*") if project not in (p, *p.parents)}


@pytest.mark.workflow
@pytest.mark.parametrize("place", ["learners", "methods", "scenarios"])
@pytest.mark.parametrize("name", ["k$(touch ../pwned)", "x`touch ../pwned`", "../escape"],
                         ids=ascii)
def test_snakemake_stops_before_any_job_and_writes_nothing_outside(tmp_path, place, name):
    project = workflow_copy(tmp_path / "project")
    case = hostile(place, name)
    case.apply(project)
    before = _outside(tmp_path, project)
    out = dry_run(project)
    for fragment in [case.key, *case.fragments]:
        assert fragment in out, f"{fragment!r} missing from snakemake output:\n{out}"
    assert _outside(tmp_path, project) == before
    assert {p.name for p in project.iterdir()} <= {"config", "workflow", ".snakemake"}
