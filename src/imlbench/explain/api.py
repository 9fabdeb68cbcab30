"""The method contract: what an explanation method receives, declares and returns.

A registered method is a function ``(ctx, params, rng) -> tidy DataFrame``. The context
carries the fitted model's ``predict``, the repetition's data and DGP and a ``fit`` for
refits; ``params`` are the study file's parameters with every declared default filled in
(:mod:`imlbench.params`). A method declares, where it is registered (:func:`method`):

* ``params``: its parameters with type, default and allowed values, checked before any job
  runs;
* ``requires``: what it needs from the learner ("oob", "trees": a scikit-learn forest,
  "tree_ensemble": any model :func:`imlbench.explain.tree_pd.tree_model` reads, "linear") or
  the scenario
  ("conditional": the DGP's conditional law, "noise_block", "reference_rows",
  "test_rows"), so impossible combinations are rejected before any job runs; ``needs``,
  what it needs for given parameters (a function of them). A sampler adds its own needs, and
  ``data: test`` needs test rows;
* ``kind``: "importance" (one value per feature, ranked by the summaries stage), "theory"
  (a model-level truth), "test" (a hypothesis test per repetition), "metric" (values the
  claims read), "refits" (refits the learner itself: needs no fitted model), "effect",
  "surface" (over two features), "local" (an explanation per explained row: SHAP, LIME) or
  "other" (a free-form table only its study reads); each kind but "other" declares the columns
  of its estimates (:mod:`imlbench.explain.frames`), checked where the run stage writes them;
* ``summarise``: optionally, how the summaries stage condenses its estimate files into the
  study's ``metrics/summary.parquet`` (read by figures and claims);
* ``estimand``: the truth its estimates are compared with (:mod:`imlbench.metrics.
  truth_errors`), one of :data:`imlbench.explain.estimands.TABLE_OF`, or a function of its
  parameters (every default filled) giving it or None (not with these parameters); None: its
  estimates are compared with no truth. :func:`estimand_of` reads it.

The generic methods are registered by family in :mod:`imlbench.explain.methods_importance`,
:mod:`~imlbench.explain.methods_effects`, :mod:`~imlbench.explain.methods_local`,
:mod:`~imlbench.explain.methods_learner` and :mod:`~imlbench.explain.methods_timing`; a study
registers its own in its package under :mod:`imlbench.studies`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP
from imlbench.explain.ale import CENTERINGS, INTERVAL_FIELDS
from imlbench.explain.batching import DEFAULT_MAX_ROWS
from imlbench.explain.estimands import check_estimand
from imlbench.explain.grids import GRID_FIELDS, LAW_KIND
from imlbench.explain.importance import CONTRASTS, LOSSES
from imlbench.explain.samplers import SAMPLERS, SUBGROUP_PARAMS, fit_sampler
from imlbench.explain.strategies import KINDS as STRATEGY_KINDS
from imlbench.explain.strategies import MODEL_ROWS_STREAM, with_strategy
from imlbench.explain.tree_pd import TreeEnsemble, tree_model
from imlbench.params import (
    Param,
    check_all,
    choice,
    feature_names,
    registered,
    table,
    with_defaults,
)
from imlbench.registry import Registry
from imlbench.seeds import config_hash

KINDS = ("importance", "theory", "test", "metric", "refits", "effect", "surface", "local", "other")


@dataclass
class ExplainContext:
    """What a method may use for one repetition of one (scenario, learner)."""

    model: Any
    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    dgp: DGP
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]
    fixed_rng: Callable[[str], np.random.Generator]
    X_test: np.ndarray | None = None
    y_test: np.ndarray | None = None
    max_rows: int = DEFAULT_MAX_ROWS
    #: random stream of a sampler fit, by the sampler's key: the same for every learner of the
    #: repetition, so that a fitted sampler is shared through ``samplers``.
    sampler_rng: Callable[[str], np.random.Generator] | None = None
    #: fitted samplers of this repetition by key, shared by the learners (a cache).
    samplers: dict = field(default_factory=dict)
    #: random stream of an estimation strategy's split, by the strategy's label: the same for
    #: every learner and method of the repetition (:mod:`imlbench.explain.strategies`)
    split: Callable[[str], np.random.Generator] | None = None
    #: the learner refitted on the training rows given by index, made once per repetition and
    #: learner and shared by its methods (:mod:`imlbench.explain.strategies`)
    refit: Callable[[np.ndarray], Any] | None = None

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.model.predict(X)

    @cached_property
    def trees(self) -> TreeEnsemble | None:
        """The fitted model's trees (:func:`imlbench.explain.tree_pd.tree_model`), read once
        per context; None when the model is no tree model."""
        return tree_model(self.model)

    def index(self, name: str) -> int:
        if name not in self.feature_names:
            raise ValueError(f"feature {name!r} is not in the data; allowed: "
                             f"{', '.join(self.feature_names)}")
        return self.feature_names.index(name)

    def features(self, params: Mapping[str, Any]) -> list[int]:
        """Indices of ``params['features']`` (names), or of every feature."""
        names = params.get("features") or self.feature_names
        return [self.index(f) for f in names]

    def data(self, params: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The rows a method is evaluated on: ``params['data']``, ``train``, ``test`` or
        ``fitted`` (the training rows less those the learner held out for early stopping,
        its ``validation_rows_``; all training rows for a learner that holds none out)."""
        if params["data"] == "test":
            if self.X_test is None or len(self.X_test) == 0:
                raise ValueError("this scenario has no test rows (set n_test)")
            return self.X_test, self.y_test
        held = getattr(self.model, "validation_rows_", None)
        if params["data"] == "fitted" and held is not None:
            keep = np.ones(len(self.X), dtype=bool)
            keep[np.asarray(held)] = False
            return self.X[keep], self.y[keep]
        return self.X, self.y


Method = Callable[[ExplainContext, dict, np.random.Generator], pd.DataFrame]
Summarise = Callable[[list[Path]], pd.DataFrame]
Needs = Callable[[Mapping[str, Any]], set[str]]
#: the estimand of a method: a name, or a function of its filled parameters (None: none)
Estimand = str | Callable[[Mapping[str, Any]], str | None] | None


@dataclass(frozen=True)
class MethodSpec:
    """A registered method: see the module doc."""

    name: str
    run: Method
    requires: frozenset[str] = frozenset()
    params: Mapping[str, Param] = field(default_factory=dict)
    kind: str = "other"
    summarise: Summarise | None = None
    needs: Needs | None = None
    estimand: Estimand = None

    def __call__(self, ctx: ExplainContext, params: Mapping[str, Any],
                 rng: np.random.Generator) -> pd.DataFrame:
        """Run the method on ``params`` checked against its declarations and completed by
        their defaults, as the explain stage does."""
        check_all(self.params, params, owner=f"method {self.name!r}")
        return self.run(ctx, with_defaults(self.params, params), rng)

    def requirements(self, params: Mapping[str, Any]) -> set[str]:
        """Everything the method needs with these parameters (defaults filled)."""
        out = set(self.requires) | (set(self.needs(params)) if self.needs else set())
        if params.get("data") == "test":
            out.add("test_rows")
        if params.get(MODEL_ROWS_STREAM) or any(
                isinstance(v, Mapping) and v.get("kind") == LAW_KIND for v in params.values()):
            out.add("law")  # rows drawn from the DGP's law, or its quantiles
        if params.get("sampler") in SAMPLERS:
            out |= SAMPLERS.get(params["sampler"]).requires
        return out

    def estimand_of(self, params: Mapping[str, Any]) -> str | None:
        """The truth estimand of the method's estimates with these parameters (defaults
        filled here), or None."""
        if self.estimand is None or isinstance(self.estimand, str):
            return self.estimand
        estimand = self.estimand(with_defaults(self.params, params))
        return None if estimand is None else check_estimand(estimand, f"method {self.name!r}")


METHODS: Registry[MethodSpec] = Registry("method", providers=(
    "imlbench.explain.methods_importance", "imlbench.explain.methods_effects",
    "imlbench.explain.methods_local", "imlbench.explain.methods_learner",
    "imlbench.explain.methods_timing", "imlbench.explain.window_mplot",
    "imlbench.explain.association"))


def method(
    name: str, *, requires: Sequence[str] = (), params: Mapping[str, Param] | None = None,
    kind: str = "other", summarise: Summarise | None = None, needs: Needs | None = None,
    estimand: Estimand = None,
) -> Callable[[Method], Method]:
    """Register ``fn`` as method ``name`` (see the module doc for the declarations)."""
    if kind not in KINDS:
        raise ValueError(f"method kind {kind!r} is not one of {', '.join(KINDS)}")
    if isinstance(estimand, str):
        check_estimand(estimand, f"method {name!r}")
    strategy = MODEL_ROWS_STREAM in (params or {})
    if strategy and kind not in STRATEGY_KINDS:
        raise ValueError(f"method {name!r} of kind {kind!r} declares an estimation strategy; "
                         f"allowed for kinds {', '.join(STRATEGY_KINDS)}")

    def decorator(fn: Method) -> Method:
        run = with_strategy(fn, name) if strategy else fn
        METHODS.register(name, module=fn.__module__)(
            MethodSpec(name, run, frozenset(requires), dict(params or {}), kind, summarise,
                       needs, estimand))
        return fn

    return decorator


def estimand_of(method_name: str, params: Mapping[str, Any]) -> str | None:
    """The truth estimand (:data:`imlbench.explain.estimands.TABLE_OF`) that registered method
    ``method_name`` estimates with the parameters ``params`` (a study file's, defaults filled
    here), or None when its estimates are compared with no truth."""
    return METHODS.get(method_name).estimand_of(params)


# --- declarations shared by many methods ------------------------------------------------------

#: ``features``: the features explained (default: all)
FEATURES = {"features": feature_names()}
#: ``categorical``: integer-coded categorical features (default: the DGP's)
CATEGORICAL = {"categorical": feature_names()}
#: ``data``: the rows the method is evaluated on
DATA = {"data": choice("train", ("train", "test"))}
AGGREGATES = ("mean", "median")
#: loss, contrast and the summary over repeats of permutation-type importances
PFI_OPTIONS = {
    "loss": choice("squared", tuple(LOSSES)),
    "contrast": choice("difference", CONTRASTS),
    "aggregate": choice("mean", AGGREGATES),
}
#: a grid spec (:func:`imlbench.explain.grids.make_grid`); the method's default when absent
GRID = table(GRID_FIELDS, {})
#: ALE interval spec (:func:`imlbench.explain.ale.ale_edges`)
INTERVALS = table(INTERVAL_FIELDS, {})
CENTERING = choice("data", CENTERINGS)
#: a sampler of the replacement of x_j and its parameters (:mod:`imlbench.explain.samplers`)
SAMPLER = {
    "sampler": registered(SAMPLERS),
    "sampler_params": table(lambda p: SAMPLERS.get(p["sampler"]).params
                            if p.get("sampler") in SAMPLERS else {}, {}),
}
#: the parameters of the conditional-subgroups tree, for methods that always use it
SUBGROUPS = {"sampler_params": table(SUBGROUP_PARAMS, {})}


# --- helpers for method adapters ---------------------------------------------------------------


def draw_indices(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """min(k, n) distinct indices of range(n), in random order."""
    return rng.choice(n, size=min(k, n), replace=False)


def curves_frame(feature: str, x: np.ndarray, curves: np.ndarray) -> pd.DataFrame:
    """One curve per row (rows x len(x) values) in long format: feature, row, x, value."""
    return pd.DataFrame({
        "feature": feature,
        "row": np.repeat(np.arange(len(curves)), len(x)),
        "x": np.tile(x, len(curves)),
        "value": curves.ravel(),
    })


def named(ctx: ExplainContext, df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its feature indices replaced by the feature names."""
    df["feature"] = [ctx.feature_names[j] for j in df["feature"]]
    return df


def aggregate(df: pd.DataFrame, params: Mapping[str, Any],
              by: Sequence[str] = ("feature",)) -> pd.DataFrame:
    """One value per ``by`` group: the ``aggregate`` (mean or median) over the repeats."""
    return df.groupby(list(by), as_index=False, sort=False)["value"].agg(params["aggregate"])


def over_repeats(ctx: ExplainContext, df: pd.DataFrame, params: Mapping[str, Any],
                 by: Sequence[str] = ("feature",)) -> pd.DataFrame:
    """:func:`aggregate`, with feature indices replaced by their names."""
    return named(ctx, aggregate(df, params, by))


def loss_options(params: Mapping[str, Any]) -> dict:
    """The loss and the contrast of a permutation-type importance."""
    return {"loss": params["loss"], "contrast": params["contrast"]}


def categorical(ctx: ExplainContext, params: Mapping[str, Any]) -> list[int]:
    """Indices of the categorical features: the study's ``categorical`` list, else the DGP's."""
    names = params.get("categorical")
    if names is None:
        names = getattr(ctx.dgp, "categorical", ())
    return [ctx.index(f) for f in names]


def fitted_sampler(ctx: ExplainContext, params: Mapping[str, Any], j: int,
                   rng: np.random.Generator):
    """The study's sampler for feature j (``sampler``, ``sampler_params``), fitted on the
    training rows; ``exact`` uses the DGP's conditional law.

    It depends on the training rows and the sampler's settings only, so it is fitted once per
    repetition (with a stream of its own when the context has one) and shared by the learners.
    """
    name = params["sampler"]
    is_categorical = j in categorical(ctx, params)
    key = config_hash([name, params["sampler_params"], j, is_categorical])
    if key not in ctx.samplers:
        exact = ctx.dgp.sample_conditional if name == "exact" else None
        fit_rng = rng if ctx.sampler_rng is None else ctx.sampler_rng(key)
        ctx.samplers[key] = fit_sampler(name, ctx.X, j, fit_rng, params["sampler_params"],
                                        exact=exact, categorical=is_categorical)
    return ctx.samplers[key]
