"""Ground-truth estimands of the DGPs, by DGP name.

``TRUTHS[dgp](dgp, fixed_rng) -> {estimand: DataFrame}`` computes them from the
known f and joint law alone (closed forms and quadrature), never from the
estimators they check. ``ESTIMANDS[dgp]`` lists the tables, known before any job runs.
"""

from __future__ import annotations

from imlbench.registry import Registry
from imlbench.truth.conditional_subgroups import cspfi_truths
from imlbench.truth.copula_linear import copula_linear_truths
from imlbench.truth.effects import effect_curves_table
from imlbench.truth.pd_uncertainty_toy import pd_toy_truths

TRUTHS: Registry = Registry("truth")
TRUTHS.register("copula_linear")(copula_linear_truths)

ESTIMANDS: dict[str, tuple[str, ...]] = {"copula_linear": ("importance", "effects")}
for _name in ("ale_book_ch6", "ale_book_ch7", "stratpd_synthetic", "stratpd_weight"):
    TRUTHS.register(_name)(effect_curves_table)
    ESTIMANDS[_name] = ("effect_curves",)
TRUTHS.register("cspfi_simulation")(cspfi_truths)
ESTIMANDS["cspfi_simulation"] = ("pfi_x1",)
TRUTHS.register("pdp_uncertainty_toy")(pd_toy_truths)
ESTIMANDS["pdp_uncertainty_toy"] = ("dgp_pd",)
