"""The ``extrapolation.bikeshare`` DGP of Fig. 9: the hourly rentals, offline (ISLP) or from the
UCI file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from bikeshare_files import UCI_DAYS, write_uci

from imlbench.data.bikeshare import ISLP_FEATURES, UCI_FEATURES, load_islp
from imlbench.dgp.base import make_dgp
from imlbench.studies.extrapolation.dgp_bike import BikeShare


def test_bikeshare_dgp():
    dgp = make_dgp("extrapolation.bikeshare", {})
    assert isinstance(dgp, BikeShare)
    assert not dgp.has_truth
    assert dgp.feature_names == ISLP_FEATURES
    full = dgp.sample(None, np.random.default_rng(0))
    pd.testing.assert_frame_equal(full, load_islp())
    assert len(dgp.sample(10_000, np.random.default_rng(0))) == 8645

    a = dgp.sample(500, np.random.default_rng(7))
    b = dgp.sample(500, np.random.default_rng(7))
    c = dgp.sample(500, np.random.default_rng(8))
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    assert len(a) == 500 and list(a.columns) == [*ISLP_FEATURES, "y"]
    key = a["day"] * 24 + a["hr"]  # the file is in time order, one row per hour
    assert key.is_unique and key.is_monotonic_increasing
    with pytest.raises(NotImplementedError):
        dgp.f(a[ISLP_FEATURES].to_numpy())


def test_bikeshare_uci_source(tmp_path):
    path = write_uci(tmp_path / "hour.csv")
    dgp = make_dgp("extrapolation.bikeshare", {"source": "uci", "path": str(path)})
    assert dgp.feature_names == UCI_FEATURES
    assert dgp.sample(None, np.random.default_rng(0))["day"].tolist() == UCI_DAYS


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"source": "uci"}, "path"),
        ({"source": "csv"}, "islp, uci"),
        ({"source": "islp", "path": "hour.csv"}, "path"),
    ],
)
def test_bikeshare_bad_params(params, message):
    with pytest.raises(ValueError, match=message):
        BikeShare(**params)
