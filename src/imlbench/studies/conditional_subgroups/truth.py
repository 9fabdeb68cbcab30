"""True marginal and conditional PFI of x1 for the true model of the cs-PFI simulation.

With squared loss and the model f itself, PFI_1 = E[(f(X~1, X_-1) - f(X))^2]
= E[(X1 - X~1)^2 (1 + X2)^2] (the noise cancels in expectation).
Conditional (X~1 ~ X1 | X_-1): 2 E[Var(X1 | X_-1) (1 + X2)^2]: independent 4, linear 4,
nonlinear 2 [(1 + 2 phi0) + 14.5 (1 - 2 phi0)] = 9.457, multilinear 2 * 25 * 2 = 100, with
phi0 = 1/sqrt(2 pi), E[(1 + X2)^2; X2 > 0] = 1 + 2 phi0 and E[(1 + X2)^2; X2 <= 0] = 1 - 2 phi0.
Marginal (X~1 an independent copy of X1):
E[X1^2 (1 + X2)^2] + E[X1^2] E[(1 + X2)^2] - 2 E[X1] E[X1 (1 + X2)^2]: independent 4,
linear (1 + 3 + 1 + 1) + 2 * 2 = 10, multilinear (4 + 33 * 2) + 34 * 2 = 138, nonlinear
10 (1 + 2 phi0) + 19 (1 - 2 phi0) + 29 - 1.5 [3 (1 + 2 phi0) - 1.5 (1 - 2 phi0)] = 43.18.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.studies.conditional_subgroups.dgp_simulation import ConditionalSubgroupsSimulation
from imlbench.truth import truth, truth_frame

PHI0 = 1.0 / np.sqrt(2.0 * np.pi)
_UP, _DOWN = 1 + 2 * PHI0, 1 - 2 * PHI0


def true_pfi_x1(scenario: str) -> dict[str, float]:
    """Marginal and conditional PFI of x1 of the true model (see the module doc)."""
    conditional = {"independent": 4.0, "linear": 4.0, "multilinear": 100.0,
                   "nonlinear": 2 * (_UP + 14.5 * _DOWN)}
    marginal = {"independent": 4.0, "linear": 10.0, "multilinear": 138.0,
                "nonlinear": 10 * _UP + 19 * _DOWN + 29 - 1.5 * (3 * _UP - 1.5 * _DOWN)}
    return {"marginal": marginal[scenario], "conditional": conditional[scenario]}


@truth("conditional_subgroups.simulation", ("importance",))
def cspfi_truths(
    dgp: ConditionalSubgroupsSimulation, fixed_rng: Callable[[str], np.random.Generator]
) -> dict[str, pd.DataFrame]:
    """``importance``: the marginal and conditional PFI of x1 (estimands pfi_marginal,
    pfi_conditional)."""
    return {"importance": pd.concat([truth_frame(f"pfi_{kind}", "x1", value)
                                     for kind, value in true_pfi_x1(dgp.scenario).items()],
                                    ignore_index=True)}
