"""The ``table`` DGP's transforms: ``scale: sd`` (each numeric feature over its sd, the LMU
book's ch. 14 Boston), ``scale_target`` and quantile ``bins`` (R lime's ``bin_continuous``, the
book's quartile-binned bike data), on a small file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.data.tables import DataFileError
from imlbench.dgp.base import make_dgp
from imlbench.params import ParamError

#: eight rows: a, b numeric, g categorical, y the target
ROWS = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6, 7, 8],
                     "b": [10.0, 0, 30, 20, 50, 40, 70, 60],
                     "g": ["u", "v", "u", "v", "u", "v", "u", "v"],
                     "y": [2.0, 4, 6, 8, 10, 12, 14, 16]})


@pytest.fixture
def path(tmp_path: Path) -> str:
    file = tmp_path / "small.csv"
    ROWS.to_csv(file, index=False)
    return str(file)


def _data(path: str, **params) -> tuple[object, pd.DataFrame]:
    dgp = make_dgp("table", {"path": path, "target": "y", "categorical": ["g"], **params})
    return dgp, dgp.sample(None, np.random.default_rng(0))


def test_defaults_leave_the_table_alone(path):
    _, plain = _data(path)
    for params in ({"scale": "none"}, {"scale_target": False}):
        pd.testing.assert_frame_equal(_data(path, **params)[1], plain)
    np.testing.assert_array_equal(plain["a"], ROWS["a"])


def test_scale_sd_divides_numeric_features(path):
    """a / sd(a) with R's sd (ddof 1), not centred; the categorical g and y stay."""
    dgp, df = _data(path, scale="sd")
    np.testing.assert_allclose(df["a"], ROWS["a"] / ROWS["a"].std(ddof=1))
    np.testing.assert_allclose(df["b"], ROWS["b"] / ROWS["b"].std(ddof=1))
    np.testing.assert_allclose(df[["a", "b"]].std(ddof=1), 1.0)
    np.testing.assert_array_equal(df["g"], [0, 1, 0, 1, 0, 1, 0, 1])
    np.testing.assert_array_equal(df["y"], ROWS["y"])
    _, both = _data(path, scale="sd", scale_target=True)
    np.testing.assert_allclose(both["y"], ROWS["y"] / ROWS["y"].std(ddof=1))


def test_scale_includes_the_variant_copy(path):
    _, df = _data(path, scale="sd", variant="duplicate", variant_of="a")
    np.testing.assert_allclose(df["a_dup"], df["a"])


def test_quartile_bins(path):
    """Quartiles of 1..8 are 2.75, 4.5, 6.25: codes 0 0 1 1 2 2 3 3; bins close on the right
    (R's cut): b's quartiles 17.5, 35, 52.5 put 30 in bin 1 and 40 in bin 2. A binned feature
    is categorical with its intervals as levels; it is not scaled."""
    dgp, df = _data(path, bins={"features": ["a", "b"]}, scale="sd")
    np.testing.assert_array_equal(df["a"], [0, 0, 1, 1, 2, 2, 3, 3])
    np.testing.assert_array_equal(df["b"], [0, 0, 1, 1, 2, 2, 3, 3])
    assert dgp.categorical == ("a", "b", "g")
    assert dgp.levels["a"] == {0: "[1, 2.75]", 1: "(2.75, 4.5]", 2: "(4.5, 6.25]",
                               3: "(6.25, 8]"}


def test_bins_count_and_ties(tmp_path, path):
    """count 2 splits at the median; tied quantiles give fewer bins (R lime drops repeated
    breaks): quartiles 0, 0, 0.25 leave the bins [0, 0], (0, 0.25] (empty), (0.25, 2]."""
    _, df = _data(path, bins={"features": ["a"], "kind": "quantile", "count": 2})
    np.testing.assert_array_equal(df["a"], [0, 0, 0, 0, 1, 1, 1, 1])
    file = tmp_path / "ties.csv"
    pd.DataFrame({"a": [0, 0, 0, 0, 0, 0, 1, 2], "y": range(8)}).to_csv(file, index=False)
    dgp = make_dgp("table", {"path": str(file), "target": "y", "bins": {"features": ["a"]}})
    codes = dgp.sample(None, np.random.default_rng(0))["a"]
    np.testing.assert_array_equal(codes, [0, 0, 0, 0, 0, 0, 2, 2])
    assert len(dgp.levels["a"]) == 3


@pytest.mark.parametrize(("params", "key", "message"), [
    ({"scale": "z"}, "scale", "sd"),
    ({"scale_target": True, "categorical": ["g", "y"]}, "scale_target", "categorical"),
    ({"bins": {"features": ["a"], "kind": "width"}}, "bins.kind", "quantile"),
    ({"bins": {"features": ["a"], "count": 1}}, "bins.count", "2"),
    ({"bins": {"features": ["a"], "size": 3}}, "bins", "count"),
    ({"bins": {"features": ["g"]}}, "bins.features[0]", "categorical"),
    ({"bins": {"features": ["a"]}, "features": ["b", "g"]}, "bins.features[0]",
     "not a feature"),
])
def test_errors_name_the_key(path, params, key, message):
    with pytest.raises(ParamError, match=message) as err:
        make_dgp("table", {"path": path, "target": "y", "categorical": ["g"], **params})
    assert err.value.key == key


def test_missing_bin_column_and_constant_column(tmp_path, path):
    with pytest.raises(DataFileError, match="bins.features"):
        _data(path, bins={"features": ["zz"]})
    file = tmp_path / "flat.csv"
    pd.DataFrame({"a": [1.0] * 4, "y": range(4)}).to_csv(file, index=False)
    flat = make_dgp("table", {"path": str(file), "target": "y", "scale": "sd"})
    with pytest.raises(DataFileError, match="constant"):
        flat.sample(None, np.random.default_rng(0))
