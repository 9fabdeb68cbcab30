"""The ``formula`` DGP's loguniform law, its Gaussian noise set by a signal-to-noise ratio
(``noise: {snr}``), and the quantiles of its marginal laws (exact for a feature with a law,
Monte Carlo for a structural equation or under ``exclude``)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from scipy import stats

from imlbench.dgp.base import QUANTILE_ROWS, make_dgp
from imlbench.dgp.formula import SNR_ROWS, FormulaDGP
from imlbench.params import ParamError

#: every Monte Carlo check allows this many standard errors
Z = 4
LOW, HIGH = 0.1, 10.0
LOGU = {"law": "loguniform", "low": LOW, "high": HIGH}
NORMAL = {"law": "normal", "mean": 0, "sd": 1}
#: rows of the loguniform checks
N = 200_000


def _loguniform_mean_se(n: int) -> tuple[float, float]:
    """The law's mean (high - low) / ln(high / low) and the standard error of a mean of n
    draws, sqrt(Var / n), with E[X^2] = (high^2 - low^2) / (2 ln(high / low))."""
    log_ratio = np.log(HIGH / LOW)
    mean = (HIGH - LOW) / log_ratio
    var = (HIGH**2 - LOW**2) / (2 * log_ratio) - mean**2
    return mean, float(np.sqrt(var / n))


def _dgp(features: dict, f: str, **params) -> FormulaDGP:
    return make_dgp("formula", {"features": features, "f": f, **params})


# --- the loguniform law --------------------------------------------------------------------


def test_loguniform_draws_lie_in_the_range_with_the_law_mean():
    d = _dgp({"x1": LOGU}, "x1")
    x = d.sample_features(N, np.random.default_rng(1))[:, 0]
    assert x.min() >= LOW and x.max() <= HIGH
    mean, se = _loguniform_mean_se(N)
    assert abs(x.mean() - mean) <= Z * se


def test_loguniform_in_a_copula_keeps_its_marginal_under_the_conditional_sampler():
    """x1 loguniform and x2 normal joined by a Gaussian copula of correlation 0.8: the exact
    conditional law is offered (no closed normal form), and x1 redrawn given x2 keeps the
    loguniform marginal (mean; share below the median sqrt(low high), se sqrt(1/4 / N)) and
    the copula (normal scores correlated 0.8, se about (1 - rho^2) / sqrt(N))."""
    rho = 0.8
    d = _dgp({"x1": LOGU, "x2": NORMAL}, "x1 + x2",
             dependence={"features": ["x1", "x2"], "correlation": [[1, rho], [rho, 1]]})
    assert d.has_conditional and d.gaussian() is None
    rng = np.random.default_rng(2)
    X = d.sample_features(N, rng)
    x1 = d.sample_conditional(X, [0], rng)[:, 0]
    assert x1.min() >= LOW and x1.max() <= HIGH
    mean, se = _loguniform_mean_se(N)
    assert abs(x1.mean() - mean) <= Z * se
    assert abs(np.mean(x1 < np.sqrt(LOW * HIGH)) - 0.5) <= Z * np.sqrt(0.25 / N)
    scores = d.marginals["x1"].to_score(x1)
    assert abs(np.corrcoef(scores, X[:, 1])[0, 1] - rho) <= Z * (1 - rho**2) / np.sqrt(N)


# --- noise set by a signal-to-noise ratio --------------------------------------------------


@pytest.fixture(scope="module")
def independent() -> FormulaDGP:
    return _dgp({"x1": NORMAL, "x2": NORMAL}, "x1 + x2", noise={"snr": 5})


def test_snr_gives_the_sd_of_f_over_snr(independent):
    """sd(x1 + x2) = sqrt(2) for independent N(0, 1). For a normal f, m4 = 3 s^4, so the delta
    method's se is s / sqrt(2 N) / snr; the reported se estimates it from the sample's
    moments, whose relative error is about 0.2% (the influence function of m4 - s^4 has
    variance 56 s^8, so sd(m4 - s^4) = sqrt(56 / N) s^4 against 2 s^4, halved by the square
    root): 4 times that is 1%."""
    d = independent
    assert abs(d.noise_sd - np.sqrt(2) / 5) <= Z * d.noise_sd_se
    assert 0 < d.noise_sd_se < 1e-3 * d.noise_sd
    assert d.noise_sd_se == pytest.approx(np.sqrt(2) / 5 / np.sqrt(2 * SNR_ROWS), rel=0.01)


def test_snr_noise_is_the_stream_of_that_noise_sd(independent):
    d = independent
    given = _dgp({"x1": NORMAL, "x2": NORMAL}, "x1 + x2", noise_sd=d.noise_sd)
    assert given.noise_sd_se == 0.0
    np.testing.assert_array_equal(d.sample(500, np.random.default_rng(3))["y"],
                                  given.sample(500, np.random.default_rng(3))["y"])
    np.testing.assert_array_equal(d.noise(500, np.random.default_rng(4)),
                                  given.noise(500, np.random.default_rng(4)))


def test_snr_is_a_function_of_the_study_file(independent):
    """The sample's seed is fixed: a rebuilt DGP (pickled, or with snr written as a constant)
    has the same noise_sd, to the bit."""
    d = independent
    assert pickle.loads(pickle.dumps(d)).noise_sd == d.noise_sd
    via_constant = _dgp({"x1": NORMAL, "x2": NORMAL}, "x1 + x2", noise={"snr": "s"},
                        constants={"s": 5})
    assert via_constant.noise_sd == d.noise_sd


def test_snr_with_correlated_features():
    """Normal marginals in a copula of correlation 0.9: sd(x1 + x2) = sqrt(2 + 2 * 0.9)."""
    d = _dgp({"x1": NORMAL, "x2": NORMAL}, "x1 + x2", noise={"snr": 5},
             dependence={"features": ["x1", "x2"], "correlation": [[1, 0.9], [0.9, 1]]})
    assert abs(d.noise_sd - np.sqrt(2 + 2 * 0.9) / 5) <= Z * d.noise_sd_se


def test_snr_under_exclude_and_hidden_reads_the_drawn_law():
    """exclude x1 > 0.5 leaves x1 ~ U(0, 0.5): Var(x1 + x2) = 0.5^2 / 12 + 1 / 12. A hidden
    x3 counts (f of the full rows): sd(x1 + 2 x3) = sqrt(5), not sd(x1) = 1."""
    uniform = {"law": "uniform", "low": 0, "high": 1}
    d = _dgp({"x1": uniform, "x2": uniform}, "x1 + x2", noise={"snr": 2}, exclude="x1 > 0.5")
    assert abs(d.noise_sd - np.sqrt(1.25 / 12) / 2) <= Z * d.noise_sd_se
    h = _dgp({"x1": NORMAL, "x3": NORMAL}, "x1 + 2*x3", noise={"snr": 1}, hidden=["x3"])
    assert abs(h.noise_sd - np.sqrt(5)) <= Z * h.noise_sd_se


@pytest.mark.parametrize("build", ["make_dgp", "constructor"])
@pytest.mark.parametrize(("params", "key", "message"), [
    ({"noise": {"snr": 5}, "noise_sd": 0.5}, "noise_sd", "either noise_sd"),
    ({"noise": {"snr": 5, "foo": 1}}, "noise", "snr"),
    ({"noise": {}}, "noise", "snr"),
    ({"noise": {"snr": 0}}, "noise", "snr"),
    ({"noise": {"snr": -1}}, "noise", "snr"),
    ({"noise": {"snr": "s"}, "constants": {"s": -1}}, "noise", "snr"),
    ({"noise": {"snr": 5}, "link": "logistic"}, "noise", "logistic"),
    ({"noise": {"snr": 5}, "f": "x1 - x1"}, "noise", "constant"),
])
def test_snr_refusals_name_the_key(build, params, key, message):
    """The declaration (make_dgp) refuses at ``noise``; the constructor at ``noise`` or at
    ``noise.snr``; each message states the allowed values."""
    spec = {"features": {"x1": NORMAL}, "f": "x1", **params}
    with pytest.raises(ParamError, match=message) as err:
        make_dgp("formula", spec) if build == "make_dgp" else FormulaDGP(**spec)
    assert err.value.key.split(".")[0] == key and "allowed: " in str(err.value)


# --- marginal quantiles --------------------------------------------------------------------

PROBS = np.array([0.001, 0.1, 0.25, 0.5, 0.9, 0.999])


def test_marginal_quantiles_are_the_ppf_of_a_law():
    """Exact in a copula too (it keeps the marginals), and for discrete laws."""
    d = _dgp({"x1": {"law": "normal", "mean": 1, "sd": 2},
              "x2": {"law": "uniform", "low": -1, "high": 3}, "x3": LOGU,
              "x4": {"law": "integers", "low": 0, "high": 5}, "x5": {"law": "bernoulli", "p": 0.3}},
             "x1 + x2 + x3 + x4 + x5",
             dependence={"features": ["x1", "x3"], "correlation": [[1, 0.6], [0.6, 1]]})
    expected = [stats.norm(1, 2), stats.uniform(-1, 4), stats.loguniform(LOW, HIGH),
                stats.randint(0, 6), stats.bernoulli(0.3)]
    for j, law in enumerate(expected):
        np.testing.assert_allclose(d.marginal_quantiles(j, PROBS), law.ppf(PROBS), rtol=0,
                                   atol=1e-12)
    with pytest.raises(ValueError, match=r"allowed: numbers in \(0, 1\)"):
        d.marginal_quantiles(0, np.array([0.0, 0.5]))
    with pytest.raises(IndexError):
        d.marginal_quantiles(5, PROBS)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_marginal_quantiles_of_a_structural_equation_by_monte_carlo(p):
    """x2 = x1 + N(0, 1) with x1 ~ N(0, 1) is N(0, sqrt(2)): the sample quantile of
    QUANTILE_ROWS rows has the asymptotic se sqrt(p (1 - p)) / (density(q_p) sqrt(N)). The
    sample is fixed (the same quantiles on every call); x1 keeps its exact ppf."""
    d = _dgp({"x1": NORMAL, "x2": "x1 + normal(0, 1)"}, "x2")
    law = stats.norm(0, np.sqrt(2))
    q = law.ppf(p)
    got = d.marginal_quantiles(1, np.array([p]))
    assert abs(got[0] - q) <= Z * np.sqrt(p * (1 - p)) / (law.pdf(q) * np.sqrt(QUANTILE_ROWS))
    np.testing.assert_array_equal(d.marginal_quantiles(1, np.array([p])), got)
    assert d.marginal_quantiles(0, np.array([p]))[0] == stats.norm.ppf(p)


def test_marginal_quantiles_under_exclude_by_monte_carlo():
    """exclude x1 > 0.5 leaves x1 ~ U(0, 0.5): quantile p / 2, density 2, se as above."""
    uniform = {"law": "uniform", "low": 0, "high": 1}
    d = _dgp({"x1": uniform, "x2": uniform}, "x1 + x2", exclude="x1 > 0.5")
    probs = np.array([0.1, 0.5, 0.9])
    se = np.sqrt(probs * (1 - probs)) / (2 * np.sqrt(QUANTILE_ROWS))
    assert np.all(np.abs(d.marginal_quantiles(0, probs) - probs / 2) <= Z * se)
