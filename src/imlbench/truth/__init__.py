"""Ground-truth estimands of the DGPs, by DGP name.

``TRUTHS.get(dgp).compute(dgp, fixed_rng) -> {estimand: DataFrame}`` computes them from the
known f and joint law alone (closed forms, quadrature and Monte Carlo), never from the
estimators they check; ``TRUTHS.get(dgp).estimands`` names the tables, known before any job
runs. The generic truths are registered in :mod:`imlbench.truth.effects` (the feature-effect
examples) and :mod:`imlbench.truth.formula` (every formula DGP); a study registers those of
its own DGPs in its package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP
from imlbench.registry import Registry

FixedRng = Callable[[str], np.random.Generator]
Compute = Callable[[DGP, FixedRng], dict[str, pd.DataFrame]]


@dataclass(frozen=True)
class TruthSpec:
    """The truths of one DGP: how to compute them, and the estimands (table names) they hold."""

    compute: Compute
    estimands: tuple[str, ...]


TRUTHS: Registry[TruthSpec] = Registry("truth", providers=("imlbench.truth.effects",
                                                             "imlbench.truth.formula"))


def truth(dgp: str, estimands: Sequence[str]) -> Callable[[Compute], Compute]:
    """Register ``compute`` as the truths of the DGP registered as ``dgp``."""

    def decorator(compute: Compute) -> Compute:
        TRUTHS.register(dgp, module=compute.__module__)(TruthSpec(compute, tuple(estimands)))
        return compute

    return decorator


def estimands(dgp: str) -> tuple[str, ...]:
    """The truth tables of DGP ``dgp`` (none when it has no known truths)."""
    return TRUTHS.get(dgp).estimands if dgp in TRUTHS else ()
