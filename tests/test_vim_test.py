"""Tests for the Wald test of zero MSE-based variable importance (Williamson et al. 2020)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ndtr

from imlbench.stats import mse_difference_test

REPS = 4000
N_ROWS = 400
ALPHA = 0.05
BINOM_SE = np.sqrt(ALPHA * (1 - ALPHA) / REPS)


def _rejection_rate(shift: float, split: bool, seed: int) -> float:
    rng = np.random.default_rng(seed)
    rejections = 0
    for _ in range(REPS):
        loss_full = rng.chisquare(3, N_ROWS)
        loss_reduced = rng.chisquare(3, N_ROWS) + shift
        out = mse_difference_test(loss_full, loss_reduced, alpha=ALPHA, rng=rng, split=split)
        rejections += out["reject"]
    return rejections / REPS


@pytest.mark.parametrize("split", [True, False])
def test_size_under_null(split: bool) -> None:
    assert abs(_rejection_rate(0.0, split, seed=1) - ALPHA) <= 3 * BINOM_SE


@pytest.mark.parametrize("split", [True, False])
def test_power_under_alternative(split: bool) -> None:
    assert _rejection_rate(1.0, split, seed=2) > 0.9


def test_paired_matches_formula() -> None:
    rng = np.random.default_rng(3)
    full, reduced = rng.chisquare(2, 50), rng.chisquare(2, 50) + 0.3
    out = mse_difference_test(full, reduced, split=False)
    d = reduced - full
    se = d.std(ddof=1) / np.sqrt(50)
    assert out["estimate"] == pytest.approx(d.mean())
    assert out["se"] == pytest.approx(se)
    assert out["z"] == pytest.approx(d.mean() / se)
    assert out["p_value"] == pytest.approx(1 - ndtr(d.mean() / se))
    assert out["reject"] == (out["p_value"] < 0.05)


def test_split_matches_formula_and_is_deterministic() -> None:
    rng = np.random.default_rng(4)
    full, reduced = rng.chisquare(2, 51), rng.chisquare(2, 51)
    out = mse_difference_test(full, reduced, rng=np.random.default_rng(5))
    perm = np.random.default_rng(5).permutation(51)
    a, b = perm[:25], perm[25:]
    est = reduced[b].mean() - full[a].mean()
    se = np.sqrt(full[a].var(ddof=1) / 25 + reduced[b].var(ddof=1) / 26)
    assert out["estimate"] == pytest.approx(est)
    assert out["se"] == pytest.approx(se)
    assert out["p_value"] == pytest.approx(1 - ndtr(est / se))
    assert mse_difference_test(full, reduced, rng=np.random.default_rng(5)) == out
    assert mse_difference_test(full, reduced, rng=np.random.default_rng(6)) != out


def test_zero_standard_error() -> None:
    loss = np.arange(10.0)
    same = mse_difference_test(loss, loss, split=False)
    assert same["z"] == 0.0 and same["p_value"] == 0.5 and not same["reject"]
    worse = mse_difference_test(loss, loss + 1.0, split=False)
    assert worse["z"] == np.inf and worse["p_value"] == 0.0 and worse["reject"]


def test_invalid_inputs_raise() -> None:
    rng = np.random.default_rng(7)
    x = np.ones(10)
    with pytest.raises(ValueError, match="same length"):
        mse_difference_test(x, np.ones(9), rng=rng)
    with pytest.raises(ValueError, match="at least 4 rows"):
        mse_difference_test(np.ones(3), np.ones(3), rng=rng)
    for alpha in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="alpha"):
            mse_difference_test(x, x, alpha=alpha, rng=rng)
    with pytest.raises(ValueError, match="rng"):
        mse_difference_test(x, x)
    with pytest.raises(ValueError, match="1-D"):
        mse_difference_test(np.ones((5, 2)), np.ones((5, 2)), rng=rng)
