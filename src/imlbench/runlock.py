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
"""

from __future__ import annotations

import base64
import binascii
import fcntl
from pathlib import Path
from typing import IO

#: temporary files of :func:`imlbench.io.atomic_path`
TEMPORARY = ".*.tmp"


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


def incomplete_marks(root: Path) -> dict[Path, Path]:
    """Snakemake's marks of incomplete outputs under ``root`` (its file persistence: one file
    per output, named by the URL-safe base64 of the output's path, split into folders of
    ``@``-prefixed parts when long), mapped to the output; only outputs inside ``results/``."""
    base = Path(root) / ".snakemake" / "incomplete"
    results = (Path(root) / "results").resolve()
    out = {}
    for mark in base.rglob("*"):
        if not mark.is_file():
            continue
        encoded = "".join(part.lstrip("@") for part in mark.relative_to(base).parts)
        try:
            output = (Path(root) / base64.urlsafe_b64decode(encoded).decode()).resolve()
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if output.is_relative_to(results):
            out[mark] = output
    return out


def clear_stale(root: Path) -> list[Path]:
    """Remove what a dead run left under ``root``: Snakemake's locks, temporary output files,
    and the outputs marked incomplete with their marks. Call only while holding the run lock.
    Returns the removed files."""
    root = Path(root)
    stale = [*(root / ".snakemake" / "locks").glob("*.lock"),
             *(root / "results").rglob(TEMPORARY)]
    for mark, output in incomplete_marks(root).items():
        stale += [output, mark]
    removed = [p for p in stale if p.exists()]
    for path in removed:
        path.unlink()
    return removed
