"""A job's code fingerprint (:mod:`imlbench.codehash`) changes exactly when code it runs does.

Each case edits one module of a scratch copy of the package and recomputes, in a fresh
interpreter that imports the copy, the fingerprints of a method's module, of a DGP's module
and of a claim kind's module.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imlbench.codehash import closure

pytestmark = pytest.mark.workflow  # every test hashes in a fresh interpreter

SRC = Path(__file__).resolve().parents[1] / "src"
METHODS = "imlbench.studies.extrapolation.methods"
DGP = "imlbench.studies.extrapolation.dgp_copula"
CLAIMS = "imlbench.studies.extrapolation.claims"

_PROBE = f"""
import json
from imlbench.codehash import code_hash
print(json.dumps({{m: code_hash([m]) for m in {[METHODS, DGP, CLAIMS]!r}}}))
"""


def _hashes(src: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    res = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def original() -> dict[str, str]:
    return _hashes(SRC)


def _edited(tmp_path: Path, module: str, edit) -> dict[str, str]:
    shutil.copytree(SRC / "imlbench", tmp_path / "imlbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(edit(path.read_text()))
    return _hashes(tmp_path)


def test_the_copy_hashes_like_the_original(tmp_path, original):
    assert _edited(tmp_path, METHODS, lambda text: text) == original


def test_comments_docstrings_and_layout_change_nothing(tmp_path, original):
    def cosmetic(text: str) -> str:
        head, _, rest = text.partition('"""')  # the module docstring's first line
        return f'# a comment\n{head}"""Another docstring.\n\n{rest}\n\n# the end\n'

    assert _edited(tmp_path, METHODS, cosmetic) == original


def test_a_code_edit_changes_the_modules_that_run_it_only(tmp_path, original):
    edited = _edited(tmp_path, METHODS, lambda text: text + "\nUNUSED = 1\n")
    assert edited[METHODS] != original[METHODS]
    assert edited[DGP] == original[DGP] and edited[CLAIMS] == original[CLAIMS]


def test_a_module_imported_by_the_code_is_part_of_it(tmp_path, original):
    shared = "imlbench.stats"
    users = {m for m in (METHODS, DGP, CLAIMS) if shared in closure([m])}
    assert users, "a shared module the study's code imports"
    edited = _edited(tmp_path, shared, lambda text: text + "\nUNUSED = 1\n")
    assert {m for m in original if edited[m] != original[m]} == users
