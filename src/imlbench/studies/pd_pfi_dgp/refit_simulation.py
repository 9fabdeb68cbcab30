"""Per-refit PD and PFI of one repetition of the coverage simulation of Molnar et al.,
"Relating the PDP and PFI to the data generating process", Sect. 8.

A repetition refits a learner ``max_refits`` times and stores, per refit d, the model's PD
at the grid for every feature (eq. 2 on the refit's evaluation rows) and its PFI (eq. 4:
the mean over ``n_permutations`` replacements of x_j of the MSE increase). The refits'
training and evaluation rows come from one of the strategies:

- ``bootstrap``: n rows drawn with replacement from the repetition's data, evaluated on the
  out-of-bag rows;
- ``subsampling``: floor(0.632 n) rows without replacement, evaluated on the rest;
- ``ideal``: fresh data per refit, floor(0.632 n) training rows and ``ideal_test_share`` x n
  evaluation rows (the paper's text: the remaining 36.8% of n fresh rows; the authors' code:
  a separate fresh draw of floor(0.632 n) rows);
- ``truth``: the runs behind the coverage target E_F[PD] and E_F[PFI] (the paper's footnote 3):
  fresh floor(0.632 n) training and floor(0.632 n) evaluation rows, x_j replaced by fresh
  draws from its marginal law, as the authors' code.

Confidence intervals for any number of refits m <= ``max_refits`` and any correction are
computed downstream from these values (:mod:`imlbench.studies.pd_pfi_dgp.summaries`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.dgp.base import DGP
from imlbench.explain.batching import DEFAULT_MAX_ROWS, predict_stacked
from imlbench.explain.learner_level import TRAIN_SHARE, resample_splits

STRATEGIES = ("ideal", "bootstrap", "subsampling", "truth")
REPLACEMENTS = ("permute", "fresh")

Fit = Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]


@dataclass(frozen=True)
class RefitDesign:
    """The evaluation design shared by every refit of a repetition."""

    features: Sequence[int]
    grid: np.ndarray
    n_permutations: int = 5
    max_rows: int = DEFAULT_MAX_ROWS


def model_pd_pfi(
    predict: Callable[[np.ndarray], np.ndarray], X: np.ndarray, y: np.ndarray,
    replacement: np.ndarray, design: RefitDesign,
) -> tuple[np.ndarray, np.ndarray]:
    """One model's PD (features x grid, eq. 2) and PFI (features, eq. 4 with squared loss) on
    the rows (X, y), from one stacked prediction.

    ``replacement[k, i, j]`` is the value that replaces x_j of row i in replacement k (a
    permutation of the column, or fresh draws).
    """
    S, grid, L = list(design.features), design.grid, design.n_permutations
    G, n = len(grid), len(X)
    copies = 1 + len(S) * (G + L)

    def fill(block: np.ndarray, rows: slice) -> None:
        b = block.reshape(-1, copies, X.shape[1])
        for a, j in enumerate(S):
            b[:, 1 + a * G: 1 + (a + 1) * G, j] = grid
            start = 1 + len(S) * G + a * L
            b[:, start: start + L, j] = replacement[:, rows, j].T

    out = predict_stacked(predict, X, fill, copies, design.max_rows)
    base_loss = (y - out[:, 0]) ** 2
    pd_ = out[:, 1: 1 + len(S) * G].mean(axis=0).reshape(len(S), G)
    perm = out[:, 1 + len(S) * G:].reshape(n, len(S), L)
    pfi = ((y[:, None, None] - perm) ** 2).mean(axis=(0, 2)) - base_loss.mean()
    return pd_, pfi


def _permutations(X: np.ndarray, L: int, rng: np.random.Generator) -> np.ndarray:
    """L independent permutations of the rows: replacement[k] = X[perm_k]."""
    return np.stack([X[rng.permutation(len(X))] for _ in range(L)])


def refit_values(
    fit: Fit, dgp: DGP, X: np.ndarray, y: np.ndarray, strategy: str, refits: int,
    design: RefitDesign, rng: np.random.Generator, *, ideal_test_share: float = 1 - TRAIN_SHARE,
    ideal_replacement: str = "permute",
) -> tuple[np.ndarray, np.ndarray]:
    """Per-refit PD (refits x features x grid) and PFI (refits x features) of one repetition;
    ``X, y`` are the repetition's n rows (used by ``bootstrap`` and ``subsampling``)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy {strategy!r} is not one of {', '.join(STRATEGIES)}")
    if ideal_replacement not in REPLACEMENTS:
        raise ValueError(f"ideal_replacement {ideal_replacement!r} is not one of "
                         f"{', '.join(REPLACEMENTS)}")
    n = len(X)
    n_train = int(TRAIN_SHARE * n)
    L = design.n_permutations
    pds, pfis = [], []
    splits = (resample_splits(n, refits, strategy, rng)
              if strategy in ("bootstrap", "subsampling") else [None] * refits)
    for split in splits:
        if split is not None:
            (train, test) = split
            Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
            replacement = _permutations(Xte, L, rng)
        else:
            n_eval = n_train if strategy == "truth" else int(round(ideal_test_share * n))
            Xf = dgp.sample_features(n_train + n_eval, rng)  # as DGP.sample, without a frame
            yf = dgp.f(Xf) + dgp.noise(len(Xf), rng)
            Xtr, ytr, Xte, yte = Xf[:n_train], yf[:n_train], Xf[n_train:], yf[n_train:]
            if strategy == "truth" or ideal_replacement == "fresh":
                replacement = np.stack([dgp.sample_features(len(Xte), rng) for _ in range(L)])
            else:
                replacement = _permutations(Xte, L, rng)
        pd_, pfi = model_pd_pfi(fit(Xtr, ytr), Xte, yte, replacement, design)
        pds.append(pd_)
        pfis.append(pfi)
    return np.array(pds), np.array(pfis)
