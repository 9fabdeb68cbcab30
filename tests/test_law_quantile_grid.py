"""Grids and ALE interval edges at the quantiles of a feature's law (kind ``law_quantile``).

The features of the test DGP are independent normals, so the law's quantiles are
``norm.ppf`` in closed form; the model is the linear f(x) = 2 x1, whose PD and ALE are known
exactly at any grid or edges.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from demo_study import demo_study
from scipy.stats import norm

from imlbench.config import ConfigError
from imlbench.dgp.base import DGP
from imlbench.explain.ale import INTERVAL_FIELDS, ale_edges, ale_first_order, trim_curve
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.grids import GRID_FIELDS, LAW_PROBS, interval_index, make_grid, rows_within
from imlbench.params import ParamError, check_all
from imlbench.validate import check_study

#: the paper's 100 quantile levels
PAPER_PROBS = np.linspace(0.0001, 0.9999, 100)


class NormalFeatures(DGP):
    """x1 ~ N(0, 1) and x2 ~ N(1, 2^2), independent; f = 2 x1, no noise."""

    means = np.array([0.0, 1.0])
    sds = np.array([1.0, 2.0])

    @property
    def feature_names(self) -> list[str]:
        return ["x1", "x2"]

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self.means + self.sds * rng.standard_normal((n, 2))

    def f(self, X: np.ndarray) -> np.ndarray:
        return 2.0 * X[:, 0]

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return np.zeros(n)

    def marginal_quantiles(self, j: int, probs: np.ndarray) -> np.ndarray:
        return norm.ppf(probs, loc=self.means[j], scale=self.sds[j])


class TwiceFirst:
    """The model f(x) = 2 x_1 (the first column)."""

    def predict(self, X: np.ndarray) -> np.ndarray:
        return 2.0 * X[:, 0]


def _context(n: int = 500, columns: Sequence[int] = (0, 1)) -> ExplainContext:
    """A context of ``n`` rows of the DGP's ``columns`` (a subset: the others hidden)."""
    dgp = NormalFeatures()
    X = dgp.sample_features(n, np.random.default_rng(1))[:, list(columns)]
    return ExplainContext(model=TwiceFirst(), X=X, y=2.0 * X[:, 0],
                          feature_names=[dgp.feature_names[c] for c in columns], dgp=dgp,
                          fit=None, fixed_rng=None)


def _run(name: str, ctx: ExplainContext, params: dict):
    return METHODS.get(name)(ctx, params, np.random.default_rng(0))


# ---------------------------------------------------------------- the grid


def test_the_grid_is_the_laws_quantiles_at_equally_spaced_probabilities():
    x = np.random.default_rng(2).standard_normal(50)
    spec = {"kind": "law_quantile", "size": 40, "probs": [0.01, 0.95]}
    grid = make_grid(x, spec, law=norm.ppf)
    np.testing.assert_allclose(grid, norm.ppf(np.linspace(0.01, 0.95, 40)), rtol=0, atol=1e-12)
    default = make_grid(x, {"kind": "law_quantile"}, law=norm.ppf)  # size 21, probs LAW_PROBS
    np.testing.assert_allclose(default, norm.ppf(np.linspace(*LAW_PROBS, 21)), rtol=0,
                               atol=1e-12)
    assert LAW_PROBS == (0.0001, 0.9999)


def test_trim_drops_points_at_each_end_after_computing():
    x = np.zeros(3)  # the rows play no part in the law's grid
    full = norm.ppf(PAPER_PROBS)
    spec = {"kind": "law_quantile", "size": 100}
    np.testing.assert_allclose(make_grid(x, {**spec, "trim": 1}, law=norm.ppf), full[1:-1],
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(make_grid(x, {**spec, "trim": 3}, law=norm.ppf), full[3:-3],
                               rtol=0, atol=1e-12)
    # trim applies to the data kinds too
    grid = make_grid(np.arange(11.0), {"kind": "equidistant", "size": 11, "trim": 2})
    np.testing.assert_array_equal(grid, np.arange(2.0, 9.0))


def test_tied_quantiles_of_a_discrete_law_collapse():
    def bernoulli(probs: np.ndarray) -> np.ndarray:
        return (probs > 0.7).astype(float)

    grid = make_grid(np.zeros(3), {"kind": "law_quantile", "size": 10}, law=bernoulli)
    np.testing.assert_array_equal(grid, [0.0, 1.0])


# ---------------------------------------------------------------- refusals


def test_law_quantile_without_a_law_is_refused():
    with pytest.raises(ValueError, match="grid.kind: law_quantile needs the feature's law"):
        make_grid(np.zeros(3), {"kind": "law_quantile"})
    with pytest.raises(ValueError, match="intervals.kind: law_quantile needs the feature's law"):
        ale_edges(np.zeros(3), {"kind": "law_quantile"})
    # real data have no law
    real = _context()
    real.dgp.has_truth = False
    with pytest.raises(ValueError, match="law_quantile needs the law of feature 'x1', and DGP "
                                         "NormalFeatures is real data with no law"):
        _run("pdp", real, {"grid": {"kind": "law_quantile"}})
    # a method that passes no law (the M-plot's edges) refuses it when it runs
    with pytest.raises(ValueError, match="intervals.kind: law_quantile needs"):
        _run("mplot", _context(), {"intervals": {"kind": "law_quantile"}})


@pytest.mark.parametrize("probs", [[0.0, 0.5], [0.5, 1.0], [-0.1, 0.5], [0.9, 0.1], [0.3, 0.3]])
def test_probabilities_out_of_range_or_unordered_are_refused(probs):
    with pytest.raises(ValueError, match=r"grid.probs: .*allowed: \[p0, p1\] with 0 < p0 < p1"):
        make_grid(np.zeros(3), {"kind": "law_quantile", "probs": probs}, law=norm.ppf)
    with pytest.raises(ValueError, match=r"intervals.probs: .*allowed: \[p0, p1\]"):
        ale_edges(np.zeros(3), {"kind": "law_quantile", "probs": probs}, law=norm.ppf)


@pytest.mark.parametrize("probs", [[0.0, 0.5], [0.5, 1.0]])
def test_the_declarations_refuse_probabilities_outside_the_open_interval(probs):
    for fields in (GRID_FIELDS, INTERVAL_FIELDS):
        with pytest.raises(ParamError, match=r"probs\[\d\]: .* is out of range; allowed: a "
                                             r"number > 0 and < 1"):
            check_all(fields, {"kind": "law_quantile", "probs": probs}, "grid", required=False)
    with pytest.raises(ParamError, match=r"grid.probs\[\d\]: .* out of range"):
        _run("pdp", _context(), {"grid": {"kind": "law_quantile", "probs": probs}})


def test_a_trim_that_leaves_no_point_is_refused():
    with pytest.raises(ValueError, match="grid.trim .*dropping 5 points at each end of 10 "
                                         "leaves none; allowed: 0 <= trim < 5"):
        make_grid(np.zeros(3), {"kind": "law_quantile", "size": 10, "trim": 5}, law=norm.ppf)
    with pytest.raises(ValueError, match="intervals.trim: dropping 3 points at each end of 5"):
        _run("ale", _context(), {"intervals": {"kind": "law_quantile", "size": 4, "trim": 3}})


# ---------------------------------------------------------------- the methods


def test_ale_at_law_quantile_edges_of_a_linear_model_is_exact():
    """ALE of f = 2 x1 at the edges z_k: 2 (z_k - c), c the count-weighted mean of the
    interval midpoints (the data centering) over all 100 edges, before the trim.

    That holds when every interval holds a row (an empty one adds no step); each of the 99
    holds about 1% of the law, so 2000 rows leave one empty with probability about 2e-7."""
    ctx = _context(2000)
    intervals = {"kind": "law_quantile", "size": 99, "trim": 1}
    out = _run("ale", ctx, {"features": ["x1"], "intervals": intervals})
    edges = norm.ppf(PAPER_PROBS)
    inside = rows_within(ctx.X, 0, edges)
    counts = np.bincount(interval_index(inside[:, 0], edges), minlength=99)
    assert counts.min() > 0
    centre = np.sum(counts * (edges[:-1] + edges[1:]) / 2) / np.sum(counts)
    assert len(out) == 98
    np.testing.assert_allclose(out["x"], edges[1:-1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["value"], 2 * (edges[1:-1] - centre), rtol=0, atol=1e-10)
    # the same with the functions themselves, untrimmed and trimmed
    z = ale_edges(ctx.X[:, 0], intervals, law=norm.ppf)
    value, _ = ale_first_order(TwiceFirst().predict, ctx.X, 0, z)
    np.testing.assert_allclose(value, 2 * (edges - centre), rtol=0, atol=1e-10)
    x, kept = trim_curve(z, value, {"trim": 2})
    assert len(x) == len(kept) == 96
    np.testing.assert_allclose(kept, 2 * (edges[2:-2] - centre), rtol=0, atol=1e-10)


def test_law_quantile_edges_need_no_rows_per_interval():
    """Unlike the data quantiles, the law's edges may outnumber the rows."""
    edges = ale_edges(np.zeros(3), {"kind": "law_quantile", "size": 10}, law=norm.ppf)
    np.testing.assert_allclose(edges, norm.ppf(np.linspace(*LAW_PROBS, 11)), rtol=0, atol=1e-12)


def test_pdp_on_the_law_quantile_grid_has_98_points_per_feature():
    ctx = _context()
    grid = {"kind": "law_quantile", "size": 100, "trim": 1}
    out = _run("pdp", ctx, {"grid": grid})
    assert out.groupby("feature").size().to_dict() == {"x1": 98, "x2": 98}
    for j, name in enumerate(("x1", "x2")):
        part = out[out["feature"] == name]
        law = norm.ppf(PAPER_PROBS, loc=NormalFeatures.means[j], scale=NormalFeatures.sds[j])
        np.testing.assert_allclose(part["x"], law[1:-1], rtol=0, atol=1e-12)
    x1 = out[out["feature"] == "x1"]
    np.testing.assert_allclose(x1["value"], 2 * x1["x"], rtol=0, atol=1e-12)  # PD of 2 x1
    ice = _run("ice", ctx, {"grid": grid, "rows": "data", "n_rows": 3, "features": ["x2"]})
    assert len(ice) == 3 * 98


def test_the_law_is_read_at_the_dgps_index_of_the_feature():
    """With x1 left out of the data (as a hidden feature is), column 0 is the DGP's x2."""
    out = _run("pdp", _context(columns=(1,)), {"grid": {"kind": "law_quantile", "size": 5}})
    law = norm.ppf(np.linspace(*LAW_PROBS, 5), loc=1.0, scale=2.0)
    np.testing.assert_allclose(out["x"], law, rtol=0, atol=1e-12)


# ---------------------------------------------------------------- the study check


LAW_METHODS = {
    "pdp": {"method": "pdp", "params": {"grid": {"kind": "law_quantile", "size": 100,
                                                 "trim": 1}}},
    "ice": {"method": "ice", "params": {"grid": {"kind": "law_quantile", "size": 11,
                                                 "probs": [0.05, 0.95]}, "rows": "data"}},
    "ale": {"method": "ale", "params": {"intervals": {"kind": "law_quantile", "size": 99,
                                                      "trim": 1}}},
}


def test_a_study_with_law_quantile_grids_passes_the_check(tmp_path):
    check_study(demo_study(tmp_path, LAW_METHODS), "default", tmp_path)


def test_the_check_names_a_probability_out_of_range(tmp_path):
    bad = {"pdp": {"method": "pdp", "params": {"grid": {"kind": "law_quantile",
                                                        "probs": [0.5, 1.0]}}}}
    with pytest.raises(ConfigError, match=r"key methods.pdp.params.grid.probs\[1\]: 1.0 is out "
                                          r"of range; allowed: a number > 0 and < 1"):
        check_study(demo_study(tmp_path, bad), "default", tmp_path)
