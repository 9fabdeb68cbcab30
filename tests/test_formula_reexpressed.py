"""A shipped hand-written DGP re-expressed as a formula gives the same truths: the
extrapolation study's ``extrapolation.copula_linear`` (uniform features, a Gaussian copula between
x1 and x2, f linear) against ``dgp: formula`` with the same laws. ``extrapolation.copula_linear``
keeps its own
truths (closed forms, exact); the formula DGP's are Monte Carlo (uniform marginals are not
jointly normal), so each comparison allows 3 family-wise Monte Carlo SE of the formula truth."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from imlbench.dgp.base import make_dgp
from imlbench.seeds import rng_for
from imlbench.studies.extrapolation.dgp_copula import CopulaLinear
from imlbench.truth import TRUTHS

BETA, RHO = [1.0, 2.0, -1.0], 0.7
FORMULA = {
    "features": {f"x{j}": {"law": "uniform", "low": 0, "high": 1} for j in (1, 2, 3)},
    "dependence": {"features": ["x1", "x2"], "correlation": [[1, RHO], [RHO, 1]]},
    "f": "1*x1 + 2*x2 - 1*x3",
    "noise_sd": 0.5,
}


def _bound(n: int) -> float:
    """A two-sided 3-sigma bound (0.27% false alarms) for n values checked together."""
    return float(norm.ppf(1 - 0.00135 / n))


pytestmark = pytest.mark.slow  # every test reads the Monte Carlo truths of two DGPs


@pytest.fixture(scope="module")
def truths():
    fixed = lambda label: rng_for(2021, "test", label)  # noqa: E731
    ours = make_dgp("formula", FORMULA)
    theirs = CopulaLinear(beta=BETA, rho=RHO, noise_sd=0.5)
    return (TRUTHS.get("formula").compute(ours, fixed),
            TRUTHS.get("extrapolation.copula_linear").compute(theirs, fixed))


def test_the_importances_agree(truths):
    ours, theirs = truths[0]["importance"], truths[1]["importance"]
    for kind in ("pfi_marginal", "pfi_conditional"):
        a, b = ours[ours["estimand"] == kind], theirs[theirs["estimand"] == kind]
        assert list(a["feature"]) == list(b["feature"])
        gap = np.abs(a["value"].to_numpy() - b["value"].to_numpy())
        se = a["se"].to_numpy()
        assert np.all(gap <= _bound(len(gap)) * se + 1e-12), (kind, gap, se)


@pytest.mark.parametrize("kind", ["pd", "conditional"])
def test_the_effect_curves_agree(truths, kind):
    ours, theirs = truths[0]["effects"], truths[1]["effects"]
    checked = 0
    for feature in ("x1", "x2", "x3"):
        a = ours[(ours["estimand"] == kind) & (ours["feature"] == feature)]
        b = theirs[(theirs["estimand"] == kind) & (theirs["feature"] == feature)]
        expected = np.interp(a["x"], b["x"], b["value"])  # theirs on a fine grid of [0, 1]
        gap = np.abs(a["value"].to_numpy() - expected)
        # + 1e-3: the linear interpolation of their curve between grid points 0.01 apart
        assert np.all(gap <= _bound(3 * len(a)) * a["se"].to_numpy() + 1e-3), (feature, gap)
        checked += len(a)
    assert checked >= 60
