"""``mars`` against R's ``earth(x, y)`` with every default, on the book's ch. 13 truths and on
designs beyond them: continuous features, a 0/1 feature, a factor
handed over as integer codes in a numeric column (as the studies hand features to learners;
earth gets the same numeric matrix), 25 and 30 features, pure noise and at most 100 rows.
Each design is compared on what the studies read: the terms kept after pruning and the
predictions on new rows. earth is deterministic, so both must agree to rounding.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from mars_truths import draw, one_knot, two_knot
from test_r_parity import _needs, _run_r

from imlbench.learners import make_learner

pytestmark = pytest.mark.workflow  # each test starts Rscript

Design = Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]


def _continuous(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Four U(0, 10) features: a sine, a hinge at 4, a line and one unused."""
    X = r.uniform(0, 10, (n, 4))
    return X, 3 * np.sin(X[:, 0]) + 2 * np.maximum(0, X[:, 1] - 4) + X[:, 2]


def _binary(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """U(0, 1), a 0/1 feature (P(1) = 0.4) with a step of 5, and |N(0, 1)|."""
    X = np.column_stack([r.uniform(0, 1, n), r.uniform(size=n) < 0.4, r.normal(size=n)])
    return X.astype(float), 2 * X[:, 0] + 5 * X[:, 1] + np.abs(X[:, 2])


def _factor(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """N(5, 1), a 4-level factor as codes 0..3 (effects 0, 2, -1, 3), and U(0, 1) squared."""
    X = np.column_stack([r.normal(5, 1, n), r.integers(0, 4, n), r.uniform(0, 1, n)])
    return X, X[:, 0] + np.array([0, 2, -1, 3])[X[:, 1].astype(int)] + 2 * X[:, 2] ** 2


def _sines25(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """25 U(0, 1) features, ten sines and a square: the forward pass adds hinge pairs only,
    so earth's fast-MARS queue (``fast.k`` 20) ends it after 10 pairs."""
    X = r.uniform(size=(n, 25))
    return X, np.sin(3 * X[:, :10]).sum(axis=1) + 3 * X[:, 10] ** 2


def _friedman25(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Friedman's (1991) first function of five U(0, 1) features, 20 more unused."""
    X = r.uniform(size=(n, 25))
    return X, (10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2
               + 10 * X[:, 3] + 5 * X[:, 4])


def _wide(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """30 U(0, 1) features (few rows), a line and a V in the first two."""
    X = r.uniform(size=(n, 30))
    return X, 4 * X[:, 0] + 3 * np.abs(X[:, 1] - 0.5)


def _noise(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Five N(0, 1) features and y independent of them (all of y is the noise)."""
    return r.normal(size=(n, 5)), np.zeros(n)


def _small(r: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Three U(-1, 1) features, a V and a line."""
    X = r.uniform(-1, 1, (n, 3))
    return X, np.abs(X[:, 0]) + X[:, 1]


#: name: (design, rows, noise SD added to y, seed)
DESIGNS: dict[str, tuple[Design, int, float, int]] = {
    "continuous": (_continuous, 400, 0.5, 1),
    "binary": (_binary, 300, 0.05, 2),
    "factor_codes": (_factor, 500, 0.3, 3),
    "sines_p25": (_sines25, 500, 0.3, 5),
    "friedman_p25": (_friedman25, 300, 1.0, 4),
    "wide_p30_n80": (_wide, 80, 0.2, 6),
    "pure_noise": (_noise, 200, 1.0, 2),
    "pure_noise_again": (_noise, 200, 1.0, 6),
    "small_n60": (_small, 60, 0.1, 7),
}


def _draw(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows, y (with its noise) and 100 new rows of the design ``name``."""
    design, n, sd, seed = DESIGNS[name]
    r = np.random.default_rng(seed)
    X, f = design(r, n)
    Xq, _ = design(r, 100)
    return X, f + r.normal(0, sd, n), Xq


def _earth(X: np.ndarray, y: np.ndarray, Xq: np.ndarray, tmp_path: Path
           ) -> tuple[np.ndarray, np.ndarray]:
    """earth's kept terms (feature, cut, dirs; a linear term has dirs 2 and cut 0) and its
    predictions on ``Xq``."""
    for name, a in (("X", X), ("y", y), ("Xq", Xq)):
        np.savetxt(tmp_path / f"{name}.csv", a, delimiter=",", fmt="%.17g")
    _run_r("""
        suppressMessages(library(earth))
        X <- as.matrix(read.csv("X.csv", header = FALSE))
        y <- read.csv("y.csv", header = FALSE)[[1]]
        Xq <- as.matrix(read.csv("Xq.csv", header = FALSE))
        colnames(Xq) <- colnames(X)
        fit <- earth(X, y)
        writeLines(sprintf("%.17g", predict(fit, Xq)), "pred.txt")
        used <- fit$selected.terms[-1]
        lines <- character(0)
        for (term in used) {
            j <- which(fit$dirs[term, ] != 0)
            lines <- c(lines, sprintf("%d %.17g %d", j - 1, fit$cuts[term, j],
                                      as.integer(fit$dirs[term, j])))
        }
        writeLines(lines, "terms.txt")
    """, tmp_path)
    terms = [[float(v) for v in line.split()]
             for line in (tmp_path / "terms.txt").read_text().splitlines()]
    return np.array(terms).reshape(-1, 3), np.loadtxt(tmp_path / "pred.txt")


@_needs("earth")
@pytest.mark.parametrize("name", list(DESIGNS))
def test_mars_fits_as_earth_beyond_the_book(tmp_path, name):
    """The same terms as earth's after pruning (so the same number), each knot the same data
    value (exactly: both copy it from x), and the same predictions on new rows to ``1e-9``
    of y's largest magnitude: both refit least squares on the same columns, whose rounding
    (the kept basis's condition number, under 400 on these designs, times 2.2e-16, relative
    to y) stays far below that, while a differing term moved predictions by 0.7 or more
    where the learner differed from earth."""
    X, y, Xq = _draw(name)
    theirs, predicted = _earth(X, y, Xq, tmp_path)
    fit = make_learner("mars", {}, random_state=0).fit(X, y)
    ours = _terms(fit)
    assert len(ours) == len(theirs)
    np.testing.assert_array_equal(_rows_sorted(ours), _rows_sorted(theirs))
    np.testing.assert_allclose(fit.predict(Xq), predicted, rtol=0,
                               atol=1e-9 * np.abs(y).max())


@_needs("earth")
@pytest.mark.parametrize("truth, n, seed", [(one_knot, 2250, 1), (two_knot, 2700, 2)])
def test_mars_fits_as_earth_on_the_book_truths(tmp_path, truth, n, seed):
    """``mars`` against ``earth(x, y)`` on the book's ch. 13 one-knot and two-knot truths with
    the authors' heteroscedastic noise (90% of their n): the selected terms are earth's, each
    knot the same data value (to 1e-12), and the predictions on new rows agree to 1e-8 (y near
    20: earth fits on a scaled y, so rounding differs)."""
    X, y = draw(truth, n, seed, noise=True)
    Xq, _ = draw(truth, 300, seed + 100)
    theirs, predicted = _earth(X, y, Xq, tmp_path)
    fit = make_learner("mars", {}, random_state=0).fit(X, y)
    np.testing.assert_allclose(_rows_sorted(_terms(fit)), _rows_sorted(theirs), rtol=1e-12,
                               atol=0)
    knotted = 0 if truth is one_knot else 1  # the feature whose truth has knots
    assert any(j == knotted for j, _ in fit.knots_)
    np.testing.assert_allclose(fit.predict(Xq), predicted, rtol=0, atol=1e-8)


def _terms(fit) -> np.ndarray:
    """The fitted terms as earth writes them: feature, cut, direction; earth codes a linear
    term as direction 2 with cut 0, ours as 0 with the minimum."""
    return np.array([(j, t if d else 0.0, d if d else 2) for j, t, d in fit.terms_]).reshape(-1, 3)


def _rows_sorted(a: np.ndarray) -> np.ndarray:
    """The rows of ``a`` in lexicographic order (first column first)."""
    return a[np.lexsort(a.T[::-1])]
