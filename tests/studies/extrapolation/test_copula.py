"""Tests of the Gaussian-copula linear DGP (Hooker, Mentch & Zhou 2021, eq. 2) and its truths.

Every tolerance is a multiple of a Monte Carlo standard error computed next to the check;
seeds are fixed, so the tests are deterministic, and the multiples are chosen so that a
correct implementation would fail a check with probability well below 1e-3.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import ndtr

from imlbench.dgp.base import make_dgp
from imlbench.metrics.ranks import truth_ranks
from imlbench.studies.extrapolation.dgp_copula import CopulaLinear
from imlbench.studies.extrapolation.truth import (
    copula_conditional_variance,
    copula_pearson,
    importance_truth,
)

N = 200_000
BETA = [1, 1, 1, 1, 1, 0, 0.5, 0.8, 1.2, 1.5]
FEATURES = [f"x{j + 1}" for j in range(len(BETA))]


def _dgp(rho: float) -> CopulaLinear:
    return CopulaLinear(beta=BETA, rho=rho, noise_sd=0.1)


def _features(rho: float, seed: int, n: int = N) -> np.ndarray:
    return _dgp(rho).sample_features(n, np.random.default_rng(seed))


# --------------------------------------------------------------------------- marginals


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
def test_marginals_are_uniform(rho):
    X = _features(rho, seed=1)
    assert X.shape == (N, len(BETA))
    assert X.min() >= 0.0 and X.max() <= 1.0
    for j in range(X.shape[1]):
        x = X[:, j]
        # Mean of U(0,1) is 1/2 with sd sqrt(1/12); SE of a sample mean sqrt(1/12 / n); 5 SE.
        assert abs(x.mean() - 0.5) <= 5 * np.sqrt(1 / 12 / N)
        # Sample variance of U(0,1): Var((U - 1/2)^2) = E(U - 1/2)^4 - (1/12)^2
        # = 1/80 - 1/144 = 1/180, so SE ~ sqrt(1/180 / n); 5 SE.
        assert abs(x.var() - 1 / 12) <= 5 * np.sqrt(1 / 180 / N)
        # KS against U(0,1): under H0 the p-value is uniform, so p < 1e-4 has probability
        # 1e-4 per column (3e-3 over the 30 columns of this test).
        assert stats.kstest(x, "uniform").pvalue > 1e-4


def test_independent_features_are_uncorrelated_with_the_pair():
    X = _features(0.9, seed=2)
    r = np.corrcoef(X, rowvar=False)
    off = r[np.triu_indices_from(r, k=1)]
    off_pair_removed = np.delete(off, 0)  # entry (0, 1) is the copula pair
    # Under independence a sample correlation has SE 1/sqrt(n); 44 pairs, so 5 SE
    # (two-sided tail 5.7e-7 each).
    assert np.all(np.abs(off_pair_removed) <= 5 / np.sqrt(N))


# --------------------------------------------------------------------------- correlation


def _corr_and_se(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Pearson r and its delta-method SE, sd(IF)/sqrt(n), for any (non-normal) law.

    The influence function of Pearson's r is u v - r (u^2 + v^2) / 2 with u, v the
    standardised variables; for a bivariate normal its sd reduces to 1 - r^2.
    """
    u = (x - x.mean()) / x.std()
    v = (y - y.mean()) / y.std()
    r = float(np.mean(u * v))
    infl = u * v - r * (u**2 + v**2) / 2
    return r, float(infl.std() / np.sqrt(len(x)))


@pytest.mark.parametrize("rho", [0.25, 0.5, 0.9])
def test_pearson_correlation_of_pair(rho):
    X = _features(rho, seed=3)
    r, se = _corr_and_se(X[:, 0], X[:, 1])
    # SE of a correlation estimate ~ (1 - r^2)/sqrt(n) under normality; here the exact
    # delta-method SE of the uniforms (0.0021, 0.0017, 0.0005 here, within 10% of it); 5 SE.
    assert abs(r - copula_pearson(rho)) <= 5 * se
    # and the closed form: (6/pi) asin(rho/2)
    assert copula_pearson(rho) == pytest.approx(6 / np.pi * np.arcsin(rho / 2), abs=1e-15)


def test_pearson_closed_form_values():
    assert copula_pearson(0.0) == 0.0
    assert copula_pearson(1.0) == pytest.approx(1.0, abs=1e-15)  # 6/pi * pi/6
    # the copula uniforms are slightly less correlated than the Gaussians
    for rho in (0.25, 0.5, 0.9):
        assert copula_pearson(rho) < rho


# --------------------------------------------------------------------------- conditional law


def _binned(x2: np.ndarray, n_bins: int) -> np.ndarray:
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.clip(np.digitize(x2, edges) - 1, 0, n_bins - 1)


@pytest.mark.parametrize("rho", [0.5, 0.9])
def test_conditional_draws_match_joint_in_bins(rho):
    """Given x2, the sampler's x1* and the joint sample's x1 are i.i.d.: same bin moments."""
    dgp = _dgp(rho)
    X = _features(rho, seed=4)
    draws = dgp.sample_conditional(X, [0], np.random.default_rng(5))
    assert draws.shape == (N, 1)
    x1, xs = X[:, 0], draws[:, 0]
    n_bins = 50  # width 0.02 in x2, ~4000 rows per bin
    b = _binned(X[:, 1], n_bins)
    z_mean, z_var, spread = [], [], []
    for k in range(n_bins):
        a, c = x1[b == k], xs[b == k]
        m = len(a)
        # SE of a difference of two independent bin means: sqrt(s_a^2/m + s_c^2/m).
        z_mean.append((a.mean() - c.mean()) / np.sqrt((a.var() + c.var()) / m))
        # SE of a sample variance: sqrt((m4 - s^4)/m), m4 the fourth central moment.
        se_var = [np.sqrt((np.mean((v - v.mean()) ** 4) - v.var() ** 2) / m) for v in (a, c)]
        z_var.append((a.var() - c.var()) / np.hypot(*se_var))
        spread.append(a.mean())
    z_mean, z_var = np.array(z_mean), np.array(z_var)
    # 100 z-scores: P(max |z| > 4.5) <= 100 * 6.8e-6 = 7e-4 under a correct sampler.
    assert np.max(np.abs(z_mean)) <= 4.5
    assert np.max(np.abs(z_var)) <= 4.5
    # Aggregate: sum z^2 ~ chi2(50); its 0.9999 quantile is about 98.
    assert np.sum(z_mean**2) <= stats.chi2.ppf(0.9999, n_bins)
    assert np.sum(z_var**2) <= stats.chi2.ppf(0.9999, n_bins)
    # The check has power: the bin means of x1 move with x2 (E(x1 | x2) is increasing);
    # a sampler ignoring x2 would give z-scores of order (0.4 / 0.006) >> 4.5.
    assert spread[-1] - spread[0] > 0.4 * rho


@pytest.mark.parametrize("j", [0, 1])
def test_conditional_sampler_is_symmetric_and_leaves_x_alone(j):
    rho = 0.9
    dgp = _dgp(rho)
    X = _features(rho, seed=6, n=50_000)
    X0 = X.copy()
    d = dgp.sample_conditional(X, [j], np.random.default_rng(7))[:, 0]
    np.testing.assert_array_equal(X, X0)  # the input is not modified
    other = X[:, 1 - j]
    r, se = _corr_and_se(d, other)
    # (x_j*, x_other) has the copula law: its correlation is copula_pearson(rho); 5 SE.
    assert abs(r - copula_pearson(rho)) <= 5 * se
    # and x_j* is marginally uniform (KS, false-alarm probability 1e-4).
    assert stats.kstest(d, "uniform").pvalue > 1e-4


def test_conditional_sampler_other_blocks():
    rho = 0.9
    dgp = _dgp(rho)
    X = _features(rho, seed=8, n=50_000)
    # A feature outside the pair is independent of everything: uniform, uncorrelated with x_j.
    d = dgp.sample_conditional(X, [4], np.random.default_rng(9))[:, 0]
    assert stats.kstest(d, "uniform").pvalue > 1e-4
    # SE of a null correlation 1/sqrt(n); 5 SE.
    assert abs(np.corrcoef(d, X[:, 4])[0, 1]) <= 5 / np.sqrt(len(X))
    # Both copula features together: a fresh draw of the pair, with the copula correlation.
    pair = dgp.sample_conditional(X, [0, 1], np.random.default_rng(10))
    assert pair.shape == (len(X), 2)
    r, se = _corr_and_se(pair[:, 0], pair[:, 1])
    assert abs(r - copula_pearson(rho)) <= 5 * se
    # ... and independent of the observed pair (null correlation, SE 1/sqrt(n), 5 SE).
    assert abs(np.corrcoef(pair[:, 0], X[:, 0])[0, 1]) <= 5 / np.sqrt(len(X))
    # column order follows the requested order
    pair_rev = dgp.sample_conditional(X, [1, 0], np.random.default_rng(10))
    np.testing.assert_array_equal(pair_rev[:, ::-1], pair)


def _conditional_variance_closed_form(rho: float) -> float:
    """E var(x1 | x2), derived independently of the module's Gauss-Hermite quadrature.

    E var(x1 | x2) = var(x1) - var(E(x1 | x2)) with E(x1 | z2) = Phi(c z2),
    c = rho / sqrt(2 - rho^2). For U1, U2, Z i.i.d. N(0, 1),
    E Phi(cZ)^2 = P(U1 - cZ <= 0, U2 - cZ <= 0), a normal orthant probability with
    correlation r = c^2 / (1 + c^2) = rho^2 / 2, equal to 1/4 + asin(r) / (2 pi). Hence
    E var(x1 | x2) = 1/12 - asin(rho^2 / 2) / (2 pi)   (0 at rho = 1, 1/12 at rho = 0).
    """
    return 1 / 12 - np.arcsin(rho**2 / 2) / (2 * np.pi)


def _conditional_variance_by_grid(rho: float) -> float:
    """The same expectation by brute force on a (z, u) grid: trapezoid, step 0.03, |z|, |u| <= 9."""
    z = np.linspace(-9, 9, 601)
    s = np.sqrt(1 - rho**2)
    w = stats.norm.pdf(z)
    P = ndtr(rho * z[:, None] + s * z[None, :])  # rows: z2, columns: u
    m1 = integrate.trapezoid(P * w, z, axis=1)
    m2 = integrate.trapezoid(P**2 * w, z, axis=1)
    return float(integrate.trapezoid((m2 - m1**2) * w, z))


@pytest.mark.parametrize("rho", [0.0, 0.25, 0.5, 0.75, 0.9, 0.99])
def test_conditional_variance_quadrature(rho):
    # 80-node Gauss-Hermite vs the exact closed form: the integrand is smooth in z, so the
    # quadrature error is far below 1e-8 (it would be ~1e-3 if a moment were wrong).
    assert copula_conditional_variance(rho) == pytest.approx(
        _conditional_variance_closed_form(rho), abs=1e-8
    )
    # and a third, brute-force route (the trapezoid rule converges geometrically for
    # smooth Gaussian-weighted integrands: error < 1e-9 at step 0.03)
    assert _conditional_variance_by_grid(rho) == pytest.approx(
        _conditional_variance_closed_form(rho), abs=1e-7
    )


@pytest.mark.parametrize("rho", [0.5, 0.9])
def test_average_conditional_variance_monte_carlo(rho):
    """E var(x1 | x2) = E[(x1 - x1*)^2 / 2] for x1, x1* i.i.d. given x2."""
    dgp = _dgp(rho)
    X = _features(rho, seed=11)
    xs = dgp.sample_conditional(X, [0], np.random.default_rng(12))[:, 0]
    h = (X[:, 0] - xs) ** 2 / 2
    # h is i.i.d. over rows: SE = sd(h)/sqrt(n); 5 SE.
    assert abs(h.mean() - copula_conditional_variance(rho)) <= 5 * h.std() / np.sqrt(N)


def test_catalog_values():
    # 12 E var(x1 | x2): the share of x1's variance left given x2 (1 at rho = 0).
    assert 12 * copula_conditional_variance(0.0) == pytest.approx(1.0, abs=1e-12)
    # The catalog gives 0.760 and 0.203 "to 3 decimals". The exact values are
    # 1 - (6/pi) asin(rho^2/2) = 0.76064 and 0.20363: the catalog TRUNCATES (rounding would
    # give 0.761 and 0.204), so we check the third decimal by truncation.
    v05, v09 = 12 * copula_conditional_variance(0.5), 12 * copula_conditional_variance(0.9)
    assert np.floor(v05 * 1000) / 1000 == 0.760
    assert np.floor(v09 * 1000) / 1000 == 0.203
    assert v05 == pytest.approx(0.76064, abs=1e-5)
    assert v09 == pytest.approx(0.20363, abs=1e-5)


def test_importance_truth_table():
    long = importance_truth(_dgp(0.9))
    assert (long["se"] == 0).all() and long["x"].isna().all()
    t = long.pivot(index="feature", columns="estimand", values="value")
    beta = np.array(BETA)
    np.testing.assert_allclose(t.loc[FEATURES, "pfi_marginal"], 2 * beta**2 / 12, rtol=1e-14)
    cv = copula_conditional_variance(0.9)
    expected = 2 * beta**2 / 12
    expected[:2] = 2 * beta[:2] ** 2 * cv
    np.testing.assert_allclose(t.loc[FEATURES, "pfi_conditional"], expected, rtol=1e-14)
    # least important = rank 1; x1..x5 (beta 1, ranks 4-8) tie at 6 (ranks are computed where
    # they are read, from the long table)
    marginal = truth_ranks(long, "pfi_marginal")
    assert marginal["x6"] == 1
    assert marginal["x10"] == 10
    assert list(marginal[["x1", "x2", "x3", "x4", "x5"]]) == [6.0] * 5
    # Under the conditional truth x1, x2 (2 * 0.0170 = 0.034) drop below every feature but
    # x6 (beta 0): x7 has 2 * 0.25 / 12 = 0.042. So ranks x6 = 1, x1 = x2 = 2.5, x7 = 4.
    conditional = truth_ranks(long, "pfi_conditional")
    assert conditional["x6"] == 1
    assert conditional["x1"] == conditional["x2"] == 2.5
    assert conditional["x7"] == 4


# --------------------------------------------------------------------------- band


@pytest.mark.parametrize("rho", [0.5, 0.9])
def test_conditional_band_coverage(rho):
    dgp = _dgp(rho)
    X = _features(rho, seed=13)
    p = 2 * stats.norm.cdf(2) - 1  # P(|Z| <= 2) = 0.9545
    for j in (0, 1):
        draws = dgp.sample_conditional(X, [j], np.random.default_rng(14 + j))[:, 0]
        band = dgp.conditional_band(j, X[:, 1 - j])
        assert band.shape == (N, 2)
        assert np.all(band[:, 0] <= band[:, 1])
        inside = (draws >= band[:, 0]) & (draws <= band[:, 1])
        # Binomial share: SE = sqrt(p (1 - p) / n) = 0.00047; 5 SE.
        assert abs(inside.mean() - p) <= 5 * np.sqrt(p * (1 - p) / N)
        # The joint sample's own x_j falls in the band just as often (same conditional law).
        inside_joint = (X[:, j] >= band[:, 0]) & (X[:, j] <= band[:, 1])
        assert abs(inside_joint.mean() - p) <= 5 * np.sqrt(p * (1 - p) / N)


def test_conditional_band_outside_pair_is_full_range():
    band = _dgp(0.9).conditional_band(3, np.array([0.1, 0.5, 0.9]))
    np.testing.assert_array_equal(band, [[0.0, 1.0]] * 3)


def test_reference_rows():
    R = _dgp(0.9).reference_rows(11, np.random.default_rng(0))
    assert R.shape == (11, len(BETA))
    np.testing.assert_allclose(R[:, 0], np.linspace(0, 1, 11))
    np.testing.assert_array_equal(R[:, 0], R[:, 1])


def test_invalid_parameters():
    """The constructor refuses fewer than two coefficients; a study file's rho of 1 is refused
    by the declaration, before the constructor (``make_dgp``)."""
    with pytest.raises(ValueError, match="at least two coefficients"):
        CopulaLinear(beta=[1.0], rho=0.5, noise_sd=0.1)
    with pytest.raises(ValueError, match=r"^rho: 1.0 is out of range; allowed: a number > -1 "
                                         r"and < 1$"):
        make_dgp("extrapolation.copula_linear", {"beta": [1.0, 1.0], "rho": 1.0,
                                                 "noise_sd": 0.1})


def test_sample_response_is_f_plus_noise():
    dgp = _dgp(0.5)
    df = dgp.sample(N, np.random.default_rng(15))
    assert list(df.columns) == [*dgp.feature_names, "y"]
    resid = df["y"].to_numpy() - df[dgp.feature_names].to_numpy() @ np.array(BETA)
    # residual mean 0 (SE 0.1/sqrt(n)) and sd 0.1 (SE of a normal sample sd: sd/sqrt(2n)); 5 SE.
    assert abs(resid.mean()) <= 5 * 0.1 / np.sqrt(N)
    assert abs(resid.std() - 0.1) <= 5 * 0.1 / np.sqrt(2 * N)
