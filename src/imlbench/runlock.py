"""Resume an interrupted workflow run with the same command.

A run killed with SIGKILL leaves Snakemake's locks in ``.snakemake/locks`` (so the next run
stops with a lock error) and, like one stopped with Ctrl-C, leaves the outputs of the jobs it
had started marked incomplete in ``.snakemake/incomplete`` (so the next run stops unless given
``--rerun-incomplete``). imlbench writes every output whole or not at all
(:func:`imlbench.io.atomic_path`); a killed job leaves at most a hidden temporary file next to
an output, and of a job with several outputs, some of them. Before a run builds its graph, the
workflow clears what a run that no longer lives left behind: its locks, its temporary files,
and the outputs it marked incomplete together with their marks, so that their jobs run again.

Whether a run lives is known from an exclusive lock on ``.snakemake/imlbench.lock`` that the
Snakemake process holds for its whole life (the system releases it when the process dies, by
any signal). A run started while another one lives in the same folder clears nothing, and
Snakemake's own lock then refuses it.

The marks and locks are kept in Snakemake's file persistence (its default backend), whose
layout Snakemake does not publish: it offers no function to decode a mark, and the one that
names a mark is a private method of a class that creates folders when made. So this module
names marks the way Snakemake 9 does (:func:`mark_path`, checked against Snakemake's own code
in ``tests/test_runlock.py``), takes a file for a mark only when its name is the one its output
would get, and warns (:class:`LayoutWarning`, naming the folder and the Snakemake version)
about what it does not know instead of skipping it silently: a file in the marks' or the
locks' folder not named as Snakemake 9 names them, metadata without a marks folder, or
Snakemake's database backend (``.snakemake/metadata.db``), whose marks and locks it does not
read. What it warns about it leaves in place.
"""

from __future__ import annotations

import base64
import binascii
import fcntl
import os
import re
import warnings
from importlib import metadata
from pathlib import Path
from typing import IO

#: temporary files of :func:`imlbench.io.atomic_path`
TEMPORARY = ".*.tmp"
#: Snakemake's lock files: ``{n}.input.lock`` and ``{n}.output.lock``
LOCK_NAME = re.compile(r"[0-9]+\.(input|output)\.lock")
#: what Snakemake leaves in the marks' folder while it moves marks from its first layout
MIGRATION = "migration_underway"
#: the layout this module reads
KNOWN_LAYOUT = ("the file persistence of Snakemake 9 (checked against 9.27.1): "
                ".snakemake/incomplete/<URL-safe base64 of the output path> and "
                ".snakemake/locks/<n>.input.lock, <n>.output.lock")


class LayoutWarning(UserWarning):
    """Snakemake left something in a layout that :mod:`imlbench.runlock` does not know; it is
    left in place."""


def snakemake_version() -> str:
    try:
        return metadata.version("snakemake")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _short(name: object, width: int = 60) -> str:
    name = str(name)
    return name if len(name) <= width else f"{name[:width - 3]}..."


def _warn(what: str, advice: str) -> None:
    # stacklevel 1: a warning attributed to a Snakefile's frame is never shown (Snakemake runs
    # the Snakefile without a module name)
    warnings.warn(f"imlbench.runlock: {what}, with Snakemake {snakemake_version()}; it knows "
                  f"{KNOWN_LAYOUT}. {advice}", LayoutWarning, stacklevel=1)


def hold(root: Path) -> IO | None:
    """Take the run lock of the project at ``root`` for the life of this process; None when
    another living process holds it."""
    path = Path(root) / ".snakemake" / "imlbench.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a")  # noqa: SIM115  (kept open: the lock lives as long as the handle)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def name_max(folder: Path) -> int:
    """The longest file name in ``folder``, by which Snakemake splits a mark's name."""
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    return longest if longest > 0 else 255


def mark_path(base: Path, output: str, longest: int = 255) -> Path:
    """The mark Snakemake's file persistence writes under ``base`` (``.snakemake/incomplete``)
    for the output it names ``output`` (its path as the workflow gives it): the URL-safe base64
    of the path, cut into pieces of ``longest - 1`` characters, every piece but the last a
    folder whose name is the piece after an ``@``."""
    encoded = base64.urlsafe_b64encode(output.encode()).decode()
    size = longest - 1
    pieces = [encoded[i:i + size] for i in range(0, len(encoded), size)]
    return Path(base).joinpath(*(f"@{p}" for p in pieces[:-1]), pieces[-1])


def decode_mark(base: Path, mark: Path, longest: int = 255) -> str | None:
    """The output a mark under ``base`` stands for, as the workflow names it; None when the
    file is not named as Snakemake 9 names the mark of any output."""
    encoded = "".join(part.removeprefix("@") for part in Path(mark).relative_to(base).parts)
    try:
        output = base64.urlsafe_b64decode(encoded).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if not output or mark_path(base, output, longest) != Path(mark):
        return None
    return output


def check_layout(root: Path) -> None:
    """Warn about persistence folders of Snakemake that are not where, or not what, this
    module expects under ``root``."""
    snakemake = Path(root) / ".snakemake"
    database = snakemake / "metadata.db"
    if database.exists():
        _warn(f"{database} holds Snakemake's database persistence (--persistence-backend db), "
              "whose marks of incomplete outputs and locks it does not read",
              "A run killed under that backend may need `snakemake --unlock`, and its "
              "incomplete outputs `--rerun-incomplete`.")
    marks = snakemake / "incomplete"
    if (snakemake / "metadata").is_dir() and not marks.is_dir():
        _warn(f"{snakemake} has Snakemake's metadata folder but no folder {marks} of marks "
              "of incomplete outputs", "Outputs of an interrupted run are not cleared: "
              "rerun with --rerun-incomplete.")
    locks = snakemake / "locks"
    if locks.exists() and not locks.is_dir():
        _warn(f"{locks} is not a folder", "Remove it, or run `snakemake --unlock`.")


def incomplete_marks(root: Path) -> dict[Path, Path]:
    """Snakemake's marks of incomplete outputs under ``root`` (its file persistence: one file
    per output, :func:`mark_path`), mapped to the output; only outputs inside ``results/``.
    Files of the marks' folder that are not named as Snakemake 9 names marks are left out,
    with a :class:`LayoutWarning`."""
    base = Path(root) / ".snakemake" / "incomplete"
    results = (Path(root) / "results").resolve()
    if not base.is_dir():
        return {}
    longest = name_max(base)
    out, unknown = {}, []
    for mark in sorted(base.rglob("*")):
        if not mark.is_file() or mark == base / MIGRATION:
            continue
        output = decode_mark(base, mark, longest)
        if output is None:
            unknown.append(mark)
            continue
        path = (Path(root) / output).resolve()
        if path.is_relative_to(results):
            out[mark] = path
    if unknown:
        _warn(f"{len(unknown)} file(s) in {base} are not named as Snakemake names the mark of "
              f"an output (first: {_short(unknown[0].relative_to(base))})",
              "They and their outputs are left in place: rerun with --rerun-incomplete.")
    return out


def stale_locks(root: Path) -> list[Path]:
    """Snakemake's lock files under ``root``; files of the locks' folder named otherwise are
    left out, with a :class:`LayoutWarning`."""
    locks = Path(root) / ".snakemake" / "locks"
    if not locks.is_dir():
        return []
    files = sorted(p for p in locks.iterdir() if p.is_file())
    unknown = [p.name for p in files if not LOCK_NAME.fullmatch(p.name)]
    if unknown:
        _warn(f"{len(unknown)} file(s) in {locks} are not named as Snakemake names its locks "
              f"(first: {_short(unknown[0])})",
              "They are left in place: if Snakemake reports a lock, run `snakemake --unlock`.")
    return [p for p in files if LOCK_NAME.fullmatch(p.name)]


def clear_stale(root: Path) -> list[Path]:
    """Remove what a dead run left under ``root``: Snakemake's locks, temporary output files,
    and the outputs marked incomplete with their marks. Call only while holding the run lock.
    Warns (:class:`LayoutWarning`) about what is not in the layout it knows, and leaves that
    in place. Returns the removed files."""
    root = Path(root)
    check_layout(root)
    stale = [*stale_locks(root), *(root / "results").rglob(TEMPORARY)]
    for mark, output in incomplete_marks(root).items():
        stale += [output, mark]
    removed = [p for p in stale if p.exists()]
    for path in removed:
        path.unlink()
    return removed
