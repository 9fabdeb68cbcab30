"""Importance by relearning: drop, permute or condition, then fit a new model.

Hooker, Mentch & Zhou (2021), Sect. 5: VI^D_j (drop x_j and refit, = LOCO of Lei et
al. 2018), VI^{piL}_j (permute x_j and refit) and VI^{CL}_j (replace x_j by a draw
from x_j | x_{-j} and refit). The paper prints these as L(original) - L(relearned)
but calls VI^D "the increase in training error"; we report the increase, so that
larger means more important:
    VI_j = (1/N) sum_i L(y_i, f_j(x'_i)) - (1/N) sum_i L(y_i, f(x_i)),
where f_j is relearned on the modified training design X' and evaluated on it. For LOCO
(``drop``) the losses may instead be measured on held-out test rows, as Lei et al. (2018)
define it with sample splitting (the full and the reduced model fitted on the training rows,
compared on the test rows), and the contrast may be their ratio instead of their difference (as for
permutation importance, :func:`imlbench.explain.importance.replacement_importance`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from imlbench.explain.importance import CONTRASTS, loss_named, permute_column

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
    loss: str = "squared",
    contrast: str = "difference",
    test: tuple[np.ndarray, np.ndarray] | None = None,
) -> pd.DataFrame:
    """Loss increase of a model relearned on the modified training design, per feature.

    ``fit(X, y)`` returns the ``predict`` function of a freshly fitted learner;
    ``predict`` is the original model's, fitted on (X, y). The losses (``loss``, a name of
    :data:`imlbench.explain.importance.LOSSES`) are mean losses on the training rows, or with
    ``test = (X_test, y_test)`` on those rows (``drop`` only: column j removed from them too).
    ``contrast``: ``difference`` (relearned minus original) or ``ratio`` (their quotient).
    Returns columns ``feature`` and ``value``.
    """
    if contrast not in CONTRASTS:
        raise ValueError(f"contrast {contrast!r} is not one of {', '.join(CONTRASTS)}")
    if test is not None and scheme != "drop":
        raise ValueError(f"scheme {scheme!r} is measured on the training rows only; test rows "
                         f"need scheme 'drop'")
    L = loss_named(loss)
    X_eval, y_eval = (X, y) if test is None else test
    base = L(y_eval, predict(X_eval)).mean()
    values = []
    for j in features:
        Xm = modified_design(X, j, scheme, rng, sampler)
        Xm_eval = Xm if test is None else modified_design(X_eval, j, scheme, rng)
        relearned = L(y_eval, fit(Xm, y)(Xm_eval)).mean()
        values.append(relearned - base if contrast == "difference" else relearned / base)
    return pd.DataFrame({"feature": list(features), "value": values})
