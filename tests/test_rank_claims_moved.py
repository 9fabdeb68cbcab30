"""The layer's claim kinds on importance values (:mod:`imlbench.metrics.rank_claims`):
``top_importance`` and ``importance_versus`` on a run's median and permutation spread,
``importance_change`` on the rows of two methods; each on a case that holds and one that
fails (written for the conditional-subgroups paper's Fig. 11 and Fig. 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.metrics.rank_claims import median_se
from imlbench.stats import t_multiplier


def _tables(ranked: pd.DataFrame | None = None, other: pd.DataFrame | None = None) -> Tables:
    tag = {"scenario": "s", "learner": "l"}
    return Tables(ranked=pd.DataFrame() if ranked is None else ranked.assign(**tag),
                  truth={}, other=pd.DataFrame() if other is None else other.assign(**tag))


def _claim(**kw) -> dict:
    return {"id": "c", "text": "t", "published": "p",
            "where": {"scenario": "s", "learner": "l", "method": "m"}, **kw}


# ------------------------------------------------------------------------- top_importance

RANGES = pd.DataFrame({"method": "m", "feature": ["a", "b", "c"], "value": [100.0, 85.0, 10.0],
                       "lower": [90.0, 80.0, 0.0], "upper": [110.0, 95.0, 20.0]})


@pytest.mark.parametrize("top, verdict", [
    (["a", "b"], "reproduced"),  # both ranges lie above c's
    (["a"], "inconclusive"),  # a's range [90, 110] overlaps b's [80, 95]
    (["c"], "not reproduced"),  # c's range lies wholly below a's (and b's)
])
def test_top_importance_compares_the_permutation_ranges(top, verdict):
    (row,) = CLAIMS.get("top_importance")(_claim(top=top), _tables(ranked=RANGES))
    assert row["verdict"] == verdict
    if top == ["a", "b"]:
        # pairs (a, c) and (b, c): half-widths 10 + 10 and 7.5 + 10; power 2 x 20
        assert row["detectable"] == pytest.approx(40.0)
        assert row["reproduced"] == "order by median: a 100, b 85, c 10"
        assert row["tolerance"].endswith("= 60 > 0")  # min(90, 80) - 20


def test_top_importance_prints_digits_and_names_features_the_data_lack():
    ranked = RANGES.assign(value=RANGES["value"] / 100, lower=RANGES["lower"] / 100,
                           upper=RANGES["upper"] / 100)
    (row,) = CLAIMS.get("top_importance")(_claim(top=["a", "b", "yr"], digits=2),
                                          _tables(ranked=ranked))
    assert row["verdict"] == "reproduced"
    assert row["reproduced"] == ("order by median: a 1.00, b 0.85, c 0.10; yr not in the data, "
                                 "not checkable")
    (row,) = CLAIMS.get("top_importance")(_claim(top=["yr"]), _tables(ranked=ranked))
    assert row["verdict"] == "no data" and row["reason"].startswith("none of the features")


def test_top_importance_needs_one_row_per_feature():
    """Several repetitions give several medians of a feature: no verdict, and the reason says
    why."""
    ranked = pd.concat([RANGES.assign(rep=0), RANGES.assign(rep=1)])
    (row,) = CLAIMS.get("top_importance")(_claim(top=["a"]), _tables(ranked=ranked))
    assert row["verdict"] == "no data" and "several rows per feature" in row["reason"]


# ---------------------------------------------------------------------- importance_versus

def test_median_se_from_the_quantile_spread():
    z = norm.ppf(0.95)  # a 5%-95% range of +-z is one SD: SE of the median sqrt(pi/2) / 10
    row = pd.Series({"value": 10.0, "lower": 10 - z, "upper": 10 + z, "lower_q": 0.05,
                     "upper_q": 0.95, "n_repeats": 100})
    assert median_se(row) == pytest.approx(np.sqrt(np.pi / 2) / 10, rel=1e-12)


SPREADS = pd.DataFrame({"method": ["m", "b"], "feature": "temp", "value": [5.0, 10.0],
                        "lower": [4.0, 9.0], "upper": [6.0, 11.0], "lower_q": 0.05,
                        "upper_q": 0.95, "n_repeats": 50, "split_on": ["season", ""]})


@pytest.mark.parametrize("expect, verdict", [("lower", "reproduced"),
                                             ("equal", "not reproduced")])
def test_importance_versus_uses_the_median_se(expect, verdict):
    """Difference 5; each SE sqrt(pi/2) (2 / 3.29) / sqrt(50) = 0.108, joint 0.152: t' SE =
    0.49 (t' the t quantile at Phi(3) with 49 df, 3.2), far below 5."""
    claim = _claim(feature="temp", baseline="b", expect=expect)
    (row,) = CLAIMS.get("importance_versus")(claim, _tables(ranked=SPREADS))
    assert row["verdict"] == verdict
    se = np.hypot(*(median_se(r) for _, r in SPREADS.iterrows()))
    assert row["detectable"] == pytest.approx(2 * t_multiplier(3.0, 49) * se, rel=1e-12)
    assert row["reproduced"] == "temp: b 10 [9, 11], m 5 [4, 6], subgroups split on season"


def test_importance_versus_says_why_the_data_lack_the_feature():
    claim = _claim(feature="yr", baseline="b", expect="equal")
    (row,) = CLAIMS.get("importance_versus")(claim, _tables(ranked=SPREADS))
    assert row["verdict"] == "no data" and row["reason"] == "yr is not in the data"
    claim["why_absent"] = "constant in the ISLP days"
    (row,) = CLAIMS.get("importance_versus")(claim, _tables(ranked=SPREADS))
    assert row["reason"] == "yr is not in the data (constant in the ISLP days)"


# ---------------------------------------------------------------------- importance_change

NOISE = [0.01, -0.01, 0.02, -0.02, 0.0]


def _repeats(shift: float, column: str = "repeat") -> pd.DataFrame:
    return pd.DataFrame([{"method": m, "feature": "x1", column: r, "value": base + e}
                         for m, base in (("ref", 2.0), ("m", 2.0 - shift))
                         for r, e in enumerate(NOISE)])


@pytest.mark.parametrize("shift, expect, verdict", [
    (1.0, "lower", "reproduced"),
    (0.0, "lower", "inconclusive"),  # 0 +- 2 SE straddles 0
    (-1.0, "lower", "not reproduced"),  # the estimate is higher: wholly below 0
    (0.0, "equal", "reproduced"), (1.0, "equal", "not reproduced"),
])
def test_importance_change_claim(shift, expect, verdict):
    """The noise has variance 0.00025 over 5 repeats in each method: SE of the difference
    sqrt(2 x 0.00025 / 5) = 0.01, so the check detects 2 t' SE, t' the t quantile with 4 df at
    Phi(k) (k = 2 for lower: t' = 2.87; k = 3 for equal: t' = 5.1)."""
    claim = _claim(expect=expect, features=["x1"], reference_method="ref")
    (row,) = CLAIMS.get("importance_change")(claim, _tables(other=_repeats(shift)))
    assert row["verdict"] == verdict
    k = 2.0 if expect == "lower" else 3.0
    assert row["detectable"] == pytest.approx(2 * t_multiplier(k, 4) * 0.01, rel=1e-9)
    assert row["tolerance"].endswith("SE over 5 repeats each")


def test_importance_change_reads_the_repetitions_of_the_ranked_table():
    claim = _claim(expect="lower", features=["x1"], reference_method="ref", table="ranked")
    ranked = _repeats(1.0, column="rep")
    (row,) = CLAIMS.get("importance_change")(claim, _tables(ranked=ranked))
    assert row["verdict"] == "reproduced"
    assert row["tolerance"].endswith("SE over 5 repetitions each")
    # the default table (other) holds nothing: no data
    del claim["table"]
    (row,) = CLAIMS.get("importance_change")(claim, _tables(ranked=ranked))
    assert row["verdict"] == "no data"


def test_importance_change_without_the_reference_feature_is_inconclusive():
    """A feature the reference lacks has no difference: the row names it and cannot fail."""
    rows = _repeats(1.0)
    rows = pd.concat([rows, rows[rows["method"] == "m"].assign(feature="x2")])
    claim = _claim(expect="lower", features=["x1", "x2"], reference_method="ref")
    (row,) = CLAIMS.get("importance_change")(claim, _tables(other=rows))
    assert row["verdict"] == "inconclusive" and "x2: nan -> 1.000" in row["reproduced"]
