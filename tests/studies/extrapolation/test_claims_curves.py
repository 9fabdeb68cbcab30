"""The curve, surface and importance claim kinds of the extrapolation study on small tables
whose verdict is known: each kind once where its statistic clears the tolerance by many SE
and once where it is on the wrong side."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.estimands import truth_frame
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.studies.extrapolation import claims_curves  # noqa: F401  (registers the kinds)

CLAIM = {"id": "c", "text": "t", "published": "p",
         "where": {"scenario": "a", "learner": "l", "method": "m"}}
GRID = np.linspace(0.0, 1.0, 11)
REPS = 20


def _run(kind: str, claim: dict, other=None, ranked=None, truths=None) -> dict:
    t = Tables(ranked=pd.DataFrame() if ranked is None else ranked, truth={},
               other=pd.DataFrame() if other is None else other, truths=truths or {})
    return CLAIMS.get(kind)({**CLAIM, **claim}, t)[0]


def _curves(scenario: str, sd: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"scenario": scenario, "learner": "l", "method": "m", "rep": r,
                          "feature": "x1", "x": x, "value": x + rng.normal(0, sd)}
                         for r in range(REPS) for x in GRID])


# without the effect the claim is about, the one-sided interval straddles its bound: the
# verdict is inconclusive (imlbench.metrics.claims.Check), not a coin-flip "not reproduced"
@pytest.mark.parametrize("sd_a, verdict", [(1.0, "reproduced"), (0.1, "inconclusive")])
def test_spread_ratio(sd_a, verdict):
    """SD 1 vs 0.1 over 20 reps: log ratio 2.3, its SE about 0.16 (1/sqrt(2 R) per scenario)."""
    other = pd.concat([_curves("a", sd_a, 1), _curves("b", 0.1, 2)])
    row = _run("spread_ratio", {"feature": "x1", "than": "b"}, other)
    assert row["verdict"] == verdict, row


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
def test_region_spread_ratio(noise, verdict):
    row = _run("region_spread_ratio", {"corner": 0.5, "diagonal": 0.1},
               _surface(noise, 0.0, 3))
    assert row["verdict"] == verdict, row


@pytest.mark.parametrize("tilt, verdict", [(2.0, "reproduced"), (0.0, "inconclusive")])
def test_region_gradient_gap(tilt, verdict):
    """Without tilt both regions have |df/dz| from the 0.01 noise only (the corners' larger
    by the noise SD 0.01 too): the gap is 0 up to noise."""
    row = _run("region_gradient_gap", {"corner": 0.5, "diagonal": 0.1},
               _surface(0.01, tilt, 4))
    assert row["verdict"] == verdict, row


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


@pytest.mark.parametrize("off_error, verdict", [(0.3, "reproduced"), (0.0, "inconclusive")])
def test_band_error_gap(off_error, verdict):
    other, truths = _ice(off_error, 5)
    row = _run("band_error_gap", {"feature": "x1"}, other, truths=truths)
    assert row["verdict"] == verdict, row


def _importances(x2: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"scenario": "a", "learner": "l", "method": "m", "rep": r,
                          "feature": f, "value": v + rng.normal(0, 0.001)}
                         for r in range(REPS) for f, v in (("x1", 0.2), ("x2", x2))])


@pytest.mark.parametrize("x2, compare, relative, verdict", [
    (0.01, "above", None, "reproduced"), (0.0, "above", None, "inconclusive"),
    (0.0, "below", "x1", "reproduced"), (0.01, "below", "x1", "not reproduced"),
])
def test_importance_level(x2, compare, relative, verdict):
    """x2's importance 0.01 (SE 0.0002) vs 0; relative to x1 (0.2): 0.05 or about 0 vs 0.01."""
    claim = {"feature": "x2", "compare": compare, "relative_to": relative,
             "value": 0.0 if relative is None else 0.01}
    row = _run("importance_level", claim, ranked=_importances(x2, 6))
    assert row["verdict"] == verdict, row


@pytest.mark.parametrize("ranks, verdict", [((9, 4), "reproduced"), ((4, 9), "not reproduced")])
def test_rank_shift_with_one_repetition(ranks, verdict):
    ranked = pd.DataFrame([{"scenario": "a", "learner": "l", "method": m, "rep": 0,
                            "feature": "temp", "value": 1.0, "rank": r}
                           for m, r in zip(("m", "other"), ranks, strict=True)])
    row = _run("rank_shift", {"feature": "temp", "than": "other"}, ranked=ranked)
    assert row["verdict"] == verdict and "exact" in row["tolerance"], row


def test_missing_estimates_give_no_data():
    row = _run("spread_ratio", {"feature": "x1", "than": "b"}, _curves("a", 1.0, 1))
    assert row["verdict"] == "no data" and "b/l/m has 0" in row["reason"]
