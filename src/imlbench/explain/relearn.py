"""Importance by relearning: drop, permute or condition, then fit a new model.

Hooker, Mentch & Zhou (2021), Sect. 5: VI^D_j (drop x_j and refit, = LOCO of Lei et
al. 2018), VI^{piL}_j (permute x_j and refit) and VI^{CL}_j (replace x_j by a draw
from x_j | x_{-j} and refit). The paper prints these as L(original) - L(relearned)
but calls VI^D "the increase in training error"; we report the increase, so that
larger means more important:
    VI_j = (1/N) sum_i L(y_i, f_j(x'_i)) - (1/N) sum_i L(y_i, f(x_i)),
where f_j is relearned on the modified training design X' and evaluated on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from imlbench.explain.importance import permute_column, squared_error

SCHEMES = ("drop", "permute", "conditional")

Fit = Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]


def modified_design(
    X: np.ndarray,
    j: int,
    scheme: str,
    rng: np.random.Generator,
    sampler: Callable[[np.ndarray, Sequence[int], np.random.Generator], np.ndarray] | None = None,
) -> np.ndarray:
    """X with feature j dropped, permuted, or drawn from its conditional law."""
    if scheme == "drop":
        return np.delete(X, j, axis=1)
    Xm = X.copy()
    if scheme == "permute":
        Xm[:, j] = permute_column(X, j, rng)
    elif scheme == "conditional":
        if sampler is None:
            raise ValueError("scheme 'conditional' needs the DGP's conditional sampler")
        Xm[:, j] = sampler(X, [j], rng)[:, 0]
    else:
        raise ValueError(f"scheme {scheme!r} is not one of {', '.join(SCHEMES)}")
    return Xm


def relearn_importance(
    fit: Fit,
    predict: Callable[[np.ndarray], np.ndarray],
    X: np.ndarray,
    y: np.ndarray,
    *,
    scheme: str,
    features: Sequence[int],
    rng: np.random.Generator,
    sampler: Callable[[np.ndarray, Sequence[int], np.random.Generator], np.ndarray] | None = None,
) -> pd.DataFrame:
    """Training-loss increase of a model relearned on the modified design, per feature.

    ``fit(X, y)`` returns the ``predict`` function of a freshly fitted learner;
    ``predict`` is the original model's. Returns columns ``feature`` and ``value``.
    """
    base = squared_error(y, predict(X)).mean()
    values = []
    for j in features:
        Xm = modified_design(X, j, scheme, rng, sampler)
        values.append(squared_error(y, fit(Xm, y)(Xm)).mean() - base)
    return pd.DataFrame({"feature": list(features), "value": values})
