"""The comparison kit (:mod:`imlbench.metrics.contrasts`): each test holds on synthetic
repetitions whose true statistic satisfies the claim and fails when the claim is clearly off;
its SE is the rule its docstring states; rows without enough repetitions say why; ``than``
names cells that ``imlbench check`` resolves against the study."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from imlbench.config import ConfigError
from imlbench.metrics.claims import (
    CLAIMS,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    REPRODUCED,
    Tables,
    methods_named,
)
from imlbench.metrics.contrasts import (
    N_BOOT,
    Cell,
    Sample,
    log_ratio,
    spread,
    spread_ratio,
)
from imlbench.stats import t_multiplier
from imlbench.validate import check_study

ROOT = Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(11)
REPS = 12
GRID = np.linspace(0.0, 1.0, 11)


def _curves(scenario: str, method: str, slope: np.ndarray, sd: float = 0.0) -> list[dict]:
    """Per repetition r, the line slope[r] * x (plus point noise of ``sd``) of feature x1."""
    return [{"scenario": scenario, "learner": "rf", "method": method, "rep": r, "feature": "x1",
             "x": x, "value": s * x + RNG.normal(0, sd)}
            for r, s in enumerate(slope) for x in GRID]


SLOPE_A = 2.0 + RNG.normal(0, 0.1, REPS)   # mean 2, sd 0.1: the SE of the mean is about 0.03
SLOPE_B = 1.0 + RNG.normal(0, 0.1, REPS)
OTHER = pd.DataFrame(_curves("s1", "pdp", SLOPE_A) + _curves("s1", "ale", SLOPE_B)
                     + _curves("s2", "pdp", SLOPE_B + RNG.normal(0, 0.1, REPS), sd=0.0)
                     + _curves("wide", "pdp", 1.0 + RNG.normal(0, 0.4, REPS)))
TABLES = Tables(ranked=pd.DataFrame(), truth={}, other=OTHER)


def _claim(**params) -> dict:
    base = {"id": "c", "kind": "contrast", "figure": "", "text": "t", "published": "p",
            "source": "derived", "where": {"scenario": "s1", "learner": "rf", "method": "pdp"},
            "statistic": "curve_value", "feature": "x1", "at": 1.0}
    return {**base, **params}


def _row(**params) -> dict:
    (row,) = CLAIMS.get("contrast")(_claim(**params), TABLES)
    return row


@pytest.mark.parametrize(("params", "verdict"), [
    ({"value": 2.0}, REPRODUCED),                                   # the mean is 2
    ({"value": 2.5}, NOT_REPRODUCED),
    ({"value": 1.5, "compare": "above"}, REPRODUCED),
    ({"value": 2.5, "compare": "above"}, NOT_REPRODUCED),
    ({"value": 2.0, "test": "prediction"}, REPRODUCED),
    ({"value": 3.0, "test": "prediction"}, NOT_REPRODUCED),
])
def test_one_cell_tests(params, verdict):
    assert _row(**params)["verdict"] == verdict


@pytest.mark.parametrize(("params", "verdict"), [
    # the same data sets: pdp - ale is 1 per repetition
    ({"test": "paired", "than": {"method": "ale"}, "value": 1.0}, REPRODUCED),
    ({"test": "paired", "than": {"method": "ale"}, "compare": "above"}, REPRODUCED),
    ({"test": "paired", "than": {"method": "ale"}, "compare": "below"}, NOT_REPRODUCED),
    # another scenario: independent repetitions
    ({"test": "difference", "than": {"scenario": "s2"}, "value": 1.0}, REPRODUCED),
    ({"test": "difference", "than": {"scenario": "s2"}, "value": 0.0}, NOT_REPRODUCED),
    ({"test": "log_ratio", "than": {"scenario": "s2"}, "value": 2.0}, REPRODUCED),
    ({"test": "log_ratio", "than": {"scenario": "s2"}, "value": 1.0}, NOT_REPRODUCED),
    # a parameter of the statistic moves: the value at 1 against that at 0.5 (half of it)
    ({"test": "paired", "than": {"at": 0.5}, "value": 1.0}, REPRODUCED),
])
def test_two_cell_tests(params, verdict):
    assert _row(**params)["verdict"] == verdict


def test_the_difference_test_adds_the_two_standard_errors_in_quadrature():
    row = _row(test="difference", than={"scenario": "s2"}, value=1.0)
    a = SLOPE_A
    b = OTHER.query("scenario == 's2' and x == 1.0")["value"].to_numpy()
    se = np.hypot(a.std(ddof=1) / np.sqrt(REPS), b.std(ddof=1) / np.sqrt(REPS))
    half = float(t_multiplier(3.0, REPS - 1)) * se
    assert row["detectable"] == pytest.approx(2 * half)


def test_the_log_ratio_takes_the_delta_method_se():
    a = Sample(pd.Series([1.0, 1.2, 0.8, 1.1]), "a")
    b = Sample(pd.Series([2.0, 2.2, 1.8, 2.1, 1.9]), "b")
    judged = log_ratio(a, b, "b", 0.5, k=2.0, compare="equal")
    se = np.hypot(a.values.std(ddof=1) / 2 / a.values.mean(),
                  b.values.std(ddof=1) / np.sqrt(5) / b.values.mean())
    assert judged.check.half == pytest.approx(float(t_multiplier(2.0, 3)) * se)
    assert judged.check.estimate == pytest.approx(np.log(a.values.mean() / b.values.mean()))


def test_a_log_ratio_of_one_scenario_pairs_the_data_sets():
    """Two cells of one scenario read the same data sets: the delta method keeps their
    covariance (SE = sd of a_r / mean_a - b_r / mean_b over the shared repetitions / sqrt(R),
    R - 1 df), so what a data set does to both cancels: here b = 2 a exactly, so the log ratio
    is log 2 with SE 0, where the independent SE is that of two spreads."""
    a = Sample(pd.Series([1.0, 1.5, 0.7, 1.2, 0.9]), "a")
    b = Sample(2 * a.values, "b")
    together = log_ratio(b, a, "a", 2.0, k=3.0, compare="equal", together=True)
    assert together.check.estimate == pytest.approx(np.log(2.0))
    assert together.check.half == pytest.approx(0.0, abs=1e-12)
    assert "5 reps paired" in together.reproduced
    apart = log_ratio(b, a, "a", 2.0, k=3.0, compare="equal")
    assert apart.check.half > 0.3
    noisy = Sample(a.values * np.array([1.1, 0.9, 1.05, 0.95, 1.0]), "n")
    judged = log_ratio(noisy, a, "a", 1.0, k=3.0, compare="equal", together=True)
    u = noisy.values / noisy.values.mean() - a.values / a.values.mean()
    se = u.std(ddof=1) / np.sqrt(5)
    assert judged.check.half == pytest.approx(float(t_multiplier(3.0, 4)) * se)
    # a summarised cell has no repetitions to pair: the independent rule applies
    summed = Sample(pd.Series(dtype=float), "s", summary=(2.0, 0.1, 5))
    assert "independent means" in log_ratio(summed, a, "a", 2.0, k=3.0, compare="equal",
                                            together=True).tolerance


def test_a_spread_ratio_of_two_scenarios_through_the_claim_kind():
    claim = _claim(statistic="curve_points", at=None, range=[0.0, 1.0], points=5,
                   test="spread_ratio", than={"scenario": "s2"}, compare="above", value=1.0, k=2.0)
    del claim["at"]
    claim["where"] = {**claim["where"], "scenario": "wide"}
    (row,) = CLAIMS.get("contrast")(claim, TABLES)
    # slopes with sd 0.4 against about 0.14: the log ratio is about 1.0, its bootstrap SE about
    # 0.3 with 12 repetitions, so t(2) SE (t = 2.2) leaves it above 0
    assert row["verdict"] == REPRODUCED
    assert "independently" in row["tolerance"]


def test_spread_ratio_above_and_reproducible():
    wide = Sample(pd.DataFrame(RNG.normal(0, 2.0, (15, 5))), "wide")
    narrow = Sample(pd.DataFrame(RNG.normal(0, 1.0, (15, 5))), "narrow")
    first = spread_ratio(wide, narrow, "narrow", 1.0, k=2.0, compare="above", together=False)
    again = spread_ratio(wide, narrow, "narrow", 1.0, k=2.0, compare="above", together=False)
    assert first.check.verdict() == REPRODUCED
    assert first.check.half == again.check.half  # a fixed seed: equal on rerun
    assert first.check.estimate == pytest.approx(np.log(spread(wide.values)
                                                        / spread(narrow.values)))
    flipped = spread_ratio(narrow, wide, "wide", 1.0, k=2.0, compare="above", together=False)
    assert flipped.check.verdict() == NOT_REPRODUCED
    assert N_BOOT >= 1000


def test_too_few_repetitions_say_why():
    few = Tables(ranked=pd.DataFrame(), truth={},
                 other=pd.DataFrame(_curves("s1", "pdp", SLOPE_A[:1])))
    (row,) = CLAIMS.get("contrast")(_claim(value=2.0), few)
    assert row["verdict"] == NO_DATA
    assert "2 repetitions or more" in row["reason"] and "s1/rf/pdp" in row["reason"]


def test_a_missing_other_cell_says_which():
    row = _row(test="paired", than={"method": "shap"})
    assert row["verdict"] == NO_DATA
    assert "s1/rf/shap" in row["reason"]


def test_the_other_cell_moves_only_what_than_names():
    cell = Cell("s1", "rf", "pdp", {"feature": "x1", "at": 1.0})
    other = cell.moved({"method": "ale", "at": 0.5})
    assert (other.scenario, other.learner, other.method) == ("s1", "rf", "ale")
    assert other.params == {"feature": "x1", "at": 0.5}


def test_methods_named_in_than_are_read():
    claim = _claim(test="paired", than={"method": "ale"})
    assert methods_named(claim) == ["pdp", "ale"]


def test_a_straddling_interval_is_inconclusive():
    # the mean is 2 with an SE of about 0.03: a one-sided bound at 2 cannot be decided
    assert _row(value=float(SLOPE_A.mean()), compare="above")["verdict"] == INCONCLUSIVE


# --- imlbench check --------------------------------------------------------------------------


def _study(tmp_path: Path, claim: dict) -> Path:
    doc = yaml.safe_load((ROOT / "tests" / "study_files" / "formula_demo.yaml").read_text())
    doc["claims"] = [claim]
    shutil.copytree(ROOT / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    path = tmp_path / "config" / "studies" / "demo.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(doc))
    return path


CHECKED = {"id": "checked", "kind": "contrast", "text": "t", "published": "p",
           "source": "derived", "where": {"scenario": "linear", "learner": "rf",
                                          "method": "pdp"},
           "statistic": "curve_value", "feature": "x1", "at": 0.0, "test": "paired",
           "than": {"method": "ale"}}


def test_a_valid_contrast_passes_the_check(tmp_path):
    check_study(_study(tmp_path, CHECKED), "default", tmp_path)


@pytest.mark.parametrize(("change", "key", "words"), [
    ({"than": {"scenario": "no_such_scenario"}}, "claims[0].than",
     ["unknown scenario 'no_such_scenario'", "linear"]),
    ({"than": {"method": "no_such_method"}}, "claims[0].than",
     ["unknown method 'no_such_method'", "pdp"]),
    ({"than": {"learner": "no_such_learner"}}, "claims[0].than",
     ["unknown learner 'no_such_learner'", "rf"]),
    ({"than": {"bogus": 1}}, "claims[0].than", ["unknown parameter(s) bogus", "scenario"]),
    ({"than": None}, "claims[0].than", ["test paired compares two cells"]),
    ({"statistic": "no_such_statistic"}, "claims[0].statistic",
     ["unknown statistic 'no_such_statistic'", "curve_value"]),
    ({"at": "high"}, "claims[0].at", ["'high' is not allowed", "a number"]),
    ({"test": "log_ratio", "value": 0}, "claims[0].value", ["no ratio"]),
])
def test_a_wrong_contrast_stops_the_check_naming_the_claim(tmp_path, change, key, words):
    with pytest.raises(ConfigError) as err:
        check_study(_study(tmp_path, {**CHECKED, **change}), "default", tmp_path)
    message = str(err.value)
    assert "demo.yaml" in message and key in message
    for word in words:
        assert word in message


# ---- closed forms and truths: the truth's part of the half-width (Sample.truth)


def _steps(off: float) -> Tables:
    """An exact ALE of a step function in each of 5 repetitions (the same curve: SE 0):
    2 below x = 3, 3 + ``off`` from there, and the line 0.5 x of feature x2."""
    grid = np.linspace(0.0, 10.0, 21)
    rows = [{"scenario": "s1", "learner": "rf", "method": "ale", "rep": r, "feature": f,
             "x": x, "value": v}
            for r in range(5) for x in grid
            for f, v in (("x1", 2.0 + (1.0 + off) * (x >= 3)), ("x2", (0.5 + off) * x))]
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(rows))


@pytest.mark.parametrize(("off", "verdict"), [(1e-12, REPRODUCED), (1e-6, NOT_REPRODUCED)])
@pytest.mark.parametrize("stat", [
    {"statistic": "curve_value", "feature": "x1", "at": 5.0, "minus_at": 1.5, "value": 1.0},
    {"statistic": "curve_slope", "feature": "x2", "range": [0.0, 10.0], "value": 0.5}])
def test_an_exact_curve_against_a_closed_form_reproduces_up_to_rounding_only(stat, off,
                                                                             verdict):
    # the step (slope) of an exact curve, 1 (0.5) + off in every repetition: SE 0, so the
    # half-width is the floating-point floor alone (1e-9 of the curve's size 3 x 2, or of
    # its size 5 x sum |w_i| of the slope's weights: about 6e-9 and 3e-9), which 1e-12
    # clears and 1e-6 does not
    where = {"scenario": "s1", "learner": "rf", "method": "ale"}
    (row,) = CLAIMS.get("contrast")(_claim(where=where, **stat), _steps(off))
    assert row["verdict"] == verdict
    assert "floating-point floor" in row["tolerance"] and "(largest 0; 0: exact)" in (
        row["tolerance"])


def _read(values: list[float], grad: dict[str, list[float]], se: dict[str, float],
          floor: float = 1e-9) -> Sample:
    from imlbench.metrics.truth_tolerance import TruthPart

    v = pd.Series(values)
    return Sample(v, "s", truth=TruthPart(pd.DataFrame(grad, index=v.index), pd.Series(se),
                                          pd.Series(floor, index=v.index)))


def test_the_truth_part_of_two_cells_counts_a_shared_truth_value_once():
    """d = a - b paired: the truth value t both read moves both (gradients 1 and 0.5 in every
    repetition), so d moves by 0.5 t: truth SE 0.5 x 0.2; a value only one reads counts with
    its own gradient; the floors add. The half-width is t' sqrt(SE^2 + SE_truth^2) + floor."""
    from imlbench.metrics.contrasts import paired

    a = _read([1.0, 1.1, 0.9, 1.0], {"t": [1.0] * 4}, {"t": 0.2})
    b = _read([0.5, 0.6, 0.4, 0.45], {"t": [0.5] * 4, "u": [2.0] * 4}, {"t": 0.2, "u": 0.01})
    judged = paired(a, b, "b", 0.0, k=2.0, compare="equal")
    d = a.values - b.values
    truth_se = 0.5 * 0.2 + 2.0 * 0.01
    half = float(t_multiplier(2.0, 3)) * np.hypot(d.std(ddof=1) / 2, truth_se) + 2e-9
    assert judged.check.half == pytest.approx(half, rel=1e-12)
    assert "largest 0.12" in judged.tolerance
    # a log ratio: the truth SE of log(mean_a / mean_b), each mean's part over its mean
    lr = log_ratio(a, b, "b", 2.0, k=2.0, compare="equal")
    lr_truth = abs(0.2 / 1.0 - 0.5 * 0.2 / 0.4875) + 2.0 * 0.01 / 0.4875
    plain = log_ratio(replace(a, truth=None), replace(b, truth=None), "b", 2.0, k=2.0,
                      compare="equal")
    se = plain.check.half / float(t_multiplier(2.0, 3))
    floor = 1e-9 / 1.0 + 1e-9 / 0.4875
    assert lr.check.half == pytest.approx(
        float(t_multiplier(2.0, 3)) * np.hypot(se, lr_truth) + floor, rel=1e-12)
