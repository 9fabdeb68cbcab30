"""Compare two ``results/`` trees by value: every Parquet file, provenance metadata aside,
and the scorecard over all studies, its date aside.

Two runs of the workflow (say, before and after a change of the code that must not change
any number) are equal when both trees hold the same Parquet files and every pair of tables is
equal to the last bit (``pandas.testing.assert_frame_equal`` with ``check_exact``), and their
``SCORECARD.md`` and ``scorecard.html`` are equal but for the line that dates the run
(:func:`imlbench.compare.without_date`). The provenance record (git revision, config hash,
...) is schema metadata and is not compared:

    uv run python benchmarks/compare_results.py /path/to/old/results results [--only STUDY]

Truth tables (``<study>/truth/<scenario>/*.parquet``) are compared as sets of rows, sorted.
Results of before the one-truth-shape change (truth tables ``effects`` with a ``kind`` column,
wide ``importance`` with ``marginal``/``conditional`` columns and their ``rank_*``,
``pfi_x1``, ``effect_curves``, ``dgp_pd``) are converted to the one long shape of
:mod:`imlbench.explain.estimands` first, in this script only (:func:`old_truths_as_long`), so
that such a tree compares with a newer one by value: their ``rank_*`` columns are checked
against :func:`imlbench.metrics.ranks.truth_ranks` of the converted table.

Exits 1 when a file is missing on one side or any table differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.compare import without_date
from imlbench.explain.estimands import TABLE_OF, TRUTH_COLUMNS
from imlbench.io import read_parquet
from imlbench.metrics.ranks import truth_ranks

#: the scorecard over all studies, compared as text without its date
SCORECARDS = (Path("SCORECARD.md"), Path("scorecard.html"))


def parquet_files(root: Path, only: str) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*.parquet")
            if p.relative_to(root).parts[0].startswith(only)}


def scorecard_files(root: Path, only: str) -> set[Path]:
    """The scorecards over all studies in ``root`` (none when comparing one study)."""
    return set() if only else {p for p in SCORECARDS if (root / p).is_file()}


# --- results of before the one-truth-shape change ------------------------------------------

#: the truth tables of before the change, by name, and how each holds its estimands
OLD_TRUTH_TABLES = ("effects", "importance", "pfi_x1", "effect_curves", "dgp_pd")
#: the importance kinds of an old wide ``importance`` table (columns <kind>, <kind>_se,
#: rank_<kind>, <kind>_ratio, <kind>_ratio_se)
OLD_KINDS = ("marginal", "conditional")


def is_truth(rel: Path) -> bool:
    return len(rel.parts) == 4 and rel.parts[1] == "truth"


def is_old_shape(table: pd.DataFrame) -> bool:
    """A truth table of before the one-truth-shape change: it lacks a column of the shape."""
    return not set(TRUTH_COLUMNS) <= set(table.columns)


def _labels(table: pd.DataFrame) -> list[str]:
    """The columns the truth stage puts in front: the scenario and its swept parameters."""
    return [c for c in table.columns if c == "scenario" or c.startswith("p_")]


def _long(table: pd.DataFrame, labels: list[str], **columns) -> pd.DataFrame:
    """Rows of ``table``'s labels with ``columns``, the shape's missing ones at their
    defaults (row -1, x, lo and hi NaN, se 0)."""
    out = table[labels].copy()
    for c, v in columns.items():
        out[c] = v.to_numpy() if isinstance(v, pd.Series) else v
    defaults = {"row": -1, "x": np.nan, "se": 0.0, "lo": np.nan, "hi": np.nan}
    for c, v in defaults.items():
        if c not in out:
            out[c] = v
    return out[[*labels, *TRUTH_COLUMNS]].astype(TRUTH_COLUMNS)


def _old_importance(table: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    frames = []
    for kind in OLD_KINDS:
        if kind not in table:
            continue
        frames.append(_long(table, labels, estimand=f"pfi_{kind}", feature=table["feature"],
                            value=table[kind], se=table.get(f"{kind}_se", 0.0)))
        if f"{kind}_ratio" in table:
            frames.append(_long(table, labels, estimand=f"pfi_{kind}_ratio",
                                feature=table["feature"], value=table[f"{kind}_ratio"],
                                se=table.get(f"{kind}_ratio_se", 0.0)))
    long = pd.concat(frames, ignore_index=True)
    for kind in OLD_KINDS:  # the ranks are now computed where they are read
        if f"rank_{kind}" in table:
            want = table.set_index("feature")[f"rank_{kind}"]
            got = truth_ranks(long, f"pfi_{kind}")
            pd.testing.assert_series_equal(got.reindex(want.index), want, check_names=False,
                                           check_exact=True)
    return long


def old_table_as_long(name: str, table: pd.DataFrame) -> pd.DataFrame:
    """An old-shape truth table ``name`` in the one long shape (see the module doc)."""
    labels = _labels(table)
    if name == "importance":
        return _old_importance(table, labels)
    if name == "pfi_x1":
        return _long(table, labels, estimand="pfi_" + table["estimand"],
                     feature=table["feature"], value=table["value"])
    if name not in ("effects", "effect_curves", "dgp_pd"):
        raise ValueError(f"unknown old truth table {name}; known: {', '.join(OLD_TRUTH_TABLES)}")
    estimand = table["kind"] if "kind" in table else table.get("estimand", "pd")
    return _long(table, labels, estimand=estimand,
                 **{c: table[c] for c in ("feature", "row", "x", "value", "se", "lo", "hi")
                    if c in table})


def old_truths_as_long(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """A scenario's old-shape truth tables by name as its tables of the one shape by name
    (``effects``, ``importance``: the table of each row's estimand)."""
    long = pd.concat([old_table_as_long(n, t) for n, t in tables.items()], ignore_index=True)
    table = long["estimand"].map(TABLE_OF)
    return {name: long[table == name].reset_index(drop=True)
            for name in dict.fromkeys(table)}


def truth_tables(root: Path, rels: set[Path]) -> dict[Path, pd.DataFrame]:
    """The truth files ``rels`` of ``root`` by path, those of a scenario with an old-shape
    table converted to the one shape (and renamed after it)."""
    by_dir: dict[Path, dict[str, pd.DataFrame]] = {}
    for rel in rels:
        by_dir.setdefault(rel.parent, {})[rel.stem] = read_parquet(root / rel)
    out = {}
    for folder, tables in by_dir.items():
        if any(is_old_shape(t) for t in tables.values()):
            tables = old_truths_as_long(tables)
        out |= {folder / f"{name}.parquet": t for name, t in tables.items()}
    return out


def _sorted(table: pd.DataFrame) -> pd.DataFrame:
    """A truth table's rows in one order: by every column."""
    return table.sort_values(list(table.columns), kind="mergesort").reset_index(drop=True)


def frames_differ(a: pd.DataFrame, b: pd.DataFrame) -> str:
    try:
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    except AssertionError as exc:
        return " ".join(str(exc).split())[:300]
    return ""


def differ(old: Path, new: Path, rel: Path) -> str:
    """How file ``rel`` differs between the two trees ("" when equal)."""
    if rel.suffix != ".parquet":
        a, b = (without_date((root / rel).read_text()) for root in (old, new))
        return "" if a == b else "the text differs (date line aside)"
    return frames_differ(read_parquet(old / rel), read_parquet(new / rel))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--only", default="", help="compare this study's files only")
    args = parser.parse_args()
    old, new = ({*parquet_files(root, args.only), *scorecard_files(root, args.only)}
                for root in (args.old, args.new))
    # truth tables, old-shape ones converted (their file names may change with them)
    truths = [truth_tables(root, {r for r in files if is_truth(r)})
              for root, files in ((args.old, old), (args.new, new))]
    old = {r for r in old if not is_truth(r)} | set(truths[0])
    new = {r for r in new if not is_truth(r)} | set(truths[1])
    for side, files in (("only in old", old - new), ("only in new", new - old)):
        for rel in sorted(files):
            print(f"{side}: {rel}")
    n_differ = 0
    for rel in sorted(old & new):
        how = (frames_differ(_sorted(truths[0][rel]), _sorted(truths[1][rel]))
               if is_truth(rel) else differ(args.old, args.new, rel))
        if how:
            n_differ += 1
            print(f"differs: {rel}: {how}")
    print(f"compared {len(old & new)} files: {n_differ} differ, {len(old - new)} only in old, "
          f"{len(new - old)} only in new")
    return int(bool(n_differ or old ^ new))


if __name__ == "__main__":
    sys.exit(main())
