"""Ground-truth estimands of the DGPs, by DGP name.

``TRUTHS.get(dgp).compute(dgp, fixed_rng) -> {table name: DataFrame}`` computes them from
the known f and joint law alone (closed forms, quadrature and Monte Carlo), never from the
estimators they check; ``TRUTHS.get(dgp).names`` names the tables, known before any job
runs. Every table has the one long shape of :mod:`imlbench.explain.estimands` (columns
estimand, feature, row, x, value, se, lo, hi; build it with :func:`truth_frame`) and is named
after the estimands it holds: ``effects`` (curves: pd, conditional, ale, ice,
interventional) or ``importance`` (pfi_marginal, pfi_conditional and their ratios; ``loco`` is
derived from pfi_conditional). The
generic truths are registered in :mod:`imlbench.truth.effects` (the feature-effect
examples) and :mod:`imlbench.truth.formula` (every formula DGP); a study registers those of
its own DGPs in its package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP
from imlbench.explain.estimands import TABLES, derived_importances, one_shape, truth_frame
from imlbench.registry import Registry

__all__ = ["TRUTHS", "Compute", "FixedRng", "TruthSpec", "truth", "truth_frame", "truth_tables"]

FixedRng = Callable[[str], np.random.Generator]
Compute = Callable[[DGP, FixedRng], dict[str, pd.DataFrame]]


@dataclass(frozen=True)
class TruthSpec:
    """The truths of one DGP: how to compute them, and the names of the tables they fill."""

    compute: Compute
    names: tuple[str, ...]

    def tables(self, dgp: DGP, fixed_rng: FixedRng) -> dict[str, pd.DataFrame]:
        """``compute``'s tables, each checked to have the one shape and the estimands of its
        name (a ValueError otherwise); an ``importance`` table gains the importances derived
        from those it holds (:func:`imlbench.explain.estimands.derived_importances`: LOCO)."""
        out = self.compute(dgp, fixed_rng)
        if set(out) != set(self.names):
            raise ValueError(f"truth of {type(dgp).__name__}: tables {', '.join(out)}, "
                             f"registered as {', '.join(self.names)}")
        checked = {}
        for name, table in out.items():
            table = one_shape(table, f"truth table {name} of {type(dgp).__name__}")
            if name == "importance":
                table = derived_importances(table)
            wrong = set(table["estimand"]) - set(TABLES[name])
            if wrong:
                raise ValueError(f"truth table {name} of {type(dgp).__name__} holds estimands "
                                 f"{', '.join(sorted(wrong))}; allowed: {', '.join(TABLES[name])}")
            checked[name] = table
        return checked


TRUTHS: Registry[TruthSpec] = Registry("truth", providers=("imlbench.truth.effects",
                                                             "imlbench.truth.formula"))


def truth(dgp: str, tables: Sequence[str]) -> Callable[[Compute], Compute]:
    """Register ``compute`` as the truths of the DGP registered as ``dgp``; ``tables`` names
    the tables it fills (keys of :data:`imlbench.explain.estimands.TABLES`)."""
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise ValueError(f"truth of {dgp}: unknown table(s) {', '.join(sorted(unknown))}; "
                         f"allowed: {', '.join(TABLES)}")

    def decorator(compute: Compute) -> Compute:
        TRUTHS.register(dgp, module=compute.__module__)(TruthSpec(compute, tuple(tables)))
        return compute

    return decorator


def truth_tables(dgp: str) -> tuple[str, ...]:
    """The names of the truth tables of DGP ``dgp`` (none when it has no known truths)."""
    return TRUTHS.get(dgp).names if dgp in TRUTHS else ()
