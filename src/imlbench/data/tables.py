"""Read a delimited data file and check it against the columns it must have.

:func:`read_table` returns the declared columns, each parsed as its kind (a number, a whole
number, a category coded by its levels, a date), or stops with one :class:`DataFileError`
whose one-line message names the file and, for a bad value, the column, the 1-based line of
the file and the value as written there::

    data/winequality-red.csv: column 'alcohol', line 17: 'ten' is not a number

The file is parsed by pandas (so good files read exactly as ``pandas.read_csv`` reads them);
only when a value is bad is the file scanned again to find the line it sits on.
"""

from __future__ import annotations

import csv
import io
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np
import pandas as pd

NUMBER, INTEGER, CATEGORY, DATE = "number", "integer", "category", "date"
KINDS = (NUMBER, INTEGER, CATEGORY, DATE)
#: the fewest data rows a table may have unless the caller asks for more
MIN_ROWS = 2
#: the dtype each kind is read as (dates as ``pandas.to_datetime`` returns them)
_DTYPES = {NUMBER: "float64", INTEGER: "int64", CATEGORY: "int64"}

Source = str | os.PathLike[str] | Traversable


class DataFileError(ValueError):
    """A data file that cannot be used; the message names the file and, for a bad value, the
    column, the line and the value."""


@dataclass(frozen=True)
class Column:
    """A column a data file must have and the kind of its values; no value may be empty.

    ``number`` values are finite floats and ``integer`` values whole numbers, both within
    ``low``..``high`` (inclusive) when given; a ``category`` is one of the labels of
    ``levels`` and is read as the label's integer code; a ``date`` is read with
    ``date_format``.
    """

    name: str
    kind: str = NUMBER
    low: float | None = None
    high: float | None = None
    levels: Mapping[str, int] | None = None
    date_format: str = "%Y-%m-%d"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"column {self.name!r}: kind must be one of {', '.join(KINDS)}, "
                             f"got {self.kind!r}")
        if (self.kind == CATEGORY) != (self.levels is not None):
            raise ValueError(f"column {self.name!r}: levels are given with kind 'category' "
                             "and only then")

    @property
    def needed(self) -> str:
        """What a value of this column must be, in words."""
        return {NUMBER: "a number", INTEGER: "a whole number",
                CATEGORY: f"a level (allowed: {', '.join(self.levels or ())})",
                DATE: f"a date of the form {self.date_format}"}[self.kind]


def read_table(path: Source, columns: Sequence[Column], *, sep: str = ",",
               min_rows: int = MIN_ROWS) -> pd.DataFrame:
    """The ``columns`` of the ``sep``-separated file at ``path``, in that order, one row per
    data line (blank lines skipped): numbers as floats, whole numbers and category codes as
    int64, dates as datetimes. Header names are compared without surrounding blanks and
    quotes; other columns of the file are ignored.

    Raises :class:`DataFileError` when the file cannot be read or is empty, lacks a column
    (hinting at the separator when only one column is found), has a line with more fields than
    its header, has fewer than ``min_rows`` rows, or holds a value that is empty or not of its
    column's kind; a bad value is reported at the first line that has one.
    """
    text = _text(path)
    raw = _parse_csv(text, path, sep)
    raw.columns = [str(c).strip().strip('"').strip() for c in raw.columns]
    missing = [c.name for c in columns if c.name not in raw.columns]
    needed = ", ".join(c.name for c in columns)
    if missing and len(raw.columns) == 1:
        raise DataFileError(f"{path}: one column found where {len(columns)} are needed "
                            f"({needed}): is the file {sep!r}-separated?")
    if missing:
        raise DataFileError(f"{path}: missing column(s) {', '.join(map(repr, missing))}; "
                            f"needed: {needed}")
    if len(raw) < min_rows:
        rows = "1 row" if len(raw) == 1 else f"{len(raw)} rows"
        raise DataFileError(f"{path}: has {rows}; at least {min_rows} are needed")
    out, problems = {}, []
    for order, col in enumerate(columns):
        out[col.name], masks = _values(raw[col.name], col)
        for k, (bad, problem) in enumerate(masks):
            hits = np.flatnonzero(bad)
            if hits.size:
                problems.append((int(hits[0]), order, k, problem))
    if problems:  # the first line with a bad value; on that line, the first column
        row, order, _, problem = min(problems)
        col = columns[order]
        where = _bad_value(_records(text, sep, path), len(raw), row,
                           list(raw.columns).index(col.name), col, problem, sep)
        raise DataFileError(f"{path}: column {col.name!r}, {where}")
    return pd.DataFrame({c.name: out[c.name].astype(_DTYPES[c.kind]) if c.kind in _DTYPES
                         else out[c.name] for c in columns})


def _text(path: Source) -> str:
    """The file's text (UTF-8, an optional byte-order mark dropped); never empty."""
    source = Path(path) if isinstance(path, str | os.PathLike) else path
    try:
        text = source.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise DataFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{path}: is not UTF-8 text (byte {exc.start} cannot be decoded)"
                            ) from None
    if not text.strip():
        raise DataFileError(f"{path}: is empty")
    return text


def _parse_csv(text: str, path: Source, sep: str) -> pd.DataFrame:
    """The file parsed by pandas: every column as found, only empty fields missing."""
    try:
        with warnings.catch_warnings():  # a line with more fields than the header
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(io.StringIO(text), sep=sep, index_col=False,
                               keep_default_na=False, na_values=[""])
    except (pd.errors.ParserWarning, pd.errors.ParserError) as exc:
        header, rows = _records(text, sep, path)
        for line, fields in rows:
            if len(fields) > len(header):
                raise DataFileError(f"{path}: line {line}: {_fields(fields, header, sep)}"
                                    ) from None
        reason = " ".join(str(exc).split())
        raise DataFileError(f"{path}: cannot be parsed as {sep!r}-separated text ({reason})"
                            ) from None


def _values(values: pd.Series, col: Column) -> tuple[pd.Series, list[tuple[np.ndarray, str]]]:
    """``values`` parsed as ``col``'s kind (NaN or NaT where a value is bad) and, in order, the
    rows each problem hits (a mask) with the problem in words."""
    if col.kind in (CATEGORY, DATE):
        text = values if pd.api.types.is_string_dtype(values) else values.astype(str)
        parsed = (text.map(col.levels) if col.kind == CATEGORY
                  else pd.to_datetime(text, format=col.date_format, errors="coerce"))
        return parsed, [(parsed.isna().to_numpy(), f"is not {col.needed}")]
    if pd.api.types.is_bool_dtype(values):  # pandas reads True/False as booleans
        values = values.astype(str)
    x = pd.to_numeric(values, errors="coerce").astype(float).to_numpy()
    if col.kind == NUMBER:
        masks = [(np.isnan(x), "is not a number"), (np.isinf(x), "is not a finite number")]
    else:
        masks = [(~np.isfinite(x) | (x != np.floor(x)), "is not a whole number")]
    if col.low is not None:
        masks.append((x < col.low, f"is below the minimum {col.low:g}"))
    if col.high is not None:
        masks.append((x > col.high, f"is above the maximum {col.high:g}"))
    return pd.Series(x, index=values.index), masks


def _bad_value(records: tuple[list[str], list[tuple[int, list[str]]]], n_rows: int, row: int,
               position: int, col: Column, problem: str, sep: str) -> str:
    """Where data row ``row`` (0-based) is in the file (``records`` as :func:`_records` reads
    them) and what is wrong with its value in the column at ``position``:
    ``line 17: 'ten' is not a number``."""
    header, rows = records
    if len(rows) != n_rows:  # the two parsers disagree: the row number is all that is known
        return f"data row {row + 1}: {problem.removeprefix('is ')}"
    line, fields = rows[row]
    if len(fields) != len(header):
        return f"line {line}: {_fields(fields, header, sep)}"
    value = fields[position]
    if not value.strip():
        return f"line {line}: empty value; {col.needed} is needed"
    return f"line {line}: {value!r} {problem}"


def _fields(fields: list[str], header: list[str], sep: str) -> str:
    return (f"{len(fields)} field(s) where the header has {len(header)} (is the file "
            f"{sep!r}-separated?)")


def _records(text: str, sep: str, path: Source
             ) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header's fields and, for each data row, its first line (1-based) and its fields;
    blank lines are skipped, as pandas skips them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    records, last = [], 0
    try:
        for fields in reader:
            first, last = last + 1, reader.line_num
            if fields and (len(fields) > 1 or fields[0] == "" or fields[0].strip()):
                records.append((first, fields))  # a line of blanks is skipped, '""' is not
    except csv.Error as exc:
        raise DataFileError(f"{path}: line {reader.line_num}: cannot be parsed as "
                            f"{sep!r}-separated text ({exc})") from None
    return (records[0][1], records[1:]) if records else ([], [])
