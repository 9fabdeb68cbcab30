"""Binary classifiers whose ``predict`` is the predicted probability of class 1 (the estimators
of the learners in :mod:`.classifiers`).

Every explanation method calls ``predict``, so with these learners it explains the estimate
of P(Y = 1 | x), as R's ``mlr``/``iml`` do with ``predict.type = "prob"`` (the LMU book
"Limitations of Interpretable Machine Learning Methods", Molnar et al., eds., 2019, ch. 11 and
12). y must hold the labels 0 and 1 (e.g. the formula DGP's ``link: logistic``); anything else
is refused.

- :class:`ProbabilityForest` (learner ``rf_classifier``) is scikit-learn's
  ``RandomForestClassifier``, the counterpart of R's ``randomForest`` classifier. Its
  probability is the mean over trees of the leaf class shares, where ``randomForest``'s is the
  share of trees voting 1: close, not equal.
- :class:`EarlyStoppedBoosting` (learner ``gbm_classifier``) is scikit-learn's
  ``HistGradientBoostingClassifier`` with early stopping on a validation share of the training
  rows, the counterpart of the book's ``h2o.gbm`` (AUC early stopping on a validation frame).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.model_selection import train_test_split

#: the labels a classifier learner accepts
LABELS = (0, 1)


def binary_labels(y: Any) -> np.ndarray:
    """``y`` as integer labels 0/1; a ``ValueError`` naming the values found unless ``y`` holds
    exactly the labels 0 and 1 (floats 0.0/1.0 and booleans pass)."""
    y = np.asarray(y)
    found = np.unique(y)
    if y.dtype.kind not in "biuf" or set(found.tolist()) != set(LABELS):
        shown = ", ".join(map(str, found[:5])) + (", ..." if len(found) > 5 else "")
        raise ValueError(f"a classifier learner needs y with both labels 0 and 1; got the "
                         f"values {shown}; allowed: 0, 1 (e.g. the formula DGP's link: "
                         f"logistic)")
    return y.astype(int)


class _ClassOneProbability:
    """Mixin for a scikit-learn binary classifier: ``fit`` takes y with the labels 0 and 1
    only, ``predict`` returns the predicted probability of class 1 (``predict_proba[:, 1]``:
    the classes are sorted, so column 1 is label 1)."""

    def fit(self, X: Any, y: Any, **kwargs: Any) -> Any:
        return super().fit(X, binary_labels(y), **kwargs)

    def predict(self, X: Any) -> np.ndarray:
        return self.predict_proba(X)[:, 1]


class ProbabilityForest(_ClassOneProbability, RandomForestClassifier):
    """``RandomForestClassifier`` whose ``predict`` is the estimate of P(Y = 1 | x)."""


class EarlyStoppedBoosting(_ClassOneProbability, HistGradientBoostingClassifier):
    """``HistGradientBoostingClassifier`` whose ``predict`` is the estimate of P(Y = 1 | x),
    early-stopped on a random validation share of the training rows (the book's validation
    frame, which ``h2o.splitFrame`` draws).

    With ``early_stopping`` and a ``validation_fraction``, ``fit`` draws the validation rows at
    random from the training rows with ``random_state`` (``train_test_split``, not stratified
    by class: scikit-learn's own split stratifies, ``h2o.splitFrame`` does not), fits the
    boosting on the other rows and scores ``scoring`` on the validation rows after each
    iteration (scikit-learn's ``X_val``/``y_val``). The row indices are kept in
    ``validation_rows_``; the number of iterations kept is scikit-learn's ``n_iter_`` (no roll
    back to the best one, as h2o). Otherwise (``early_stopping`` false or ``auto``, or
    ``validation_fraction: null``) scikit-learn's own behaviour.

    Stopping rule: scikit-learn stops when none of the last ``n_iter_no_change`` scores exceeds
    the score ``n_iter_no_change + 1`` iterations back by more than ``tol`` (an absolute
    difference of AUC), scored after every iteration. h2o (``stopping_rounds``,
    ``stopping_tolerance``) compares moving averages of ``stopping_rounds`` scoring events by a
    *relative* improvement and scores at intervals; at an AUC near 0.8 a relative tolerance of
    0.005 is an absolute one of about 0.004. h2o bins features into 20 histogram bins
    (``nbins``), scikit-learn into ``max_bins`` (255).
    """

    def fit(self, X: Any, y: Any, **kwargs: Any) -> Any:
        if not (self.early_stopping is True and self.validation_fraction is not None):
            return super().fit(X, y, **kwargs)
        X, y = np.asarray(X), binary_labels(y)
        train, self.validation_rows_ = train_test_split(
            np.arange(len(X)), test_size=self.validation_fraction, random_state=self.random_state)
        return super().fit(X[train], y[train], X_val=X[self.validation_rows_],
                           y_val=y[self.validation_rows_], **kwargs)
