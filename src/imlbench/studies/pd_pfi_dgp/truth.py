"""The DGP-PD of the toy of Molnar et al. (2023), Fig. 2: Definition 1 of the paper,
DGP-PD_S(z) = E_{X_C}[f(z, X_C)], in closed form (derivation in
:mod:`imlbench.studies.pd_pfi_dgp.dgp_toy`), never from an estimator.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.studies.pd_pfi_dgp.dgp_toy import PdpUncertaintyToy
from imlbench.truth import truth, truth_frame

#: each feature's range of the truth table: the support of x1, +-3 SD of the normal x2, x3.
RANGES = {"x1": (0.0, 10.0), "x2": (-3.0, 3.0), "x3": (-3.0, 3.0)}


@truth("pd_pfi_dgp.pdp_uncertainty_toy", ("effects",))
def pd_toy_truths(
    dgp: PdpUncertaintyToy, fixed_rng: Callable[[str], np.random.Generator], size: int = 1001
) -> dict[str, pd.DataFrame]:
    """``effects``: the DGP-PD (estimand ``pd``) of every feature on ``size`` equidistant points
    of its range. With 1001 points on [0, 10], linear interpolation of the x1
    curve errs by at most h^2 / 8 max|f''| = 1.25e-5 (h = 0.01, |sin''| <= 1)."""
    frames = []
    for feature, (lo, hi) in RANGES.items():
        z = np.linspace(lo, hi, size)
        frames.append(truth_frame("pd", feature, dgp.dgp_pd(feature, z), x=z))
    return {"effects": pd.concat(frames, ignore_index=True)}
