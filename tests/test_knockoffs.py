"""Tests for model-X Gaussian knockoffs (Candès et al. 2018, Sect. 3.1.1)."""

from __future__ import annotations

import numpy as np
import pytest

from imlbench.explain.knockoffs import (
    METHODS,
    equicorrelated_s,
    gaussian_knockoffs,
    knockoff_block,
)

N = 200_000


def _sigma() -> np.ndarray:
    """AR(1) 0.5 on 10 features plus w_k = 0.7 x_{a_k} + sqrt(0.51) e_k, a = (0, 4, 9)."""
    idx = np.arange(10)
    sxx = 0.5 ** np.abs(idx[:, None] - idx[None, :])
    a = [0, 4, 9]
    swx = 0.7 * sxx[a, :]
    sww = 0.49 * sxx[np.ix_(a, a)]
    np.fill_diagonal(sww, 1.0)
    return np.block([[sxx, swx.T], [swx, sww]])


def _sample(sigma: np.ndarray, mu: np.ndarray, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return mu + rng.standard_normal((n, sigma.shape[0])) @ np.linalg.cholesky(sigma).T


def _cov_tolerance(target: np.ndarray, n: int) -> np.ndarray:
    """Five Monte Carlo standard errors of each entry of a sample covariance.

    For a zero-mean Gaussian pair, Isserlis' theorem gives
    E[X_i^2 X_j^2] = s_ii s_jj + 2 s_ij^2, so Var(X_i X_j) = s_ii s_jj + s_ij^2. A sample
    covariance is a mean of n such products (centring by the sample mean changes it only
    by O(1/n)), hence its sd is sqrt((s_ii s_jj + s_ij^2) / n); we allow 5 of those.
    """
    d = np.diag(target)
    return 5.0 * np.sqrt((np.outer(d, d) + target**2) / n)


def _joint_target(sigma: np.ndarray, s: np.ndarray) -> np.ndarray:
    off = sigma - np.diag(s)
    return np.block([[sigma, off], [off, sigma]])


def test_equicorrelated_s_satisfies_knockoff_constraints() -> None:
    scale = np.linspace(0.5, 3.0, 13)
    for sigma in (_sigma(), _sigma() * np.outer(scale, scale)):
        s = equicorrelated_s(sigma)
        assert np.all(s > 0.0)
        assert np.all(s <= np.diag(sigma))
        assert np.linalg.eigvalsh(2.0 * sigma - np.diag(s))[0] > 0.0
        # equal on the correlation scale
        np.testing.assert_allclose(s / np.diag(sigma), s[0] / sigma[0, 0])


@pytest.mark.slow
def test_joint_covariance_with_known_sigma() -> None:
    sigma = _sigma()
    mu = np.linspace(-1.0, 1.0, sigma.shape[0])
    X = _sample(sigma, mu, N, seed=1)
    Xk = gaussian_knockoffs(X, np.random.default_rng(2), mu=mu, sigma=sigma)
    target = _joint_target(sigma, equicorrelated_s(sigma))
    joint = np.cov(np.hstack([X, Xk]), rowvar=False)
    assert np.all(np.abs(joint - target) <= _cov_tolerance(target, N))
    # means: 5 standard errors sqrt(Sigma_jj / n)
    assert np.all(np.abs(Xk.mean(axis=0) - mu) <= 5.0 * np.sqrt(np.diag(sigma) / N))


def test_swap_property_cross_covariance() -> None:
    """cov(X_j, X~_k) = cov(X_j, X_k) for j != k, the second-order consequence of the swap."""
    sigma = _sigma()
    p = sigma.shape[0]
    X = _sample(sigma, np.zeros(p), N, seed=3)
    Xk = gaussian_knockoffs(X, np.random.default_rng(4), mu=np.zeros(p), sigma=sigma)
    cross = np.cov(np.hstack([X, Xk]), rowvar=False)[:p, p:]
    tol = _cov_tolerance(sigma, N)
    off = ~np.eye(p, dtype=bool)
    assert np.all(np.abs(cross - sigma)[off] <= tol[off])
    # on the diagonal the knockoff is less correlated with its original, by s_j > 0
    s = equicorrelated_s(sigma)
    assert np.all(np.abs(np.diag(cross) - (np.diag(sigma) - s)) <= np.diag(tol))


def test_second_order_knockoffs_match_sample_moments() -> None:
    scale = np.linspace(0.5, 3.0, 13)
    sigma = _sigma() * np.outer(scale, scale)
    X = _sample(sigma, np.full(13, 2.0), N, seed=5)
    Xk = gaussian_knockoffs(X, np.random.default_rng(6))
    sigma_hat = np.cov(X, rowvar=False)
    target = _joint_target(sigma_hat, equicorrelated_s(sigma_hat))
    joint = np.cov(np.hstack([X, Xk]), rowvar=False)
    assert np.all(np.abs(joint - target) <= _cov_tolerance(target, N))


def test_singular_sample_covariance_is_shrunk() -> None:
    X = _sample(_sigma(), np.zeros(13), 500, seed=7)
    X = np.hstack([X, X[:, :1]])  # duplicated column: singular sample covariance
    Xk = gaussian_knockoffs(X, np.random.default_rng(8))
    assert Xk.shape == X.shape
    assert np.all(np.isfinite(Xk))
    assert not np.allclose(Xk, X)


def test_deterministic_for_fixed_seed() -> None:
    X = _sample(_sigma(), np.zeros(13), 300, seed=9)
    a = gaussian_knockoffs(X, np.random.default_rng(10))
    b = gaussian_knockoffs(X, np.random.default_rng(10))
    c = gaussian_knockoffs(X, np.random.default_rng(11))
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


def test_knockoff_block_returns_block_columns() -> None:
    X = _sample(_sigma(), np.zeros(13), 300, seed=12)
    block = [10, 11, 12]
    full = gaussian_knockoffs(X, np.random.default_rng(13))
    np.testing.assert_array_equal(
        knockoff_block(X, block, np.random.default_rng(13)), full[:, block]
    )
    with pytest.raises(ValueError, match="block"):
        knockoff_block(X, [13], np.random.default_rng(13))
    with pytest.raises(ValueError, match="block"):
        knockoff_block(X, [], np.random.default_rng(13))


def test_invalid_inputs_raise() -> None:
    X = _sample(_sigma(), np.zeros(13), 300, seed=14)
    rng = np.random.default_rng(15)
    with pytest.raises(ValueError, match="equicorrelated"):
        gaussian_knockoffs(X, rng, method="asdp")
    assert METHODS == ("equicorrelated", "sdp", "mvr")
    with pytest.raises(ValueError, match="positive definite"):
        gaussian_knockoffs(X, rng, sigma=np.ones((13, 13)))
    with pytest.raises(ValueError, match="sigma"):
        gaussian_knockoffs(X, rng, sigma=np.eye(12))
    with pytest.raises(ValueError, match="mu"):
        gaussian_knockoffs(X, rng, mu=np.zeros(12))
    with pytest.raises(ValueError, match="constant"):
        gaussian_knockoffs(np.hstack([X, np.ones((300, 1))]), rng)


def test_equicorrelated_s_agrees_with_knockpy():
    """knockpy's equicorrelated S is ours up to its own safety shrinkage (well under 1%)."""
    import warnings

    from knockpy.smatrix import compute_smatrix

    from imlbench.explain.knockoffs import equicorrelated_s

    sigma = np.array([[1.0, 0.8, 0.0], [0.8, 1.0, 0.3], [0.0, 0.3, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = np.diag(compute_smatrix(sigma, method="equicorrelated"))
    np.testing.assert_allclose(equicorrelated_s(sigma), theirs, rtol=5e-3)


def test_sdp_knockoffs_are_valid_and_closer_to_independence():
    """The SDP S (knockpy) keeps 2 Sigma - S positive semidefinite, and with unequal
    dependence it has larger entries than the equicorrelated one (knockoffs less
    correlated with their originals)."""
    from imlbench.explain.knockoffs import equicorrelated_s, knockoff_s

    sigma = np.array([[1.0, 0.8, 0.0], [0.8, 1.0, 0.3], [0.0, 0.3, 2.0]])
    s = knockoff_s(sigma, "sdp")
    assert np.linalg.eigvalsh(2 * sigma - np.diag(s))[0] >= -1e-6
    assert s.sum() > equicorrelated_s(sigma).sum()
