"""Estimation strategies of a global effect or importance: which fitted models, evaluated on
which rows, and the models' own effect on rows drawn afresh.

Heiß, Bögel, Bischl & Casalicchio (2026, *Analyzing error sources in global feature effect
estimation*) compare three ways to estimate a global effect g (PD, ALE) of a learned model from
the n rows at hand, declared by a method's ``data``:

* ``train``: the model f^ fitted on the training rows, the effect estimated on the same rows;
* ``test``: f^ fitted on the training rows, the effect estimated on rows it never saw (the
  scenario's test rows, drawn apart from them);
* ``holdout`` (the paper's "val"): the training rows split at random, a share
  ``holdout_share`` held out; the learner refitted on the others, f^_-h, and the effect of that
  refit estimated on the held-out rows;
* ``cv`` (cross-fitting): the training rows split at random into ``folds`` folds of (nearly)
  equal size; for each fold k the learner is refitted on the other folds, f^_-k, and the
  effect of that refit is estimated on fold k; the estimate is the mean of the K curves,
  g^_cv(x) = 1/K sum_k g^(x; f^_-k, X_k).

The splits are drawn per repetition from a stream named by the strategy alone (``split``
of the context), so every method and learner of a repetition that asks for the same strategy
gets the same split, and the refit of a split is made once per (repetition, learner) and
shared by those methods (``refit`` of the context, seeded by the split and the learner): a
PD and an ALE under ``cv`` read the same fold models, as in the paper. A context without them
(a method called on its own) splits with the method's generator and refits with ``fit``.

``model_effect_rows`` (a number of rows, or null) adds the models' own effect, column
``model_value``: the same method with the same fitted models (f^; f^_-h for ``holdout``)
evaluated on that many rows drawn afresh from the DGP's law, the same rows in every repetition
(a stream of their own); for ``cv`` each fold's model f^_-k on its own k-th of K equal parts of
those rows, the K curves averaged the same way (the mean of K curves on N/K rows each has the
Monte Carlo error of one curve on N rows, at a K-th of the cost). It estimates g_f^(x), the
effect of the fitted models under the law of the features, with a Monte Carlo error that
shrinks as the rows grow: the estimate minus it is the estimation error, it minus the truth
the model error, the two halves of the MSE decomposition of
:mod:`imlbench.metrics.truth_errors`.

A method takes part by declaring :data:`STRATEGY` among its parameters (kinds ``effect`` and
``importance``, whose estimates are numbers ``value`` at fixed keys: a curve on a grid that
does not depend on the rows evaluated, or one value per feature). The registry wraps it
(:func:`with_strategy`); the method itself only ever sees ``data: train`` or ``test``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from imlbench.params import choice, integer, number

#: the strategies of :data:`STRATEGY`
DATA_STRATEGIES = ("train", "test", "holdout", "cv")
#: the strategies that refit the learner on part of the training rows
REFITTING = ("holdout", "cv")
#: a method's estimation strategy (see the module doc)
STRATEGY = {
    "data": choice("train", DATA_STRATEGIES),
    "folds": integer(5, minimum=2),
    "holdout_share": number(0.2, above=0, below=1),
    "model_effect_rows": integer(None, minimum=1, nullable=True),
}
#: the kinds a strategy applies to
KINDS = ("effect", "importance")
#: the label of the stream that draws the rows of the models' own effect
MODEL_ROWS_STREAM = "model_effect_rows"
#: the columns that name an estimate (the same in every fold), all others being averaged
KEYS = ("feature", "x", "row", "group", "z")

Run = Callable[[Any, dict, np.random.Generator], pd.DataFrame]


@dataclass(frozen=True)
class Refit:
    """A refitted model known by its ``predict`` alone, as a context's ``model``."""

    predict: Callable[[np.ndarray], np.ndarray]


def fold_indices(n: int, folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The rows 0..n-1 split at random into ``folds`` folds of sizes differing by at most one
    (a permutation drawn from ``rng``, cut in order)."""
    if folds > n:
        raise ValueError(f"cross-fitting with {folds} folds needs at least {folds} rows, got {n}")
    return [np.sort(part) for part in np.array_split(rng.permutation(n), folds)]


def mean_of_frames(frames: list[pd.DataFrame], what: str) -> pd.DataFrame:
    """The element-wise mean of the numbers of ``frames`` (``value`` and any other number but
    the keys :data:`KEYS`), which must agree in their keys, row by row; ``what`` names them
    in the error."""
    first = frames[0]
    keys = [c for c in KEYS if c in first]
    for k, frame in enumerate(frames[1:], start=1):
        if list(frame.columns) != list(first.columns) or not frame[keys].reset_index(
                drop=True).equals(first[keys].reset_index(drop=True)):
            raise ValueError(f"{what}: the estimate of fold {k + 1} differs from that of fold 1 "
                             f"in its keys ({', '.join(keys)}); cross-fitting averages curves "
                             f"on one grid (use a grid that does not depend on the rows, e.g. "
                             f"kind law_quantile or values)")
    out = first.copy()
    for col in first.columns:
        if col not in keys and pd.api.types.is_float_dtype(first[col]):
            out[col] = np.mean([f[col].to_numpy(float) for f in frames], axis=0)
    return out


def holdout_rows(n: int, share: float, rng: np.random.Generator) -> np.ndarray:
    """The sorted rows of 0..n-1 held out: round(share n) of them, drawn at random (the first
    of a permutation from ``rng``), refusing a share that holds out none or all."""
    k = int(round(share * n))
    if not 0 < k < n:
        raise ValueError(f"holdout_share {share:g} of {n} rows holds out {k}; allowed: a share "
                         f"that leaves at least one row on each side")
    return np.sort(rng.permutation(n)[:k])


def splits(ctx: Any, params: Mapping[str, Any], rng: np.random.Generator) -> list[np.ndarray]:
    """The held-out rows of each model of a refitting strategy (``holdout``: one set; ``cv``:
    the folds), from the context's ``split`` stream of the strategy when it has one, else
    from ``rng``."""
    label = (f"holdout:{params['holdout_share']!r}" if params["data"] == "holdout"
             else f"cv:{params['folds']}")
    draw = ctx.split(label) if getattr(ctx, "split", None) is not None else rng
    if params["data"] == "holdout":
        return [holdout_rows(len(ctx.X), params["holdout_share"], draw)]
    return fold_indices(len(ctx.X), params["folds"], draw)


def _on_rows(ctx: Any, model: Any, X: np.ndarray, y: np.ndarray | None) -> Any:
    """``ctx`` with ``model`` evaluated on the rows ``X`` (as its test rows)."""
    return replace(ctx, model=model, X_test=X, y_test=y)


def _refit(ctx: Any, rows: np.ndarray) -> Any:
    """The learner refitted on the training rows other than ``rows``: the context's shared
    ``refit`` when it has one, else ``fit``; the refitted estimator itself where ``fit``
    returns its bound ``predict``, so that the methods read its trees as they read the
    fitted model's."""
    rest = np.setdiff1d(np.arange(len(ctx.X)), rows)
    if getattr(ctx, "refit", None) is not None:
        return ctx.refit(rest)
    predict = ctx.fit(ctx.X[rest], ctx.y[rest])
    return getattr(predict, "__self__", None) or Refit(predict)


def _models(ctx: Any, params: Mapping[str, Any], rng: np.random.Generator
            ) -> list[tuple[Any, np.ndarray | None]]:
    """The models of the strategy with the rows each is evaluated on: the fitted model (rows
    None: those ``data`` names), or each split's refit with its held-out rows."""
    if params["data"] not in REFITTING:
        return [(ctx.model, None)]
    return [(_refit(ctx, rows), rows) for rows in splits(ctx, params, rng)]


def estimate(run: Run, ctx: Any, params: dict, rng: np.random.Generator,
             name: str) -> pd.DataFrame:
    """Method ``run`` (registered as ``name``) under its strategy ``params`` (defaults
    filled): see the module doc."""
    models = _models(ctx, params, rng)
    if params["data"] in REFITTING:
        inner = {**params, "data": "test"}
        frame = mean_of_frames([run(_on_rows(ctx, model, ctx.X[rows], ctx.y[rows]), inner, rng)
                                for model, rows in models],
                               f"method {name!r} with data: {params['data']}")
    else:
        frame = run(ctx, params, rng)
    n_rows = params.get("model_effect_rows")
    if n_rows:
        fresh = ctx.dgp.sample(n_rows, ctx.fixed_rng(MODEL_ROWS_STREAM))
        X = fresh[ctx.feature_names].to_numpy(dtype=float)
        y = fresh["y"].to_numpy(dtype=float)
        inner = {**params, "data": "test"}
        parts = np.array_split(np.arange(n_rows), len(models))
        own = mean_of_frames([run(_on_rows(ctx, model, X[rows], y[rows]), inner, rng)
                              for (model, _), rows in zip(models, parts, strict=True)],
                             f"method {name!r}, the models' own effect")
        keys = [c for c in KEYS if c in frame]
        if not own[keys].reset_index(drop=True).equals(frame[keys].reset_index(drop=True)):
            raise ValueError(f"method {name!r}: its estimate on the fresh rows has other keys "
                             f"than on the data; the models' own effect needs a grid that does "
                             f"not depend on the rows (kind law_quantile or values)")
        frame = frame.assign(model_value=own["value"].to_numpy())
    return frame


def with_strategy(run: Run, name: str) -> Run:
    """``run`` estimating under the strategy its parameters declare (see :func:`estimate`)."""

    def wrapped(ctx: Any, params: dict, rng: np.random.Generator) -> pd.DataFrame:
        return estimate(run, ctx, params, rng, name)

    wrapped.__doc__ = run.__doc__
    return wrapped
