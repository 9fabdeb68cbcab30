"""A malformed data file stops with one message naming the file and, for a bad value, the
column, the 1-based line of the file and the value: in each loader of a user's file (UCI
hour.csv and day.csv, winequality-red.csv), in the shared reader, and in ``imlbench check``
before any job runs.

Every file is written line by line into ``tmp_path``: line 1 is the header, line k + 2 the
data row k (0-based) unless a test adds blank lines.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
import yaml
from bikeshare_files import UCI_ROWS

from imlbench import studies
from imlbench.data.bikeshare import UCI_COLUMNS, UCI_DAY_COLUMNS, load_uci_day, load_uci_hour
from imlbench.data.tables import CATEGORY, DATE, INTEGER, Column, DataFileError, read_table
from imlbench.data.wine import WINE_COLUMNS, load_wine_quality
from imlbench.dgp.base import make_dgp

REPO = Path(__file__).resolve().parents[1]

DAY_ROWS = [
    (1, "2011-01-01", 1, 0, 1, 0, 6, 0, 2, 0.344167, 0.363625, 0.805833, 0.160446, 331, 654, 985),
    (2, "2011-01-02", 1, 0, 1, 0, 0, 0, 2, 0.363478, 0.353739, 0.696087, 0.248539, 131, 670, 801),
    (3, "2011-01-03", 1, 0, 1, 0, 1, 1, 1, 0.196364, 0.189405, 0.437273, 0.248309, 120, 1229,
     1349),
]
WINE_ROWS = [
    (7.4, 0.7, 0, 1.9, 0.076, 11, 34, 0.9978, 3.51, 0.56, 9.4, 5),
    (7.8, 0.88, 0, 2.6, 0.098, 25, 67, 0.9968, 3.2, 0.68, 9.8, 5),
    (7.8, 0.76, 0.04, 2.3, 0.092, 15, 54, 0.997, 3.26, 0.65, 9.8, 5),
    (11.2, 0.28, 0.56, 1.9, 0.075, 17, 60, 0.998, 3.16, 0.58, 9.8, 6),
]


class Layout:
    """One loader and a good file for it: its header, rows and separator."""

    def __init__(self, load: Callable[[Path], pd.DataFrame], header: list[str], rows: list,
                 sep: str, numeric: str, quoted: bool = False) -> None:
        self.load, self.header, self.rows, self.sep = load, header, rows, sep
        self.numeric = numeric  # a column of numbers, corrupted by the tests
        self.quoted = quoted  # header names in double quotes, as winequality-red.csv has them

    def lines(self, sep: str | None = None) -> list[str]:
        sep = sep or self.sep
        names = [f'"{c}"' if self.quoted else c for c in self.header]
        return [sep.join(names)] + [sep.join(map(str, row)) for row in self.rows]

    def with_value(self, row: int, column: str, value: str) -> list[str]:
        """The lines with ``value`` written in ``column`` of data row ``row``."""
        lines = self.lines()
        fields = lines[row + 1].split(self.sep)
        fields[self.header.index(column)] = value
        lines[row + 1] = self.sep.join(fields)
        return lines


LAYOUTS = {
    "hour.csv": Layout(load_uci_hour, UCI_COLUMNS, UCI_ROWS, ",", "temp"),
    "day.csv": Layout(load_uci_day, UCI_DAY_COLUMNS, DAY_ROWS, ",", "hum"),
    "winequality-red.csv": Layout(load_wine_quality, [*WINE_COLUMNS, "quality"], WINE_ROWS, ";",
                                  "alcohol", quoted=True),
}


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def _error(load: Callable[[Path], object], path: Path) -> str:
    with pytest.raises(DataFileError) as err:
        load(path)
    msg = str(err.value)
    assert "\n" not in msg, f"not one line: {msg!r}"
    assert msg.startswith(f"{path}: "), msg
    return msg


@pytest.fixture(params=list(LAYOUTS))
def layout(request, tmp_path) -> tuple[Layout, Path]:
    return LAYOUTS[request.param], tmp_path / request.param


def test_good_files_are_read(layout):
    lay, path = layout
    df = lay.load(_write(path, lay.lines()))
    assert len(df) == len(lay.rows)


def test_text_in_a_numeric_column(layout):
    lay, path = layout
    msg = _error(lay.load, _write(path, lay.with_value(1, lay.numeric, "ten")))
    assert msg == f"{path}: column {lay.numeric!r}, line 3: 'ten' is not a number"


def test_the_line_counts_blank_lines(layout):
    lay, path = layout
    lines = lay.with_value(2, lay.numeric, "ten")
    msg = _error(lay.load, _write(path, [*lines[:2], "", *lines[2:]]))
    assert f"column {lay.numeric!r}, line 5: 'ten'" in msg


@pytest.mark.parametrize(("value", "said"), [
    ("", "empty value; a number is needed"),
    ("NaN", "'NaN' is not a number"),
    ("NA", "'NA' is not a number"),
    ("inf", "'inf' is not a finite number"),
])
def test_missing_values_are_not_allowed(layout, value, said):
    lay, path = layout
    msg = _error(lay.load, _write(path, lay.with_value(0, lay.numeric, value)))
    assert msg == f"{path}: column {lay.numeric!r}, line 2: {said}"


def test_the_first_bad_line_is_reported(layout):
    """Bad values in two columns: the earlier line wins, whatever the column order."""
    lay, path = layout
    lines = lay.with_value(2, lay.header[0], "x")
    fields = lines[2].split(lay.sep)
    fields[lay.header.index(lay.numeric)] = "y"
    lines[2] = lay.sep.join(fields)
    assert f"column {lay.numeric!r}, line 3: 'y'" in _error(lay.load, _write(path, lines))


def test_missing_column(layout):
    lay, path = layout
    drop = lay.header.index(lay.numeric)
    lines = [lay.sep.join(line.split(lay.sep)[:drop] + line.split(lay.sep)[drop + 1:])
             for line in lay.lines()]
    msg = _error(lay.load, _write(path, lines))
    assert f"missing column(s) {lay.numeric!r}; needed: " in msg
    assert ", ".join(lay.header) in msg  # every column the file needs, in order
    assert "separated" not in msg


def test_wrong_separator(layout):
    lay, path = layout
    other = ";" if lay.sep == "," else ","
    msg = _error(lay.load, _write(path, lay.lines(sep=other)))
    assert msg == (f"{path}: one column found where {len(lay.header)} are needed "
                   f"({', '.join(lay.header)}): is the file {lay.sep!r}-separated?")


def test_a_line_with_too_many_fields(layout):
    lay, path = layout
    lines = lay.lines()
    lines[3] += lay.sep + "1"
    msg = _error(lay.load, _write(path, lines))
    assert msg == (f"{path}: line 4: {len(lay.header) + 1} field(s) where the header has "
                   f"{len(lay.header)} (is the file {lay.sep!r}-separated?)")


def test_a_line_with_too_few_fields(layout):
    lay, path = layout
    lines = lay.lines()
    lines[2] = lay.sep.join(lines[2].split(lay.sep)[:3])
    msg = _error(lay.load, _write(path, lines))
    assert f"column {lay.header[3]!r}, line 3: 3 field(s) where the header has " in msg


@pytest.mark.parametrize("rows", [0, 1])
def test_too_few_rows(layout, rows):
    lay, path = layout
    msg = _error(lay.load, _write(path, lay.lines()[:rows + 1]))
    assert msg == f"{path}: has {rows} row{'' if rows == 1 else 's'}; at least 2 are needed"


@pytest.mark.parametrize("text", ["", "\n\n", "  \n"])
def test_empty_file(layout, text):
    lay, path = layout
    path.write_text(text)
    assert _error(lay.load, path) == f"{path}: is empty"


def test_unreadable_file(layout):
    lay, path = layout
    assert _error(lay.load, path) == f"{path}: cannot be read (No such file or directory)"
    path.mkdir()
    assert _error(lay.load, path).startswith(f"{path}: cannot be read (")
    bad = path.parent / "latin1.csv"
    bad.write_bytes("\n".join(lay.lines()).encode() + b"\n\xe9t\xe9\n")
    assert _error(lay.load, bad).startswith(f"{bad}: is not UTF-8 text (byte ")


# ---------------------------------------------------------------- the values each file checks


@pytest.mark.parametrize(("column", "value", "said"), [
    ("weathersit", "5", "'5' is above the maximum 4"),
    ("hr", "-1", "'-1' is below the minimum 0"),
    ("cnt", "0", "'0' is below the minimum 1"),  # y = log(cnt)
    ("season", "1.5", "'1.5' is not a whole number"),
    ("dteday", "2011-02-30", "'2011-02-30' is not a date of the form %Y-%m-%d"),
    ("dteday", "01/02/2011", "'01/02/2011' is not a date of the form %Y-%m-%d"),
])
def test_hour_file_values(tmp_path, column, value, said):
    lay = LAYOUTS["hour.csv"]
    path = _write(tmp_path / "hour.csv", lay.with_value(3, column, value))
    assert _error(load_uci_hour, path) == f"{path}: column {column!r}, line 5: {said}"


def test_wine_columns_get_short_names(tmp_path):
    lay = LAYOUTS["winequality-red.csv"]
    df = load_wine_quality(_write(tmp_path / "winequality-red.csv", lay.lines()))
    assert list(df.columns) == [*WINE_COLUMNS.values(), "y"]
    assert all(dtype == "float64" for dtype in df.dtypes)
    assert df["y"].tolist() == [5.0, 5.0, 5.0, 6.0]
    assert df.loc[3, "fixed_acid"] == 11.2 and df.loc[1, "vol_acid"] == 0.88
    assert df.loc[0, "alcohol"] == 9.4 and df.loc[2, "density"] == 0.997


def test_wine_quality_is_a_score_from_0_to_10(tmp_path):
    lay = LAYOUTS["winequality-red.csv"]
    path = _write(tmp_path / "wine.csv", lay.with_value(0, "quality", "11"))
    assert _error(load_wine_quality, path) == (f"{path}: column 'quality', line 2: '11' is "
                                               "above the maximum 10")


def test_the_dgps_raise_the_loaders_message(tmp_path):
    """The DGPs read their table when asked for the feature names, as the check does."""
    studies.load(["extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd"])
    for dgp, name, params in [("extrapolation.bikeshare", "hour.csv", {"source": "uci"}),
                              ("bikeshare_daily", "day.csv", {"source": "uci"}),
                              ("pd_pfi_dgp.application", "winequality-red.csv",
                               {"source": "wine"})]:
        lay = LAYOUTS[name]
        path = _write(tmp_path / name, lay.with_value(1, lay.numeric, "ten"))
        model = make_dgp(dgp, {**params, "path": str(path)})
        with pytest.raises(DataFileError, match="line 3: 'ten' is not a number"):
            model.feature_names  # noqa: B018


# ---------------------------------------------------------------- the shared reader


COLUMNS = [Column("x"), Column("n", INTEGER, low=0),
           Column("w", CATEGORY, levels={"clear": 1, "misty": 2}), Column("d", DATE)]


def _table(tmp_path: Path, lines: list[str], **kwargs) -> pd.DataFrame:
    return read_table(_write(tmp_path / "t.csv", ["x,n,w,d,extra", *lines]), COLUMNS, **kwargs)


def test_reader_kinds(tmp_path):
    df = _table(tmp_path, ["0.5,3,misty,2020-02-29,a", "", '-1e3,0,"clear",2021-01-01,b'])
    assert list(df.columns) == ["x", "n", "w", "d"]  # the columns asked for, in that order
    assert df["x"].tolist() == [0.5, -1000.0] and df["x"].dtype == "float64"
    assert df["n"].tolist() == [3, 0] and df["n"].dtype == "int64"
    assert df["w"].tolist() == [2, 1] and df["w"].dtype == "int64"
    assert df["d"].tolist() == [pd.Timestamp("2020-02-29"), pd.Timestamp("2021-01-01")]


def test_reader_minimum_rows(tmp_path):
    lines = [f"{k},1,clear,2020-01-01,a" for k in range(12)]
    with pytest.raises(DataFileError) as err:
        _table(tmp_path, lines, min_rows=100)
    assert str(err.value) == f"{tmp_path / 't.csv'}: has 12 rows; at least 100 are needed"


@pytest.mark.parametrize(("line", "said"), [
    ("1,1,sunny,2020-01-01,a",
     "column 'w', line 3: 'sunny' is not a level (allowed: clear, misty)"),
    ("1,1,,2020-01-01,a", "column 'w', line 3: empty value; a level (allowed: clear, misty) "
                          "is needed"),
    ('"1\n2",1,clear,2020-01-01,a', r"column 'x', line 3: '1\n2' is not a number"),
    # pandas reads a quoted blank as a row, the line scan skips it: the row number is told
    ('"  "', "column 'x', data row 2: not a number"),
])
def test_reader_messages(tmp_path, line, said):
    with pytest.raises(DataFileError) as err:
        _table(tmp_path, ["2,2,misty,2020-01-02,a", line, "3,3,clear,2020-01-03,a"])
    assert str(err.value) == f"{tmp_path / 't.csv'}: {said}"


def test_reader_does_not_take_booleans_for_numbers(tmp_path):
    with pytest.raises(DataFileError, match="column 'n', line 2: 'False' is not a whole number"):
        _table(tmp_path, ["1,False,clear,2020-01-01,a", "2,True,clear,2020-01-01,a"])


def test_reader_line_after_a_quoted_line_break(tmp_path):
    """A quoted field may span lines: the line reported is the one the bad row starts on."""
    with pytest.raises(DataFileError, match="column 'x', line 4: 'bad'"):
        _table(tmp_path, ['1,1,clear,2020-01-01,"two\nlines"', "bad,1,clear,2020-01-01,a"])


# ---------------------------------------------------------------- before any job


def _study_with_data(tmp_path: Path, path: Path) -> Path:
    """The shipped extrapolation study, its bike scenario reading ``path`` (the file's name
    makes it that study, so its own DGPs are allowed)."""
    doc = yaml.safe_load((REPO / "config" / "studies" / "extrapolation.yaml").read_text())
    doc["scenarios"]["bike"]["params"] = {"source": "uci", "path": str(path)}
    study = tmp_path / "study" / "extrapolation.yaml"
    study.parent.mkdir()
    study.write_text(yaml.safe_dump(doc, sort_keys=False))
    return study


def _check(study: Path) -> subprocess.CompletedProcess:
    """``python -m imlbench check`` of one study file, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "imlbench", "--root", str(REPO), "--profile", "smoke", "check",
         "--study", str(study)],
        capture_output=True, text=True, timeout=300,
    )


@pytest.mark.workflow
def test_check_stops_on_a_malformed_data_file(tmp_path):
    lay = LAYOUTS["hour.csv"]
    data = _write(tmp_path / "hour.csv", lay.with_value(2, "hum", "humid"))
    study = _study_with_data(tmp_path, data)
    res = _check(study)
    assert res.returncode == 2, res.stderr
    assert res.stdout == ""
    msg = res.stderr
    assert msg.count("\n") == 1, msg  # one line, no traceback
    assert msg.startswith(f"imlbench: configuration error: {study}: key scenarios.bike.params: ")
    assert "'extrapolation.bikeshare'" in msg
    assert msg.endswith(f": {data}: column 'hum', line 4: 'humid' is not a number\n"), msg


@pytest.mark.workflow
def test_check_stops_on_a_table_too_small_to_train_on(tmp_path):
    """A well-formed file whose rows leave fewer than 10 training rows."""
    lay = LAYOUTS["hour.csv"]
    data = _write(tmp_path / "hour.csv", lay.lines())
    rows = len(lay.lines()) - 1
    assert rows < 10
    study = _study_with_data(tmp_path, data)
    res = _check(study)
    assert res.returncode == 2, res.stderr
    assert (f"key scenarios.bike.params: the data of DGP 'extrapolation.bikeshare' have {rows} rows"
            in res.stderr)
    assert "allowed: a table that leaves at least 10" in res.stderr
