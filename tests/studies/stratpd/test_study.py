"""The StratPD study's own pieces: the weather data and its truth, the strata of Fig. 2, and
the run-to-run spread claim (a contrast on the layer's kit); and CatStratPD's recovery of the
weather data's state gaps."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.stratpd import catstratpd
from imlbench.metrics.claims import (
    CLAIMS,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    REPRODUCED,
    Tables,
)
from imlbench.studies.stratpd.dgp_weather import BASE, STATES, StratpdWeather, weather_effects


def test_weather_rows_are_days_of_consecutive_years_with_a_random_state():
    dgp = StratpdWeather(noise_sd=0.0)
    X = dgp.sample_features(1095, np.random.default_rng(1))
    assert X[:, 1].min() == 1 and X[:, 1].max() == 365
    assert np.array_equal(np.bincount(X[:, 2].astype(int))[1:], [365, 365, 365])
    counts = np.bincount(X[:, 0].astype(int), minlength=5)
    # one state per day, uniform: each count ~ Binomial(1095, 1/5), sd 13.2; 5 sd is 66
    assert np.all(np.abs(counts - 219) < 66)
    y = dgp.f(X)
    day = X[:, 1]
    np.testing.assert_allclose(y, BASE[X[:, 0].astype(int)]
                               + 10 * np.sin(2 * np.pi * day / 365 + np.pi))


def test_weather_truth_gives_the_state_gaps_relative_to_co():
    curves = weather_effects(StratpdWeather(), lambda label: np.random.default_rng(0))[
        "effects"]
    state = curves[(curves["feature"] == "state") & (curves["estimand"] == "pd")]
    co = state.loc[state["x"] == STATES.index("CO"), "value"].item()
    gaps = {STATES[int(x)]: v - co for x, v in zip(state["x"], state["value"], strict=True)}
    assert gaps == {"AZ": 50, "CA": 30, "CO": 0, "NV": 40, "WA": 20}


def test_catstratpd_recovers_the_state_gaps_without_noise():
    """Without noise, a leaf (about 10 days of one year) that holds two states shows their gap
    plus the difference of the sinusoid at the two states' mean days in the leaf; the
    sinusoid changes by at most 10 * 2 pi / 365 = 0.17 per day and those means differ by a
    few days at most, so every merged gap is within 0.5 of the truth."""
    dgp = StratpdWeather(noise_sd=0.0)
    df = dgp.sample(1095, np.random.default_rng(2))
    levels, effect = catstratpd(df[dgp.feature_names].to_numpy(), df["y"].to_numpy(), 0,
                                rng=np.random.default_rng(3))
    np.testing.assert_allclose(effect - effect[STATES.index("CO")], BASE - BASE[2], atol=0.5)


def test_strata_are_the_leaves_of_the_tree_on_the_other_features():
    rng = np.random.default_rng(4)
    X = rng.uniform(0, 10, (40, 2))
    y = X[:, 0] + X[:, 1] ** 2
    ctx = ExplainContext(model=None, X=X, y=y, feature_names=["x1", "x2"],
                         dgp=StratpdWeather(), fit=None,
                         fixed_rng=lambda label: np.random.default_rng(0))
    out = METHODS.get("stratpd.strata")(ctx, {"features": ["x1"], "min_samples_leaf": 5},
                                np.random.default_rng(5))
    assert len(out) == 40 and (out.groupby("leaf").size() >= 5).all()
    # the tree splits x2 only: each leaf is an interval of x2, and the intervals do not overlap
    spans = out.groupby("leaf")["other"].agg(["min", "max"]).sort_values("min")
    assert (spans["min"].to_numpy()[1:] > spans["max"].to_numpy()[:-1]).all()
    np.testing.assert_array_equal(out["x"], X[:, 0])


def _spread_tables(sd_high: float, sd_low: float, reps: int = 10) -> Tables:
    rng = np.random.default_rng(6)
    x = np.linspace(-2, 2, 30)
    rows = [{"scenario": sc, "learner": "none", "method": "stratpd", "rep": r,
             "feature": "x1", "x": xi, "value": v}
            for sc, sd in (("high", sd_high), ("low", sd_low)) for r in range(reps)
            for xi, v in zip(x, x**2 + rng.normal(0, sd) * x, strict=True)]
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(rows))


def _spread_claim(than: str) -> dict:
    """The study's spread claim (fig4-spread-sd2): the run-to-run spread of the curves of x1
    in scenario ``high`` over that in ``than``, a contrast on the layer's curve points."""
    return {"id": "s", "kind": "contrast", "figure": "f", "text": "t", "published": "p",
            "where": {"scenario": "high", "learner": "none", "method": "stratpd"},
            "statistic": "curve_points", "feature": "x1", "test": "spread_ratio",
            "than": {"scenario": than}, "compare": "above", "k": 2.0}


@pytest.mark.parametrize(("high", "low", "verdict"), [
    # equal spreads: the interval of the log ratio straddles 0, inconclusive
    (1.0, 0.2, REPRODUCED), (0.5, 0.5, INCONCLUSIVE), (0.2, 1.0, NOT_REPRODUCED)])
def test_the_spread_claim_compares_run_to_run_variation(high, low, verdict):
    (row,) = CLAIMS.get("contrast")(_spread_claim("low"), _spread_tables(high, low))
    assert row["verdict"] == verdict
    assert row["detectable"] > 0 and row["power"].startswith("departures of")


def test_the_spread_claim_needs_both_scenarios():
    (row,) = CLAIMS.get("contrast")(_spread_claim("other"), _spread_tables(1.0, 0.2))
    assert row["verdict"] == NO_DATA and "other" in row["reason"]


def test_the_fig5_ale_forest_tries_every_feature_per_split():
    """The paper's ALE forest of Fig 5 used all 3 features per split (R randomForest, mtry 3),
    its PD forest did not: the study's ALE of state runs on forests with max_features 1.0
    only, and the PD on the paper's PD forest."""
    from pathlib import Path

    from imlbench.config import load_study

    study = load_study(Path(__file__).parents[3] / "config/studies/stratpd.yaml", "default")
    forests = [lrn for lrn in study.scenarios["weather"].learners
               if study.learners[lrn]["learner"] == "rf"]
    ale = [lrn for lrn in forests if "ale_state" in study.methods_for("weather", lrn)]
    pdp = [lrn for lrn in forests if "pdp_state" in study.methods_for("weather", lrn)]
    assert ale and all(study.learner_params(lrn)["max_features"] == 1.0 for lrn in ale)
    assert pdp == ["rf_weather"]
