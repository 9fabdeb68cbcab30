"""Hourly counts of the Capital Bikeshare system in Washington, D.C.

Fanaee-T & Gama (2013), "Event labeling combining ensemble detectors and background
knowledge", Progress in Artificial Intelligence 2, 113-127, published as the UCI
"Bike Sharing Dataset" (id 275). Each row is one hour: calendar fields, the weather
situation, normalised temperature, felt temperature, humidity and wind speed, and the
number of rentals by casual and by registered users. The target is the log of the total
count; the casual and registered counts sum to it and are never features.

Two copies are read here: the 2011 subset (8645 hours) that the ISLP package ships as
``Bikeshare.csv``, with month and weather written as words, and the full UCI ``hour.csv``
(17379 hours over 2011-2012), which :func:`download_uci_hour` fetches and verifies.
The daily data come from the UCI ``day.csv`` by path (:func:`load_uci_day`) or are built from
ISLP's hours (:func:`daily_from_islp`), in one of two column sets (``DAY_COLUMN_SETS``):
``application``, the units of the conditional-subgroups application of Molnar et al.,
Sect. 10 (:func:`daily_features`), or ``uci``, the columns of ``day.csv`` as the file codes
them (:func:`uci_day_features`; the LMU book's ch. 3). The DGP ``bikeshare_daily``
(:mod:`imlbench.dgp.bikeshare`) serves them.
"""

from __future__ import annotations

import hashlib
import os
import urllib.request
import zipfile
from collections.abc import Callable
from importlib.resources import files
from io import BytesIO
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from imlbench.data import records
from imlbench.data.tables import CATEGORY, DATE, INTEGER, Column, read_table
from imlbench.io import atomic_path

UCI_ZIP_URL = "https://archive.ics.uci.edu/static/public/275/bike+sharing+dataset.zip"
#: SHA-256 of the UCI zip. Unset: the archive was never fetched from this project, so
#: :func:`download_uci_hour` needs the hash the user trusts passed explicitly.
UCI_ZIP_SHA256: str | None = None

ISLP_FEATURES = [
    "season", "mnth", "day", "hr", "holiday", "weekday", "workingday", "weathersit",
    "temp", "atemp", "hum", "windspeed",
]
UCI_FEATURES = [
    "instant", "day", "season", "yr", "mnth", "hr", "holiday", "weekday", "workingday",
    "weathersit", "temp", "atemp", "hum", "windspeed",
]
UCI_COLUMNS = [
    "instant", "dteday", "season", "yr", "mnth", "hr", "holiday", "weekday", "workingday",
    "weathersit", "temp", "atemp", "hum", "windspeed", "casual", "registered", "cnt",
]
_ISLP_COLUMNS = [*ISLP_FEATURES, "casual", "registered", "bikers"]

#: the integer codes of the UCI files (ISLP's too, but for its labelled month and weather)
#: and their ranges
_CODES = {"season": (1, 4), "yr": (0, 1), "mnth": (1, 12), "hr": (0, 23), "holiday": (0, 1),
          "weekday": (0, 6), "workingday": (0, 1), "weathersit": (1, 4)}
#: the columns whose log is the target: a count of at least one rental
_LOG_COUNTS = ("cnt", "bikers")
#: ISLP month labels to month numbers
_MONTHS = {name: k + 1 for k, name in enumerate(
    ["Jan", "Feb", "March", "April", "May", "June", "July", "Aug", "Sept", "Oct", "Nov", "Dec"])}
#: ISLP weather labels to the UCI codes (1 clear ... 4 heavy rain/snow)
_WEATHER = {"clear": 1, "cloudy/misty": 2, "light rain/snow": 3, "heavy rain/snow": 4}
_ISLP_LABELS = {"mnth": _MONTHS, "weathersit": _WEATHER}
_NUMBERS = ("temp", "atemp", "hum", "windspeed")

Opener = Callable[..., IO[bytes]]


def _columns(names: list[str]) -> list[Column]:
    """How the columns ``names`` of a UCI file are read: the normalised weather values as
    numbers, ``dteday`` as a date and the rest as whole numbers (codes within their range,
    counts, row ids)."""
    out = []
    for name in names:
        if name in _NUMBERS:
            out.append(Column(name))
        elif name == "dteday":
            out.append(Column(name, DATE, date_format="%Y-%m-%d"))
        elif name in _CODES:
            out.append(Column(name, INTEGER, low=_CODES[name][0], high=_CODES[name][1]))
        else:
            out.append(Column(name, INTEGER, low=1 if name in _LOG_COUNTS else 0))
    return out


def _read_islp() -> pd.DataFrame:
    """ISLP's ``Bikeshare.csv``, read as the UCI files but with the month and weather labels
    as their codes."""
    columns = [Column(c.name, CATEGORY, levels=_ISLP_LABELS[c.name])
               if c.name in _ISLP_LABELS else c for c in _columns(_ISLP_COLUMNS)]
    return read_table(files("ISLP") / "data" / "Bikeshare.csv", columns)


def load_islp() -> pd.DataFrame:
    """The ISLP ``Bikeshare`` data as numbers: the 12 features of ``ISLP_FEATURES`` and ``y``.

    ``mnth`` becomes the month number 1..12, ``hr`` an integer 0..23, ``weathersit`` the
    UCI code (1 clear, 2 mist/cloudy, 3 light rain/snow, 4 heavy rain/snow) and ``day``
    stays the day of the year (1..365). ``y = log(bikers)``; every hour of the file has at
    least one rental, so no offset is added. Rows keep the file order.
    """
    raw = _read_islp()
    df = raw[ISLP_FEATURES].copy()
    df["y"] = np.log(raw["bikers"].to_numpy(dtype=float))
    return df


def load_uci_hour(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The UCI ``hour.csv`` as the 14 features of ``UCI_FEATURES`` and ``y = log(cnt)``.

    ``day`` is ``dteday`` as whole days since 2011-01-01 (0 on the first day, unlike the
    1-based day of year of :func:`load_islp`); the other features are the file's columns
    unchanged. Raises :class:`~imlbench.data.tables.DataFileError` naming the file and the
    columns it lacks, or the column, line and value of the first bad value (a code out of its
    range, a count below 1, ...).
    """
    raw = read_table(path, _columns(UCI_COLUMNS))
    df = raw[[c for c in UCI_FEATURES if c != "day"]].copy()
    df.insert(1, "day", (raw["dteday"] - pd.Timestamp("2011-01-01")).dt.days.astype("int64"))
    df["y"] = np.log(raw["cnt"].to_numpy(dtype=float))
    return df


def download_uci_hour(
    dest_dir: str | os.PathLike[str],
    url: str = UCI_ZIP_URL,
    sha256: str | None = UCI_ZIP_SHA256,
    opener: Opener = urllib.request.urlopen,
    timeout: float = 60.0,
) -> Path:
    """Download the UCI zip, check its SHA-256 and extract ``hour.csv`` into ``dest_dir``.

    ``opener(url, timeout=timeout)`` must return a readable binary response (the default
    is ``urllib.request.urlopen``; tests pass a local stand-in). Nothing is fetched unless
    ``sha256`` is given; a mismatch raises ``ValueError`` with both hashes and writes
    nothing. The file is written atomically; returns its path.
    """
    if sha256 is None:
        raise ValueError(
            f"no SHA-256 is recorded for {url}; download it yourself, check it, and pass the "
            "hash you trust as sha256=..."
        )
    with opener(url, timeout=timeout) as response:
        payload = response.read()
    actual = hashlib.sha256(payload).hexdigest()
    if actual != sha256.strip().lower():
        raise ValueError(f"{url}: SHA-256 is {actual}, expected {sha256}")
    with zipfile.ZipFile(BytesIO(payload)) as archive:
        if "hour.csv" not in archive.namelist():
            raise ValueError(f"{url}: no hour.csv in the archive ({archive.namelist()})")
        content = archive.read("hour.csv")
    target = Path(dest_dir) / "hour.csv"
    with atomic_path(target) as tmp:
        tmp.write_bytes(content)
    return target


#: the daily features of the conditional-subgroups bike application (Molnar et al., Sect. 10)
DAILY_FEATURES = ["season", "yr", "holiday", "weekday", "temp", "hum", "work", "weather", "wind"]
#: level names of the integer-coded daily features (the application's labels where it has them)
DAILY_LEVELS: dict[str, dict[int, str]] = {
    "season": {1: "WINTER", 2: "SPRING", 3: "SUMMER", 4: "FALL"},
    "yr": {0: "2011", 1: "2012"},
    "holiday": {0: "NO HOLIDAY", 1: "HOLIDAY"},
    "weekday": {0: "SUN", 1: "MON", 2: "TUE", 3: "WED", 4: "THU", 5: "FRI", 6: "SAT"},
    "work": {0: "NO WORKING DAY", 1: "WORKING DAY"},
    "weather": {0: "GOOD", 1: "MISTY/BAD"},
}
UCI_DAY_COLUMNS = [
    "instant", "dteday", "season", "yr", "mnth", "holiday", "weekday", "workingday",
    "weathersit", "temp", "atemp", "hum", "windspeed", "casual", "registered", "cnt",
]


def daily_features(day: pd.DataFrame) -> pd.DataFrame:
    """The 9 daily features and ``y = cnt`` from UCI ``day.csv`` columns, in the units of
    the conditional-subgroups application: temperature in degrees C (round(47 temp - 8, 1)),
    humidity in %, wind in km/h (67 windspeed), weather 0 (good: clear) or 1 (bad: mist, rain,
    snow), ``work`` = workingday; season (1 winter .. 4 fall), yr, holiday and weekday stay
    integer codes."""
    df = pd.DataFrame({
        "season": day["season"].astype("int64"),
        "yr": day["yr"].astype("int64"),
        "holiday": day["holiday"].astype("int64"),
        "weekday": day["weekday"].astype("int64"),
        "temp": np.round(day["temp"].to_numpy(dtype=float) * 47.0 - 8.0, 1),
        "hum": 100.0 * day["hum"].to_numpy(dtype=float),
        "work": day["workingday"].astype("int64"),
        "weather": (day["weathersit"].astype("int64") >= 2).astype("int64"),
        "wind": 67.0 * day["windspeed"].to_numpy(dtype=float),
    })
    df["y"] = day["cnt"].to_numpy(dtype=float)
    return df


#: the features of ``day.csv`` that the LMU book's ch. 3 uses, as the file codes them
UCI_DAY_FEATURES = ["season", "yr", "mnth", "holiday", "workingday", "weathersit", "temp",
                    "atemp", "hum", "windspeed"]
#: level names of the integer-coded features of :data:`UCI_DAY_FEATURES`
UCI_DAY_LEVELS: dict[str, dict[int, str]] = {
    "season": DAILY_LEVELS["season"],
    "yr": DAILY_LEVELS["yr"],
    "mnth": {code: name for name, code in _MONTHS.items()},
    "holiday": DAILY_LEVELS["holiday"],
    "workingday": DAILY_LEVELS["work"],
    "weathersit": {1: "CLEAR", 2: "MIST/CLOUDY", 3: "LIGHT RAIN/SNOW", 4: "HEAVY RAIN/SNOW"},
}


def uci_day_features(day: pd.DataFrame) -> pd.DataFrame:
    """The 10 features of :data:`UCI_DAY_FEATURES` and ``y = cnt`` from ``day.csv`` columns,
    unchanged: the codes season 1-4, yr 0/1, mnth 1-12, holiday, workingday 0/1, weathersit
    1-4 as integers, and the normalised temp (degrees C / 41), atemp (/ 50), hum (/ 100) and
    windspeed (/ 67)."""
    df = day[UCI_DAY_FEATURES].copy()
    for name in UCI_DAY_LEVELS:
        df[name] = df[name].astype("int64")
    for name in _NUMBERS:
        df[name] = df[name].astype(float)
    df["y"] = day["cnt"].to_numpy(dtype=float)
    return df.reset_index(drop=True)


#: the column sets of the daily data: the conditional-subgroups application's units, or the
#: UCI file's columns
DAY_COLUMN_SETS = {"application": daily_features, "uci": uci_day_features}


def load_uci_day(path: str | os.PathLike[str], columns: str = "application") -> pd.DataFrame:
    """The UCI ``day.csv`` (731 days of 2011-2012) as ``columns`` says (a key of
    :data:`DAY_COLUMN_SETS`); raises :class:`~imlbench.data.tables.DataFileError` as
    :func:`load_uci_hour` does."""
    return DAY_COLUMN_SETS[columns](read_table(path, _columns(UCI_DAY_COLUMNS)))


def _islp_days() -> pd.DataFrame:
    """ISLP's hours aggregated into the columns of ``day.csv`` (365 days of 2011).

    Per day: the calendar fields of its first hour, the mean of the hourly temperature, felt
    temperature, humidity and wind, the most frequent hourly weather code (the worse one on
    ties) and the total count. ``yr`` is 0 throughout (ISLP ships 2011 only).
    """
    grouped = _read_islp().groupby("day", sort=True)
    day = grouped[["season", "mnth", "holiday", "weekday", "workingday"]].first()
    numbers = list(_NUMBERS)
    day[numbers] = grouped[numbers].mean()
    day["weathersit"] = grouped["weathersit"].agg(
        lambda w: max(w.value_counts().loc[lambda c: c == c.max()].index)
    )
    day["cnt"] = grouped["bikers"].sum()
    day["yr"] = 0
    return day.reset_index(drop=True)


def daily_from_islp(columns: str = "application") -> pd.DataFrame:
    """Daily rows built from ISLP's hourly 2011 data (365 days, :func:`_islp_days`) as
    ``columns`` says (a key of :data:`DAY_COLUMN_SETS`)."""
    return DAY_COLUMN_SETS[columns](_islp_days())


BIKESHARE_SOURCES = ("islp", "uci")


def check_source(dgp: str, source: str, path: str | None, file: str) -> None:
    """Validate a bike-sharing ``source`` (offline ``islp``, or ``uci`` read from ``path``)."""
    records.check_source(dgp, BIKESHARE_SOURCES, source, path, file)
