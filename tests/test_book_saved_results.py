"""The book's saved results: the reader of R files, the committed extract and the claims that
cite it.

``benchmarks/book_saved_results.py`` reads the book's ``.RData`` and ``.rds`` files (through
``rdata``, without R) and wrote ``benchmarks/book_saved_results.csv``, the cells that claims of
source ``paper_code_result`` and miss reasons cite. The reader is checked against R's own
``load()`` and ``readRDS()`` on a small file R writes here (skipped, saying why, without
``Rscript``); the claims and the extract are checked against each other. Nothing here reads the
book's repository.
"""

from __future__ import annotations

import importlib.util
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.config import read_study, study_names, study_path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "book_saved_results", ROOT / "benchmarks" / "book_saved_results.py")
bsr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bsr)

RSCRIPT = shutil.which("Rscript")
NEEDS_R = pytest.mark.skipif(RSCRIPT is None, reason=(
    "reader test against R skipped: Rscript is not installed (Debian: apt-get install "
    "r-base-core)"))
#: the least number of claims that cite the book's saved results (issue 41's acceptance)
MIN_CLAIMS = 10

#: R writes a data frame (numeric, integer, factor and character columns, each with an NA; row
#: names as the book's rbind-ed frames have them) and a named numeric vector with an NA into an
#: .RData file and each into an .rds file, loads them back with its own load() and readRDS(),
#: and writes every value as text at full precision
R_WRITES = r"""
df <- data.frame(num = c(1.5, NA, -2.25, pi, 1e-300),
                 int = c(1L, NA, 3L, -7L, 2147483647L),
                 fac = factor(c("a", "b", NA, "a", "c"), levels = c("c", "b", "a")),
                 chr = c("x", NA, "z", "w", "y"), stringsAsFactors = FALSE)
rownames(df) <- c("1", "11", "21", "31", "4")
v <- c(alpha = 1.25, beta = NA, gamma = 1 / 3)
save(df, v, file = "small.RData")
saveRDS(df, "small.rds")
saveRDS(v, "v.rds")
e <- new.env()
load("small.RData", envir = e)
stopifnot(identical(readRDS("small.rds"), e$df), identical(readRDS("v.rds"), e$v))
d <- e$df
txt <- function(x) ifelse(is.na(x), "NA", as.character(x))
writeLines(rownames(d), "rownames.txt")
writeLines(sprintf("%.17g", d$num), "num.txt")
writeLines(txt(d$int), "int.txt")
writeLines(txt(d$fac), "fac.txt")
writeLines(levels(d$fac), "levels.txt")
writeLines(txt(d$chr), "chr.txt")
writeLines(names(e$v), "vnames.txt")
writeLines(sprintf("%.17g", e$v), "v.txt")
"""


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def _same(ours: pd.Series, theirs: list[str], parse) -> None:
    """``ours`` holds R's values ``theirs`` (text, ``NA`` for a missing value) exactly."""
    assert len(ours) == len(theirs)
    for got, want in zip(ours.tolist(), theirs, strict=True):
        if want == "NA":
            assert pd.isna(got), f"{got!r} where R has NA"
        else:
            assert got == parse(want), f"{got!r} where R has {want}"


@pytest.fixture(scope="module")
def r_files(tmp_path_factory) -> Path:
    """A folder with the small R files and R's text of their values."""
    if RSCRIPT is None:
        pytest.skip("Rscript is not installed")
    folder = tmp_path_factory.mktemp("r_saved")
    (folder / "write.R").write_text(R_WRITES)
    res = subprocess.run([RSCRIPT, "write.R"], capture_output=True, text=True, cwd=folder)
    assert res.returncode == 0, res.stderr
    return folder


@pytest.mark.workflow  # starts Rscript
@NEEDS_R
def test_the_reader_gives_what_r_load_gives(r_files):
    """Every object of the .RData file, with R's row names, numbers to the last bit, the
    integers, the factor's levels in R's order and its values, the strings and every NA."""
    objects = bsr.read_saved(r_files / "small.RData")
    assert set(objects) == {"df", "v"}
    df = objects["df"]
    assert list(df.columns) == ["num", "int", "fac", "chr"]
    assert list(df.index) == _lines(r_files / "rownames.txt")
    _same(df["num"], _lines(r_files / "num.txt"), float)
    _same(df["int"], _lines(r_files / "int.txt"), int)
    assert pd.api.types.is_integer_dtype(df["int"])
    assert isinstance(df["fac"].dtype, pd.CategoricalDtype)
    assert list(df["fac"].cat.categories) == _lines(r_files / "levels.txt")
    _same(df["fac"], _lines(r_files / "fac.txt"), str)
    _same(df["chr"], _lines(r_files / "chr.txt"), str)
    v = objects["v"]
    assert list(v.columns) == ["v"]
    assert list(v.index) == _lines(r_files / "vnames.txt")
    _same(v["v"], _lines(r_files / "v.txt"), float)


@pytest.mark.workflow  # starts Rscript
@NEEDS_R
def test_the_reader_gives_what_r_readrds_gives(r_files):
    """An .rds file holds one object, named after the file: the same frames as the .RData."""
    objects = bsr.read_saved(r_files / "small.RData")
    df = bsr.read_saved(r_files / "small.rds")
    assert list(df) == ["small"]
    pd.testing.assert_frame_equal(df["small"], objects["df"])
    v = bsr.read_saved(r_files / "v.rds")
    assert list(v) == ["v"]
    pd.testing.assert_frame_equal(v["v"], objects["v"])


def test_cells_are_the_numeric_columns_with_their_row_labels():
    frame = pd.DataFrame({"importance": [1.5, 2.25], "features": pd.Categorical(["X1", "X2"]),
                          "rank": pd.array([2, 1], dtype="Int32"),
                          "Corr": pd.Categorical(["0", "0.99"])}, index=["1", "21"])
    got = bsr.cells(frame)
    assert got.to_dict("records") == [
        {"row": "1", "labels": "features=X1; Corr=0", "column": "importance", "value": 1.5},
        {"row": "21", "labels": "features=X2; Corr=0.99", "column": "importance", "value": 2.25},
        {"row": "1", "labels": "features=X1; Corr=0", "column": "rank", "value": 2.0},
        {"row": "21", "labels": "features=X2; Corr=0.99", "column": "rank", "value": 1.0}]


def test_a_file_that_is_not_r_data_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not an R data file"):
        bsr.read_saved(tmp_path / "results.csv")


def _claims() -> list[tuple[str, dict]]:
    out = []
    for name in study_names(ROOT / "config" / "studies"):
        doc, _ = read_study(study_path(ROOT, name))
        out += [(name, c) for c in doc.get("claims", [])]
    return out


KEY = ["file", "object", "labels", "column"]


@pytest.fixture(scope="module")
def extract() -> tuple[pd.DataFrame, str]:
    return bsr.read_extract()


def test_every_saved_claim_cites_a_cell_of_the_extract_with_its_value(extract):
    """Each claim of source paper_code_result names a cell the extract holds, its
    ``saved.value`` is that cell to six significant digits, and the value its kind tests is
    ``saved.value``; ``saved`` sits on no claim of another source."""
    table, _ = extract
    saved = [(study, c) for study, c in _claims() if c["source"] == "paper_code_result"]
    assert len(saved) >= MIN_CLAIMS, f"{len(saved)} claims cite the book's saved results"
    assert not [c["id"] for _, c in _claims() if "saved" in c
                and c["source"] != "paper_code_result"]
    for study, claim in saved:
        s = claim["saved"]
        where = f"{study}/{claim['id']}"
        hits = table[(table["file"] == s["file"]) & (table["object"] == s["object"])
                     & (table["labels"] == s["row"]) & (table["column"] == s["column"])]
        assert len(hits) == 1, f"{where}: the extract holds {len(hits)} cells {s}"
        cell = float(hits["value"].iloc[0])
        assert s["value"] == bsr.saved_value(cell), (
            f"{where}: saved.value {s['value']} is not the extract's {cell!r} to "
            f"{bsr.DIGITS} significant digits")
        if "value" in claim:
            assert claim["value"] == s["value"], f"{where}: tests {claim['value']}"


def test_the_extract_holds_exactly_the_cited_cells(extract):
    """Small: every row is a cell a claim or a miss reason (``EVIDENCE``) cites, and each such
    cell is there."""
    table, _ = extract
    held = set(map(tuple, table[KEY].to_numpy()))
    cited = set(map(tuple, bsr.cited(ROOT)[KEY].to_numpy()))
    assert held == cited, (f"cited, not in the extract: {sorted(cited - held)}; in the "
                           f"extract, not cited: {sorted(held - cited)}")


def test_the_extract_is_well_formed(extract):
    """Every row names a file and an object, the file's SHA-256 (64 hex digits, one per
    file), a row and a column and holds a finite number once; the header names the commit."""
    table, commit = extract
    assert re.fullmatch(r"[0-9a-f]{40}", commit), f"header commit {commit!r}"
    assert list(table.columns) == bsr.COLUMNS
    assert not table.empty
    for col in ("file", "object", "row", "column"):
        assert table[col].astype(str).str.strip().ne("").all() and table[col].notna().all(), col
    assert table["sha256"].str.fullmatch(r"[0-9a-f]{64}").all()
    assert (table.groupby("file")["sha256"].nunique() == 1).all()
    assert all(math.isfinite(v) for v in table["value"].astype(float))
    assert not table.duplicated(KEY).any()
    assert np.issubdtype(table["value"].dtype, np.floating)
