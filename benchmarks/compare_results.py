"""Compare two ``results/`` trees by value: every Parquet file, provenance metadata aside,
and the scorecard over all studies, its date aside.

Two runs of the workflow (say, before and after a change of the code that must not change
any number) are equal when both trees hold the same Parquet files and every pair of tables is
equal to the last bit (``pandas.testing.assert_frame_equal`` with ``check_exact``), and their
``SCORECARD.md`` and ``scorecard.html`` are equal but for the line that dates the run
(:func:`imlbench.compare.without_date`). The provenance record (git revision, config hash,
...) is schema metadata and is not compared:

    uv run python benchmarks/compare_results.py /path/to/old/results results [--only STUDY]

Exits 1 when a file is missing on one side or any table differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from imlbench.compare import without_date
from imlbench.io import read_parquet

#: the scorecard over all studies, compared as text without its date
SCORECARDS = (Path("SCORECARD.md"), Path("scorecard.html"))


def parquet_files(root: Path, only: str) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*.parquet")
            if p.relative_to(root).parts[0].startswith(only)}


def scorecard_files(root: Path, only: str) -> set[Path]:
    """The scorecards over all studies in ``root`` (none when comparing one study)."""
    return set() if only else {p for p in SCORECARDS if (root / p).is_file()}


def differ(old: Path, new: Path, rel: Path) -> str:
    """How file ``rel`` differs between the two trees ("" when equal)."""
    if rel.suffix != ".parquet":
        a, b = (without_date((root / rel).read_text()) for root in (old, new))
        return "" if a == b else "the text differs (date line aside)"
    try:
        pd.testing.assert_frame_equal(read_parquet(old / rel), read_parquet(new / rel),
                                      check_exact=True)
    except AssertionError as exc:
        return " ".join(str(exc).split())[:300]
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--only", default="", help="compare this study's files only")
    args = parser.parse_args()
    old, new = ({*parquet_files(root, args.only), *scorecard_files(root, args.only)}
                for root in (args.old, args.new))
    for side, files in (("only in old", old - new), ("only in new", new - old)):
        for rel in sorted(files):
            print(f"{side}: {rel}")
    n_differ = 0
    for rel in sorted(old & new):
        if how := differ(args.old, args.new, rel):
            n_differ += 1
            print(f"differs: {rel}: {how}")
    print(f"compared {len(old & new)} files: {n_differ} differ, {len(old - new)} only in old, "
          f"{len(new - old)} only in new")
    return int(bool(n_differ or old ^ new))


if __name__ == "__main__":
    sys.exit(main())
