"""Claims against another truth than the method's own estimand (``truth:``, e.g. a PDP against
the interventional curve E[Y | do(x)]): matches_truth, closer_to_truth, curve_slope and
curve_error, on synthetic PDPs whose PD and interventional truths differ."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.estimands import truth_frame
from imlbench.metrics.claims import CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.metrics.truth_errors import KINDS, long_truths, rep_errors, summarise_errors

#: the PD of x is flat (0), the interventional curve is x (slope 1): a chain x -> z -> y
GRID = np.linspace(-1, 1, 9)
#: per repetition, small zero-mean wiggles of the estimated curve (5 reps)
WIGGLE = np.array([0.01, -0.01, 0.02, -0.02, 0.0])


def _truths() -> dict[tuple[str, str], pd.DataFrame]:
    effects = pd.concat([truth_frame("pd", "x", np.zeros_like(GRID), x=GRID),
                         truth_frame("interventional", "x", GRID, x=GRID)], ignore_index=True)
    return {("sem", "effects"): effects}


def _pdp(method: str, curve) -> pd.DataFrame:
    rows = [{"scenario": "sem", "learner": "rf", "method": method, "rep": r, "feature": "x",
             "x": x, "value": curve(x) + w * np.sin(3 * x + r)}
            for r, w in enumerate(WIGGLE) for x in GRID]
    return pd.DataFrame(rows)


def _tables(*frames: pd.DataFrame) -> Tables:
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.concat(frames, ignore_index=True),
                  truths=_truths())


def _claim(kind: str, method: str = "pdp", **params) -> dict:
    return {"id": f"c_{kind}", "kind": kind, "text": "", "published": "",
            "where": {"scenario": "sem", "learner": "rf", "method": method}, **params}


def _verdict(kind: str, tables: Tables, **params) -> str:
    (row,) = CLAIMS.get(kind)(_claim(kind, **params), tables)
    return row["verdict"]


def _pd_tables(tables: Tables) -> Tables:
    """``tables`` with the PD truth errors the summaries stage writes for the PDP."""
    reps = rep_errors(tables.other, long_truths(tables.truths)["sem"], "pd")
    tables.truth_error_reps, tables.truth_errors = reps, summarise_errors(reps)
    return tables


def test_a_pdp_on_the_interventional_curve_matches_it_and_not_the_pd():
    t = _pd_tables(_tables(_pdp("pdp", lambda x: x)))
    assert _verdict("matches_truth", t, truth="interventional", anchor="none") == REPRODUCED
    assert _verdict("matches_truth", t, anchor="none") == NOT_REPRODUCED


def test_a_pdp_on_the_pd_matches_the_pd_and_not_the_interventional_curve():
    t = _pd_tables(_tables(_pdp("pdp", lambda x: 0 * x)))
    assert _verdict("matches_truth", t, anchor="none") == REPRODUCED
    assert _verdict("matches_truth", t, truth="interventional", anchor="none") == NOT_REPRODUCED


def test_a_range_compares_only_the_points_within_it():
    # off the interventional line by 0.5 at the two ends only
    t = _tables(_pdp("pdp", lambda x: x - 0.5 * np.sign(x) * (np.abs(x) > 0.8)))
    assert _verdict("matches_truth", t, truth="interventional", anchor="none") == NOT_REPRODUCED
    assert _verdict("matches_truth", t, truth="interventional", anchor="none",
                    range=[-0.8, 0.8]) == REPRODUCED


def test_closer_to_truth_compares_both_methods_with_the_named_truth():
    t = _tables(_pdp("pdp", lambda x: 0.9 * x), _pdp("flat", lambda x: 0 * x))
    assert _verdict("closer_to_truth", t, than="flat", truth="interventional") == REPRODUCED
    t = _pd_tables(t)
    assert _verdict("closer_to_truth", t, than="flat") == NOT_REPRODUCED


def test_curve_slope_against_a_truth_is_the_slope_of_the_difference():
    t = _tables(_pdp("pdp", lambda x: 0.4 * x))
    common = {"feature": "x", "range": [-1, 1]}
    # PDP slope 0.4 against the interventional slope 1: 0.6 below it
    assert _verdict("curve_slope", t, truth="interventional", value=0.0, compare="below",
                    **common) == REPRODUCED
    assert _verdict("curve_slope", t, truth="interventional", value=-0.6, atol=0.01,
                    **common) == REPRODUCED
    assert _verdict("curve_slope", t, truth="pd", value=0.0, compare="below",
                    **common) == NOT_REPRODUCED
    # without a truth the slope is the curve's own
    assert _verdict("curve_slope", t, value=0.4, atol=0.01, **common) == REPRODUCED


def test_curve_error_against_the_interventional_curve():
    t = _tables(_pdp("pdp", lambda x: x))
    kw = {"feature": "x", "max": 0.05, "truth": "interventional"}
    assert _verdict("curve_error", t, **kw) == REPRODUCED
    assert _verdict("curve_error", _tables(_pdp("pdp", lambda x: 0 * x)), **kw) == NOT_REPRODUCED


def test_a_truth_the_scenario_lacks_gives_no_data_with_the_reason():
    t = _tables(_pdp("pdp", lambda x: x))
    (row,) = CLAIMS.get("matches_truth")(_claim("matches_truth", truth="conditional"), t)
    assert row["verdict"] == NO_DATA
    assert "hold no estimand conditional" in row["reason"] and "interventional" in row["reason"]


def test_truth_is_a_parameter_of_every_kind_that_compares_with_a_truth():
    for kind in (*KINDS, "curve_slope", "curve_error"):
        assert "truth" in CLAIMS.get(kind).params
