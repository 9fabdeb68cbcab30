"""The study's forests stand in for R's randomForest, whose mtry is floor(p / 3): a forest on
p features tries that many per split, for every p the study fits (10 features, 9 after a
feature is dropped and the forest relearned, 12 on the bike data)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from imlbench.config import load_study
from imlbench.learners import make_learner

STUDY = Path(__file__).resolve().parents[3] / "config" / "studies" / "extrapolation.yaml"


@pytest.mark.parametrize("learner", ["rf", "rf100"])
@pytest.mark.parametrize("p", [2, 3, 9, 10, 12, 20])
def test_features_per_split_is_rs_mtry(learner, p):
    study = load_study(STUDY, "smoke")
    spec = study.learners[learner]
    model = make_learner(spec["learner"], {**spec["params"], "n_estimators": 2}, 0, 1)
    rng = np.random.default_rng(0)
    model.fit(rng.normal(size=(40, p)), rng.normal(size=40))
    forest = getattr(model, "named_steps", {}).get("model", model)
    assert forest.estimators_[0].max_features_ == max(1, p // 3)
