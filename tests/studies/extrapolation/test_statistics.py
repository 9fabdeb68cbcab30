"""The extrapolation study's statistics (:mod:`imlbench.studies.extrapolation.statistics`)
in ``contrast`` claims on small tables whose verdict is known: each claim of the study file's
shape once where its statistic clears the tolerance by many SE and once where it is on the
wrong side; and ``imlbench check`` resolving the study's ``than`` cells."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import imlbench.studies.extrapolation  # noqa: F401  (registers the kinds and statistics)
from imlbench.config import ConfigError
from imlbench.explain.estimands import truth_frame
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.validate import check_study

ROOT = Path(__file__).resolve().parents[3]
CLAIM = {"id": "c", "text": "t", "published": "p", "kind": "contrast", "k": 2.0,
         "where": {"scenario": "a", "learner": "l", "method": "m"}}
GRID = np.linspace(0.0, 1.0, 11)
REPS = 20
#: the surface claims' regions: the corners |x - z| >= 0.5 against the diagonal |x - z| <= 0.1
REGIONS = {"region": "corner", "corner": 0.5, "diagonal": 0.1,
           "than": {"region": "diagonal"}, "compare": "above"}


def _run(claim: dict, other=None, ranked=None, truths=None, kind: str = "contrast") -> dict:
    t = Tables(ranked=pd.DataFrame() if ranked is None else ranked, truth={},
               other=pd.DataFrame() if other is None else other, truths=truths or {})
    return CLAIMS.get(kind)({**CLAIM, **claim}, t)[0]


def _curves(scenario: str, sd: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"scenario": scenario, "learner": "l", "method": "m", "rep": r,
                          "feature": "x1", "x": x, "value": x + rng.normal(0, sd)}
                         for r in range(REPS) for x in GRID])


SPREAD = {"statistic": "extrapolation.grid_curve", "feature": "x1", "test": "spread_ratio",
          "than": {"scenario": "b"}, "compare": "above", "value": 1.0}


# without the effect the claim is about, the one-sided interval straddles its bound: the
# verdict is inconclusive (imlbench.metrics.claims.Check), not a coin-flip "not reproduced"
@pytest.mark.parametrize("sd_a, verdict", [(1.0, "reproduced"), (0.1, "inconclusive")])
def test_spread_ratio_of_the_curve_at_its_grid(sd_a, verdict):
    """SD 1 vs 0.1 over 20 reps: log ratio 2.3, its SE about 0.16 (1/sqrt(2 R) per scenario);
    the scenarios are resampled independently."""
    other = pd.concat([_curves("a", sd_a, 1), _curves("b", 0.1, 2)])
    row = _run(SPREAD, other)
    assert row["verdict"] == verdict, row
    assert "11 grid points" in row["reproduced"]
    assert "independently" in row["tolerance"]


def _surface(noise_corner: float, tilt: float, seed: int) -> pd.DataFrame:
    """f = x + tilt * z in the corners (|x - z| >= 0.5), f = x elsewhere, plus noise of SD
    ``noise_corner`` in the corners and 0.01 elsewhere, per repetition."""
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(REPS):
        for x in GRID:
            for z in GRID:
                corner = abs(x - z) >= 0.5
                sd = noise_corner if corner else 0.01
                rows.append({"scenario": "a", "learner": "l", "method": "m", "rep": r, "x": x,
                             "z": z, "value": x + tilt * z * corner + rng.normal(0, sd)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("noise, verdict", [(0.5, "reproduced"), (0.01, "inconclusive")])
def test_spread_ratio_of_the_surface_corners_against_the_diagonal(noise, verdict):
    """The two regions are read from the same fits: resampled together."""
    claim = {"statistic": "extrapolation.surface_region", "test": "spread_ratio", **REGIONS}
    row = _run(claim, _surface(noise, 0.0, 3))
    assert row["verdict"] == verdict, row
    assert "together" in row["tolerance"]


@pytest.mark.parametrize("tilt, verdict", [(2.0, "reproduced"), (0.0, "inconclusive")])
def test_z_slope_corners_against_the_diagonal(tilt, verdict):
    """Without tilt both regions have |df/dz| from the 0.01 noise only (the corners' larger
    by the noise SD 0.01 too): the paired gap is 0 up to noise."""
    row = _run({"statistic": "extrapolation.z_slope", "test": "paired", **REGIONS},
               _surface(0.01, tilt, 4))
    assert row["verdict"] == verdict, row


def test_an_effect_without_z_is_no_surface():
    row = _run({"statistic": "extrapolation.z_slope", "test": "paired", **REGIONS},
               _curves("a", 1.0, 1))
    assert row["verdict"] == "no data" and "no surface" in row["reason"], row


def _ice(off_error: float, seed: int) -> tuple[pd.DataFrame, dict]:
    """Two reference rows with true ICE x + row and bands [0.2, 0.5], [0.5, 0.8]; estimates
    equal the truth plus noise 0.01, plus ``off_error`` outside the band."""
    rng = np.random.default_rng(seed)
    truth = pd.concat([truth_frame("ice", "x1", GRID + i, x=GRID, row=i, lo=lo, hi=hi)
                       for i, (lo, hi) in enumerate(((0.2, 0.5), (0.5, 0.8)))])
    rows = []
    for r in range(REPS):
        for i, (lo, hi) in enumerate(((0.2, 0.5), (0.5, 0.8))):
            for x in GRID:
                out = not lo <= x <= hi
                rows.append({"scenario": "a", "learner": "l", "method": "m", "rep": r,
                             "feature": "x1", "row": i, "x": x,
                             "value": x + i + off_error * out + rng.normal(0, 0.01)})
    return pd.DataFrame(rows), {("a", "effects"): truth}


BAND = {"statistic": "extrapolation.band_error", "feature": "x1", "band": "outside",
        "test": "paired", "than": {"band": "inside"}, "compare": "above"}


@pytest.mark.parametrize("off_error, verdict", [(0.3, "reproduced"), (0.0, "inconclusive")])
def test_band_error_outside_against_inside(off_error, verdict):
    other, truths = _ice(off_error, 5)
    row = _run(BAND, other, truths=truths)
    assert row["verdict"] == verdict, row


def test_band_error_without_a_truth_says_why():
    other, _ = _ice(0.3, 5)
    row = _run(BAND, other)
    assert row["verdict"] == "no data" and "no true ICE curves of x1" in row["reason"], row


def _importances(x2: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"scenario": "a", "learner": "l", "method": "m", "rep": r,
                          "feature": f, "value": v + rng.normal(0, 0.001)}
                         for r in range(REPS) for f, v in (("x1", 0.2), ("x2", x2))])


@pytest.mark.parametrize("x2, compare, relative, verdict", [
    (0.01, "above", None, "reproduced"), (0.0, "above", None, "inconclusive"),
    (0.0, "below", "x1", "reproduced"), (0.01, "below", "x1", "not reproduced"),
])
def test_importance_and_its_ratio_to_another(x2, compare, relative, verdict):
    """x2's importance 0.01 (SE 0.0002) vs 0; relative to x1 (0.2): 0.05 or about 0 vs 0.01."""
    statistic = ({"statistic": "importance"} if relative is None else
                 {"statistic": "extrapolation.importance_ratio", "relative_to": relative})
    claim = {**statistic, "feature": "x2", "test": "one_sample", "compare": compare,
             "value": 0.0 if relative is None else 0.01}
    row = _run(claim, ranked=_importances(x2, 6))
    assert row["verdict"] == verdict, row


@pytest.mark.parametrize("ranks, verdict", [((9, 4), "reproduced"), ((4, 9), "not reproduced")])
def test_rank_shift_with_one_repetition(ranks, verdict):
    ranked = pd.DataFrame([{"scenario": "a", "learner": "l", "method": m, "rep": 0,
                            "feature": "temp", "value": 1.0, "rank": r}
                           for m, r in zip(("m", "other"), ranks, strict=True)])
    row = _run({"feature": "temp", "than": "other"}, ranked=ranked, kind="rank_shift")
    assert row["verdict"] == verdict and "exact" in row["tolerance"], row


def test_missing_estimates_of_the_other_scenario_give_no_data():
    row = _run(SPREAD, _curves("a", 1.0, 1))
    assert row["verdict"] == "no data" and "b/l/m" in row["reason"], row


def test_check_resolves_the_scenario_a_spread_claim_compares_with(tmp_path):
    """The study file's spread claim names its other scenario in ``than``; a wrong name stops
    ``imlbench check`` naming the claim."""
    doc = yaml.safe_load((ROOT / "config" / "studies" / "extrapolation.yaml").read_text())
    (i,) = [i for i, c in enumerate(doc["claims"]) if c.get("test") == "spread_ratio"
            and "scenario" in (c.get("than") or {})]
    doc["claims"][i]["than"] = {"scenario": "no_such_scenario"}
    shutil.copytree(ROOT / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    path = tmp_path / "config" / "studies" / "extrapolation.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    with pytest.raises(ConfigError) as err:
        check_study(path, "default", tmp_path)
    message = str(err.value)
    assert f"claims[{i}].than" in message and "unknown scenario 'no_such_scenario'" in message
    assert "main_rho0" in message
