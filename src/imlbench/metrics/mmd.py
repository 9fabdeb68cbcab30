"""Maximum mean discrepancy: the data-fidelity measure of Molnar et al. (Sect. 8, Algorithm 2).

MMD^2(P, Q) = E k(x, x') + E k(y, y') - 2 E k(x, y) with the RBF kernel
k(x, y) = exp(-|x - y|^2 / (2 s^2)), s the median pairwise distance of the pooled rows (the
median heuristic). The unbiased estimator leaves out the diagonal terms. Data fidelity of a
sampler is -log MMD between reference rows and the rows it perturbed.
"""

from __future__ import annotations

import numpy as np


def sq_dists(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    d = (A**2).sum(axis=1)[:, None] + (B**2).sum(axis=1)[None, :] - 2 * A @ B.T
    return np.maximum(d, 0.0)


def mmd2(X: np.ndarray, Y: np.ndarray, bandwidth: float | None = None) -> float:
    """Unbiased MMD^2 of the rows of X and Y with an RBF kernel (median heuristic by default)."""
    X, Y = np.asarray(X, dtype=float), np.asarray(Y, dtype=float)
    if len(X) < 2 or len(Y) < 2:
        raise ValueError("MMD needs at least two rows in each sample")
    if bandwidth is None:
        Z = np.vstack([X, Y])
        d = np.sqrt(sq_dists(Z, Z)[np.triu_indices(len(Z), k=1)])
        bandwidth = float(np.median(d[d > 0])) if (d > 0).any() else 1.0
    g = 1.0 / (2.0 * bandwidth**2)
    kxx, kyy, kxy = (np.exp(-g * sq_dists(A, B)) for A, B in ((X, X), (Y, Y), (X, Y)))
    m, n = len(X), len(Y)
    return float((kxx.sum() - np.trace(kxx)) / (m * (m - 1))
                 + (kyy.sum() - np.trace(kyy)) / (n * (n - 1)) - 2 * kxy.mean())


def data_fidelity(reference: np.ndarray, perturbed: np.ndarray) -> float:
    """-log MMD (Molnar et al., Algorithm 2); MMD^2 below 0 (sampling noise) is floored at 1e-12."""
    return float(-0.5 * np.log(max(mmd2(reference, perturbed), 1e-12)))
