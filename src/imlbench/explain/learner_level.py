"""Learner-level PD and PFI with confidence intervals (Molnar et al., Relating the PDP and PFI
to the data generating process, Sect. 7).

The learner-PD E_F[PD(x)] and learner-PFI E_F[PFI] average over the models a learner produces
from training sets of the data's law. With m refits f_d on resampled training rows B_d, each
evaluated on the rows left out B_-d (eqs. 7-8), the estimate is the mean of the m per-model
values, its variance (1/m + c) s^2 with s^2 the sample variance over refits (Sect. 7.3), and
the interval mean +- t_{1 - alpha/2, m - 1} sqrt(variance) (Sect. 7.4). c = 0 when each refit
has fresh data; with resampling the refits share rows and c = n_test / n_train corrects for
it (Nadeau & Bengio 2003).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS
from imlbench.explain.effects import partial_dependence
from imlbench.explain.importance import permutation_importance
from imlbench.stats import t_halfwidth

SCHEMES = ("bootstrap", "subsampling")
#: share of distinct rows in a bootstrap sample, and the subsample size of the paper
TRAIN_SHARE = 0.632


def resample_splits(
    n: int, m: int, scheme: str, rng: np.random.Generator
) -> list[tuple[np.ndarray, np.ndarray]]:
    """m (train, test) index pairs: a bootstrap sample of n rows and its out-of-bag rows, or a
    subsample of 0.632 n rows without replacement and the rest."""
    if scheme not in SCHEMES:
        raise ValueError(f"resampling scheme {scheme!r} is not one of {', '.join(SCHEMES)}")
    splits = []
    for _ in range(m):
        if scheme == "bootstrap":
            train = rng.integers(0, n, size=n)
            test = np.flatnonzero(np.bincount(train, minlength=n) == 0)
        else:
            perm = rng.permutation(n)
            train, test = perm[: int(TRAIN_SHARE * n)], perm[int(TRAIN_SHARE * n):]
        splits.append((train, test))
    return splits


def nadeau_bengio_c(scheme: str) -> float:
    """c = n_test / n_train of a scheme: (1 - 0.632) / 0.632 for both (as the paper's code)."""
    if scheme not in SCHEMES:
        raise ValueError(f"resampling scheme {scheme!r} is not one of {', '.join(SCHEMES)}")
    return (1 - TRAIN_SHARE) / TRAIN_SHARE


@dataclass(frozen=True)
class LearnerEstimate:
    """Per-refit values (first axis: refits) and the learner-level mean."""

    per_model: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        return self.per_model.mean(axis=0)

    def interval(self, c: float = 0.0, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
        """The t interval with variance (1/m + c) s^2 (c = 0: naive; Nadeau-Bengio otherwise)."""
        m = len(self.per_model)
        if m < 2:
            raise ValueError("a learner-level interval needs at least two refits")
        half = t_halfwidth(self.per_model.var(axis=0, ddof=1), m, c, alpha)
        return self.mean - half, self.mean + half


def learner_pd_pfi(
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]],
    X: np.ndarray,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    features: Sequence[int],
    grid: np.ndarray,
    n_permutations: int,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[LearnerEstimate, LearnerEstimate]:
    """Per-refit PD (refits x features x grid) and PFI (refits x features), eqs. 7-8.

    Each model ``fit(X[train], y[train])`` is evaluated on ``X[test]``: PD at ``grid`` for every
    feature, PFI as the mean over ``n_permutations`` permutations of the MSE increase.
    """
    pd_, pfi = [], []
    for train, test in splits:
        predict = fit(X[train], y[train])
        Xt, yt = X[test], y[test]
        pd_.append([partial_dependence(predict, Xt, j, grid, max_rows=max_rows)
                    for j in features])
        imp = permutation_importance(predict, Xt, yt, features=features,
                                     n_repeats=n_permutations, rng=rng, max_rows=max_rows)
        pfi.append(imp.groupby("feature")["value"].mean().reindex(features).to_numpy())
    return LearnerEstimate(np.array(pd_)), LearnerEstimate(np.array(pfi))
