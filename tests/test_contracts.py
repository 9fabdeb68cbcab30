"""Contracts over every registered plug-in: every layer method's output on a tiny formula DGP
has its kind's declared frame (:mod:`imlbench.explain.frames`), and every claim kind of every
shipped study returns rows of the scorecard's shape, and rows without data when it has no
input at all."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from shipped import REPO, STUDIES

from imlbench import studies
from imlbench.config import load_study, study_path
from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.frames import FRAMES, check_frame, frame_errors
from imlbench.explain.samplers import SAMPLERS
from imlbench.learners import fit_quietly, make_learner
from imlbench.metrics.claims import CLAIMS, NO_DATA, SCORECARD_COLUMNS, Tables
from imlbench.params import REQUIRED, with_defaults

studies.load(STUDIES, figures=True)

FORMULA = {
    "features": {"x1": {"law": "normal", "mean": 0, "sd": 1},
                 "x2": {"law": "normal", "mean": 0, "sd": 1},
                 "x3": {"law": "uniform", "low": 0, "high": 1}},
    "dependence": {"features": ["x1", "x2"], "correlation": [[1, 0.7], [0.7, 1]]},
    "f": "2*x1 + x2 - x3 + x1*x3", "noise_sd": 0.3,
}
#: values for parameters every instance must give (none of them has a default)
REQUIRED_VALUES = {"features": ["x1", "x2"], "sampler": "gaussian", "timed": "pdp",
                   "sizes": [60]}
#: small settings of expensive defaults, so that the contract runs in seconds
SMALL = {"n_repeats": 2, "m": 3, "n_samples": 200, "n_values": 10, "n_permutations": 2,
         "repeats": 1, "n_points": 2, "rows": "data"}


@pytest.fixture(scope="module")
def context() -> ExplainContext:
    dgp = make_dgp("formula", FORMULA)
    rng = np.random.default_rng(1)
    train, test = dgp.sample(160, rng), dgp.sample(60, rng)
    names = dgp.feature_names
    X, y = train[names].to_numpy(), train["y"].to_numpy()
    build = lambda seed: make_learner("rf", {"n_estimators": 20, "oob_score": True,  # noqa: E731
                                             "min_samples_leaf": 5}, seed, threads=1)
    model = fit_quietly(build(0), X, y)
    return ExplainContext(
        model=model, X=X, y=y, feature_names=names, dgp=dgp,
        fit=lambda Xn, yn: fit_quietly(build(1), Xn, yn).predict,
        fixed_rng=lambda label: np.random.default_rng(2), X_test=test[names].to_numpy(),
        y_test=test["y"].to_numpy(), sampler_rng=lambda key: np.random.default_rng(3))


def _params(name: str) -> dict:
    declared = METHODS.get(name).params
    given = {k: REQUIRED_VALUES[k] for k, p in declared.items() if p.default is REQUIRED}
    given |= {k: v for k, v in SMALL.items() if k in declared}
    return with_defaults(declared, given)


LAYER_METHODS = [n for n in METHODS.names() if METHODS.owner(n) is None]


@pytest.mark.parametrize("name", LAYER_METHODS)
def test_every_layer_method_returns_its_kinds_frame(context, name):
    spec = METHODS.get(name)
    out = spec(context, _params(name), np.random.default_rng(4))
    assert isinstance(out, pd.DataFrame) and len(out)
    assert frame_errors(spec.kind, out) == [], (name, spec.kind, list(out.columns))


def test_few_methods_are_free_form():
    other = sorted(n for n in LAYER_METHODS if METHODS.get(n).kind == "other")
    assert other == ["timing"]  # run times by size: read by its own claims and figures only
    assert set(FRAMES) >= {"effect", "importance", "metric", "surface", "local", "other"}


def test_a_table_without_its_frame_is_refused_naming_the_method():
    with pytest.raises(ValueError) as err:
        check_frame("effect", pd.DataFrame({"feature": ["x1"], "value": [1.0]}),
                    "method pdp_x1 (pdp) of s1/rf, repetition 0")
    message = str(err.value)
    assert "method pdp_x1 (pdp) of s1/rf, repetition 0" in message
    assert "no column x" in message and "x (numbers)" in message
    wrong = pd.DataFrame({"feature": ["x1"], "x": ["a"], "value": [1.0]})
    (error,) = frame_errors("effect", wrong)
    assert error.startswith("column x holds ") and error.endswith(", not numbers")
    assert frame_errors("metric", pd.DataFrame({"value": [1.0]})) == [
        "none of the columns metric, feature, quantity"]


# --- claim kinds -------------------------------------------------------------------------------


def _first_claims() -> list:
    """The first claim of every claim kind in the shipped studies (with its study)."""
    seen = {}
    for name in STUDIES:
        study = load_study(study_path(REPO, name), "smoke")
        for claim in study.claims:
            seen.setdefault(claim["kind"], (name, claim))
    return [pytest.param(*seen[k], id=k) for k in sorted(seen)]


EMPTY = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame())


#: the claim kinds that read no table, and why
READ_NOTHING = {
    "book_importance.toy": "arithmetic on the book's hand-written toy table of three rows"}


@pytest.mark.parametrize(("study", "claim"), _first_claims())
def test_every_claim_kind_gives_scorecard_rows_without_data_on_empty_input(study, claim):
    rows = CLAIMS.get(claim["kind"])(claim, EMPTY)
    assert rows, claim["id"]
    for row in rows:
        assert set(row) == set(SCORECARD_COLUMNS) - {"source", "reason_class"}, claim["id"]
        if claim["kind"] not in READ_NOTHING:
            assert row["verdict"] == NO_DATA, (claim["id"], row["verdict"], row["reproduced"])


def test_every_registered_claim_kind_is_used_by_a_shipped_study():
    used = {c.values[1]["kind"] for c in _first_claims()}
    assert sorted(set(CLAIMS.names()) - used) == []
    assert sorted(SAMPLERS.names())  # the samplers are registered too
