"""The book's ch. 13 MARS truths (Molnar et al. 2019, *Limitations of Interpretable Machine
Learning Methods*, LIME chapter, the authors' simulation code): three features x ~ N(5,
Sigma), a one-knot and a two-knot regression function, and the code's heteroscedastic noise
``N(0, (|f| / U(1, 100))^2)``."""

import numpy as np

SIGMA = [[0.6, 0.2, 0.1], [0.2, 0.8, 0.1], [0.1, 0.1, 0.6]]


def one_knot(X: np.ndarray) -> np.ndarray:
    """``2.5 + 5 min(x1, 5) - 4 x2 + 3 x3``: x1's slope 5 below its knot at 5, 0 above."""
    return 2.5 + 5 * np.minimum(X[:, 0], 5) - 4 * X[:, 1] + 3 * X[:, 2]


def two_knot(X: np.ndarray) -> np.ndarray:
    """``2.5 + 5 x1 + g(x2) + 3 x3``, g continuous with slopes -4, 6, -3 and knots at 4 and
    6 (the code's middle slope 6; the book prints 3)."""
    x2 = X[:, 1]
    g = -4 * np.minimum(x2, 4) + 6 * np.clip(x2 - 4, 0, 2) - 3 * np.maximum(x2 - 6, 0)
    return 2.5 + 5 * X[:, 0] + g + 3 * X[:, 2]


def draw(f, n: int, seed: int, noise: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``n`` rows of the features and of ``f`` (with the code's noise when ``noise``)."""
    r = np.random.default_rng(seed)
    X = r.multivariate_normal([5, 5, 5], SIGMA, size=n)
    y = f(X)
    if noise:
        y = y + r.normal(0, 1, n) * np.abs(y) / r.uniform(1, 100, n)
    return X, y
