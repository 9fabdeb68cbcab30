"""``python -m imlbench compare``: write the reference of a run, or compare a run with one.

Exit status: 0 when nothing differs beyond floating point (or the reference was written), 1
when something does (:func:`imlbench.reference.differ.compare_digests`), 2 when the run cannot
be compared (no completed run, another profile or base seed than the reference's, no
reference).
"""

from __future__ import annotations

from pathlib import Path

from imlbench.reference.differ import compare_digests, report
from imlbench.reference.digest import (
    RefusedComparison,
    RunDigest,
    digest_run,
    read_digest,
    reference_path,
    write_digest,
)


def merged(reference: RunDigest, run: RunDigest, studies: list[str]) -> RunDigest:
    """``reference`` with the rows and estimate files of ``studies`` taken from ``run`` (a run
    of the same profile and base seed), the others kept; the code recorded is the run's."""
    if (run.profile, run.base_seed) != (reference.profile, reference.base_seed):
        raise RefusedComparison(
            f"the run (profile {run.profile}, base seed {run.base_seed}) cannot update a "
            f"reference of profile {reference.profile}, base seed {reference.base_seed}")
    if missing := [s for s in studies if s not in run.studies]:
        raise RefusedComparison(f"the run has no study {', '.join(missing)} (it has "
                                f"{', '.join(run.studies)})")
    rows = [r for r in reference.rows if r["study"] not in studies]
    rows += [r for r in run.rows if r["study"] in studies]
    estimates = {p: d for p, d in reference.estimates.items()
                 if p.split("/", 1)[0] not in studies}
    estimates |= {p: d for p, d in run.estimates.items() if p.split("/", 1)[0] in studies}
    return RunDigest(reference.profile, reference.base_seed,
                     [*reference.studies, *(s for s in studies if s not in reference.studies)],
                     run.code, rows, dict(sorted(estimates.items())))


def compare_command(root: Path, reference: str | None, write: str | None,
                    studies: list[str] | None = None) -> int:
    """Digest the run under ``root`` (:func:`imlbench.reference.digest.digest_run`); with
    ``write`` (a path, or "" for ``reference/<the run's profile>.json`` under ``root``) write
    it as the reference (with ``studies``: replace those studies in the reference there and
    keep the others, :func:`merged`), else compare it with ``reference`` (a path, or "" for
    the same default) over ``studies`` (default all) and print the report. Returns the exit
    status."""
    run = digest_run(Path(root))
    if write is not None:
        path = Path(write) if write else reference_path(root, run.profile)
        if studies:
            run = merged(read_digest(path), run, studies)
        write_digest(run, path)
        print(f"wrote {path}: profile {run.profile}, base seed {run.base_seed}, "
              f"{len(run.rows)} scorecard rows, {len(run.estimates)} estimate files")
        return 0
    path = Path(reference) if reference else reference_path(root, run.profile)
    ref = read_digest(path)
    diff = compare_digests(ref, run, studies)
    print(f"reference {path}\n{report(ref, run, diff)}")
    return 1 if diff else 0
