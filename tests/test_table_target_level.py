"""The table DGP's one-vs-rest target (``target_level``): R's iris, setosa against the rest."""

from __future__ import annotations

import numpy as np
import pytest

from imlbench.data.tables import DataFileError
from imlbench.dgp.table import Table
from imlbench.params import ParamError


def _iris(**extra) -> Table:
    return Table(package="datasets", item="iris", target="Species", categorical=["Species"],
                 **extra)


def test_setosa_against_the_rest():
    dgp = _iris(target_level="setosa")
    df = dgp.sample(None, np.random.default_rng(1))
    assert dgp.feature_names == ["Sepal.Length", "Sepal.Width", "Petal.Length", "Petal.Width"]
    assert len(df) == 150 and df["y"].tolist() == [1.0] * 50 + [0.0] * 100
    assert df.iloc[0][dgp.feature_names].tolist() == [5.1, 3.5, 1.4, 0.2]  # R's iris[1, 1:4]


def test_without_target_level_the_codes_stay():
    assert sorted(set(_iris().sample(None, np.random.default_rng(1))["y"])) == [0.0, 1.0, 2.0]


def test_bad_target_levels_are_named():
    with pytest.raises(DataFileError, match="target_level 'rose' is not a value of 'Species'; "
                                            "allowed: setosa, versicolor, virginica"):
        _iris(target_level="rose").sample(None, np.random.default_rng(1))
    with pytest.raises(ParamError, match="target_level: needs the target 'Species' in "
                                         "categorical"):
        Table(package="datasets", item="iris", target="Species", target_level="setosa")
