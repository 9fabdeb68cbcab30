"""Coefficient bands and inclusion frequencies of repeated LIME explanations
(:mod:`imlbench.metrics.lime_summaries`) against values computed by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.metrics.lime_summaries import Z95, coefficient_bands, inclusion_frequency


def _rows(values: dict[tuple[float, str], list[float]]) -> pd.DataFrame:
    """Long LIME rows from {(kernel width, feature): coefficients of the repeats}; a feature
    counts as selected when its coefficient is not 0."""
    out = [{"point": "p", "kernel_width": w, "feature": f, "repeat": r, "value": v,
            "selected": v != 0}
           for (w, f), vs in values.items() for r, v in enumerate(vs)]
    return pd.DataFrame(out)


def test_normal_band_is_mean_plus_minus_1_96_sd() -> None:
    rows = _rows({(0.5, "x1"): [1.0, 2.0, 3.0, 6.0], (2.0, "x1"): [4.0, 4.0, 4.0, 4.0]})
    got = coefficient_bands(rows, ["kernel_width"], "normal").set_index("kernel_width")
    sd = np.std([1, 2, 3, 6], ddof=1)
    assert got.loc[0.5, "mean"] == 3.0
    assert got.loc[0.5, "sd"] == pytest.approx(sd)
    assert got.loc[0.5, "se"] == pytest.approx(sd / 2)
    assert got.loc[0.5, "lo"] == pytest.approx(3 - Z95 * sd)
    assert got.loc[0.5, "hi"] == pytest.approx(3 + Z95 * sd)
    assert (got.loc[2.0, "lo"], got.loc[2.0, "hi"]) == (4.0, 4.0)
    assert list(got["n"]) == [4, 4]


def test_quantile_band_is_the_empirical_2_5_and_97_5_percent() -> None:
    values = list(range(41))  # 2.5% and 97.5% quantiles 1 and 39 by linear interpolation
    got = coefficient_bands(_rows({(1.0, "x1"): values}), ["kernel_width"], "quantile")
    assert (got.loc[0, "lo"], got.loc[0, "hi"]) == (1.0, 39.0)
    assert got.loc[0, "mean"] == 20.0


def test_bands_of_another_column_skip_failed_explanations() -> None:
    rows = _rows({(1.0, "x1"): [1.0, 3.0, np.nan]})
    rows["intercept"] = [10.0, 14.0, np.nan]
    got = coefficient_bands(rows, [], column="intercept")
    assert (got.loc[0, "mean"], got.loc[0, "n"]) == (12.0, 2)
    one = coefficient_bands(rows.iloc[:1], [], "quantile")
    assert np.isnan(one.loc[0, "lo"]) and np.isnan(one.loc[0, "sd"])


def test_inclusion_share_per_feature_and_width() -> None:
    rows = _rows({(0.1, "x1"): [1, 0, 2, 0], (0.1, "x2"): [0, 0, 0, 5],
                  (3.0, "x1"): [1, 1, 1, 1], (3.0, "x2"): [0, 0, 0, 0]})
    got = inclusion_frequency(rows, ["kernel_width"]).set_index(["kernel_width", "feature"])
    assert got.loc[(0.1, "x1"), "share"] == 0.5
    assert got.loc[(0.1, "x1"), "se"] == pytest.approx(np.sqrt(0.25 / 4))
    assert got.loc[(0.1, "x2"), "share"] == 0.25
    assert (got.loc[(3.0, "x1"), "share"], got.loc[(3.0, "x2"), "share"]) == (1.0, 0.0)
    assert got.loc[(3.0, "x1"), "se"] == 0.0


def test_rows_it_cannot_read() -> None:
    rows = _rows({(1.0, "x1"): [1.0, 2.0]})
    with pytest.raises(ValueError, match="normal, quantile"):
        coefficient_bands(rows, [], "sd")
    with pytest.raises(ValueError, match="selected"):
        inclusion_frequency(rows.drop(columns="selected"), [])
    with pytest.raises(ValueError, match="n_features"):
        coefficient_bands(rows, ["n_features"])
