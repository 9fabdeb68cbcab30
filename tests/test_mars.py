"""The additive MARS learner (``mars``, :mod:`imlbench.learners.mars`): it recovers hinge
truths, its vectorised knot search equals a brute-force search, and its rules are earth's.
Parity with R's ``earth`` itself: ``tests/test_r_parity.py``."""

import numpy as np
import pytest
from mars_truths import draw, two_knot

from imlbench.learners import LEARNERS, make_learner
from imlbench.learners.mars import Mars, end_span, gcv, knot_rows, min_span


def test_one_knot_on_the_grid_is_found_exactly():
    """``y = max(0, x - 0.5)`` on an even grid whose knot candidates hold 0.5: the fit is the
    truth, one hinge (its mirror pruned), to rounding."""
    n = 401
    rows = knot_rows(n, min_span(1, n), end_span(1))
    at = int(rows[np.argmin(np.abs(rows - n // 2))])
    x = 0.5 + (np.arange(n) - at) * 0.0025
    y = np.maximum(0, x - 0.5)
    fit = Mars().fit(x[:, None], y)
    assert fit.knots_ == [(0, 0.5)]
    assert len(fit.terms_) == 1
    np.testing.assert_allclose(fit.predict(x[:, None]), y, atol=1e-10)


def test_one_knot_on_random_rows_is_found_near_its_place():
    """Off the grid the knot is the candidate next to 0.5 (candidates lie about minspan / n =
    0.02 apart) and the predictions miss the truth by less than 0.01 (y spans 0.5)."""
    x = np.random.default_rng(3).uniform(0, 1, 300)
    y = np.maximum(0, x - 0.5)
    fit = Mars().fit(x[:, None], y)
    ((feature, knot),) = fit.knots_
    assert feature == 0 and abs(knot - 0.5) < 0.02
    grid = np.linspace(0, 1, 101)[:, None]
    assert np.abs(fit.predict(grid) - np.maximum(0, grid[:, 0] - 0.5)).max() < 0.01


def test_two_knots_are_found_near_their_places():
    """``y = max(0, x - 0.3) - 2 max(0, x - 0.7)`` on an even grid whose candidates hold both
    knots: the greedy forward pass first places a pair at 0.7375 and then knots at 0.2875 and
    0.6875, where R^2 passes 0.999 (earth 5.3 fits these same knots on these rows); every
    knot is within 0.05 of a true one and the fit misses y by less than 5% of its range."""
    x = (np.arange(401) - 2) * 0.0025
    y = np.maximum(0, x - 0.3) - 2 * np.maximum(0, x - 0.7)
    fit = Mars().fit(x[:, None], y)
    knots = [t for _, t in fit.knots_]
    assert all(min(abs(t - 0.3), abs(t - 0.7)) < 0.05 for t in knots)
    assert min(abs(t - 0.3) for t in knots) < 0.05 and min(abs(t - 0.7) for t in knots) < 0.05
    assert np.abs(fit.predict(x[:, None]) - y).max() < 0.05 * np.ptp(y)


def test_two_knots_of_the_book_are_found():
    """On the book's two-knot truth (no noise) x2's hinges sit within 0.15 of 4 and 0.05 of 6
    (the greedy pass brackets 4 by knots at 3.86 and 4.24, so every knot is within 0.25 of
    a true one), every feature enters, and the fit's RMSE on new rows is under 3% of y's
    SD."""
    X, y = draw(two_knot, 2700, seed=2)
    fit = Mars().fit(X, y)
    knots2 = [t for j, t in fit.knots_ if j == 1]
    assert all(min(abs(t - 4), abs(t - 6)) < 0.25 for t in knots2)
    assert min(abs(t - 4) for t in knots2) < 0.15 and min(abs(t - 6) for t in knots2) < 0.05
    assert {j for j, _, _ in fit.terms_} == {0, 1, 2}
    Xq, yq = draw(two_knot, 500, seed=3)
    assert np.sqrt(np.mean((fit.predict(Xq) - yq) ** 2)) < 0.03 * y.std()


def test_knot_search_equals_brute_force():
    """The first forward step (``nk = 3``) picks the knot that a least-squares fit of
    ``[1, x_j, max(0, x_j - t)]`` over every candidate knot of every feature picks."""
    r = np.random.default_rng(5)
    X = r.normal(size=(150, 2))
    y = np.sin(2 * X[:, 1]) + 0.3 * X[:, 0] + r.normal(0, 0.1, 150)
    rows = knot_rows(150, min_span(2, 150), end_span(2))
    best = (np.inf, None)
    for j in range(2):
        for t in np.sort(X[:, j])[rows]:
            B = np.column_stack([np.ones(150), X[:, j], np.maximum(0, X[:, j] - t)])
            rss = np.sum((y - B @ np.linalg.lstsq(B, y, rcond=None)[0]) ** 2)
            best = min(best, (rss, (j, t)), key=lambda b: b[0])
    fit = Mars(nk=3, thresh=0).fit(X, y)
    assert fit.knots_ == [best[1]]


def test_earth_rules():
    """earth's spans and knot grid (n = 500, p = 3: minspan 5, endspan 8; earth's knots fell on
    the sorted rows 124, 184, 324, 349, 459, the top one 489) and Friedman's GCV."""
    assert (min_span(3, 500), end_span(3)) == (5, 8)
    rows = knot_rows(500, 5, 8)
    assert rows[0] == 489 and rows[-1] >= 8 and {124, 184, 324, 349, 459} <= set(rows)
    assert np.diff(rows).tolist() == [-5] * (len(rows) - 1)
    # M = 3 terms: C = 3 + 2 * 1 = 5
    assert gcv(10.0, 3, 100, 2.0) == pytest.approx(10 / (100 * 0.95 ** 2))


def test_mars_is_registered_with_its_parameters():
    assert isinstance(make_learner("mars", {"thresh": 0.01}, random_state=0), Mars)
    assert set(LEARNERS.get("mars").params()) == {"nk", "thresh", "penalty", "minspan",
                                                   "endspan"}
    with pytest.raises(ValueError, match="minspan must be 0"):
        Mars(minspan=-1).fit(np.zeros((20, 1)), np.arange(20.0))
