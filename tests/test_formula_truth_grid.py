"""The formula DGP's ``truth_grid``: its effect truths at the quantiles of each feature's law,
checked against the closed forms of Heiß et al.'s (2026) SNC process, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from imlbench.dgp.formula import FormulaDGP
from imlbench.params import ParamError
from imlbench.seeds import rng_for
from imlbench.truth.formula import effects_table

#: x1..x4 ~ N(0, 1), corr(x1, x2) = 0.9: PD_1 = x1 + c, PD_2 = 0.5 x2^2, ALE_1 = 0.45 x1^2 + x1,
#: ALE_2 = 0.95 x2^2 (E[x2 | x1] = 0.9 x1, so d/dx1 E[f | x1] = 1 + 0.9 x1 along the
#: conditional law; d/dx2 f = x2 + x1 with E[x1 | x2] = 0.9 x2), and 0 for x3, x4
SNC = {"features": {f"x{i}": {"law": "normal"} for i in range(1, 5)},
       "dependence": {"features": ["x1", "x2"], "correlation": [[1, 0.9], [0.9, 1]]},
       "f": "x1 + 0.5*x2**2 + x1*x2", "noise": {"snr": 5}}
CLOSED = {("pd", "x1"): lambda z: z, ("pd", "x2"): lambda z: 0.5 * z**2,
          ("ale", "x1"): lambda z: 0.45 * z**2 + z, ("ale", "x2"): lambda z: 0.95 * z**2,
          ("pd", "x3"): lambda z: 0 * z, ("ale", "x4"): lambda z: 0 * z}


@pytest.fixture(scope="module")
def truths():
    d = FormulaDGP(**SNC, truth_grid={"size": 12, "trim": 1})
    return effects_table(d, lambda label: rng_for(7, "truth_grid", label))


def test_the_truths_sit_at_the_laws_quantiles_less_the_trimmed_ends(truths):
    want = norm.ppf(np.linspace(0.0001, 0.9999, 12))[1:-1]
    for (estimand, feature), _ in CLOSED.items():
        x = truths[(truths["estimand"] == estimand) & (truths["feature"] == feature)]["x"]
        np.testing.assert_allclose(x, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize(("estimand", "feature"), list(CLOSED))
def test_the_truths_equal_the_closed_forms_within_their_monte_carlo_error(truths, estimand,
                                                                          feature):
    t = truths[(truths["estimand"] == estimand) & (truths["feature"] == feature)]
    x, v, se = (t[c].to_numpy(float) for c in ("x", "value", "se"))
    closed = CLOSED[(estimand, feature)](x)
    # both centred at their mean over the points (the curves are defined up to a constant);
    # the centred error of a point is within 4 of the largest point SE (the means' errors
    # are correlated across points, so the centring may double a point's own error)
    error = (v - v.mean()) - (closed - closed.mean())
    assert np.abs(error).max() <= 4 * 2 * se.max() + 1e-9, (np.abs(error).max(), se.max())


def test_the_noise_sd_is_the_laws_sd_of_f_over_the_ratio():
    # Var f = E f^2 - (E f)^2 with E f = 0.5 + rho and E f^2 = 1 + 3/4 + (1 + 2 rho^2) + 3 rho
    rho = 0.9
    sd = np.sqrt(1 + 0.75 + 1 + 2 * rho**2 + 3 * rho - (0.5 + rho) ** 2)
    d = FormulaDGP(**SNC, truth_grid={"size": 12, "trim": 1})
    assert abs(d.noise_sd - sd / 5) <= 3 * d.noise_sd_se


@pytest.mark.parametrize(("grid", "key"), [
    ({"size": 10, "probs": [0.9, 0.1]}, "truth_grid.probs"),
    ({"size": 10, "trim": 5}, "truth_grid.trim"),
])
def test_a_truth_grid_that_leaves_no_points_is_refused_at_its_key(grid, key):
    with pytest.raises(ParamError) as err:
        FormulaDGP(**SNC, truth_grid=grid)
    assert err.value.key == key
