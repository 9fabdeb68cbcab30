"""Test helper: an explain context whose model is the DGP's own regression function."""

from __future__ import annotations

import numpy as np

from imlbench.dgp.base import DGP
from imlbench.explain.api import ExplainContext


class TrueModel:
    """A 'fitted model' that predicts with f itself, so only the method's error remains."""

    def __init__(self, dgp: DGP) -> None:
        self.predict = dgp.f


def true_model_context(dgp: DGP, X: np.ndarray, y: np.ndarray) -> ExplainContext:
    return ExplainContext(model=TrueModel(dgp), X=X, y=y, feature_names=dgp.feature_names,
                          dgp=dgp, fit=None, fixed_rng=lambda label: np.random.default_rng(0))
