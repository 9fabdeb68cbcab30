"""PD and ICE of tree ensembles by one walk per row (:mod:`imlbench.explain.tree_pd`).

The walk must give the numbers of the brute force (:func:`imlbench.explain.effects.ice` with
``model.predict``) for every tree learner: to float64 rounding for the scikit-learn trees,
which sum in float64 as the walk does, and to float32 rounding for xgboost, which sums its
leaves in float32. The path-dependent PD must equal scikit-learn's recursion.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.inspection import partial_dependence as sk_partial_dependence

import imlbench.explain.methods_effects as methods_module
from imlbench.dgp.effect_examples import AleBookCh6
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.effects import ice
from imlbench.explain.tree_pd import split_grid, tree_ice, tree_model, tree_pd, tree_pd_path
from imlbench.learners import fit_quietly, make_learner
from imlbench.params import ParamError

#: float64 sums of at most 20 trees of values below 20: rounding is below 1e-13
TOL_F64 = 1e-10
#: xgboost adds 30 float32 leaves and the base: relative rounding up to about
#: 31 * 2^-24 = 2e-6 of the largest partial sum
TOL_XGB = 1e-5

LEARNERS = {
    "rf": {"n_estimators": 20},
    "bagging": {"n_estimators": 10},
    "tree": {},
    "cart": {"cp": 0.001},
    "forest": {"n_estimators": 20},
    "gbm": {"n_estimators": 30, "max_depth": 4},
}


def _data(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Correlated x1, x2; x3 with ties (one decimal); x4 integer-coded with 4 levels."""
    r = np.random.default_rng(seed)
    x1 = r.normal(size=n)
    x2 = 0.8 * x1 + 0.6 * r.normal(size=n)
    x3 = np.round(r.uniform(-2, 2, size=n), 1)
    x4 = r.integers(0, 4, size=n).astype(float)
    X = np.column_stack([x1, x2, x3, x4])
    y = x1 * x2 + np.sin(2 * x3) + (x4 == 2) * 1.5 + 0.3 * r.normal(size=n)
    return X, y


@pytest.fixture(scope="module")
def fitted() -> dict:
    X, y = _data()
    return {name: fit_quietly(make_learner(name, params, random_state=1), X, y)
            for name, params in LEARNERS.items()}


def _hard_grid(ensemble, X: np.ndarray, j: int) -> np.ndarray:
    """Unsorted grid points exactly at the model's thresholds (as the model stores them and
    as it compares them), just above them, outside the data, and duplicated."""
    pieces = split_grid(ensemble, j)
    stored = pieces if len(pieces) < 2 else pieces[:-1]
    above = np.nextafter(stored.astype(np.float32), np.float32(np.inf)).astype(float)
    outside = [X[:, j].min() - 10, X[:, j].max() + 10]
    levels = np.unique(X[:, j])[:6]
    grid = np.concatenate([stored, above, outside, levels, stored[:3], [levels[0]]])
    return np.random.default_rng(j).permutation(grid)


def _close(name: str, ours: np.ndarray, brute: np.ndarray) -> None:
    if name == "gbm":
        scale = np.abs(brute).max()
        assert np.abs(ours - brute).max() <= TOL_XGB * scale
    else:
        np.testing.assert_allclose(ours, brute, rtol=0, atol=TOL_F64)


@pytest.mark.parametrize("name", list(LEARNERS))
def test_tree_ice_and_pd_equal_brute_force(fitted, name):
    model = fitted[name]
    ensemble = tree_model(model)
    assert ensemble is not None and ensemble.matches_predict == (name != "gbm")
    X, _ = _data(80, seed=3)
    for j in range(X.shape[1]):
        grid = _hard_grid(ensemble, X, j)
        brute = ice(model.predict, X, j, grid)
        _close(name, tree_ice(ensemble, X, j, grid), brute)
        _close(name, tree_pd(ensemble, X, j, grid), brute.mean(axis=0))


@pytest.mark.parametrize("name", ["rf", "tree"])
def test_path_pd_equals_sklearn_recursion(fitted, name):
    model = fitted[name]
    X, _ = _data(50, seed=4)
    ensemble = tree_model(model)
    for j in range(X.shape[1]):
        grid = np.unique(np.concatenate([split_grid(ensemble, j), [-9.0, 9.0]]))
        ref = sk_partial_dependence(model, X, [j], method="recursion", kind="average",
                                    custom_values={j: grid})["average"][0]
        np.testing.assert_allclose(tree_pd_path(ensemble, j, grid), ref, rtol=0, atol=TOL_F64)


def test_path_pd_differs_from_interventional_pd_under_dependence(fitted):
    """x1 and x2 are correlated and interact: the two estimands must not coincide."""
    ensemble = tree_model(fitted["rf"])
    X, _ = _data(300, seed=5)
    grid = np.linspace(-1.5, 1.5, 7)
    gap = np.abs(tree_pd_path(ensemble, 0, grid) - tree_pd(ensemble, X, 0, grid)).max()
    assert gap > 0.05


@pytest.mark.parametrize("name", ["tree", "gbm"])
def test_pd_equals_woodelf(fitted, name):
    """woodelf's exact PD (float32 arithmetic: agreement to 1e-6 of the scale)."""
    pd_ = pytest.importorskip("pandas")
    woodelf_pdp = pytest.importorskip("woodelf.pdp")
    model = fitted[name]
    X, _ = _data(60, seed=6)
    grid = np.linspace(-1.5, 1.5, 9)
    names = ["a", "b", "c", "d"]
    points = pd_.DataFrame({c: grid for c in names})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # sklearn: frame with feature names
        ref = woodelf_pdp.woodelf_fast_pdp(model, points, pd_.DataFrame(X, columns=names),
                                           centered=False, accurate=True, verbose=False)
    ensemble = tree_model(model)
    for j, c in enumerate(names):
        ours = tree_pd(ensemble, X, j, grid)
        assert np.abs(np.asarray(ref[c]) - ours).max() <= 1e-6 * np.abs(ours).max()


def test_split_grid_represents_every_piece(fitted):
    """Every ICE value on a dense grid is the value at the split-grid point of its piece."""
    model = fitted["rf"]
    ensemble = tree_model(model)
    X, _ = _data(30, seed=7)
    for j in (0, 3):
        pieces = split_grid(ensemble, j)
        assert np.all(np.diff(pieces) > 0)
        dense = np.concatenate([np.linspace(-4, 4, 401), pieces,
                                np.nextafter(pieces.astype(np.float32), np.inf)])
        which = np.minimum(np.searchsorted(pieces, dense.astype(np.float32)), len(pieces) - 1)
        np.testing.assert_allclose(ice(model.predict, X, j, dense),
                                   tree_ice(ensemble, X, j, pieces)[:, which],
                                   rtol=0, atol=TOL_F64)
    lo, hi = -0.5, 0.5
    bounded = split_grid(ensemble, 0, lo, hi)
    assert bounded[-1] == hi and bounded[0] >= lo and np.all(bounded[:-1] < hi)


def test_non_tree_models_and_missing_values(fitted):
    X, y = _data()
    for name in ("lm", "svm", "knn"):
        assert tree_model(fit_quietly(make_learner(name, {}, 0), X, y)) is None
    bad = X[:5].copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        tree_ice(tree_model(fitted["tree"]), bad, 0, np.array([0.0, 1.0]))


# ---------------------------------------------------------------- the registered methods


def _context(model) -> ExplainContext:
    dgp = AleBookCh6("multiplicative")
    df = dgp.sample(200, np.random.default_rng(8))
    X, y = df[dgp.feature_names].to_numpy(), df["y"].to_numpy()
    if model is not None:
        model = fit_quietly(make_learner(model, LEARNERS.get(model, {}), 0), X, y)
    return ExplainContext(model=model, X=X, y=y, feature_names=dgp.feature_names, dgp=dgp,
                          fit=None, fixed_rng=lambda label: np.random.default_rng(0))


def _run(ctx, method, params):
    return METHODS.get(method)(ctx, params, np.random.default_rng(9))["value"].to_numpy()


def test_auto_walks_the_trees_of_sklearn_models_only(monkeypatch):
    ctx = _context("rf")
    brute = _run(ctx, "pdp", {"algorithm": "brute"})
    model_predict = ctx.model.predict
    calls = []
    ctx.model.predict = lambda X: calls.append(len(X)) or model_predict(X)
    # below the size where the walk's start-up is repaid, auto predicts
    np.testing.assert_array_equal(_run(ctx, "pdp", {}), brute)
    assert calls
    monkeypatch.setattr(methods_module, "AUTO_MIN_ROWS", 0)

    def refuse(X):
        raise AssertionError("auto must not predict for a scikit-learn forest")

    ctx.model.predict = refuse
    np.testing.assert_allclose(_run(ctx, "pdp", {}), brute, rtol=0, atol=TOL_F64)
    ice_params = {"rows": "data", "n_rows": 5, "grid": {"size": 7}}
    walked = _run(ctx, "ice", ice_params)
    ctx.model.predict = model_predict
    brute_ice = _run(ctx, "ice", {**ice_params, "algorithm": "brute"})
    np.testing.assert_allclose(walked, brute_ice, rtol=0, atol=TOL_F64)

    gbm = _context("gbm")
    gbm_brute = _run(gbm, "pdp", {})  # auto predicts: xgboost's float32 sums
    np.testing.assert_array_equal(gbm_brute, _run(gbm, "pdp", {"algorithm": "brute"}))
    walked = _run(gbm, "pdp", {"algorithm": "tree"})
    assert np.abs(walked - gbm_brute).max() <= TOL_XGB * np.abs(gbm_brute).max()


def test_path_and_split_grid_through_the_method():
    ctx = _context("tree")
    out = METHODS.get("pdp")(ctx, {"algorithm": "path", "grid": {"kind": "splits"}},
                             np.random.default_rng(0))
    ensemble = tree_model(ctx.model)
    for j, name in enumerate(ctx.feature_names):
        part = out[out["feature"] == name]
        grid = split_grid(ensemble, j, None, ctx.X[:, j].max())
        np.testing.assert_array_equal(part["x"], grid)
        ref = sk_partial_dependence(ctx.model, ctx.X, [j], method="recursion",
                                    custom_values={j: grid})["average"][0]
        np.testing.assert_allclose(part["value"], ref, rtol=0, atol=TOL_F64)


def test_configuration_errors():
    with pytest.raises(ParamError, match="algorithm: 'path' is not allowed; allowed: auto, "
                                         "brute, tree"):
        _run(_context("rf"), "ice", {"algorithm": "path", "rows": "data"})
    lm = _context("lm")
    for algorithm in ("tree", "path"):
        with pytest.raises(ValueError, match=f"algorithm: {algorithm} needs a tree model "
                                             r"\(learners rf, .*allowed for it: auto, brute"):
            _run(lm, "pdp", {"algorithm": algorithm})
    with pytest.raises(ValueError, match="grid.kind: splits needs a tree model .*allowed for "
                                         "it: equidistant, quantile, values, levels"):
        _run(lm, "pdp", {"grid": {"kind": "splits"}})
    np.testing.assert_allclose(_run(lm, "pdp", {}), _run(lm, "pdp", {"algorithm": "brute"}))
