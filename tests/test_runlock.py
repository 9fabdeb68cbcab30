"""What :mod:`imlbench.runlock` reads of Snakemake's persistence is what Snakemake writes.

The marks and locks are made by Snakemake's own file persistence (the backend a run uses by
default), so an upgrade of Snakemake that changes their names or folders fails these tests;
a layout the module does not know is reported with a :class:`~imlbench.runlock.LayoutWarning`
and left in place.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
from snakemake.io import IOFile
from snakemake.persistence.file import FilePersistence

from imlbench import runlock

SHORT = "results/study/data/scenario/0.parquet"
# a path whose mark Snakemake splits into @-folders (its base64 is longer than a file name)
LONG = f"results/study/{'s' * 200}/{'m' * 200}/{'x' * 150}.parquet"


def _persistence(root: Path) -> FilePersistence:
    return FilePersistence(path=(root / ".snakemake").absolute())


def _started(root: Path, *outputs: str) -> None:
    """Mark ``outputs`` incomplete as Snakemake does when their job starts, and create them."""
    _persistence(root).started(SimpleNamespace(output=[IOFile(o) for o in outputs]))
    for output in outputs:
        (root / output).parent.mkdir(parents=True, exist_ok=True)
        (root / output).write_text("partial")


@pytest.fixture
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("output", [SHORT, LONG])
def test_marks_decode_to_their_outputs(tmp_path, output, no_warnings):
    _started(tmp_path, output)
    base = tmp_path / ".snakemake" / "incomplete"
    (mark,) = (p for p in base.rglob("*") if p.is_file())
    assert (len(mark.relative_to(base).parts) > 1) == (output == LONG)
    assert mark == runlock.mark_path(base, output, runlock.name_max(base))
    assert runlock.decode_mark(base, mark, runlock.name_max(base)) == output
    assert runlock.incomplete_marks(tmp_path) == {mark: (tmp_path / output).resolve()}


def test_clear_stale_removes_what_snakemake_left(tmp_path, no_warnings):
    _started(tmp_path, SHORT, LONG)
    _persistence(tmp_path)._write_locks("input", [SHORT])
    _persistence(tmp_path)._write_locks("output", [LONG])
    temporary = tmp_path / "results" / "study" / ".0.parquet.tmp"
    temporary.write_text("")
    removed = runlock.clear_stale(tmp_path)
    assert {p.name for p in removed} >= {"0.input.lock", "0.output.lock", temporary.name}
    assert not (tmp_path / SHORT).exists() and not (tmp_path / LONG).exists()
    assert runlock.incomplete_marks(tmp_path) == {}
    assert not [p for p in (tmp_path / ".snakemake" / "locks").iterdir()]
    # Snakemake no longer sees the outputs as incomplete
    assert _persistence(tmp_path)._filter_incomplete_keys([SHORT, LONG]) == set()


def test_marks_outside_results_are_kept(tmp_path, no_warnings):
    _started(tmp_path, "elsewhere/out.txt")
    assert runlock.incomplete_marks(tmp_path) == {}
    runlock.clear_stale(tmp_path)
    assert (tmp_path / "elsewhere" / "out.txt").exists()


def test_a_mark_not_named_as_snakemake_names_marks_is_reported(tmp_path):
    _started(tmp_path, SHORT)
    base = tmp_path / ".snakemake" / "incomplete"
    odd = base / "not base64!"
    odd.write_text("{}")
    # decodes, but Snakemake would not cut the name there
    split = base / "@cmVzdWx0cy9" / "zL2RhdGEveC5wYXJxdWV0"
    split.parent.mkdir()
    split.write_text("{}")
    with pytest.warns(runlock.LayoutWarning, match=r"2 file\(s\) in .*incomplete.*Snakemake "):
        marks = runlock.incomplete_marks(tmp_path)
    assert set(marks) == {runlock.mark_path(base, SHORT, runlock.name_max(base))}
    with pytest.warns(runlock.LayoutWarning):
        runlock.clear_stale(tmp_path)
    assert odd.exists() and split.exists() and not (tmp_path / SHORT).exists()


def test_snakemakes_migration_flag_is_no_mark(tmp_path, no_warnings):
    _persistence(tmp_path)
    (tmp_path / ".snakemake" / "incomplete" / runlock.MIGRATION).touch()
    assert runlock.incomplete_marks(tmp_path) == {}


def test_unknown_lock_files_are_reported_and_kept(tmp_path):
    _persistence(tmp_path)._write_locks("input", [SHORT])
    other = tmp_path / ".snakemake" / "locks" / "run.lock"
    other.write_text("")
    with pytest.warns(runlock.LayoutWarning, match=r"in .*locks .*\(first: run\.lock\)"):
        removed = runlock.clear_stale(tmp_path)
    assert [p.name for p in removed] == ["0.input.lock"] and other.exists()


def test_metadata_without_marks_folder_is_reported(tmp_path):
    (tmp_path / ".snakemake" / "metadata").mkdir(parents=True)
    with pytest.warns(runlock.LayoutWarning, match=r"no folder .*incomplete"):
        runlock.clear_stale(tmp_path)


def test_database_backend_is_reported(tmp_path):
    (tmp_path / ".snakemake").mkdir()
    (tmp_path / ".snakemake" / "metadata.db").touch()
    with pytest.warns(runlock.LayoutWarning, match="metadata.db") as record:
        runlock.clear_stale(tmp_path)
    assert runlock.snakemake_version() in str(record[0].message)


def test_a_fresh_project_is_quiet(tmp_path, no_warnings):
    assert runlock.clear_stale(tmp_path) == []
    _persistence(tmp_path)  # the folders Snakemake makes when a run starts
    assert runlock.clear_stale(tmp_path) == []
