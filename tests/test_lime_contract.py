"""LIME's points, repeats, n_features sweeps, samplings, kernels and binned representation
(the contract of :mod:`imlbench.explain.lime` and the ``lime`` method)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.lime import (
    bin_of,
    explained_points,
    lime_fits,
    quartile_edges,
    weighted_ridge,
)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f(Z: np.ndarray) -> np.ndarray:
    return np.sin(2 * Z[:, 0]) + Z[:, 1] * Z[:, 2] - Z[:, 3] ** 2 + 0.3 * Z[:, 4:].sum(axis=1)


def _wls(z: np.ndarray, t: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Slope and intercept of a weighted least-squares line, by the textbook formulas."""
    zb, tb = (w @ z) / w.sum(), (w @ t) / w.sum()
    slope = (w @ ((z - zb) * (t - tb))) / (w @ (z - zb) ** 2)
    return slope, tb - slope * zb


@pytest.mark.parametrize("selection", ["auto", "forward", "highest_weights"])
def test_an_n_features_sweep_equals_separate_calls(selection):
    """p = 8 features; auto switches from forward to highest weights above 6, so the sweep
    covers both rules; the widths sweep at the same time."""
    X = rng(50).normal(size=(300, 8))
    ks, widths = [1, 3, 7, None], [0.5, 3.0]
    sweep = lime_fits(_f, X, X[:2], rng(51), kernel_widths=widths, n_features=ks,
                      n_samples=300, selection=selection)
    for v, width in enumerate(widths):
        for c, k in enumerate(ks):
            one = lime_fits(_f, X, X[:2], rng(51), kernel_widths=[width], n_features=k,
                            n_samples=300, selection=selection)
            for name in ("coef", "intercept", "r2", "selected"):
                np.testing.assert_array_equal(getattr(sweep, name)[v, c], getattr(one, name)[0, 0])
    assert sweep.selected[0, :, 0, 0].sum(axis=1).tolist() == [1, 3, 7, 8]


def test_repeats_are_one_stacked_predict_and_follow_the_stream_rule():
    """Repeats are drawn repeat by repeat, point by point: a call with repeats 3 equals three
    successive calls with repeats 1 on the same generator; one predict call takes all."""
    X = rng(52).normal(size=(300, 5))
    calls: list[int] = []

    def counted(Z: np.ndarray) -> np.ndarray:
        calls.append(len(Z))
        return _f(Z)

    batched = lime_fits(counted, X, X[:4], rng(53), repeats=3, n_samples=200, n_features=2)
    assert calls == [3 * 4 * 200]
    stream = rng(53)
    for r in range(3):
        one = lime_fits(_f, X, X[:4], stream, n_samples=200, n_features=2)
        np.testing.assert_array_equal(batched.coef[:, :, :, r], one.coef[:, :, :, 0])
        np.testing.assert_array_equal(batched.r2[:, :, :, r], one.r2[:, :, :, 0])
    assert not np.allclose(batched.coef[..., 0, :], batched.coef[..., 1, :])


def test_uniform_sampling_with_the_exp_kernel_is_weighted_least_squares_by_hand():
    """1-D: f(z) = z^2, data on [0, 4] (sd about 1.2, so raw and standardised distances
    differ), x = 1, z ~ U(min, max), weights exp(-(z - 1)^2 / w) on the raw distance."""
    X = np.linspace(0, 4, 41)[:, None]
    n, w = 500, 0.5
    fits = lime_fits(lambda Z: Z[:, 0] ** 2, X, np.array([[1.0]]), rng(54), n_samples=n,
                     sampling="uniform", kernel="exp", kernel_widths=[w], ridge=0.0,
                     include_point=False)
    z = rng(54).uniform(0, 4, n)
    slope, intercept = _wls(z, z**2, np.exp(-(z - 1) ** 2 / w))
    assert fits.coef[0, 0, 0, 0, 0] == pytest.approx(slope, rel=1e-10)
    assert fits.intercept[0, 0, 0, 0] == pytest.approx(intercept, rel=1e-10)
    flat = lime_fits(lambda Z: Z[:, 0] ** 2, X, np.array([[1.0]]), rng(54), n_samples=n,
                     sampling="uniform", kernel="none", ridge=0.0, include_point=False)
    assert flat.coef[0, 0, 0, 0, 0] == pytest.approx(_wls(z, z**2, np.ones(n))[0], rel=1e-10)


@pytest.mark.parametrize("units", ["sd", "raw"])
def test_local_units(units):
    """``local_sd`` is in units of the feature's sd (sd) or in its own units (raw)."""
    X = 3.0 * rng(55).normal(size=(200, 1))
    x, s, n = np.array([[0.4]]), 0.5, 400
    fits = lime_fits(lambda Z: Z[:, 0] ** 2, X, x, rng(56), n_samples=n, sampling="local",
                     local_sd=s, local_units=units, kernel="none", ridge=0.0,
                     include_point=False)
    scale = s * (X[:, 0].std() if units == "sd" else 1.0)
    z = 0.4 + scale * rng(56).standard_normal(n)
    assert fits.coef[0, 0, 0, 0, 0] == pytest.approx(_wls(z, z**2, np.ones(n))[0], rel=1e-10)


def test_data_sampling_uses_the_rows_themselves():
    """``sampling: data``: the samples are X (predicted once for all points and repeats)."""
    X = rng(57).normal(size=(120, 1))
    calls: list[int] = []

    def f(Z):
        calls.append(len(Z))
        return np.sin(3 * Z[:, 0])

    fits = lime_fits(f, X, X[:2], rng(58), sampling="data", repeats=2, kernel_widths=[0.4],
                     ridge=0.0)
    assert calls == [120]
    z = X[:, 0]
    for i in range(2):
        w = np.sqrt(np.exp(-((z - z[i]) / z.std()) ** 2 / 0.4**2))
        assert fits.coef[0, 0, i, :, 0] == pytest.approx([_wls(z, np.sin(3 * z), w)[0]] * 2)


def test_the_binned_representation_on_a_hand_example():
    """Data 1..8: quartiles 1, 2.75, 4.5, 6.25, 8, so the bins are {1, 2}, {3, 4}, {5, 6},
    {7, 8}. x = 2 lies in the first bin; f = 3 + 10 [z > 4.5]; the samples are the data. The
    input is [z in x's bin]; with the width w = 1 / sqrt(ln 4) the samples outside weigh
    sqrt(exp(-1 / w^2)) = 1/2. One binary input: the slope is the difference of the group
    means, 3 - (3 + 3 + 4 * 13) / 6 = -20/3, the intercept 29/3; the weighted mean of f is
    (2 * 3 + (2 * 3 + 4 * 13) / 2) / 5 = 7, so R^2 = 1 - (2 (20/3)^2 + 4 (10/3)^2) / 2 / 120
    = 4/9."""
    X = np.arange(1.0, 9.0)[:, None]
    np.testing.assert_allclose(quartile_edges(X[:, 0]), [1, 2.75, 4.5, 6.25, 8])
    assert bin_of(quartile_edges(X[:, 0]), np.array([0, 1, 2.75, 2.76, 8, 9])).tolist() == [
        0, 0, 0, 1, 3, 3]
    fits = lime_fits(lambda Z: 3 + 10 * (Z[:, 0] > 4.5), X, np.array([[2.0]]), rng(59),
                     sampling="data", representation="binned",
                     kernel_widths=[1 / np.sqrt(np.log(4))], ridge=0.0)
    assert fits.coef[0, 0, 0, 0, 0] == pytest.approx(-20 / 3)
    assert fits.intercept[0, 0, 0, 0] == pytest.approx(29 / 3)
    assert fits.r2[0, 0, 0, 0] == pytest.approx(4 / 9)


def test_binned_samples_from_quantile_bins_with_a_categorical_feature():
    """With quartile-bin sampling and a categorical feature, every surrogate input is 0/1 and
    f = 2 [x1 in x's bin] - [c = x's level] is recovered exactly."""
    r = rng(60)
    X = np.column_stack([r.normal(size=400), r.integers(0, 3, 400)]).astype(float)
    x = np.array([[X[:, 0].max(), 1.0]])
    top = quartile_edges(X[:, 0])[-2]

    def f(Z):
        return 2.0 * (Z[:, 0] > top) - (Z[:, 1] == 1)

    coef = lime_fits(f, X, x, r, sampling="quantile_bins", representation="binned",
                     categorical=[1], ridge=0.0).coef[0, 0, 0, 0]
    np.testing.assert_allclose(coef, [2.0, -1.0], atol=1e-10)


# ---------------------------------------------------------------- points

def _table() -> tuple[np.ndarray, list[str]]:
    X = np.array([[1.0, 0, 5], [2, 1, 6], [3, 1, 7], [10, 2, 8], [4, 1, 9]])
    return X, ["x1", "c", "x3"]


def test_each_point_spec():
    X, names = _table()
    specs = [{"at": "mean"}, {"at": "max"}, {"at": "min"}, {"at": "majority"},
             {"at": "minority", "label": "rare"}, {"values": {"x1": 12.75, "c": 2}},
             {"row": 3}, {"draw": 2, "where": {"x1": {"below": 4}, "x3": {"above": 5}}}]
    got = explained_points(X, specs, names, [1], rng(61))
    assert got.labels == ["mean", "max", "min", "majority", "rare", "values5", "row3",
                          "draw7_0", "draw7_1"]
    np.testing.assert_array_equal(got.X[:7], [
        [4, 1, 7],        # numeric means, categorical most frequent level
        [10, 2, 9], [1, 0, 5],
        [1, 1, 5],        # most frequent values (ties: the smallest)
        [1, 0, 5],        # least frequent values (ties: the smallest)
        [12.75, 2, 7],    # the named values, the others at the mean
        [10, 2, 8]])
    assert got.rows.tolist() == [-1] * 6 + [3, 1, 2]  # rows 1 and 2 are the only ones within
    np.testing.assert_array_equal(got.X[7:], X[[1, 2]])
    labelled = explained_points(X, [{"draw": 1, "label": "low", "where": {"x1": {"below": 2}}}],
                                names, [1], rng(62))
    assert labelled.labels == ["low_0"] and labelled.rows.tolist() == [0]


@pytest.mark.parametrize("spec, message", [
    ({"values": {"x9": 1.0}}, r"points\[0\]\.values: feature 'x9' is not in the data; "
                              "allowed: x1, c, x3"),
    ({"draw": 1, "where": {"z": {"below": 1}}}, r"points\[0\]\.where: feature 'z'"),
    ({"at": "mean", "row": 1}, r"points\[0\]: gives at, row .*allowed: exactly one of at"),
    ({"label": "a"}, r"gives none"),
    ({"row": 1, "where": {"x1": {"below": 3}}}, r"where: given with row"),
    ({"row": 5}, r"points\[0\]\.row: 5 is out of range; allowed: 0 to 4"),
    ({"draw": 3, "where": {"x1": {"below": 3}}}, r"3 rows asked but 2 of the 5 data rows"),
])
def test_bad_points_are_named(spec, message):
    X, names = _table()
    with pytest.raises(ValueError, match=message):
        explained_points(X, [spec], names, [1], rng(63))


def test_repeated_labels_are_rejected():
    X, names = _table()
    with pytest.raises(ValueError, match="label.s. mean repeated"):
        explained_points(X, [{"at": "mean"}, {"at": "mean"}], names, [1], rng(64))


def test_a_bad_point_kind_is_named_when_the_study_is_checked():
    from imlbench.explain.api import METHODS
    from imlbench.params import ParamError, check_all

    declared = METHODS.get("lime").params
    with pytest.raises(ParamError, match=r"points\[1\]\.at: 'median' is not allowed; allowed: "
                                         "mean, max, min, majority, minority"):
        check_all(declared, {"points": [{"at": "mean"}, {"at": "median"}]})
    with pytest.raises(ParamError, match="kernel: 'gauss' is not allowed; allowed: lime, exp"):
        check_all(declared, {"kernel": "gauss"})
    with pytest.raises(ParamError, match=r"n_features"):
        check_all(declared, {"n_features": [2, 0]})


def test_gower_takes_no_kernel():
    X = rng(65).normal(size=(50, 2))
    with pytest.raises(ValueError, match="kernel 'exp' needs distance euclidean"):
        lime_fits(_f, X, X[:1], rng(66), distance="gower", kernel="exp", n_samples=10)


# ---------------------------------------------------------------- the method's table

def _lime(params: dict) -> pd.DataFrame:
    from true_model import true_model_context

    from imlbench.dgp.effect_examples import AleBookCh6
    from imlbench.explain.api import METHODS

    dgp = AleBookCh6("multiplicative")
    df = dgp.sample(300, rng(67))
    ctx = true_model_context(dgp, df[dgp.feature_names].to_numpy(), df["y"].to_numpy())
    return METHODS.get("lime")(ctx, {"n_samples": 200, **params}, rng(68))


def test_the_method_table_of_points_repeats_and_both_sweeps():
    points = [{"at": "mean"}, {"row": 4, "label": "four"}]
    base = {"points": points, "repeats": 2, "surrogate_fit": True}
    out = _lime({**base, "kernel_width": [0.3, 1.0], "n_features": [1, None]})
    assert list(out.columns[:8]) == ["kernel_width", "n_features", "point", "repeat", "row",
                                     "feature", "x", "value"]
    p = out["feature"].nunique()
    assert len(out) == 2 * 2 * 2 * 2 * p
    assert out["n_features"].unique().tolist() == [1, p]
    for (width, k), part in out.groupby(["kernel_width", "n_features"], sort=False):
        one = _lime({**base, "kernel_width": width, "n_features": k})
        pd.testing.assert_frame_equal(
            part.drop(columns=["kernel_width", "n_features"]).reset_index(drop=True), one)
    one = _lime({**base, "n_features": 1})
    assert one["point"].unique().tolist() == ["mean", "four"]
    assert one.groupby(["point", "repeat"])["selected"].sum().eq(1).all()
    four = one[(one["point"] == "four") & (one["repeat"] == 1)]
    assert four["row"].eq(4).all() and four["x"].tolist() == _lime(
        {"n_rows": 300, "n_samples": 5}).query("row == 4")["x"].tolist()


def test_the_ridge_penalty_scales_with_the_weights_as_glmnets():
    """glmnet's ridge (R lime's surrogate) penalises the standardised coefficients relative to
    the weighted mean loss: multiplying every weight by a constant leaves the fit unchanged,
    so a narrow kernel (weights near 0) is not shrunk toward 0; one input is unpenalised."""
    r = rng(60)
    D, t, w = r.normal(size=(300, 3)), r.normal(size=300), r.uniform(size=300)
    for lam in (0.0, 0.001, 0.5):
        wide = weighted_ridge(D, t, w, lam)
        narrow = weighted_ridge(D, t, 1e-12 * w, lam)
        np.testing.assert_allclose(narrow[0], wide[0], rtol=1e-9)
        assert narrow[1:] == pytest.approx(wide[1:], rel=1e-9)
    assert weighted_ridge(D[:, :1], t, w, 0.5)[0] == pytest.approx(
        weighted_ridge(D[:, :1], t, w, 0.0)[0], rel=1e-12)
    assert np.isnan(weighted_ridge(D, t, np.zeros(300), 0.001)[0]).all()


def test_the_point_itself_is_the_first_sample():
    """R lime's first sample is the explained point: with every other sample far outside a
    narrow kernel the surrogate still has a sample of weight 1 (and no penalty collapse)."""
    X = rng(61).normal(size=(200, 2))
    seen: list[np.ndarray] = []

    def f(Z):
        seen.append(Z.copy())
        return Z @ [1.0, 2.0]

    x = np.array([[0.3, -0.2]])
    lime_fits(f, X, x, rng(62), n_samples=50, sampling="normal", kernel_widths=[0.5])
    np.testing.assert_array_equal(seen[0][0], x[0])
    lime_fits(f, X, x, rng(62), n_samples=50, sampling="normal", kernel_widths=[0.5],
              include_point=False)
    np.testing.assert_array_equal(seen[1][1:], seen[0][1:])
    assert not np.array_equal(seen[1][0], x[0])
