"""The M-plot with a sliding window (:mod:`imlbench.explain.window_mplot`): the window means by
hand, and the layer's method ``mplot_window`` on a model with a known answer."""

from __future__ import annotations

import numpy as np
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.window_mplot import window_marginal_plot, window_means, window_width


def test_window_means_by_hand():
    x = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    v = np.array([1.0, 3.0, 5.0, 7.0, 9.0])
    means, counts = window_means(x, v, np.array([0.0, 0.5, 1.0, 3.0]), 0.25)
    np.testing.assert_array_equal(counts, [2, 1, 2, 0])
    np.testing.assert_allclose(means[:3], [2.0, 5.0, 8.0])
    assert np.isnan(means[3])
    with pytest.raises(ValueError, match="window width must be positive"):
        window_means(x, v, np.array([0.0]), 0.0)


def test_windows_average_the_predictions_of_their_rows():
    X = np.array([[0.0, 5.0], [1.0, 7.0], [2.0, 9.0], [4.0, 0.0]])
    means, counts = window_marginal_plot(lambda Z: Z[:, 1], X, 0, np.array([0.5, 4.0]), 1.0)
    np.testing.assert_array_equal(counts, [2, 1])
    np.testing.assert_allclose(means, [6.0, 0.0])
    assert window_width(X[:, 0], 0.25) == 1.0  # a quarter of the range 0..4


class _Model:
    def predict(self, X: np.ndarray) -> np.ndarray:
        return 2.0 * X[:, 0] + X[:, 1]


def test_the_method_is_the_layers_and_follows_the_conditional_mean():
    """x1 ~ U(0, 1), x2 = x1 + N(0, 0.01^2) and f = 2 x1 + x2: E[f | x1 = z] = 3 z. Inside a
    window of width w around z, f = 3 x1 + noise has SD sqrt((3 w)^2 / 12 + 0.01^2): the mean
    of the window's rows is 3 z within 5 SE of the mean (windows not cut by the range)."""
    assert METHODS.owner("mplot_window") is None
    r = np.random.default_rng(0)
    x1 = r.uniform(size=4000)
    X = np.column_stack([x1, x1 + r.normal(0, 0.01, size=4000)])
    ctx = ExplainContext(model=_Model(), X=X, y=_Model().predict(X), feature_names=["x1", "x2"],
                         dgp=None, fit=None, fixed_rng=lambda label: np.random.default_rng(0))
    out = METHODS.get("mplot_window")(ctx, {"features": ["x1"], "width": 0.1},
                                      np.random.default_rng(1))
    assert list(out.columns) == ["feature", "x", "value", "count"] and len(out) == 30
    assert (out["feature"] == "x1").all()
    np.testing.assert_allclose(out["x"], np.linspace(x1.min(), x1.max(), 30))
    inner = out[(out["x"] >= x1.min() + 0.05) & (out["x"] <= x1.max() - 0.05)]
    assert len(inner) == 26 and (inner["count"] > 300).all()
    se = np.sqrt(0.3**2 / 12 + 0.01**2) / np.sqrt(inner["count"])
    assert (np.abs(inner["value"] - 3 * inner["x"]) <= 5 * se).all()
    assert out["count"].iloc[0] < inner["count"].min()  # the end windows are cut by the range


def test_the_fingerprints_of_the_curves_cover_the_window_code():
    from imlbench import studies
    from imlbench.codehash import closure

    studies.load(["conditional_subgroups"])
    # conditional_subgroups.effect_slopes draws windowed M-plots too
    for name in ("mplot_window", "conditional_subgroups.effect_slopes"):
        assert "imlbench.explain.window_mplot" in closure([METHODS.get(name).run.__module__])
