"""Binary classifiers whose ``predict`` is the predicted probability of class 1 (R's
``predict.type = "prob"``; the LMU book "Limitations of Interpretable Machine Learning
Methods", Molnar et al., eds., 2019, ch. 11 and 12); their estimators are in
:mod:`.class_probability`. Each function builds the unfitted estimator of one registered
learner (:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def rf_classifier(params: dict, random_state: int, threads: int) -> Any:
    """R ``randomForest``'s classification defaults: 500 trees, mtry = floor(sqrt(p)), node
    size 1."""
    from imlbench.learners.class_probability import ProbabilityForest

    defaults = {"n_estimators": 500, "max_features": "sqrt", "min_samples_leaf": 1}
    return ProbabilityForest(
        **{**defaults, **params}, bootstrap=True, random_state=random_state, n_jobs=threads)


def gbm_classifier(params: dict, random_state: int, threads: int) -> Any:
    """The book's ``h2o.gbm`` (ch. 11): 1000 trees at learning rate 0.1, AUC early stopping
    after 10 rounds at tolerance 0.005 on a 15% validation share, and h2o's defaults
    ``max_depth`` 5 and ``min_rows`` 10 (``min_samples_leaf``); no cap on the leaves per tree
    (h2o has none). HGB has no ``n_jobs``: its OpenMP threads follow the process limit
    (:func:`imlbench.numerics.limit_threads`), which ``threads`` sets in the workflow."""
    from imlbench.learners.class_probability import EarlyStoppedBoosting

    defaults = {"max_iter": 1000, "learning_rate": 0.1, "max_depth": 5, "min_samples_leaf": 10,
                "max_leaf_nodes": None, "early_stopping": True, "validation_fraction": 0.15,
                "n_iter_no_change": 10, "tol": 0.005, "scoring": "roc_auc"}
    return EarlyStoppedBoosting(**{**defaults, **params}, random_state=random_state)
