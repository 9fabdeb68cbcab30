"""PFI, conditional PFI and LOCO of a linear model on Gaussian features, in closed form.

For y = b'x + eps, x ~ N(mu, Sigma), squared loss and the true model f(x) = b'x:
marginal PFI_j = E[(b_j (x~_j - x_j))^2] = 2 b_j^2 Var(x_j) (x~_j an independent copy);
conditional PFI_j = 2 b_j^2 Var(x_j | x_-j) (x~_j from the conditional law);
LOCO_j (the best model without x_j, E[y | x_-j]) = b_j^2 Var(x_j | x_-j),
with Var(x_j | x_-j) = 1 / (Sigma^-1)_jj.
"""

from __future__ import annotations

import numpy as np


def conditional_variances(sigma: np.ndarray) -> np.ndarray:
    """Var(x_j | x_-j) for every j: the reciprocal diagonal of the precision matrix."""
    return 1.0 / np.diag(np.linalg.inv(np.asarray(sigma, dtype=float)))


def linear_gaussian_importance(beta: np.ndarray, sigma: np.ndarray) -> dict[str, np.ndarray]:
    """Marginal PFI, conditional PFI and LOCO of every feature (see the module doc)."""
    b2 = np.asarray(beta, dtype=float) ** 2
    cond = conditional_variances(sigma)
    return {"marginal": 2 * b2 * np.diag(sigma), "conditional": 2 * b2 * cond, "loco": b2 * cond}
