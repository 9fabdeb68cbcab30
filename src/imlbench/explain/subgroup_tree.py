"""Subgroup trees with readable rules: the conditional-subgroups partition of one feature.

cs-PFI and cs-PDP (Molnar et al., conditional subgroups, Sect. 4, Algorithm 1) permute x_j
within the leaves of a tree fitted to predict x_j from the other features on the training
rows. This tree is our stand-in for the paper's transformation trees (ctree for a categorical
x_j): it is the ``distribution`` tree of the samplers (:func:`imlbench.explain.samplers.
fit_sampler`), and it keeps its splits, so that every subgroup has a rule such as
"season = SUMMER and hum > 70.8" (Sect. 10).

Nodes are numbered as a heap (the children of node k are 2k + 1, left, and 2k + 2, right) and
grown depth first. At a node, every candidate split of every other feature is scored by a
likelihood-ratio statistic of the law of x_j in the two children against one law for the node:
the normal law (mean and variance; chi-square with 2 df) for a numeric x_j, or the
multinomial law of its levels (K - 1 df for K levels in the node) for a categorical x_j, as
ctree tests a factor response. Candidate splits are x <= c at ``n_cuts`` inner quantiles of a
numeric feature's node values, and every bipartition "x in S" of the levels a categorical
feature takes in the node (ctree's factor splits). The best split is made when its
Bonferroni-adjusted p-value (the candidate count times the chi-square tail) is at most
``alpha``, each child keeps ``min_node_size`` rows and the depth is below ``max_depth``; ties
go to the lowest feature index and, within a feature, to the first candidate. The cuts of the
numeric features for a numeric x_j are scored all at once from cumulative sums
(:func:`_best_normal_split`), the other candidates one by one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

#: floor of a variance, so that the log-likelihood of a constant node stays finite
TINY = 1e-300

#: a categorical feature with more levels would need too many bipartitions (2^(L-1) - 1)
MAX_LEVELS = 12

#: a leaf's condition on one feature: (lo, hi] for a numeric one, the allowed levels otherwise
Condition = tuple[float, float] | frozenset[float]


@dataclass(frozen=True)
class Split:
    """The split of one node: left iff x_feature <= threshold (numeric) or x_feature in
    left_levels (categorical; ``threshold`` is NaN)."""

    feature: int
    threshold: float
    left_levels: frozenset[float] | None
    n: int
    statistic: float

    def left(self, column: np.ndarray) -> np.ndarray:
        if self.left_levels is None:
            return column <= self.threshold
        return np.isin(column, list(self.left_levels))


def node_depth(node: int) -> int:
    """Depth of a heap-numbered node (the root has depth 0)."""
    return (node + 1).bit_length() - 1


@dataclass(frozen=True)
class SubgroupTree:
    """A fitted subgroup tree of feature ``j``: ``splits`` maps internal nodes to splits,
    ``levels`` the categorical columns to the levels seen in training."""

    j: int
    splits: Mapping[int, Split]
    levels: Mapping[int, frozenset[float]]

    def leaves(self, X: np.ndarray) -> np.ndarray:
        """The leaf (subgroup id) of each row of X; a level unseen in training goes right."""
        leaf = np.zeros(len(X), dtype=np.int64)
        active = np.isin(leaf, list(self.splits))
        while active.any():
            for node in np.unique(leaf[active]):
                at = leaf == node
                split = self.splits[int(node)]
                leaf[at] = np.where(split.left(X[at, split.feature]), 2 * node + 1, 2 * node + 2)
            active = np.isin(leaf, list(self.splits))
        return leaf

    def truncated(self, depth: int) -> SubgroupTree:
        """The tree grown with max depth ``depth`` (splits do not depend on the depth limit)."""
        kept = {k: s for k, s in self.splits.items() if node_depth(k) < depth}
        return SubgroupTree(self.j, kept, self.levels)

    def split_features(self) -> list[int]:
        """The columns the tree splits on, ascending."""
        return sorted({s.feature for s in self.splits.values()})

    def conditions(self, leaf: int) -> dict[int, Condition]:
        """The rule of a leaf, one condition per feature on its path, in root-first order."""
        path = []
        node = leaf
        while node > 0:
            parent = (node - 1) // 2
            path.append((parent, node == 2 * parent + 1))
            node = parent
        out: dict[int, Condition] = {}
        for parent, went_left in reversed(path):
            s = self.splits[parent]
            if s.left_levels is None:
                lo, hi = out.get(s.feature, (-np.inf, np.inf))
                out[s.feature] = (lo, min(hi, s.threshold)) if went_left else (
                    max(lo, s.threshold), hi)
            else:
                seen = out.get(s.feature, self.levels[s.feature])
                side = s.left_levels if went_left else self.levels[s.feature] - s.left_levels
                out[s.feature] = frozenset(seen) & side
        return out


def describe(conditions: Mapping[int, Condition], names: Sequence[str],
             level_names: Mapping[str, Mapping[int, str]] | None = None) -> str:
    """A rule as text, e.g. "season = SUMMER and hum > 70.8" ("all rows" for the root)."""
    level_names = level_names or {}
    parts = []
    for m, cond in conditions.items():
        name = names[m]
        if isinstance(cond, frozenset):
            labels = [level_names.get(name, {}).get(int(v), f"{v:g}") for v in sorted(cond)]
            parts.append(f"{name} = {labels[0]}" if len(labels) == 1
                         else f"{name} in {{{', '.join(labels)}}}")
        else:
            lo, hi = cond
            if np.isfinite(lo) and np.isfinite(hi):
                parts.append(f"{lo:.4g} < {name} <= {hi:.4g}")
            elif np.isfinite(hi):
                parts.append(f"{name} <= {hi:.4g}")
            else:
                parts.append(f"{name} > {lo:.4g}")
    return " and ".join(parts) or "all rows"


def _nll(v: np.ndarray) -> float:
    """Twice the negative normal log-likelihood of v at its own mean and variance, up to a
    constant per row: n log var(v)."""
    return len(v) * np.log(max(np.var(v), TINY))


def _normal_lr(y: np.ndarray, left: np.ndarray, nll_y: float) -> float:
    """Log-likelihood ratio (x2) of two normals (mean and variance) against one; ``nll_y`` is
    :func:`_nll` of the whole node, computed once per node."""
    return nll_y - _nll(y[left]) - _nll(y[~left])


def _multinomial_lr(codes: np.ndarray, left: np.ndarray, k: int) -> float:
    """Log-likelihood ratio (x2) of two multinomial laws of the codes 0..k-1 against one."""

    def n_entropy(c: np.ndarray) -> float:
        counts = np.bincount(c, minlength=k)
        counts = counts[counts > 0]
        return float(-np.sum(counts * np.log(counts / counts.sum())))

    return 2.0 * (n_entropy(codes) - n_entropy(codes[left]) - n_entropy(codes[~left]))


def _best_normal_split(
    C: np.ndarray, y: np.ndarray, min_node: int, n_cuts: int
) -> tuple[float, int, float, int] | None:
    """The cut of a node that most raises the normal likelihood of ``y`` (mean and variance
    on both sides against one normal): (likelihood-ratio statistic, column, threshold, number
    of cuts tested), or None when no cut leaves ``min_node`` rows on both sides.

    Candidate cuts are the ``n_cuts`` inner quantiles of each column; a row goes left when its
    value is at most the cut. Variances come from cumulative sums over each sorted column
    (with ``y`` centred), so every cut of a column costs O(1) after one sort. Ties go to the
    first column and the lowest cut.
    """
    n, q = C.shape
    yc = y - y.mean()
    order = np.argsort(C, axis=0, kind="stable")
    sorted_c = np.take_along_axis(C, order, axis=0)
    s1, s2 = np.cumsum(yc[order], axis=0), np.cumsum(yc[order] ** 2, axis=0)
    quantiles = np.quantile(C, np.linspace(0, 1, n_cuts + 2)[1:-1], axis=0)
    nll_node = _nll(y)
    best, tests = None, 0
    for m in range(q):
        cuts = np.unique(quantiles[:, m])
        n_left = np.searchsorted(sorted_c[:, m], cuts, side="right")
        ok = (n_left >= min_node) & (n_left <= n - min_node)
        tests += int(ok.sum())
        if not ok.any():
            continue
        cuts, n_left = cuts[ok], n_left[ok]
        n_right = n - n_left
        l1, l2 = s1[n_left - 1, m], s2[n_left - 1, m]
        r1, r2 = s1[-1, m] - l1, s2[-1, m] - l2
        var_l = np.maximum(l2 / n_left - (l1 / n_left) ** 2, TINY)
        var_r = np.maximum(r2 / n_right - (r1 / n_right) ** 2, TINY)
        stat = nll_node - n_left * np.log(var_l) - n_right * np.log(var_r)
        k = int(np.argmax(stat))
        if best is None or stat[k] > best[0]:
            best = (float(stat[k]), m, float(cuts[k]))
    return None if best is None else (*best, tests)


#: a scored split: (statistic, feature, threshold, left levels)
Candidate = tuple[float, int, float, frozenset[float] | None]


def _candidates(
    X: np.ndarray, rows: np.ndarray, features: Sequence[int], categorical: Collection[int],
    n_cuts: int,
) -> Iterator[tuple[int, float, frozenset[float] | None, np.ndarray]]:
    """(feature, threshold, left levels, left mask) of every candidate split of a node."""
    for m in features:
        col = X[rows, m]
        if m in categorical:
            levels = np.unique(col)
            if len(levels) > MAX_LEVELS:
                raise ValueError(f"categorical feature {m} has {len(levels)} levels; at most "
                                 f"{MAX_LEVELS} are split by bipartitions")
            # subsets of all but the last level: each bipartition once
            for size in range(1, len(levels)):
                for subset in itertools.combinations(levels[:-1], size):
                    yield m, np.nan, frozenset(subset), np.isin(col, subset)
        else:
            for c in np.unique(np.quantile(col, np.linspace(0, 1, n_cuts + 2)[1:-1])):
                yield m, float(c), None, col <= c


def _search_one_by_one(
    X: np.ndarray, rows: np.ndarray, features: Sequence[int], categorical: Collection[int],
    n_cuts: int, min_node: int, score: Callable[[np.ndarray], float],
) -> tuple[Candidate | None, int]:
    """The best candidate split of ``features`` by ``score`` (of the left mask) and the number
    of candidates that leave ``min_node`` rows on both sides."""
    best, tests = None, 0
    for m, c, levels, left in _candidates(X, rows, features, categorical, n_cuts):
        if min_node <= left.sum() <= len(rows) - min_node:
            tests += 1
            stat = score(left)
            if best is None or stat > best[0]:
                best = (stat, m, c, levels)
    return best, tests


def fit_subgroup_tree(
    X: np.ndarray,
    j: int,
    *,
    categorical: Collection[int] = (),
    min_node_size: int = 30,
    max_depth: int = 2,
    alpha: float = 0.05,
    n_cuts: int = 32,
) -> SubgroupTree:
    """The subgroup tree of feature ``j`` fitted on the rows of ``X`` (see the module doc);
    ``categorical`` lists the integer-coded columns (x_j among them: multinomial law)."""
    from scipy.stats import chi2

    p = X.shape[1]
    if not 0 <= j < p:
        raise ValueError(f"feature index {j} is outside the {p} columns")
    cats = set(categorical)
    target = X[:, j]
    codes = np.unique(target, return_inverse=True)[1] if j in cats else None
    others = [m for m in range(p) if m != j]
    # numeric features splitting a numeric x_j: all their cuts scored at once
    fast = [m for m in others if m not in cats] if codes is None else []
    slow = [m for m in others if m not in fast]
    X_fast = X[:, fast]
    splits: dict[int, Split] = {}

    def grow(rows: np.ndarray, node: int, depth: int) -> None:
        if depth >= max_depth or len(rows) < 2 * min_node_size:
            return
        if codes is None:
            y = target[rows]
            score, df = partial(_normal_lr, y, nll_y=_nll(y)), 2
        else:
            score = partial(_multinomial_lr, codes[rows], k=int(codes.max()) + 1)
            df = len(np.unique(codes[rows])) - 1
            if df < 1:
                return
        best, tests = _search_one_by_one(X, rows, slow, cats, n_cuts, min_node_size, score)
        found = _best_normal_split(X_fast[rows], y, min_node_size, n_cuts) if fast else None
        if found is not None:
            stat, k, c, n_tests = found
            tests += n_tests
            if best is None or (stat, -fast[k]) > (best[0], -best[1]):
                best = (stat, fast[k], c, None)
        if best is None or min(1.0, tests * chi2.sf(best[0], df=df)) > alpha:
            return
        stat, m, c, levels = best
        split = Split(m, c, levels, len(rows), float(stat))
        splits[node] = split
        left = split.left(X[rows, m])
        grow(rows[left], 2 * node + 1, depth + 1)
        grow(rows[~left], 2 * node + 2, depth + 1)

    grow(np.arange(len(X)), 0, 0)
    levels = {m: frozenset(np.unique(X[:, m]).tolist()) for m in cats if m != j}
    return SubgroupTree(j, splits, levels)
