"""The 'true model': the DGP's regression function f as a fitted model.

Setting I of the conditional-subgroups simulation (and the book's chapter 6) explains f
itself, so that what remains is the explanation method's error alone. The fit stage binds
the repetition's realised DGP; fitting on data does nothing, and a copy refitted by a
relearning method has no DGP and refuses to predict.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class TrueFunction:
    """An estimator whose ``predict`` is the bound DGP's ``f``."""

    def __init__(self) -> None:
        self.dgp: Any = None

    def bind(self, dgp: Any) -> TrueFunction:
        """Predict with ``dgp``'s f; refused for a formula DGP with ``hidden`` features, whose
        f reads columns that the model's X lacks (the data's regression function is f
        averaged over them)."""
        hidden = list(getattr(dgp, "hidden", ()))
        if hidden:
            raise ValueError(f"the truth learner predicts with the DGP's f, which reads the "
                             f"hidden feature(s) {', '.join(hidden)} (DGP parameter hidden) "
                             f"that the model's X lacks; use another learner or a DGP "
                             f"without hidden")
        self.dgp = dgp
        return self

    def fit(self, X: Any, y: Any) -> TrueFunction:
        return self

    def predict(self, X: Any) -> np.ndarray:
        if self.dgp is None:
            raise ValueError("the truth learner predicts with the DGP's f and cannot be "
                             "refitted; use it with methods that do not relearn")
        return np.asarray(self.dgp.f(np.asarray(X, dtype=float)), dtype=float)
