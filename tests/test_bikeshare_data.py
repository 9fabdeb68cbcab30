"""Tests for the bike-sharing loaders (hourly and daily data, offline and from the UCI files)
and the daily DGP ``bikeshare_daily``."""

from __future__ import annotations

import hashlib
import zipfile
from importlib.resources import files
from io import BytesIO

import numpy as np
import pandas as pd
import pytest
from bikeshare_files import UCI_DAYS, write_uci

from imlbench.data.bikeshare import (
    ISLP_FEATURES,
    UCI_COLUMNS,
    UCI_FEATURES,
    download_uci_hour,
    load_islp,
    load_uci_hour,
)


def _raw_islp() -> pd.DataFrame:
    with (files("ISLP") / "data" / "Bikeshare.csv").open("rb") as fh:
        return pd.read_csv(fh)


def test_islp_frame():
    df = load_islp()
    raw = _raw_islp()
    assert len(df) == 8645
    assert list(df.columns) == [*ISLP_FEATURES, "y"]
    assert len(ISLP_FEATURES) == 12
    assert "casual" not in df and "registered" not in df and "bikers" not in df
    assert not df.isna().any().any()
    assert all(pd.api.types.is_numeric_dtype(df[c]) for c in df.columns)
    assert set(df["weathersit"]) <= {1, 2, 3, 4}
    assert sorted(df["mnth"].unique()) == list(range(1, 13))
    assert sorted(df["hr"].unique()) == list(range(24))
    rows = [0, 4, 1000, 5000, 8644]
    np.testing.assert_allclose(df["y"].iloc[rows], np.log(raw["bikers"].iloc[rows]))


def test_islp_label_codes():
    df = load_islp()
    raw = _raw_islp()
    sept = raw["mnth"] == "Sept"
    assert sept.any() and (df.loc[sept, "mnth"] == 9).all()
    for label, code in [("clear", 1), ("cloudy/misty", 2), ("light rain/snow", 3)]:
        hit = raw["weathersit"] == label
        assert hit.any() and (df.loc[hit, "weathersit"] == code).all()


def test_load_uci_hour(tmp_path):
    df = load_uci_hour(write_uci(tmp_path / "hour.csv"))
    assert list(df.columns) == [*UCI_FEATURES, "y"]
    assert len(UCI_FEATURES) == 14
    assert df["day"].tolist() == UCI_DAYS
    np.testing.assert_allclose(df["y"], np.log([16, 1, 100, 49]))
    assert df["weathersit"].tolist() == [1, 2, 3, 4]
    assert df["instant"].tolist() == [1, 2, 3, 4]


def test_load_uci_hour_missing_column(tmp_path):
    path = write_uci(tmp_path / "hour.csv", [c for c in UCI_COLUMNS if c != "hum"])
    with pytest.raises(ValueError, match="hum") as err:
        load_uci_hour(path)
    assert str(path) in str(err.value)


def _zip_bytes(tmp_path) -> bytes:
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.write(write_uci(tmp_path / "source.csv"), "hour.csv")
        archive.writestr("Readme.txt", "made-up rows for the test")
    return buffer.getvalue()


def _opener(payload: bytes):
    calls = []

    def opener(url, timeout):
        calls.append(url)
        return BytesIO(payload)

    return opener, calls


def test_download_uci_hour(tmp_path):
    payload = _zip_bytes(tmp_path)
    opener, calls = _opener(payload)
    dest = tmp_path / "raw"
    path = download_uci_hour(dest, sha256=hashlib.sha256(payload).hexdigest(), opener=opener)
    assert path == dest / "hour.csv"
    assert len(calls) == 1
    assert path.read_bytes() == (tmp_path / "source.csv").read_bytes()
    assert load_uci_hour(path)["day"].tolist() == UCI_DAYS
    assert sorted(p.name for p in dest.iterdir()) == ["hour.csv"]


def test_download_uci_hour_wrong_hash(tmp_path):
    payload = _zip_bytes(tmp_path)
    opener, _ = _opener(payload)
    dest = tmp_path / "raw"
    dest.mkdir()
    with pytest.raises(ValueError) as err:
        download_uci_hour(dest, sha256="0" * 64, opener=opener)
    assert "0" * 64 in str(err.value)
    assert hashlib.sha256(payload).hexdigest() in str(err.value)
    assert list(dest.iterdir()) == []


def test_download_uci_hour_needs_hash(tmp_path):
    opener, calls = _opener(b"")
    with pytest.raises(ValueError, match="sha256"):
        download_uci_hour(tmp_path, sha256=None, opener=opener)
    assert calls == []


def test_uci_day_file_is_read_in_the_applications_units(tmp_path):
    """A small local copy of the UCI day.csv layout (two days)."""
    from imlbench.data.bikeshare import UCI_DAY_COLUMNS, load_uci_day

    rows = [
        [1, "2011-01-01", 1, 0, 1, 0, 6, 0, 2, 0.344167, 0.363625, 0.805833, 0.160446, 331,
         654, 985],
        [2, "2011-01-02", 1, 0, 1, 0, 0, 0, 1, 0.363478, 0.353739, 0.696087, 0.248539, 131,
         670, 801],
    ]
    path = tmp_path / "day.csv"
    pd.DataFrame(rows, columns=UCI_DAY_COLUMNS).to_csv(path, index=False)
    df = load_uci_day(path)
    assert df.columns.tolist() == ["season", "yr", "holiday", "weekday", "temp", "hum", "work",
                                   "weather", "wind", "y"]
    assert df["temp"].tolist() == [8.2, 9.1]  # round(47 t - 8, 1)
    assert df["weather"].tolist() == [1, 0] and df["y"].tolist() == [985.0, 801.0]
    np.testing.assert_allclose(df["hum"], [80.5833, 69.6087])
    np.testing.assert_allclose(df["wind"], [67 * 0.160446, 67 * 0.248539])
    pd.DataFrame(rows, columns=UCI_DAY_COLUMNS).drop(columns="cnt").to_csv(path, index=False)
    with pytest.raises(ValueError, match="missing column"):
        load_uci_day(path)


def test_daily_rows_from_the_hourly_islp_data():
    from imlbench.data.bikeshare import daily_from_islp, load_islp

    daily = daily_from_islp()
    assert len(daily) == 365 and (daily["yr"] == 0).all()
    assert daily["y"].sum() == pytest.approx(np.exp(load_islp()["y"]).sum())
    assert daily["temp"].between(-8, 39).all() and set(daily["weather"]) <= {0, 1}


# ---------------------------------------------------------------- the daily DGP (a layer's)

DAILY = ["season", "yr", "holiday", "weekday", "temp", "hum", "work", "weather", "wind"]


def test_the_daily_dgp_is_the_layers():
    from imlbench.data.bikeshare import DAILY_FEATURES
    from imlbench.dgp.base import DGPS

    assert DGPS.owner("bikeshare_daily") is None  # any study may use it
    assert DAILY_FEATURES == DAILY


def test_islp_days_in_the_applications_units():
    from imlbench.dgp.base import make_dgp

    dgp = make_dgp("bikeshare_daily", {})
    df = dgp.sample(None, np.random.default_rng(0))
    assert dgp.feature_names == [f for f in DAILY if f != "yr"]  # one year: yr dropped
    assert list(df.columns) == [*dgp.feature_names, "y"] and len(df) == 365
    assert dgp.categorical == ("season", "holiday", "weekday", "work", "weather")
    assert set(dgp.levels) == set(dgp.categorical) and dgp.levels["season"][3] == "SUMMER"
    for f in dgp.categorical:  # integer codes, each a named level
        assert pd.api.types.is_integer_dtype(df[f]) and set(df[f]) <= set(dgp.levels[f])
    assert df["temp"].between(-8, 39).all() and df["hum"].between(0, 100).all()
    assert df["wind"].between(0, 67).all() and df["y"].min() > 0
    # the season's mean temperature: winter coldest, summer warmest (units in degrees C)
    means = df.groupby("season")["temp"].mean()
    assert means.idxmin() == 1 and means.idxmax() == 3 and 20 < means[3] < 30
    assert (df.loc[df["work"] == 1, "weekday"].between(1, 5)).all()


def test_uci_days_keep_the_year(tmp_path):
    from imlbench.data.bikeshare import UCI_DAY_COLUMNS
    from imlbench.dgp.base import make_dgp

    rows = [[1, "2011-01-01", 1, 0, 1, 0, 6, 0, 2, 0.344167, 0.363625, 0.805833, 0.160446,
             331, 654, 985],
            [2, "2012-07-02", 3, 1, 7, 0, 1, 1, 1, 0.781667, 0.702, 0.447083, 0.195267, 1000,
             5000, 6000]]
    path = tmp_path / "day.csv"
    pd.DataFrame(rows, columns=UCI_DAY_COLUMNS).to_csv(path, index=False)
    dgp = make_dgp("bikeshare_daily", {"source": "uci", "path": str(path)})
    df = dgp.sample(None, np.random.default_rng(0))
    assert dgp.feature_names == DAILY and "yr" in dgp.categorical
    assert dgp.levels["yr"] == {0: "2011", 1: "2012"}
    assert df["yr"].tolist() == [0, 1] and df["temp"].tolist() == [8.2, 28.7]
    assert df["y"].tolist() == [985.0, 6000.0]


@pytest.mark.parametrize(("params", "message"), [
    ({"source": "uci"}, r"^bikeshare_daily: source='uci' needs path, the location of day\.csv$"),
    ({"source": "csv"}, r"^source: 'csv' is not allowed; allowed: islp, uci or null$"),
    ({"source": "islp", "path": "day.csv"},
     r"^bikeshare_daily: path is only read with source='uci'$"),
])
def test_bad_daily_params(params, message):
    from imlbench.dgp.base import make_dgp

    with pytest.raises(ValueError, match=message):
        make_dgp("bikeshare_daily", params)
