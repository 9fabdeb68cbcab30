"""Samplers of a replacement for feature j given the other features, for conditional PFI.

Conditional PFI (Molnar et al., conditional subgroups, eq. 1 with X~_j ~ X_j | X_-j) replaces
x_j by a draw from its conditional law; how faithfully a sampler draws it decides what the
importance measures. Every sampler is fitted on training rows and then draws for other rows
(Molnar et al., Sect. 5):

``permutation``   x_j permuted over the rows (the marginal law: marginal PFI);
``subgroups``     x_j permuted within the leaves of a tree fitted to predict x_j from x_-j
                  (cs-PFI, Algorithm 1): ``tree: cart`` splits on the mean of x_j (CART,
                  ``min_node_size``, ``max_depth``, ``cp`` as rpart's complexity parameter);
                  ``tree: distribution`` splits where the normal law of x_j (mean and variance)
                  changes, by a likelihood-ratio test with Bonferroni correction over the
                  candidate splits, stopping at level ``alpha`` (after transformation trees,
                  which test the parameters of a normal transformation model). It is the tree
                  of :mod:`imlbench.explain.subgroup_tree` (``min_node_size``, ``max_depth``,
                  ``n_cuts``); its ``categorical_columns`` (indices of integer-coded columns,
                  default none) are split into sets of levels, and a categorical x_j among
                  them is modelled by its multinomial law;
``gaussian``      x_j | x_-j under a normal law with the training mean and covariance;
``knockoff``      second-order Gaussian model-X knockoff of x_j (``construction``:
                  equicorrelated, ours; sdp or mvr, through knockpy);
``impute_rf``     a random forest's prediction of x_j from x_-j plus a permuted residual
                  (``residuals: own``, of the rows being sampled, or ``train``: the
                  out-of-bag residuals of the training rows; ``n_estimators``,
                  ``min_samples_leaf``, ``max_features`` of the forest);
``exact``         the DGP's own conditional sampler (the truth's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from imlbench.explain.knockoffs import METHODS as KNOCKOFF_CONSTRUCTIONS
from imlbench.explain.subgroup_tree import fit_subgroup_tree
from imlbench.params import (
    Param,
    check_all,
    choice,
    either,
    integer,
    items,
    number,
    with_defaults,
)
from imlbench.registry import Registry

TREES = ("cart", "distribution")

#: the exact conditional law of the DGP, ``exact(X, features, rng)``
Exact = Callable[[np.ndarray, list[int], np.random.Generator], np.ndarray]


@dataclass
class FittedSampler:
    """A sampler fitted for feature j: ``draw(X, rng)`` gives new values of column j of X;
    ``groups(X)`` the subgroup of each row (one group for samplers without subgroups);
    ``groups(X, depth)`` of a subgroup tree: the subgroups of the tree cut back to ``depth``
    (the tree grown to that depth, since every split depends on its own node's rows only)."""

    j: int
    draw: Callable[[np.ndarray, np.random.Generator], np.ndarray]
    groups: Callable[..., np.ndarray]


def permute_within(x: np.ndarray, groups: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``x`` permuted within each group (a group of one row keeps its value)."""
    out = x.copy()
    order = np.argsort(groups, kind="stable")
    bounds = np.flatnonzero(np.diff(groups[order])) + 1
    for rows in np.split(order, bounds):
        out[rows] = x[rng.permutation(rows)]
    return out


def _one_group(X: np.ndarray, depth: int | None = None) -> np.ndarray:
    return np.zeros(len(X), dtype=int)


def _node_depths(children_left: np.ndarray, children_right: np.ndarray) -> np.ndarray:
    """Depth of every node of an sklearn tree (the root has depth 0)."""
    depth = np.zeros(len(children_left), dtype=int)
    for node in range(len(children_left)):  # children are numbered after their parent
        for child in (children_left[node], children_right[node]):
            if child != -1:
                depth[child] = depth[node] + 1
    return depth


def _cart_tree(X_other: np.ndarray, xj: np.ndarray, params: Mapping[str, Any], seed: int):
    from sklearn.tree import DecisionTreeRegressor

    # rpart's cp: a split must lower the root's sum of squares by cp times; in sklearn's
    # weighted impurity decrease that is cp times the root variance. rpart's minsplit (the
    # fewest rows a node needs to be split) is 3 minbucket when only minbucket is given
    min_split = params.get("min_split") or 3 * params["min_node_size"]
    tree = DecisionTreeRegressor(
        min_samples_leaf=params["min_node_size"],
        min_samples_split=min_split,
        max_depth=params["max_depth"],
        min_impurity_decrease=params["cp"] * float(np.var(xj)),
        random_state=seed,
    ).fit(X_other, xj)
    t = tree.tree_
    node_depth = _node_depths(t.children_left, t.children_right)

    def apply(X_new: np.ndarray, depth: int | None = None) -> np.ndarray:
        if depth is None:
            return tree.apply(X_new)
        # a row's node at ``depth``: the deepest node of its path no deeper than that, which
        # is the path's largest node id (ids grow along every path)
        keep = (node_depth <= depth) * (np.arange(t.node_count) + 1)
        path = tree.decision_path(X_new).multiply(keep[None, :])
        return np.asarray(path.max(axis=1).todense()).ravel().astype(np.int64) - 1

    return apply


@dataclass(frozen=True)
class SamplerSpec:
    """A registered sampler: ``build(X_train, j, others, rng, params, exact)`` fits it for
    feature j (``others``: the other columns); ``params`` are its declared parameters."""

    build: Callable[..., FittedSampler]
    params: Mapping[str, Param] = field(default_factory=dict)
    #: draws numeric values, so it cannot replace a categorical feature
    numeric_only: bool = False
    #: needs of the sampler ("conditional": the DGP's known conditional law)
    requires: frozenset[str] = frozenset()


SAMPLERS: Registry[SamplerSpec] = Registry("sampler")


def sampler(name: str, *, params: Mapping[str, Param] | None = None, numeric_only: bool = False,
            requires: frozenset[str] = frozenset()) -> Callable[[Callable], Callable]:
    """Register a sampler builder under ``name``."""

    def decorator(build: Callable[..., FittedSampler]) -> Callable[..., FittedSampler]:
        SAMPLERS.register(name, module=build.__module__)(
            SamplerSpec(build, dict(params or {}), numeric_only, frozenset(requires)))
        return build

    return decorator


@sampler("permutation")
def _permutation(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
                 params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    return FittedSampler(j, lambda X, r: r.permutation(X[:, j]), _one_group)


#: parameters of the subgroup tree (``cp`` and ``min_split``, rpart's minsplit, default
#: 3 min_node_size as rpart sets it from minbucket, for CART only; ``alpha`` and ``n_cuts`` for
#: the distribution tree only)
SUBGROUP_PARAMS: dict[str, Param] = {
    "tree": choice("cart", TREES),
    "min_node_size": integer(30, minimum=1),
    "max_depth": integer(30, minimum=0),
    "cp": number(0.01, minimum=0),
    "min_split": integer(None, minimum=2, nullable=True),
    "alpha": number(0.05, minimum=0, maximum=1),
    "n_cuts": integer(32, minimum=1),
    "categorical_columns": items(integer(minimum=0), ()),
}


@sampler("subgroups", params=SUBGROUP_PARAMS)
def _subgroups(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
               params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    tree = params["tree"]
    min_node = params["min_node_size"]
    if len(X_train) < 2 * min_node:
        raise ValueError(f"the subgroup tree needs at least 2 x min_node_size = "
                         f"{2 * min_node} training rows, got {len(X_train)}")
    if tree == "cart":
        apply = _cart_tree(X_train[:, others], X_train[:, j], params,
                           int(rng.integers(2**31 - 1)))

        def groups(X: np.ndarray, depth: int | None = None) -> np.ndarray:
            return apply(X[:, others], depth)
    else:
        fitted = fit_subgroup_tree(
            X_train, j, categorical=params["categorical_columns"],
            min_node_size=min_node, max_depth=params["max_depth"],
            alpha=params["alpha"], n_cuts=params["n_cuts"],
        )

        def groups(X: np.ndarray, depth: int | None = None) -> np.ndarray:
            return (fitted if depth is None else fitted.truncated(depth)).leaves(X)

    return FittedSampler(j, lambda X, r: permute_within(X[:, j], groups(X), r), groups)


@sampler("gaussian", numeric_only=True)
def _gaussian(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
              params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    mu, S = X_train.mean(axis=0), np.cov(X_train, rowvar=False)
    coef = np.linalg.solve(S[np.ix_(others, others)], S[others, j])
    sd = float(np.sqrt(max(S[j, j] - S[j, others] @ coef, 0.0)))

    def draw(X: np.ndarray, r: np.random.Generator) -> np.ndarray:
        mean = mu[j] + (X[:, others] - mu[others]) @ coef
        return mean + sd * r.standard_normal(len(X))

    return FittedSampler(j, draw, _one_group)


@sampler("knockoff", params={"construction": choice("equicorrelated", KNOCKOFF_CONSTRUCTIONS)},
         numeric_only=True)
def _knockoff(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
              params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    from imlbench.explain.knockoffs import gaussian_knockoffs, knockoff_s

    mu, S = X_train.mean(axis=0), np.cov(X_train, rowvar=False)
    construction = params["construction"]
    s = knockoff_s(S, construction)
    return FittedSampler(
        j, lambda X, r: gaussian_knockoffs(X, r, mu=mu, sigma=S, method=construction, s=s)[:, j],
        _one_group,
    )


@sampler("impute_rf", numeric_only=True, params={
    "n_estimators": integer(100, minimum=1),
    "min_samples_leaf": integer(5, minimum=1),
    "max_features": either(number(minimum=0), choice(None, ("sqrt", "log2")), default=1.0),
    "residuals": choice("own", ("own", "train")),
})
def _impute_rf(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
               params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    from sklearn.ensemble import RandomForestRegressor

    forest = RandomForestRegressor(
        n_estimators=params["n_estimators"],
        min_samples_leaf=params["min_samples_leaf"],
        max_features=params["max_features"],
        oob_score=True, random_state=int(rng.integers(2**31 - 1)), n_jobs=1,
    ).fit(X_train[:, others], X_train[:, j])
    residuals = params["residuals"]
    # training residuals are out-of-bag: in-sample ones would be shrunk by the fit
    train_resid = X_train[:, j] - forest.oob_prediction_ if residuals == "train" else None

    def draw(X: np.ndarray, r: np.random.Generator) -> np.ndarray:
        pred = forest.predict(X[:, others])
        pool = X[:, j] - pred if train_resid is None else train_resid
        return pred + r.choice(pool, size=len(X), replace=len(pool) < len(X))

    return FittedSampler(j, draw, _one_group)


@sampler("exact", requires=frozenset({"conditional"}))
def _exact(X_train: np.ndarray, j: int, others: list[int], rng: np.random.Generator,
           params: Mapping[str, Any], exact: Exact | None) -> FittedSampler:
    if exact is None:
        raise ValueError("the exact sampler needs a DGP with a known conditional law")
    return FittedSampler(j, lambda X, r: exact(X, [j], r)[:, 0], _one_group)


def fit_sampler(
    name: str,
    X_train: np.ndarray,
    j: int,
    rng: np.random.Generator,
    params: Mapping[str, Any] | None = None,
    exact: Exact | None = None,
    categorical: bool = False,
) -> FittedSampler:
    """Fit the registered sampler ``name`` for feature ``j`` on ``X_train`` (see the module doc).

    ``categorical``: x_j is an integer-coded category, which the samplers that model x_j as
    a number (gaussian, knockoff, impute_rf) cannot draw. ``params`` are checked against the
    sampler's declared parameters (:mod:`imlbench.params`).
    """
    spec = SAMPLERS.get(name)
    params = dict(params or {})
    check_all(spec.params, params, owner=f"sampler {name!r}")
    if categorical and spec.numeric_only:
        able = [s for s in SAMPLERS.names() if not SAMPLERS.get(s).numeric_only]
        raise ValueError(f"sampler {name!r} draws numeric values and cannot replace categorical "
                         f"feature {j}; use one of {', '.join(able)}")
    p = X_train.shape[1]
    if not 0 <= j < p:
        raise ValueError(f"feature index {j} is outside the {p} columns")
    others = [m for m in range(p) if m != j]
    return spec.build(X_train, j, others, rng, with_defaults(spec.params, params), exact)
