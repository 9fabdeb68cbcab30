"""Batched model evaluation: the one place where explainers call ``predict``.

Explainers stack every row they need (all grid points, repeats and features)
into one matrix and evaluate it here in as few calls as the row cap allows.
Stacking is observation-major where rows are repeated (each observation's copies
are adjacent), which predicts tree ensembles faster than grid-major stacking.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Predict = Callable[[np.ndarray], np.ndarray]

DEFAULT_MAX_ROWS = 1_000_000


def predict_rows(predict: Predict, X: np.ndarray, max_rows: int = DEFAULT_MAX_ROWS) -> np.ndarray:
    """``predict(X)`` in consecutive blocks of at most ``max_rows`` rows."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be positive, got {max_rows}")
    if len(X) <= max_rows:
        return np.asarray(predict(X), dtype=float).ravel()
    return np.concatenate(
        [
            np.asarray(predict(X[i : i + max_rows]), dtype=float).ravel()
            for i in range(0, len(X), max_rows)
        ]
    )


def predict_stacked(
    predict: Predict,
    X: np.ndarray,
    fill: Callable[[np.ndarray, slice], np.ndarray],
    copies: int,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """Predictions for ``copies`` modified copies of every row of ``X``, observation-major.

    ``fill(block, rows)`` receives ``np.repeat(X[rows], copies, axis=0)`` and writes the
    modified values into it in place (copy ``c`` of observation ``i`` is row
    ``i * copies + c`` of the block). Returns an array of shape ``(len(X), copies)``.
    The stacked matrix is built block by block, so memory stays within ``max_rows`` rows.
    """
    n = len(X)
    per_block = max(1, max_rows // max(copies, 1))
    out = np.empty((n, copies))
    for start in range(0, n, per_block):
        rows = slice(start, min(n, start + per_block))
        block = np.repeat(X[rows], copies, axis=0)
        fill(block, rows)
        out[rows] = predict_rows(predict, block, max_rows).reshape(-1, copies)
    return out
