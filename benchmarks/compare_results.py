"""Compare two ``results/`` trees by value: every Parquet file, provenance metadata aside.

Two runs of the workflow (say, before and after a change of the code that must not change
any number) are equal when both trees hold the same Parquet files and every pair of tables is
equal to the last bit (``pandas.testing.assert_frame_equal`` with ``check_exact``). The
provenance record (git revision, config hash, ...) is schema metadata and is not compared:

    uv run python benchmarks/compare_results.py /path/to/old/results results [--only STUDY]

Exits 1 when a file is missing on one side or any table differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from imlbench.io import read_parquet


def parquet_files(root: Path, only: str) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*.parquet")
            if p.relative_to(root).parts[0].startswith(only)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--only", default="", help="compare this study's files only")
    args = parser.parse_args()
    old, new = parquet_files(args.old, args.only), parquet_files(args.new, args.only)
    for side, files in (("only in old", old - new), ("only in new", new - old)):
        for rel in sorted(files):
            print(f"{side}: {rel}")
    differ = 0
    for rel in sorted(old & new):
        try:
            pd.testing.assert_frame_equal(read_parquet(args.old / rel),
                                          read_parquet(args.new / rel), check_exact=True)
        except AssertionError as exc:
            differ += 1
            print(f"differs: {rel}: {' '.join(str(exc).split())[:300]}")
    print(f"compared {len(old & new)} files: {differ} differ, {len(old - new)} only in old, "
          f"{len(new - old)} only in new")
    return int(bool(differ or old ^ new))


if __name__ == "__main__":
    sys.exit(main())
