"""``python -m imlbench compare``: write the reference of a run, or compare a run with one.

Exit status: 0 when nothing differs beyond floating point (or the reference was written), 1
when something does (:func:`imlbench.reference.differ.compare_digests`), 2 when the run cannot
be compared (no completed run, another profile or base seed than the reference's, no
reference).
"""

from __future__ import annotations

from pathlib import Path

from imlbench.reference.differ import compare_digests, report
from imlbench.reference.digest import digest_run, read_digest, reference_path, write_digest


def compare_command(root: Path, reference: str | None, write: str | None,
                    studies: list[str] | None = None) -> int:
    """Digest the run under ``root`` (:func:`imlbench.reference.digest.digest_run`); with
    ``write`` (a path, or "" for ``reference/<the run's profile>.json`` under ``root``) write
    it as the reference, else compare it with ``reference`` (a path, or "" for the same
    default) over ``studies`` (default all) and print the report. Returns the exit status."""
    run = digest_run(Path(root))
    if write is not None:
        path = Path(write) if write else reference_path(root, run.profile)
        write_digest(run, path)
        print(f"wrote {path}: profile {run.profile}, base seed {run.base_seed}, "
              f"{len(run.rows)} scorecard rows, {len(run.estimates)} estimate files")
        return 0
    path = Path(reference) if reference else reference_path(root, run.profile)
    ref = read_digest(path)
    diff = compare_digests(ref, run, studies)
    print(f"reference {path}\n{report(ref, run, diff)}")
    return 1 if diff else 0
