"""Our feature-effect estimators against the peer implementations people use.

Same fitted models, same data, same grid or intervals: the numbers must agree to
rounding (PDP/ICE with scikit-learn, ALE with PyALE, StratPD and CatStratPD with stratx,
tree SHAP with the shap package). The peers are test-only dependencies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.inspection import partial_dependence as sk_partial_dependence

from imlbench.dgp.effect_examples import AleBookCh6, StratpdSynthetic, StratpdWeight
from imlbench.explain.ale import ale_edges, ale_first_order
from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.shapley import shapley_exact, shapley_tree
from imlbench.explain.stratpd import catstratpd, stratpd
from imlbench.learners import fit_quietly, make_learner

EPS32 = float(np.finfo(np.float32).eps)
LEARNER_PARAMS = {"rf": {"n_estimators": 30}, "gbm": {"n_estimators": 50}, "svm": {},
                  "knn": {}}


@pytest.fixture(scope="module")
def fitted():
    d = AleBookCh6("multiplicative", noise_sd=0.1)
    rng = np.random.default_rng(0)
    df = d.sample(400, rng)
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    models = {name: fit_quietly(make_learner(name, params, random_state=1), X, y)
              for name, params in LEARNER_PARAMS.items()}
    return X, y, models


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LEARNER_PARAMS))
def test_pdp_and_ice_equal_sklearn_brute(fitted, name):
    X, _, models = fitted
    model = models[name]
    grid = np.linspace(X[:, 1].min(), X[:, 1].max(), 17)
    sk = sk_partial_dependence(model, X, [1], custom_values={1: grid}, method="brute",
                               kind="both")
    np.testing.assert_allclose(ice(model.predict, X, 1, grid), sk["individual"][0],
                               rtol=0, atol=1e-8)
    average = sk["average"][0]
    # xgboost predicts float32 and scikit-learn then averages in float32: pairwise summation
    # of n values is exact to about log2(n) float32 epsilons; we average in float64
    rtol = np.log2(len(X)) * np.finfo(np.float32).eps if average.dtype == np.float32 else 0
    np.testing.assert_allclose(partial_dependence(model.predict, X, 1, grid), average,
                               rtol=rtol, atol=1e-8)


class _FrameModel:
    """PyALE passes DataFrames; our models were fitted on arrays."""

    def __init__(self, model):
        self.model = model

    def predict(self, df: pd.DataFrame) -> np.ndarray:
        return self.model.predict(df.to_numpy())


@pytest.mark.parametrize("name", list(LEARNER_PARAMS))
def test_ale_equals_pyale_with_the_same_intervals(fitted, name):
    from PyALE import ale as pyale

    X, _, models = fitted
    df = pd.DataFrame(X, columns=["x1", "x2", "x3"])
    theirs = pyale(X=df, model=_FrameModel(models[name]), feature=["x2"], grid_size=20,
                   include_CI=False, plot=False)
    edges = theirs.index.to_numpy(dtype=float)
    ours, counts = ale_first_order(models[name].predict, X, 1,
                                   ale_edges(X[:, 1], {"kind": "values", "values": edges}))
    eff = theirs["eff"].to_numpy()
    # PyALE keeps xgboost's float32: each of the K interval means and the centring carry
    # about log2(n) float32 roundings of the predictions' scale, accumulated over K
    scale = np.abs(models[name].predict(X)).max()
    atol = (len(edges) + np.log2(len(X))) * EPS32 * scale if eff.dtype == np.float32 else 1e-8
    np.testing.assert_allclose(ours, eff, rtol=0, atol=atol)
    np.testing.assert_array_equal(counts, theirs["size"].to_numpy()[1:])


def _stratx_frame(X, names):
    return pd.DataFrame(X, columns=names)


@pytest.mark.slow
@pytest.mark.parametrize("function", ["interaction", "quadratic"])
def test_stratpd_equals_stratx(function):
    """stratx 0.5 bridges dropped x values with zero slope (our ``gaps: zero``) and uses a
    one-tree forest without bootstrap, whose splits equal a seeded decision tree's."""
    from stratx.partdep import partial_dependence as sx_partial_dependence

    d = StratpdSynthetic(function, noise_sd=0.5)
    rng = np.random.default_rng(3)
    df = d.sample(1000, rng)
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    np.random.seed(0)  # noqa: NPY002  (stratx's forest draws from the global generator)
    res = sx_partial_dependence(_stratx_frame(X, d.feature_names), df["y"], "x1",
                                min_slopes_per_x=5, min_samples_leaf=10, n_trees=1,
                                parallel_jit=False)
    pdpx, pdpy = res[5], res[6]
    xs, ours = stratpd(X, y, 0, min_samples_leaf=10, min_slopes_per_x=5, gaps="zero",
                       rng=np.random.default_rng(4))
    np.testing.assert_allclose(xs, pdpx, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours, pdpy, rtol=0, atol=1e-8)


def test_catstratpd_equals_stratx():
    """stratx's CatStratPD takes each leaf's lowest-mean category as reference and shifts by
    the mean over shared categories (our ``reference: min``, ``anchor: mean``). stratx 0.5
    still uses ``np.float``/``np.int``, removed in NumPy 1.24; the test restores the aliases."""
    import stratx.partdep as sx

    d = StratpdWeight(noise_sd=2.0)
    df = d.sample(1500, np.random.default_rng(5))
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    frame = df[d.feature_names].astype({"sex": int, "pregnant": int})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(np, "float", float, raising=False)
        mp.setattr(np, "int", int, raising=False)
        np.random.seed(0)  # noqa: NPY002  (as above)
        _, _, theirs, _, _ = sx.cat_partial_dependence(frame, df["y"], "pregnant",
                                                       min_samples_leaf=10)
    levels, ours = catstratpd(X, y, 1, min_samples_leaf=10, reference="min", anchor="mean",
                              rng=np.random.default_rng(6))
    np.testing.assert_allclose(ours, theirs[levels.astype(int)] - np.nanmin(theirs),
                               rtol=0, atol=1e-8)


@pytest.mark.parametrize("name", ["rf", "gbm"])
@pytest.mark.parametrize("n_background", [40, 300])
def test_exact_shapley_equals_shap_tree_explainer(fitted, name, n_background):
    """Interventional TreeSHAP (shap) and our coalition enumeration compute the same game,
    over every background row (shap keeps a random 100 of a larger array unless told not to).

    shap evaluates the trees in single precision: each value sums 2^p coalition terms of
    the predictions' scale, each rounded to float32.
    """
    X, _, models = fitted
    rows, background = X[:25], X[100:100 + n_background]
    ours = shapley_exact(models[name].predict, rows, background)
    atol = 2 ** X.shape[1] * EPS32 * np.abs(models[name].predict(X)).max()
    np.testing.assert_allclose(shapley_tree(models[name], rows, background), ours,
                               rtol=0, atol=atol)
