"""The verdict rule every claim kind shares (:class:`imlbench.metrics.claims.Check`): three
verdicts, the power each row states, and the claims whose check cannot fail."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.compare import counts
from imlbench.metrics.claims import (
    CONSISTENT,
    CONSISTENT_SHARE,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPORTED,
    REPRODUCED,
    Check,
    Tables,
    claim_row,
    evaluate,
)


@pytest.mark.parametrize(("estimate", "compare", "verdict"), [
    (3.0, "above", REPRODUCED),       # [2, 4] lies above 1.5
    (1.0, "above", INCONCLUSIVE),     # [0, 2] straddles 1.5
    (0.2, "above", NOT_REPRODUCED),   # [-0.8, 1.2] lies below 1.5
    (0.2, "below", REPRODUCED),
    (1.0, "below", INCONCLUSIVE),
    (3.0, "below", NOT_REPRODUCED),
])
def test_one_sided_checks_have_three_verdicts(estimate, compare, verdict):
    assert Check(estimate, 1.0, compare, 1.5).verdict() == verdict


def test_equal_is_a_difference_test_widened_by_the_margin():
    # the interval [4, 6] against 7 +- 0.5: misses it
    assert Check(5.0, 1.0, "equal", 7.0, 0.5).verdict() == NOT_REPRODUCED
    # against 7 +- 1.5: touches it
    assert Check(5.0, 1.0, "equal", 7.0, 1.5).verdict() == REPRODUCED
    assert Check(5.0, 1.0, "equal", 5.5).verdict() == REPRODUCED


def test_at_least_and_at_most_pass_ties_and_straddles():
    assert Check(1.0, 1.0, "at_least", 1.5).verdict() == REPRODUCED   # [0, 2] straddles
    assert Check(0.2, 1.0, "at_least", 1.5).verdict() == NOT_REPRODUCED  # wholly below
    assert Check(3.0, 1.0, "at_most", 1.5).verdict() == NOT_REPRODUCED   # wholly above
    assert Check(1.0, 1.0, "at_most", 1.5).power() == \
        "departures of 2 (133.3% of 1.5) above the bound"


def test_an_unbounded_interval_is_inconclusive():
    """Without an SE (one repetition) a check cannot fail: it must not pass."""
    assert Check(5.0, np.inf, "equal", 100.0).verdict() == INCONCLUSIVE
    assert Check(5.0, np.nan, "above", 0.0).verdict() == INCONCLUSIVE
    assert Check(np.nan, 1.0, "equal", 0.0).verdict() == INCONCLUSIVE
    assert Check(5.0, np.inf, "equal", 100.0).power() == "none: the interval is unbounded"


def test_detectable_departure_is_margin_plus_two_half_widths():
    check = Check(10.0, 0.5, "equal", 10.0, 0.25, scale=20.0)
    assert check.detectable() == pytest.approx(1.25)
    assert check.power() == "departures of 1.25 (6.2% of 20) from the claimed value"
    assert Check(1.0, 0.3, "above", 0.0).power() == "departures of 0.6 below the bound"


def test_parts_must_all_hold_and_the_power_is_the_weakest_part():
    parts = Check(np.array([1.0, 2.0, 3.0]), np.array([0.1, 0.1, 2.0]), "equal",
                  np.array([1.0, 2.0, 3.05]))
    assert parts.verdict() == REPRODUCED
    assert parts.detectable() == pytest.approx(4.0)
    assert Check(np.array([1.0, 2.5]), 0.1, "equal", np.array([1.0, 2.0])).verdict() == \
        NOT_REPRODUCED
    # one part straddles a one-sided bound, none fails: inconclusive
    assert Check(np.array([3.0, 1.0]), 1.0, "above", 1.5).verdict() == INCONCLUSIVE
    joint = Check.joint([Check(1.0, 0.1, "below", 2.0), Check(5.0, 0.2, "below", 4.0)])
    assert joint.verdict() == NOT_REPRODUCED
    assert joint.scale == 4.0 and joint.detectable() == pytest.approx(0.4)


def _claim(**keys) -> dict:
    return {"id": "c", "kind": "k", "figure": "fig_1", "text": "t", "published": "p",
            "source": "paper_statement",
            "where": {"scenario": "main", "learner": ["lm", "rf"], "method": "pfi"}, **keys}


@pytest.fixture
def evaluated(monkeypatch):
    """The scorecard rows of a claim whose kind gives ``checks[learner]`` per learner."""
    from imlbench.metrics import claims as claims_module

    def run(claim: dict, checks: dict[str, Check]) -> pd.DataFrame:
        def kind(c: dict, t: Tables) -> list[dict]:
            return [claim_row(c, learner, "pfi", "measured", "test", check)
                    for learner, check in checks.items()]

        monkeypatch.setattr(claims_module.CLAIMS, "get", lambda name: kind)
        return evaluate([claim], Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame()),
                        {"main"}, lambda c, r: "")

    return run


def test_a_claim_with_a_resolution_its_check_cannot_detect_is_inconclusive(evaluated):
    claim = _claim(resolution=1.0)
    card = evaluated(claim, {"lm": Check(2.0, 0.2, "equal", 2.0),    # detects 0.4 < 1
                             "rf": Check(2.0, 0.8, "equal", 2.0)})   # detects 1.6 > 1
    assert list(card["verdict"]) == [REPRODUCED, INCONCLUSIVE]
    assert card["reason"].iloc[1] == ("the check detects departures of 1.6, not the 1 the "
                                      "claim is about")
    assert list(card["power"]) == ["departures of 0.4 (20.0% of 2) from the claimed value",
                                   "departures of 1.6 (80.0% of 2) from the claimed value"]


def test_a_pass_without_the_power_to_fail_is_consistent_not_reproduced(evaluated):
    """A check that passes by finding no departure, but detects only departures of more than
    CONSISTENT_SHARE (half) of the claimed value, is counted as ``consistent``; a one-sided
    pass is evidence whatever its power, and an exact pass has all the power there is."""
    claim = _claim(where={"scenario": "main", "learner": ["a", "b", "c", "d", "e"],
                          "method": "pfi"})
    card = evaluated(claim, {
        "a": Check(2.0, 0.4, "equal", 2.0),        # detects 0.8 = 40% of 2: reproduced
        "b": Check(2.0, 0.6, "equal", 2.0),        # detects 1.2 = 60% of 2: consistent
        "c": Check(3.0, 2.0, "at_least", 2.0),     # detects 4 = 200% of 2: consistent
        "d": Check(9.0, 3.0, "above", 2.0),        # clears the bound: reproduced
        "e": True})                                # exact
    assert list(card["verdict"]) == [REPRODUCED, CONSISTENT, CONSISTENT, REPRODUCED,
                                     REPRODUCED]
    assert CONSISTENT_SHARE == 0.5
    assert list(card["detectable_share"].round(3).fillna(-1)) == [0.4, 0.6, 2.0, -1, 0.0]
    assert card["reason"].iloc[1] == ("no departure found, but the check detects only "
                                      "departures of 60% of the claimed value or more "
                                      "(consistent: above 50%)")
    # the scorecard's counts give it a column of its own, next to reproduced
    tally = counts(card.assign(study="s"))
    assert list(tally.columns) == [REPRODUCED, CONSISTENT]
    assert tally.loc[("all", ""), CONSISTENT] == 2 and tally.loc[("all", ""), REPRODUCED] == 3


def test_misses_give_their_class_and_sentence_to_the_rows_they_select(evaluated):
    claim = _claim(misses=[{"class": "learner", "why": "the R forest differs.", "learner": "rf"},
                           {"class": "method", "why": "all others."}])
    card = evaluated(claim, {"lm": Check(0.0, 0.1, "above", 1.0),
                             "rf": Check(1.0, 1.0, "above", 1.0)})
    assert list(card["verdict"]) == [NOT_REPRODUCED, INCONCLUSIVE]
    assert list(card["reason_class"]) == ["method", "learner"]
    assert list(card["reason"]) == ["all others.", "the R forest differs."]


def test_a_reported_claim_shows_its_value_without_a_verdict(evaluated):
    card = evaluated(_claim(reported=True), {"lm": Check(0.0, 0.1, "above", 1.0)})
    assert list(card["verdict"]) == [REPORTED]
    assert card["reproduced"].iloc[0] == "measured" and card["tolerance"].iloc[0] == ""
    assert card["source"].iloc[0] == "paper_statement"


def test_claim_row_of_an_exact_test_says_so():
    row = claim_row(_claim(), "lm", "pfi", "v", "exact", True)
    assert row["verdict"] == REPRODUCED and row["power"] == "exact: any departure"
