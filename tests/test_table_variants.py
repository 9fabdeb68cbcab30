"""The ``table`` DGP's feature variants (the LMU book's ch. 9 Boston: an exact and a noisy copy of
``lstat``) and its coded categories in a given ``order`` (the book's ch. 11 IBM attrition)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.data.records import rdataset
from imlbench.data.tables import DataFileError
from imlbench.dgp.base import make_dgp
from imlbench.params import ParamError

#: the book's ch. 9 Boston features, target medv
BOSTON = {"package": "MASS", "item": "Boston", "target": "medv",
          "features": ["dis", "age", "nox", "crim", "rm", "lstat"]}
NOISY = {**BOSTON, "variant": "noisy", "variant_of": "lstat"}
#: the book's ch. 11 attrition features and the label columns among them (and the target)
ATTRITION_FEATURES = ["OverTime", "JobSatisfaction", "YearsAtCompany", "Age", "Gender",
                      "BusinessTravel", "MonthlyIncome", "DistanceFromHome", "WorkLifeBalance",
                      "Education", "YearsInCurrentRole"]
ATTRITION = {"package": "modeldata", "item": "attrition", "target": "Attrition",
             "features": ATTRITION_FEATURES,
             "categorical": ["Attrition", "OverTime", "JobSatisfaction", "Gender",
                             "BusinessTravel", "WorkLifeBalance", "Education"]}


def _noisy(seed: int, **params) -> pd.DataFrame:
    dgp = make_dgp("table", {**NOISY, **params}).realize(np.random.default_rng(seed))
    return dgp.sample(None, np.random.default_rng(0))


# ---------------------------------------------------------------- variants


@pytest.mark.parametrize("params", [{}, {"variant": "original"}])
def test_original_is_todays_table(params):
    """The default adds nothing: the values equal the raw columns, as before the variants."""
    df = make_dgp("table", {**BOSTON, **params}).sample(None, np.random.default_rng(0))
    raw = rdataset("MASS", "Boston")
    assert list(df.columns) == [*BOSTON["features"], "y"]
    np.testing.assert_array_equal(df[BOSTON["features"]].to_numpy(),
                                  raw[BOSTON["features"]].to_numpy(dtype=float))
    np.testing.assert_array_equal(df["y"], raw["medv"])
    default = make_dgp("table", {**BOSTON, **params})
    assert default.realize(np.random.default_rng(1)) is default


def test_duplicate_is_an_exact_copy():
    dgp = make_dgp("table", {**BOSTON, "variant": "duplicate", "variant_of": "lstat"})
    df = dgp.realize(np.random.default_rng(3)).sample(None, np.random.default_rng(0))
    assert dgp.feature_names == [*BOSTON["features"], "lstat_dup"]
    assert list(df.columns) == [*BOSTON["features"], "lstat_dup", "y"] and len(df) == 506
    np.testing.assert_array_equal(df["lstat_dup"], df["lstat"])
    original = make_dgp("table", BOSTON).data
    pd.testing.assert_frame_equal(df.drop(columns="lstat_dup"), original)


def test_noisy_copy_adds_noise_of_the_stated_sd():
    """lstat_noisy - lstat ~ N(0, sd²), sd = 0.3·mean(lstat) ≈ 3.80 (the book's ch. 9).

    With n = 506 rows the sample sd has a standard error of about sd/sqrt(2n) ≈ 3.1% of sd
    and the mean one of sd/sqrt(n) ≈ 4.4% of sd: both are checked to 4 standard errors."""
    df = _noisy(456)
    n = len(df)
    sd = 0.3 * df["lstat"].mean()
    assert sd == pytest.approx(3.80, abs=0.01)
    noise = (df["lstat_noisy"] - df["lstat"]).to_numpy()
    assert abs(noise.std(ddof=1) / sd - 1) < 4 / np.sqrt(2 * n)
    assert abs(noise.mean()) < 4 * sd / np.sqrt(n)
    assert list(df.columns) == [*BOSTON["features"], "lstat_noisy", "y"]
    assert 0.8 < np.corrcoef(df["lstat"], df["lstat_noisy"])[0, 1] < 0.95  # the book's ≈ 0.88
    scaled = _noisy(456, noise_scale=0.6)  # the same draws, twice the sd
    np.testing.assert_allclose(scaled["lstat_noisy"] - df["lstat"], 2 * noise)


def test_noisy_copy_is_fixed_by_the_seed():
    first, again, other = _noisy(7), _noisy(7), _noisy(8)
    pd.testing.assert_frame_equal(first, again)
    assert not np.allclose(first["lstat_noisy"], other["lstat_noisy"])
    pd.testing.assert_frame_equal(first.drop(columns="lstat_noisy"),
                                  other.drop(columns="lstat_noisy"))


def test_noisy_copy_is_drawn_by_realize_only():
    dgp = make_dgp("table", NOISY)
    assert dgp.feature_names == [*BOSTON["features"], "lstat_noisy"]
    assert len(dgp.data) == 506 and dgp.data["lstat_noisy"].isna().all()
    with pytest.raises(RuntimeError, match="realize"):
        dgp.sample(None, np.random.default_rng(0))


@pytest.mark.parametrize(("params", "key", "allowed"), [
    ({"variant": "copy", "variant_of": "lstat"}, "variant", "original, duplicate, noisy"),
    ({"variant": "noisy"}, "variant_of", "a numeric feature column"),
    ({"variant_of": "lstat"}, "variant_of", "variant duplicate or noisy"),
    ({"variant": "noisy", "variant_of": "zn"}, "variant_of", "dis, age, nox, crim, rm, lstat"),
    ({"variant": "noisy", "variant_of": "medv"}, "variant_of", "numeric feature columns"),
    ({"variant": "noisy", "variant_of": "lstat", "noise_scale": -1}, "noise_scale", ">= 0"),
    ({"variant": "duplicate", "variant_of": "lstat", "noise_scale": 0.3}, "noise_scale",
     "only with variant noisy"),
])
def test_bad_variant_parameters_name_the_key_and_allowed_values(params, key, allowed):
    with pytest.raises(ParamError) as err:
        make_dgp("table", {**BOSTON, **params})
    assert err.value.key == key and allowed in str(err.value)


def test_variant_of_a_column_the_table_lacks():
    params = {key: value for key, value in NOISY.items() if key != "features"}
    with pytest.raises(DataFileError, match="no column 'lstatt' .*variant_of"):
        make_dgp("table", {**params, "variant_of": "lstatt"}).data  # noqa: B018


# ---------------------------------------------------------------- attrition: labels to codes


def test_attrition_with_the_books_features():
    """1,470 employees, 11 features; Attrition No/Yes sorts to 0/1, 237 leave."""
    dgp = make_dgp("table", ATTRITION)
    df = dgp.sample(None, np.random.default_rng(0))
    raw = rdataset("modeldata", "attrition")
    assert df.shape == (1470, 12) and list(df.columns) == [*ATTRITION_FEATURES, "y"]
    assert df["y"].mean() == pytest.approx(237 / 1470)
    np.testing.assert_array_equal(df["y"], (raw["Attrition"] == "Yes").astype(float))
    assert dgp.levels["BusinessTravel"] == {0: "Non-Travel", 1: "Travel_Frequently",
                                            2: "Travel_Rarely"}
    assert dgp.levels["OverTime"] == {0: "No", 1: "Yes"}
    np.testing.assert_array_equal(df["OverTime"], (raw["OverTime"] == "Yes").astype(float))
    for name in dgp.categorical:
        codes = raw[name].map({v: k for k, v in dgp.levels[name].items()})
        np.testing.assert_array_equal(df[name], codes.astype(float))
    np.testing.assert_array_equal(df["MonthlyIncome"], raw["MonthlyIncome"])


def test_order_codes_an_ordinal_scale_and_the_positive_class():
    order = {"JobSatisfaction": ["Low", "Medium", "High", "Very_High"],
             "Attrition": ["Yes", "No"]}
    dgp = make_dgp("table", {**ATTRITION, "order": order})
    df, raw = dgp.data, rdataset("modeldata", "attrition")
    assert dgp.levels["JobSatisfaction"] == dict(enumerate(order["JobSatisfaction"]))
    np.testing.assert_array_equal(
        df["JobSatisfaction"], raw["JobSatisfaction"].map({"Low": 0, "Medium": 1, "High": 2,
                                                           "Very_High": 3}).astype(float))
    assert df["y"].mean() == pytest.approx(1 - 237 / 1470)  # Yes listed first: code 0


@pytest.mark.parametrize(("order", "key", "allowed"), [
    ({"Age": [1, 2]}, "order.Age", "Attrition, OverTime"),
    ({"Gender": ["Male", "Male"]}, "order.Gender", "without repeats"),
    ({"Gender": "Male"}, "order.Gender", "list"),
])
def test_bad_order_names_the_key(order, key, allowed):
    with pytest.raises(ParamError) as err:
        make_dgp("table", {**ATTRITION, "order": order})
    assert err.value.key.startswith(key) and allowed in str(err.value)


def test_a_value_missing_from_the_order_names_column_row_and_value():
    with pytest.raises(DataFileError, match=r"column 'Gender', data row 1: 'Female' is not in "
                                            r"order.Gender; allowed: Male"):
        make_dgp("table", {**ATTRITION, "order": {"Gender": ["Male"]}}).data  # noqa: B018
