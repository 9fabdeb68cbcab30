"""The book's saved results as the small extract that claims cite.

The book's repository (slds-lmu/iml_methods_limitations) keeps the results its chapters plot
as R files: ``data/*.RData`` (e.g. ``drfLOCO.RData``: the forest's LOCO per feature and
correlation in chapter 9) and ``R-results/**/*.RDS``. :func:`read_saved` reads such a file
without R (through the ``rdata`` package) into data frames. The command writes
``benchmarks/book_saved_results.csv``: one row per cell that a claim cites (its ``saved``
mapping, source ``paper_code_result``) or that a miss reason cites (:data:`EVIDENCE`), with
the file's SHA-256 and, in the header, the repository's commit. Only the tests read the
extract; nothing reads the book's repository at run or test time.

    uv run python benchmarks/book_saved_results.py <book repository: a mirror or a checkout>
    uv run python benchmarks/book_saved_results.py <book repository> --show data/drfLOCO.RData
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import rdata

from imlbench.config import read_study, study_names, study_path

ROOT = Path(__file__).resolve().parents[1]
EXTRACT = ROOT / "benchmarks" / "book_saved_results.csv"
REPOSITORY = "slds-lmu/iml_methods_limitations"
#: the extract's columns: the file (its path in the book's repository) and its SHA-256, the R
#: object, the row (R's row name), the row's labels (its text and factor columns), the column
#: and the cell's value
COLUMNS = ["file", "sha256", "object", "row", "labels", "column", "value"]
#: the significant digits to which a claim's ``saved.value`` gives the cell
DIGITS = 6
#: cells the miss reasons of the study files cite as evidence: (file, object, labels, column)
EVIDENCE = (
    # ch9-s1-lm-pfi-decreases: every feature's PFI falls from Corr 0 to 0.99, the correlated
    # pair's and the independent features' alike
    *(("data/dlmPFI.RData", "dlmPFI", f"features=X{j}; Corr={rho}", "importance")
      for j in (1, 2, 3, 4) for rho in ("0", "0.99")),
    # ch9-s1-svm-pfi-rise: the rise of x1 and x2 from Corr 0.25 to 0.99 in the book's one run,
    # against the spread of its splits at 0.99
    *(("data/dsvmPFI.RData", "dsvmPFI", f"features=X{j}; Corr={rho}", "importance")
      for j in (1, 2) for rho in ("0.25", "0.99")),
    *(("data/dsvmPFI.RData", "dsvmPFI", "features=X1; Corr=0.99", column)
      for column in ("minimp", "maximp")),
    # ch9-s2-rf-pfi-above-x4(-rho075): the average ranks of x1, x2 and x4 in the book's run
    *(("data/drf2PFI.RData", "drf2PFI", f"features={f}; Corr={rho}", "averagerank")
      for f in ("X1", "X2", "X4") for rho in ("0.75", "0.99")),
)


def _frame(name: str, value: object) -> pd.DataFrame:
    """An R object as a data frame: a data frame as it is, a vector as one column named
    ``name`` whose index is the vector's names (R's 1, 2, ... when it has none)."""
    if isinstance(value, pd.DataFrame):
        return value
    if hasattr(value, "to_series") and value.ndim == 1:  # a named vector: an xarray DataArray
        return value.to_series().rename_axis(None).rename(name).to_frame()
    if isinstance(value, np.ndarray) and value.ndim == 1:  # a vector without names
        return pd.DataFrame({name: value}, index=[str(i + 1) for i in range(len(value))])
    raise TypeError(f"R object {name!r} is a {type(value).__name__}, neither a data frame "
                    "nor a vector")


def read_saved(path: Path | str) -> dict[str, pd.DataFrame]:
    """The objects of an R file by name as data frames: every object of an ``.RData`` (or
    ``.rda``) file, the one object of an ``.rds`` file under the file's name without its
    suffix. Data frames keep R's row names as their index and their columns' types (numeric,
    nullable integer, categorical for a factor, string); a vector is a one-column frame."""
    path = Path(path)
    if path.suffix.lower() == ".rds":
        return {path.stem: _frame(path.stem, rdata.read_rds(path))}
    if path.suffix.lower() in (".rdata", ".rda"):
        return {name: _frame(name, v) for name, v in rdata.read_rda(path).items()}
    raise ValueError(f"{path}: not an R data file (.RData, .rda or .rds)")


def labels(frame: pd.DataFrame) -> pd.Series:
    """Each row's labels: its text and factor columns as ``name=value`` joined by ``; ``
    (e.g. ``features=X1; Corr=0.99``), empty for a frame without such columns."""
    named = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    return pd.Series(["; ".join(f"{c}={row[c]}" for c in named)
                      for _, row in frame.iterrows()], index=frame.index, dtype=str)


def cells(frame: pd.DataFrame) -> pd.DataFrame:
    """The numeric cells of ``frame`` in long form: ``row`` (R's row name), ``labels``,
    ``column`` and ``value``."""
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])]
    wide = frame[numeric].astype(float).assign(row=frame.index.astype(str),
                                               labels=labels(frame).to_numpy())
    return wide.melt(id_vars=["row", "labels"], var_name="column", value_name="value")


def cited(root: Path = ROOT) -> pd.DataFrame:
    """The cells the shipped study files cite: every ``saved`` mapping of a claim and every
    cell of :data:`EVIDENCE`, as (file, object, labels, column) without repeats."""
    keys = ["file", "object", "labels", "column"]
    out = [dict(zip(keys, cell, strict=True)) for cell in EVIDENCE]
    for name in study_names(root / "config" / "studies"):
        doc, _ = read_study(study_path(root, name))
        for claim in doc.get("claims", []):
            if "saved" in claim:
                s = claim["saved"]
                out.append({"file": s["file"], "object": s["object"], "labels": s["row"],
                            "column": s["column"]})
    return pd.DataFrame(out, columns=keys).drop_duplicates(ignore_index=True)


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True,
                          capture_output=True).stdout


def extract(repo: Path, wanted: pd.DataFrame, commit: str = "HEAD") -> pd.DataFrame:
    """The cells ``wanted`` (:func:`cited`) read from the book's repository ``repo`` (a bare
    mirror or a checkout) at ``commit``, with each file's SHA-256; a cell the file lacks is an
    error naming it."""
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        for file, want in wanted.groupby("file", sort=True):
            blob = _git(repo, "show", f"{commit}:{file}")
            local = Path(tmp) / Path(file).name
            local.write_bytes(blob)
            objects = read_saved(local)
            for obj, w in want.groupby("object", sort=False):
                if obj not in objects:
                    raise KeyError(f"{file} holds no object {obj!r} ({', '.join(objects)})")
                long = cells(objects[obj])
                got = w.merge(long, on=["labels", "column"], how="left")
                absent = got[got["value"].isna()]
                if not absent.empty:
                    raise KeyError(f"{file}, {obj}: no cell " + ", ".join(
                        f"{r.labels} / {r.column}" for r in absent.itertuples()))
                parts.append(got.assign(sha256=hashlib.sha256(blob).hexdigest()))
    out = pd.concat(parts, ignore_index=True)[COLUMNS]
    return out.sort_values(["file", "object", "column", "labels"], ignore_index=True)


def write_extract(table: pd.DataFrame, commit: str, out: Path = EXTRACT) -> None:
    """Write ``table`` (:func:`extract`) as CSV under two comment lines naming the repository,
    its commit and this script; values at full precision."""
    header = (f"# {REPOSITORY} at commit {commit}\n"
              "# the cells of its saved R results that claims and miss reasons cite\n"
              f"# written by benchmarks/{Path(__file__).name}\n")
    out.write_text(header + table.to_csv(index=False))


def read_extract(path: Path = EXTRACT) -> tuple[pd.DataFrame, str]:
    """The extract's cells and the commit its header names."""
    first = path.read_text().splitlines()[0]
    commit = first.split(" at commit ")[1].strip() if " at commit " in first else ""
    table = pd.read_csv(path, comment="#", dtype={"row": str, "labels": str, "sha256": str})
    return table.fillna({"labels": ""}), commit


def saved_value(value: float) -> float:
    """``value`` as a claim's ``saved.value`` gives it: to :data:`DIGITS` significant digits."""
    return float(f"{value:.{DIGITS}g}")


def show(repo: Path, file: str, commit: str = "HEAD") -> str:
    """Every object of ``file`` in the book's repository, each row with its labels."""
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp) / Path(file).name
        local.write_bytes(_git(repo, "show", f"{commit}:{file}"))
        objects = read_saved(local)
    return "\n\n".join(f"{name}:\n{frame.to_string()}" for name, frame in objects.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="the book's repository (a mirror or checkout)")
    parser.add_argument("--commit", default="HEAD", help="the commit to read (default HEAD)")
    parser.add_argument("--out", type=Path, default=EXTRACT, help="where the extract goes")
    parser.add_argument("--show", metavar="FILE", help="print the objects of one R file of "
                        "the repository (e.g. data/drfLOCO.RData) instead")
    args = parser.parse_args(argv)
    if args.show:
        print(show(args.repo, args.show, args.commit))
        return 0
    commit = _git(args.repo, "rev-parse", f"{args.commit}^{{commit}}").decode().strip()
    table = extract(args.repo, cited(), commit)
    write_extract(table, commit, args.out)
    print(f"{args.out}: {len(table)} cells of {table['file'].nunique()} files at {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
