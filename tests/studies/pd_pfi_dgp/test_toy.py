"""The toy of Fig. 2 of the PD/PFI-of-the-DGP study: its DGP-PD, the method
``pd_pfi_dgp.pd_uncertainty``, the claim kind ``pd_pfi_dgp.pd_variance_ratio``, the bias statistic
``pd_pfi_dgp.squared_bias`` of a ``contrast`` claim, and the figures 1 and 2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.estimands import truth_frame
from imlbench.learners import fit_quietly, make_learner
from imlbench.metrics.claims import CLAIMS, INCONCLUSIVE, REPRODUCED, Tables
from imlbench.stats import mean_and_se, t_multiplier
from imlbench.studies.pd_pfi_dgp.dgp_toy import MEAN_SIN_X1, PdpUncertaintyToy
from imlbench.studies.pd_pfi_dgp.methods_toy import fit_target_scaled, pd_with_se
from imlbench.studies.pd_pfi_dgp.statistics import squared_bias_terms
from imlbench.studies.pd_pfi_dgp.truth import pd_toy_truths

Z = 4.0  # two-sided Monte Carlo bound: a correct value fails one check with probability 6e-5


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_registered_and_sampled_as_specified():
    """The registry builds the toy; x1 ~ U(0, 10), x2, x3 ~ N(0, 1), noise SD 5."""
    d = make_dgp("pd_pfi_dgp.pdp_uncertainty_toy", {})
    assert isinstance(d, PdpUncertaintyToy) and d.feature_names == ["x1", "x2", "x3"]
    df = d.sample(40_000, rng(1))
    X = df[d.feature_names].to_numpy()
    assert X[:, 0].min() >= 0 and X[:, 0].max() <= 10
    # SE of a mean: sd / 200; of an SD: about sd / sqrt(2 n) = sd / 283
    assert abs(X[:, 0].mean() - 5.0) <= Z * np.sqrt(100 / 12) / 200
    assert abs(X[:, 1:].std(axis=0) - 1.0).max() <= Z / 283
    assert abs((df["y"] - d.f(X)).std() - 5.0) <= Z * 5.0 / 283


@pytest.mark.parametrize("feature", ["x1", "x2", "x3"])
def test_dgp_pd_equals_a_monte_carlo_average_of_f(feature):
    """DGP-PD_S(z) = E_{X_C}[f(z, X_C)]: the closed form equals the mean of f over 200,000
    draws of the other features within Z Monte Carlo SEs (SD of the f values / sqrt(N))."""
    d = PdpUncertaintyToy()
    j = d.feature_names.index(feature)
    X = d.sample_features(200_000, rng(2))
    for z in (0.0, 1.3, 4.7, 8.0) if feature == "x1" else (-1.5, 0.0, 2.0):
        Xz = X.copy()
        Xz[:, j] = z
        values = d.f(Xz)
        se = values.std(ddof=1) / np.sqrt(len(values))
        assert abs(values.mean() - d.dgp_pd(feature, np.array([z]))[0]) <= Z * se


def test_truth_table_is_the_closed_form():
    table = pd_toy_truths(PdpUncertaintyToy(), lambda label: rng(0))["effects"]
    assert set(table["estimand"]) == {"pd"} and (table["se"] == 0).all()
    x1 = table[table["feature"] == "x1"]
    assert x1["x"].min() == 0.0 and x1["x"].max() == 10.0
    np.testing.assert_allclose(x1["value"], np.sin(x1["x"]) + 0.5 * x1["x"])
    x3 = table[table["feature"] == "x3"]
    np.testing.assert_allclose(x3["value"], MEAN_SIN_X1 + 2.5)


def _svm_fit(Xn: np.ndarray, yn: np.ndarray):
    return fit_quietly(make_learner("svm", {"C": 1.0, "epsilon": 0.1}, 0), Xn, yn).predict


def _toy_context(seed: int, n: int = 200) -> ExplainContext:
    d = PdpUncertaintyToy()
    df = d.sample(n, rng(seed))
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    model = fit_quietly(make_learner("svm", {"C": 1.0, "epsilon": 0.1}, 0), X, y)
    return ExplainContext(model=model, X=X, y=y, feature_names=d.feature_names, dgp=d,
                          fit=_svm_fit, fixed_rng=lambda label: rng(0))


def test_pd_uncertainty_shapes_and_sources():
    """One training-row PD and n_mc_samples MC PDs per feature, each on the 70-point grid."""
    ctx = _toy_context(3)
    params = {"features": ["x1", "x2"], "n_mc_samples": 5, "n_mc_rows": 50,
              "grid": {"kind": "equidistant", "size": 70, "range": [0.0, 10.0]}}
    out = METHODS.get("pd_pfi_dgp.pd_uncertainty")(ctx, params, rng(4))
    assert len(out) == 2 * (1 + 5) * 70
    assert set(out.columns) >= {"feature", "source", "sample", "n_rows", "x", "value", "se"}
    counts = out.groupby(["feature", "source"])["sample"].nunique().to_dict()
    assert counts == {("x1", "mc"): 5, ("x1", "train"): 1, ("x2", "mc"): 5, ("x2", "train"): 1}
    assert set(out.loc[out["source"] == "train", "n_rows"]) == {200}
    assert set(out.loc[out["source"] == "mc", "n_rows"]) == {50}
    x1 = out[(out["feature"] == "x1") & (out["source"] == "train")]
    np.testing.assert_allclose(x1["x"], np.linspace(0, 10, 70))
    assert (out["se"] > 0).all() and np.isfinite(out["value"]).all()
    # the five MC samples differ, so do their curves
    mc = out[(out["feature"] == "x1") & (out["source"] == "mc")]
    assert mc.groupby("x")["value"].std().min() > 0
    again = METHODS.get("pd_pfi_dgp.pd_uncertainty")(ctx, params, rng(4))
    pd.testing.assert_frame_equal(out, again)


def test_target_scaling_is_undone_exactly():
    """A fit on the standardised target (mean 0, sample SD 1) mapped back equals, for a
    scale-equivariant learner (least squares), the fit on the raw target."""
    from sklearn.linear_model import LinearRegression

    X = rng(5).normal(size=(60, 3))
    y = 3.0 + X @ [1.0, -2.0, 0.5] + rng(6).normal(size=60) * 4
    seen = {}

    def fit(Xn, yn):
        seen["y"] = yn
        return LinearRegression().fit(Xn, yn).predict

    predict = fit_target_scaled(fit, X, y)
    assert abs(seen["y"].mean()) < 1e-12 and seen["y"].std(ddof=1) == pytest.approx(1.0)
    np.testing.assert_allclose(predict(X), LinearRegression().fit(X, y).predict(X))


def test_mc_standard_error_matches_the_spread_over_samples():
    """With the true f, PD^(z) on 50 rows has SD sqrt(Var(x2 (1 + x3^2)) / 50) = sqrt(6 / 50)
    (E[x2^2] E[(1 + x3^2)^2] = 1 + 2 + 3). The spread over 400 samples equals it within
    Z SEs of an SD (about sd / sqrt(2 * 400)); the mean reported SE within 10%."""
    d = PdpUncertaintyToy()
    grid = np.array([2.0])
    r = rng(7)
    values, ses = [], []
    for _ in range(400):
        v, se = pd_with_se(d.f, d.sample_features(50, r), 0, grid, 10_000)
        values.append(v[0])
        ses.append(se[0])
    expected = np.sqrt(6 / 50)
    assert abs(np.std(values, ddof=1) - expected) <= Z * expected / np.sqrt(800)
    # the per-sample SE is an SD estimate from heavy-tailed ICE values: only its mean is checked
    assert abs(np.mean(ses) / expected - 1) < 0.1


def test_integrated_squared_bias_is_unbiased():
    """Curves t + b(z) + model noise (correlated over z): B2, the mean of its first-order
    terms, averages <b^2> over 2000 simulated sets of 10 refits within Z Monte Carlo SEs; the
    delta-method SE (the terms' sd / sqrt(R)) estimates the true SD of B2 within 10% (the MC
    error of an SD over 2000 sets is 1.6%)."""
    r = rng(8)
    grid = np.linspace(0, 1, 7)
    bias = 0.3 * np.sin(3 * grid)
    target = float((bias**2).mean())
    b2s, ses = [], []
    for _ in range(2000):
        noise = r.normal(size=(10, 1)) + 0.5 * r.normal(size=(10, len(grid)))
        b2, se = mean_and_se(pd.Series(squared_bias_terms(bias + noise)))
        b2s.append(b2)
        ses.append(se)
    b2s = np.array(b2s)
    assert abs(b2s.mean() - target) <= Z * b2s.std(ddof=1) / np.sqrt(len(b2s))
    assert abs(np.mean(ses) / b2s.std(ddof=1) - 1) < 0.1


def _curves(rep_values: np.ndarray, se: float, grid: np.ndarray, source: str = "train",
            sample: int = 0) -> pd.DataFrame:
    return pd.DataFrame({
        "scenario": "toy", "learner": "svm", "method": "toy_pd", "feature": "x1",
        "source": source, "sample": sample, "n_rows": 200,
        "rep": np.repeat(np.arange(len(rep_values)), len(grid)),
        "x": np.tile(grid, len(rep_values)), "value": rep_values.ravel(), "se": se,
    })


CLAIM = {"id": "c", "text": "t", "published": "p", "feature": "x1",
         "where": {"scenario": "toy", "learner": "svm", "method": "toy_pd"}}


def _tables(other: pd.DataFrame, truth: pd.DataFrame | None = None) -> Tables:
    truths = {} if truth is None else {("toy", "effects"): truth}
    return Tables(ranked=pd.DataFrame(), truth={}, other=other, truths=truths)


pd_variance_ratio = CLAIMS.get("pd_pfi_dgp.pd_variance_ratio")
BIAS = {**CLAIM, "kind": "contrast", "source": "derived", "statistic": "pd_pfi_dgp.squared_bias",
        "truth": "effects", "compare": "above", "k": 2}


def bias_rows(claim: dict, t: Tables) -> list[dict]:
    return CLAIMS.get("contrast")(claim, t)


def test_variance_ratio_claim_fails_without_model_variance():
    """Curves that differ only by their own MC error (SD = se) give a ratio near 1: the
    claim is not reproduced; with a model spread 5 times the SE it is. The check is
    Q +- (quantile - 1) against 1: a ratio near 1 straddles it (inconclusive, no longer "not
    reproduced"); its power is 2 (quantile - 1), chi2_9 / 9 at 0.99: 21.666 / 9 = 2.4073."""
    grid = np.linspace(0, 10, 12)
    r = rng(9)
    mc_only = _curves(0.2 * r.normal(size=(10, len(grid))), 0.2, grid)
    row = pd_variance_ratio({**CLAIM, "against": "mc_se"}, _tables(mc_only))[0]
    # Q = 0.98 lies between 2 - 2.41 and 2.41: the interval straddles 1 (was not reproduced)
    assert row["verdict"] == INCONCLUSIVE
    assert row["detectable"] == pytest.approx(2 * (21.665994 / 9 - 1), rel=1e-6)
    spread = _curves(r.normal(size=(10, 1)) + 0.2 * r.normal(size=(10, len(grid))), 0.2, grid)
    row = pd_variance_ratio({**CLAIM, "against": "mc_se"}, _tables(spread))[0]
    assert row["verdict"] == REPRODUCED
    mc = pd.concat([_curves(r.normal(size=(10, len(grid))), 0.2, grid, "mc", k)
                    for k in range(5)])
    row = pd_variance_ratio({**CLAIM, "against": "mc_samples"},
                            _tables(pd.concat([spread, mc])))[0]
    # Q = 1.22 against F(9, 40) at 0.99 = 2.89: straddles 1 (was not reproduced)
    assert row["verdict"] == INCONCLUSIVE and "F(9, 40)" in row["tolerance"]


def test_bias_claim_needs_a_bias():
    grid = np.linspace(0, 10, 15)
    truth = truth_frame("pd", "x1", np.sin(np.linspace(0, 10, 101)), x=np.linspace(0, 10, 101))
    r = rng(10)
    unbiased = np.sin(grid) + 0.3 * r.normal(size=(10, len(grid)))
    row = bias_rows(BIAS, _tables(_curves(unbiased, 0.1, grid), truth))[0]
    # B2 = 0.002 +- t(2) x 0.0045 straddles 0: inconclusive
    assert row["verdict"] == INCONCLUSIVE
    biased = unbiased + 0.8
    row = bias_rows(BIAS, _tables(_curves(biased, 0.1, grid), truth))[0]
    assert row["verdict"] == REPRODUCED
    assert bias_rows(BIAS, _tables(_curves(biased, 0.1, grid)))[0]["verdict"] == "no data"


def test_bias_claim_verdict_and_power_by_hand():
    """Errors e = 1, 2, 3 (constant over the grid, DGP-PD 0): B2 = 2 (1 2 + 1 3 + 2 3) / (3 2)
    = 11/3; each error times the mean of the others: v = 2.5, 4, 4.5 (mean 11/3, squared
    deviations summing to 13/6), the delta-method SE 2 sd(v) / sqrt(3) = sqrt(13) / 3. With
    k = 2 (t(2) = 3.9 on 2 df) the interval 11/3 +- 3.9 sqrt(13) / 3 straddles 0: ``above``
    is inconclusive, ``equal`` reproduced; both detect departures of 2 t(2) SE."""
    grid = np.linspace(0, 10, 5)
    truth = truth_frame("pd", "x1", np.zeros(11), x=np.linspace(0, 10, 11))
    curves = _curves(np.array([1.0, 2.0, 3.0])[:, None] * np.ones(len(grid)), 0.1, grid)
    for compare, verdict in (("above", INCONCLUSIVE), ("equal", REPRODUCED)):
        row = bias_rows({**BIAS, "compare": compare}, _tables(curves, truth))[0]
        assert row["verdict"] == verdict
        assert row["detectable"] == pytest.approx(2 * float(t_multiplier(2, 2)) * np.sqrt(13) / 3)
        assert "3.667 (SE 1.2" in row["reproduced"]


def _write(df: pd.DataFrame, path: Path) -> Path:
    from imlbench.io import write_parquet

    path.parent.mkdir(parents=True, exist_ok=True)
    write_parquet(df, path, config_hash="test", seed=0)
    return path


@pytest.mark.parametrize("name", ["fig_1", "fig_2"])
def test_figures_draw_on_tiny_inputs(tmp_path, name):
    from imlbench import studies
    from imlbench.figures import FIGURES
    from imlbench.figures.inputs import FigureInputs

    studies.load(["pd_pfi_dgp"], figures=True)
    grid = np.linspace(0, 10, 8)
    r = rng(11)
    curves = pd.concat(
        [_curves(np.sin(grid) + r.normal(size=(12, len(grid))), 0.1, grid)]
        + [_curves(np.sin(grid) + 0.1 * r.normal(size=(3, len(grid))), 0.1, grid, "mc", k)
           for k in range(2)])
    truth = pd_toy_truths(PdpUncertaintyToy(), lambda label: rng(0))["effects"]
    spec = FIGURES.get(f"pd_pfi_dgp.{name}")
    # the figure is given what it declares, as its rule does: fig1 nothing, fig2 a role and
    # the effects truth
    estimates = _write(curves, tmp_path / "estimates/toy/svm/toy_pd/c0.parquet")
    truth_file = _write(truth.assign(scenario="toy"), tmp_path / "truth/toy/effects.parquet")
    inputs = FigureInputs(
        {"estimates": [estimates] if spec.methods else [],
         "truth": [truth_file] if "effects" in spec.truths else []},
        dict.fromkeys(spec.methods, "toy_pd"), ["toy"])
    png, pdf = tmp_path / f"{name}.png", tmp_path / f"{name}.pdf"
    spec(inputs, {"title": "t", "caption": "c"}, png, pdf)
    assert png.stat().st_size > 10_000 and pdf.stat().st_size > 1_000


def test_the_squared_bias_terms_derivative_by_the_truth_is_exact():
    """:func:`squared_bias_truth_grad` against central differences of the terms in each
    DGP-PD value: the terms are quadratic in it, so the central difference is exact but for
    rounding (1e-16 of terms of size 1 over a step of 1e-4: 1e-12; 1e-9 covers it)."""
    from imlbench.studies.pd_pfi_dgp.statistics import squared_bias_truth_grad

    r = rng(12)
    curves, truth = r.normal(size=(6, 5)) + 0.5, r.normal(size=5)
    grad = squared_bias_truth_grad(curves - truth)
    h = 1e-4
    numeric = np.stack([(squared_bias_terms(curves - truth - h * e)
                         - squared_bias_terms(curves - truth + h * e)) / (2 * h)
                        for e in np.eye(5)], axis=1)
    assert np.abs(grad - numeric).max() <= 1e-9
    # their mean over the repetitions is dB2 / dDGP-PD = -(2 / G) ebar
    assert grad.mean(axis=0) == pytest.approx(-2 / 5 * (curves - truth).mean(axis=0))


@pytest.mark.parametrize("declared, shift, verdict", [
    (0.05, 0.0, INCONCLUSIVE),  # B2 = 0.05^2 that the truth's error alone explains
    (0.0, 0.0, REPRODUCED),     # the same B2, the truth's SE left out: a bias "found"
    (0.05, 0.8, REPRODUCED),    # a real bias of 0.8: B2 0.72 against a truth SE of 0.09
])
def test_bias_claim_allows_for_the_truths_monte_carlo_error(declared, shift, verdict):
    # the model-PDs are the DGP-PD sin (+ ``shift``, + small model noise); the Monte Carlo
    # DGP-PD misses sin by 0.05 (its error, declared with SE ``declared``): B2 is about
    # (shift + 0.05)^2 with a delta-method SE of about 1e-4
    grid = np.linspace(0, 10, 15)
    fine = np.linspace(0, 10, 101)
    truth = truth_frame("pd", "x1", np.sin(fine) - 0.05, x=fine, se=declared)
    model = np.sin(grid) + shift + 0.002 * rng(13).normal(size=(10, len(grid)))
    row = bias_rows(BIAS, _tables(_curves(model, 0.1, grid), truth))[0]
    assert row["verdict"] == verdict
    assert "SE_truth" in row["tolerance"]
