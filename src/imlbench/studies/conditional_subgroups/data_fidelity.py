"""Data fidelity of conditional samplers (Molnar et al., Sect. 8, Definition 1, Algorithm 2).

Data fidelity of a sampler for feature j is -log MMD^2(D_ref, D~_test): D_ref are untouched
rows, D~_test other rows of the same data with x_j replaced by the sampler's draws; larger is
better. MMD^2 (Eq. 6) uses the RBF kernel k(x, z) = exp(-|x - z|^2 / (2 s^2)) with s the
median Euclidean distance over all pairs of the pooled rows (the median heuristic of Gretton
et al. 2012). The paper's estimator is the biased V-statistic (``mmd="v"``, diagonal terms
kept); ``mmd="u"`` leaves them out (the unbiased estimator of :mod:`imlbench.stats`).

One repetition (Algorithm 2): split the rows 40% train / 30% test / 30% reference, scale
every feature by the training mean and SD, fit each sampler on the training rows, perturb
x_j of the test rows, and compare with the reference rows. Samplers, by the paper's labels:

``perm``         x_j permuted (marginal);
``cart<d>``      x_j permuted within the leaves of a CART tree of depth <= d predicting x_j
                 from x_-j (cs-permutation, Sect. 4);
``trtr<d>``      the same with the distribution tree (our transformation-tree stand-in);
``ko``           the second-order Gaussian model-X knockoff of x_j;
``imp``          a random forest's prediction of x_j plus a training residual;
``ale``          x_j moved to the left and to the right border of its interval on a quantile
                 grid of the training x_j (the perturbed set has twice the test rows);
``cvirf``        x_j permuted within the leaves of one CART tree predicting the target y from
                 all features (the perturbation of CVIRF, Strobl et al. 2008, with one tree);
``none``         no perturbation (the upper bound).

Per feature, one tree of each type is grown to the deepest requested depth and cut back for
the shallower labels (equal to growing them, see :mod:`imlbench.explain.samplers`). The
squared distances of a repetition are computed once; for feature j only the column-j term
changes, so every sampler's MMD costs O(n^2) additions and exponentials.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from imlbench.explain.samplers import fit_sampler, permute_within
from imlbench.stats import sq_dists

#: the paper's samplers: model A (Sect. 8.1) and the tree depths of model B (Sect. 8.2).
SAMPLERS_A = ("perm", "cart30", "trtr30", "ko", "imp", "ale", "cvirf", "none")
SAMPLERS_B = tuple(f"{t}{d}" for t in ("cart", "trtr") for d in (1, 2, 3, 4, 5))
FIXED_SAMPLERS = ("perm", "ko", "imp", "ale", "cvirf", "none")
TREE_LABEL = re.compile(r"(cart|trtr)([1-9][0-9]*)")
MMD_ESTIMATORS = ("v", "u")
KNOCKOFF_MOMENTS = ("train", "test")
#: MMD^2 below this (a U-statistic can be negative) is floored before the logarithm.
MMD2_FLOOR = 1e-12


@dataclass(frozen=True)
class FidelitySettings:
    """Protocol settings; the defaults are the paper's where it states them (Sects. 5, 8)."""

    train_share: float = 0.4
    test_share: float = 0.3
    mmd: str = "v"
    cart: Mapping[str, Any] = field(default_factory=lambda: {"min_node_size": 30, "cp": 0.01})
    trtr: Mapping[str, Any] = field(default_factory=lambda: {"min_node_size": 30, "alpha": 0.05})
    imp: Mapping[str, Any] = field(default_factory=lambda: {
        "n_estimators": 100, "min_samples_leaf": 5, "max_features": "sqrt"})
    ko: Mapping[str, Any] = field(default_factory=lambda: {"construction": "sdp",
                                                           "moments": "train"})
    ale: Mapping[str, Any] = field(default_factory=lambda: {"grid_size": 30})
    cvirf: Mapping[str, Any] = field(default_factory=lambda: {"max_depth": 30,
                                                              "min_node_size": 30})

    def __post_init__(self) -> None:
        if self.mmd not in MMD_ESTIMATORS:
            raise ValueError(f"mmd {self.mmd!r} is not one of {', '.join(MMD_ESTIMATORS)}")
        if self.ko.get("moments", "train") not in KNOCKOFF_MOMENTS:
            raise ValueError(f"ko moments {self.ko['moments']!r} is not one of "
                             f"{', '.join(KNOCKOFF_MOMENTS)}")
        if not (0 < self.train_share and 0 < self.test_share
                and self.train_share + self.test_share < 1):
            raise ValueError("train_share and test_share must be positive and leave reference rows")


def check_samplers(labels: Sequence[str]) -> None:
    """Reject labels that are not a sampler of the module doc."""
    bad = [s for s in labels if s not in FIXED_SAMPLERS and not TREE_LABEL.fullmatch(s)]
    if bad:
        raise ValueError(f"unknown sampler label(s) {', '.join(bad)}; allowed: "
                         f"{', '.join(FIXED_SAMPLERS)}, cart<depth>, trtr<depth>")


# --- samplers beyond explain.samplers ---------------------------------------------------


def ale_borders(x_train: np.ndarray, x: np.ndarray, grid_size: int = 30
                ) -> tuple[np.ndarray, np.ndarray]:
    """Left and right border of the interval holding each x (ALE's perturbation, Table 1).

    The grid is the distinct empirical (inverse-CDF) quantiles of ``x_train`` at
    ``grid_size`` equally spaced probabilities from 0 to 1; intervals are [z_k, z_k+1), values
    outside the grid go to the first or last interval. A constant ``x_train`` gives a single
    grid value, which both borders take.
    """
    grid = np.unique(np.quantile(x_train, np.linspace(0.0, 1.0, grid_size),
                                 method="inverted_cdf"))
    if len(grid) < 2:
        return np.full(len(x), grid[0]), np.full(len(x), grid[0])
    k = np.clip(np.searchsorted(grid, x, side="right") - 1, 0, len(grid) - 2)
    return grid[k], grid[k + 1]


def target_tree_leaves(X_train: np.ndarray, y_train: np.ndarray, X: np.ndarray,
                       max_depth: int, min_node_size: int, seed: int) -> np.ndarray:
    """Leaf of each row of X in one classification tree of y on all features (CVIRF's
    conditioning grid, Strobl et al. 2008, with a single tree as in the paper's Sect. 8)."""
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(max_depth=max_depth, min_samples_leaf=min_node_size,
                                  random_state=seed).fit(X_train, y_train)
    return tree.apply(X)


# --- MMD over one repetition's rows ------------------------------------------------------


def _median_distance(sq: np.ndarray) -> float:
    """Median of the square roots of ``sq`` (reordered in place)."""
    m = len(sq)
    k = (m - 1) // 2
    if m % 2:
        sq.partition(k)
        return float(np.sqrt(sq[k]))
    sq.partition([k, k + 1])
    return float((np.sqrt(sq[k]) + np.sqrt(sq[k + 1])) / 2.0)


class RepDistances:
    """Squared distances between reference and test rows of one repetition.

    ``for_feature(j)`` removes the column-j term, so that :meth:`mmd2` only adds the term of
    the perturbed column back.
    """

    def __init__(self, reference: np.ndarray, test: np.ndarray) -> None:
        self.reference, self.test = reference, test
        n = len(reference)
        self.rr = sq_dists(reference, reference)[np.triu_indices(n, 1)]
        self.rt_all = sq_dists(reference, test)
        self.tt_all = sq_dists(test, test)
        self._triu: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._j: int | None = None

    def for_feature(self, j: int) -> None:
        r, t = self.reference[:, j], self.test[:, j]
        self.rt = self.rt_all - (r[:, None] - t[None, :]) ** 2
        self.tt = self.tt_all - (t[:, None] - t[None, :]) ** 2
        self._j = j

    def _upper(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        if n not in self._triu:
            self._triu[n] = np.triu_indices(n, 1)
        return self._triu[n]

    def mmd2(self, rows: np.ndarray, xj: np.ndarray, estimator: str = "v") -> float:
        """MMD^2 between the reference rows and the test rows ``rows`` with column j set to
        ``xj`` (Eq. 6 for ``"v"``), bandwidth by the median heuristic over the pooled rows."""
        if self._j is None:
            raise RuntimeError("call for_feature(j) first")
        r = self.reference[:, self._j]
        tt = self.tt[np.ix_(rows, rows)] + (xj[:, None] - xj[None, :]) ** 2
        tt = tt[self._upper(len(rows))]
        rt = (self.rt[:, rows] + (r[:, None] - xj[None, :]) ** 2).ravel()
        s = _median_distance(np.concatenate([self.rr, tt, rt]))
        g = -1.0 / (2.0 * s * s) if s > 0 else -1.0
        s_rr = np.exp(g * self.rr).sum()
        s_tt = np.exp(np.multiply(g, tt, out=tt), out=tt).sum()
        s_rt = np.exp(np.multiply(g, rt, out=rt), out=rt).sum()
        n, m = len(self.reference), len(rows)
        if estimator == "v":
            return float((n + 2 * s_rr) / n**2 + (m + 2 * s_tt) / m**2 - 2 * s_rt / (n * m))
        return float(2 * s_rr / (n * (n - 1)) + 2 * s_tt / (m * (m - 1)) - 2 * s_rt / (n * m))


# --- one repetition ----------------------------------------------------------------------


def _child(base: int, j: int, label: str) -> np.random.Generator:
    """A stream per (feature, sampler): adding a sampler leaves the others' draws unchanged."""
    return np.random.default_rng([base, j, zlib.crc32(label.encode())])


def _scale(train: np.ndarray, *parts: np.ndarray) -> list[np.ndarray]:
    mean, sd = train.mean(axis=0), train.std(axis=0, ddof=1)
    sd = np.where(sd > 0, sd, 1.0)
    return [(p - mean) / sd for p in (train, *parts)]


def _knockoffs(train: np.ndarray, test: np.ndarray, settings: FidelitySettings,
               rng: np.random.Generator) -> np.ndarray:
    """One knockoff copy of the test rows, moments from the training (paper) or test rows.

    A column without variance in the rows the moments come from has a degenerate Gaussian
    law: its knockoff is its mean, and the other columns' knockoffs are built without it.
    """
    from imlbench.explain.knockoffs import estimate_sigma, gaussian_knockoffs

    method = settings.ko.get("construction", "sdp")
    source = test if settings.ko.get("moments", "train") == "test" else train
    varies = source.var(axis=0) > 0
    out = np.tile(source.mean(axis=0), (len(test), 1))
    out[:, varies] = gaussian_knockoffs(test[:, varies], rng, mu=source[:, varies].mean(axis=0),
                                        sigma=estimate_sigma(source[:, varies]), method=method)
    return out


def fidelity_repetition(
    X: np.ndarray,
    y: np.ndarray,
    features: Sequence[int],
    samplers: Sequence[str],
    rng: np.random.Generator,
    settings: FidelitySettings | None = None,
) -> pd.DataFrame:
    """One repetition of Algorithm 2 on the rows (X, y): one row per (feature, sampler) with
    ``value`` = -log MMD^2 (data fidelity) and ``mmd2``; ``feature`` is the column index."""
    settings = settings or FidelitySettings()
    check_samplers(samplers)
    n = len(X)
    perm = rng.permutation(n)
    n_train, n_test = int(round(settings.train_share * n)), int(round(settings.test_share * n))
    tr, te, rf = perm[:n_train], perm[n_train:n_train + n_test], perm[n_train + n_test:]
    train, test, ref = _scale(X[tr], X[te], X[rf])
    dist = RepDistances(ref, test)
    base = int(rng.integers(2**62))
    leaves = knock = None
    if "cvirf" in samplers:
        c = settings.cvirf
        leaves = target_tree_leaves(train, y[tr], test, int(c.get("max_depth", 30)),
                                    int(c.get("min_node_size", 30)), base % 2**31)
    if "ko" in samplers:
        knock = _knockoffs(train, test, settings, _child(base, 0, "ko-copy"))
    all_rows = np.arange(len(test))
    deepest = {}  # tree type -> its deepest requested depth: one tree, cut back for the others
    for label in samplers:
        if m := TREE_LABEL.fullmatch(label):
            deepest[m.group(1)] = max(deepest.get(m.group(1), 0), int(m.group(2)))
    out = []
    for j in features:
        dist.for_feature(j)
        trees = {t: _tree(t, d, train, j, _child(base, j, t), settings)
                 for t, d in deepest.items()}
        for label in samplers:
            r = _child(base, j, label)
            rows, xj = all_rows, None
            if label == "none":
                xj = test[:, j]
            elif label == "ko":
                xj = knock[:, j]
            elif label == "cvirf":
                xj = permute_within(test[:, j], leaves, r)
            elif m := TREE_LABEL.fullmatch(label):
                groups = trees[m.group(1)].groups(test, int(m.group(2)))
                xj = permute_within(test[:, j], groups, r)
            elif label == "ale":
                left, right = ale_borders(train[:, j], test[:, j],
                                          int(settings.ale.get("grid_size", 30)))
                rows, xj = np.concatenate([all_rows, all_rows]), np.concatenate([left, right])
            else:
                xj = _fit(label, train, j, r, settings).draw(test, r)
            mmd2 = dist.mmd2(rows, xj, settings.mmd)
            out.append({"feature": int(j), "sampler": label, "mmd2": mmd2,
                        "value": -float(np.log(max(mmd2, MMD2_FLOOR)))})
    frame = pd.DataFrame(out)
    frame["n_test"], frame["n_reference"] = len(test), len(ref)
    return frame


def _fit(label: str, train: np.ndarray, j: int, rng: np.random.Generator,
         settings: FidelitySettings):
    """The sampler of :mod:`imlbench.explain.samplers` behind ``perm`` and ``imp``."""
    if label == "perm":
        return fit_sampler("permutation", train, j, rng)
    return fit_sampler("impute_rf", train, j, rng, {**settings.imp, "residuals": "train"})


def _tree(kind: str, depth: int, train: np.ndarray, j: int, rng: np.random.Generator,
          settings: FidelitySettings):
    """The subgroup tree of ``cart<depth>`` or ``trtr<depth>`` for feature j."""
    params = {**(settings.cart if kind == "cart" else settings.trtr),
              "tree": "cart" if kind == "cart" else "distribution", "max_depth": depth}
    return fit_sampler("subgroups", train, j, rng, params)
