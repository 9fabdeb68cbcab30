"""Model-X Gaussian knockoffs (Candès, Fan, Janson & Lv 2018, Sect. 3.1.1).

For x ~ N(mu, Sigma) and S = diag(s), a knockoff copy x~ is drawn from

    x~ | x ~ N(x - S Sigma^{-1} (x - mu),  2S - S Sigma^{-1} S),

so that (x, x~) ~ N((mu, mu), [[Sigma, Sigma - S], [Sigma - S, Sigma]]) and swapping any
x_j with x~_j leaves that joint law unchanged. The law is valid whenever
0 <= S and 2 Sigma - S >= 0; s is chosen by the equicorrelated construction of Barber
& Candès (2015), Sect. 2.1, used by Candès et al. (2018), Sect. 3.1.1.

Hooker, Mentch & Zhou (2021), Fig. 8, use knockoffs of the noise block w as one of the
substitutes w* before refitting a learner on (x, w*); ``knockoff_block`` forms it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

METHODS = ("equicorrelated", "sdp", "mvr")

SHRINKAGE = 0.01
"""Weight moved to the diagonal when an estimated covariance is singular."""

_SINGULAR_RTOL = 1e-10
_EQUI_MARGIN = 1.0 - 1e-6


def equicorrelated_s(sigma: np.ndarray) -> np.ndarray:
    """Equicorrelated knockoff parameters s for the covariance ``sigma``.

    On the correlation scale C = D^{-1/2} Sigma D^{-1/2} (D = diag(Sigma)) all s_j equal
    min(1, 2 lambda_min(C)) (Barber & Candès 2015, Sect. 2.1); back on the covariance
    scale s_j = min(1, 2 lambda_min(C)) * Sigma_jj, times (1 - 1e-6) so that
    2 Sigma - diag(s) is strictly positive definite.
    """
    var = np.diag(sigma)
    scale = np.sqrt(var)
    corr = sigma / np.outer(scale, scale)
    lam_min = np.linalg.eigvalsh(corr)[0]
    return min(1.0, 2.0 * lam_min) * var * _EQUI_MARGIN


def knockoff_s(sigma: np.ndarray, method: str = "equicorrelated") -> np.ndarray:
    """The diagonal s of S for ``method`` (see :func:`gaussian_knockoffs`)."""
    if method == "equicorrelated":
        return equicorrelated_s(sigma)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    import warnings

    from knockpy.smatrix import compute_smatrix

    with warnings.catch_warnings():  # knockpy suggests an optional faster SDP solver
        warnings.simplefilter("ignore")
        return np.diag(compute_smatrix(sigma, method=method)).copy()


def estimate_sigma(X: np.ndarray) -> np.ndarray:
    """Sample covariance of ``X``, shrunk towards its diagonal only if it is singular."""
    sigma = np.cov(X, rowvar=False)
    eig = np.linalg.eigvalsh(sigma)
    if eig[0] <= _SINGULAR_RTOL * eig[-1]:
        sigma = (1.0 - SHRINKAGE) * sigma + SHRINKAGE * np.diag(np.diag(sigma))
    return sigma


def gaussian_knockoffs(
    X: np.ndarray,
    rng: np.random.Generator,
    *,
    mu: np.ndarray | None = None,
    sigma: np.ndarray | None = None,
    method: str = "equicorrelated",
    s: np.ndarray | None = None,
) -> np.ndarray:
    """Model-X Gaussian knockoffs of the rows of ``X`` (n x p).

    Each row x gets x~ ~ N(x - S Sigma^{-1}(x - mu), 2S - S Sigma^{-1} S) (Candès et
    al. 2018, Sect. 3.1.1), independently across rows given X.

    ``mu`` and ``sigma`` default to the sample mean and sample covariance of ``X``
    ("second-order" knockoffs, Candès et al. 2018, Sect. 3.2). If that sample covariance
    is singular (smallest eigenvalue <= 1e-10 times the largest, e.g. n <= p or
    collinear columns) it is shrunk to (1 - 0.01) Sigma_hat + 0.01 diag(Sigma_hat),
    which keeps the variances and makes the correlation matrix's smallest eigenvalue at
    least 0.01. A supplied ``sigma`` is used as is and must be positive definite.

    ``method`` chooses s: "equicorrelated" (ours, see ``equicorrelated_s``), or the
    semidefinite-program ("sdp") or minimum-reconstructability ("mvr") constructions of the
    knockpy package (Spector & Janson 2022), which make each knockoff less correlated with its
    original where features are unequally dependent. A precomputed ``s`` (from
    :func:`knockoff_s` of the same ``sigma``) skips that step, which for "sdp" is a convex
    program costing seconds at p = 90.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"X must be 2-D with at least 2 rows, got shape {X.shape}")
    p = X.shape[1]
    mu = X.mean(axis=0) if mu is None else np.asarray(mu, dtype=float)
    if mu.shape != (p,):
        raise ValueError(f"mu must have shape ({p},), got {mu.shape}")
    if sigma is None:
        if np.any(X.var(axis=0) == 0.0):
            raise ValueError("X has a constant column; its knockoff is undefined")
        sigma = estimate_sigma(X)
    else:
        sigma = np.asarray(sigma, dtype=float)
        if sigma.shape != (p, p) or not np.allclose(sigma, sigma.T):
            raise ValueError(f"sigma must be a symmetric ({p}, {p}) matrix")
        if np.linalg.eigvalsh(sigma)[0] <= 0.0:
            raise ValueError("sigma must be positive definite")

    s = knockoff_s(sigma, method) if s is None else np.asarray(s, dtype=float)
    sigma_inv_s = np.linalg.solve(sigma, np.diag(s))  # Sigma^{-1} S
    mean = X - (X - mu) @ sigma_inv_s
    cond_cov = 2.0 * np.diag(s) - np.diag(s) @ sigma_inv_s
    # Symmetric square root via eigh: cond_cov is PSD but may be nearly singular, where
    # a Cholesky factorisation can fail; round-off negatives are clipped to 0.
    eig, vec = np.linalg.eigh((cond_cov + cond_cov.T) / 2.0)
    root = vec * np.sqrt(np.clip(eig, 0.0, None))
    return mean + rng.standard_normal(X.shape) @ root.T


def knockoff_block(
    X: np.ndarray,
    block: list[int],
    rng: np.random.Generator,
    **kw: Any,
) -> np.ndarray:
    """Knockoffs of the columns ``block`` of ``X`` (n x len(block)).

    Knockoffs are built for all columns jointly (``gaussian_knockoffs(X, rng, **kw)``) so
    that the copy respects the dependence of the block on the other columns; only the
    block's columns are returned, in the order given. This is the knockoff substitute w*
    for a noise block w in Hooker, Mentch & Zhou (2021), Fig. 8.
    """
    p = np.asarray(X).shape[1]
    if not block or any(not 0 <= j < p for j in block):
        raise ValueError(f"block must be a non-empty list of column indices in [0, {p})")
    return gaussian_knockoffs(X, rng, **kw)[:, block]
