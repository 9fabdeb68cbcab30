"""The daily bike data in the columns of the UCI ``day.csv`` (``bikeshare_daily`` with
``columns: uci``, the LMU book's ch. 3) and the ``features`` a model sees."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.data.bikeshare import UCI_DAY_COLUMNS, UCI_DAY_FEATURES, daily_from_islp
from imlbench.dgp.base import make_dgp
from imlbench.params import ParamError

ROWS = [[1, "2011-01-01", 1, 0, 1, 0, 6, 0, 2, 0.344167, 0.363625, 0.805833, 0.160446, 331,
         654, 985],
        [2, "2012-07-02", 3, 1, 7, 0, 1, 1, 1, 0.781667, 0.702, 0.447083, 0.195267, 1000,
         5000, 6000]]


def test_a_local_day_file_keeps_the_files_codes_and_units(tmp_path):
    path = tmp_path / "day.csv"
    pd.DataFrame(ROWS, columns=UCI_DAY_COLUMNS).to_csv(path, index=False)
    dgp = make_dgp("bikeshare_daily", {"source": "uci", "path": str(path), "columns": "uci"})
    df = dgp.sample(None, np.random.default_rng(0))
    assert dgp.feature_names == UCI_DAY_FEATURES
    assert dgp.categorical == ("season", "yr", "mnth", "holiday", "workingday", "weathersit")
    assert df["mnth"].tolist() == [1, 7] and df["weathersit"].tolist() == [2, 1]
    assert df["temp"].tolist() == [0.344167, 0.781667] and df["atemp"].tolist() == [0.363625,
                                                                                     0.702]
    assert df["y"].tolist() == [985.0, 6000.0]
    assert dgp.levels["mnth"][7] == "July" and dgp.levels["weathersit"][2] == "MIST/CLOUDY"


def test_islp_days_in_the_uci_columns():
    day = daily_from_islp("uci")
    assert len(day) == 365 and (day["yr"] == 0).all()
    assert day["season"].between(1, 4).all() and set(day["mnth"]) == set(range(1, 13))
    assert set(day["weathersit"]) <= {1, 2, 3, 4} and set(day["holiday"]) == {0, 1}
    assert set(day["workingday"]) == {0, 1}
    for name in ("temp", "atemp", "hum", "windspeed"):  # normalised to [0, 1]
        assert day[name].between(0, 1).all()
    # the same days as the application's columns: the same counts and humidity
    app = daily_from_islp()
    assert day["y"].tolist() == app["y"].tolist()
    np.testing.assert_allclose(100 * day["hum"], app["hum"])
    # each month's days are counted once: January has 31, the first in season 1
    assert (day["mnth"] == 1).sum() == 31 and day.loc[day["mnth"] == 1, "season"].eq(1).all()


def test_features_select_the_models_columns():
    dgp = make_dgp("bikeshare_daily", {"columns": "uci", "features": ["temp", "season", "hum"]})
    df = dgp.sample(None, np.random.default_rng(0))
    assert list(df.columns) == ["temp", "season", "hum", "y"] and len(df) == 365
    assert dgp.categorical == ("season",)
    one_year = make_dgp("bikeshare_daily", {"columns": "uci", "features": ["yr", "temp"]})
    assert one_year.feature_names == ["temp"]  # the ISLP days have no yr
    with pytest.raises(ParamError, match=r"features\[1\].*'work' is not a column.*allowed: season"):
        make_dgp("bikeshare_daily", {"columns": "uci", "features": ["temp", "work"]}).load()
    with pytest.raises(ParamError, match="columns"):
        make_dgp("bikeshare_daily", {"columns": "book"})
