"""Chapter 4 of the book (PDP and causal interpretation): the study's claims on cases that
hold and cases that fail, and its figures on synthetic inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd

import imlbench.studies.book_pdp  # noqa: F401  (registers the kinds and figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.io import write_parquet
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables

GRID = np.linspace(-1, 1, 20)


def _tables(est: pd.DataFrame) -> Tables:
    return Tables(ranked=pd.DataFrame(), truth={}, other=est)


def _claim(kind: str, scenario: str = "s", method: str = "m", **params) -> dict:
    return {"id": "c", "kind": kind, "text": "", "published": "",
            "where": {"scenario": scenario, "learner": "rf", "method": method}, **params}


def _row(kind: str, est: pd.DataFrame, **params) -> dict:
    (row,) = CLAIMS.get(kind)(_claim(kind, **params), _tables(est))
    return row


def _ice(slopes: np.ndarray, reps: int = 4) -> pd.DataFrame:
    rows = [{"scenario": "s", "learner": "rf", "method": "m", "rep": r, "feature": "x1",
             "row": i, "x": x, "value": b * x + 0.01 * r}
            for r in range(reps) for i, b in enumerate(slopes) for x in GRID]
    return pd.DataFrame(rows)


def test_the_share_of_rising_and_falling_ice_slopes():
    """The layer's ``ice_share`` by least-squares slope, as the claims of Fig. 4.2 read it."""
    est = _ice(np.array([-3.0, -1.0, 2.0, 4.0]))
    rising = {"feature": "x1", "measure": "slope", "direction": "rising"}
    assert _row("ice_share", est, **rising, value=0.5)["verdict"] == REPRODUCED
    falling = {**rising, "direction": "falling"}
    assert _row("ice_share", est, **falling, value=0.0, compare="above")["verdict"] == \
        REPRODUCED
    est = _ice(np.array([1.0, 2.0, 3.0, 4.0]))
    assert _row("ice_share", est, **falling, value=0.0, compare="above")["verdict"] == \
        NOT_REPRODUCED


def _pdp(scenario: str, slope: float, spread: float = 0.01, reps: int = 5) -> pd.DataFrame:
    rows = [{"scenario": scenario, "learner": "rf", "method": "m", "rep": r, "feature": "x",
             "x": x, "value": (slope + spread * (r - reps // 2)) * x}
            for r in range(reps) for x in GRID]
    return pd.DataFrame(rows)


def test_the_span_is_largest_minus_smallest_value():
    est = _pdp("s", 2.0)  # span 4 on [-1, 1]
    span = {"statistic": "book_pdp.span", "feature": "x"}
    assert _row("contrast", est, **span, value=4.0, atol=0.1)["verdict"] == REPRODUCED
    assert _row("contrast", est, **span, value=2.0, atol=1.0)["verdict"] == NOT_REPRODUCED
    inner = _row("contrast", est, **span, range=[0.0, 1.0], value=2.0, atol=0.1)
    assert inner["verdict"] == REPRODUCED and "span of x on [0, 1]" in inner["reproduced"]


def test_negative_settings_counts_settings_with_a_clearly_negative_slope():
    est = pd.concat([_pdp("a", -1.0), _pdp("b", -0.5), _pdp("c", 1.0),
                     _pdp("d", 0.0, spread=0.5)], ignore_index=True)
    kw = {"feature": "x", "range": [-1, 1], "settings": ["a", "b", "c", "d", "e"],
          "scenario": "a"}
    # 2 negative (a, b), 1 undecided (d), 1 not run (e, undecided too): the count is 2 to 4
    row = _row("book_pdp.sem_negative_settings", est, value=2, **kw)
    assert row["verdict"] == REPRODUCED
    assert "not run: e" in row["reproduced"]
    assert _row("book_pdp.sem_negative_settings", est, value=4, **kw)["verdict"] == REPRODUCED
    assert _row("book_pdp.sem_negative_settings", est, value=1, **kw)["verdict"] == NOT_REPRODUCED
    assert _row("book_pdp.sem_negative_settings", est, value=5, compare="below",
                **kw)["verdict"] == REPRODUCED
    assert _row("book_pdp.sem_negative_settings", est, value=4, compare="below",
                **kw)["verdict"] != REPRODUCED


def test_slope_difference_of_two_settings():
    """A ``contrast`` of the layer's ``curve_slope`` by ``difference`` (two settings)."""
    est = pd.concat([_pdp("big", 1.0), _pdp("small", 1.5)], ignore_index=True)
    kw = {"statistic": "curve_slope", "test": "difference", "feature": "x", "range": [-1, 1],
          "scenario": "big", "than": {"scenario": "small"}}
    # slope 1.0 minus 1.5: -0.5, the spread of the slopes 0.01 per repetition
    assert _row("contrast", est, value=0.0, compare="below", **kw)["verdict"] == REPRODUCED
    assert _row("contrast", est, value=0.0, compare="above", **kw)["verdict"] == NOT_REPRODUCED
    assert _row("contrast", est, value=-0.5, atol=0.01, **kw)["verdict"] == REPRODUCED
    row = _row("contrast", est, value=0.0, **{**kw, "than": {"scenario": "absent"}})
    assert "absent" in row["reason"]


def _write(table: pd.DataFrame, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    write_parquet(table, path, config_hash="test", seed=0)
    return path


def test_the_sem_grid_and_the_pdp_panels_draw(tmp_path):
    """The study file's ch. 4 curve figures, on the layer's rep_curve_grid: a sweep of sd
    (rows) by n (columns) with the truth alone in a last column, and panels of real data."""
    parts, truths = [], []
    for sd in (0.1, 0.5):
        for n in (100, 1000):
            name = f"sem_sd{sd}_n{n}"
            parts.append(_pdp(name, 1.0).assign(p_sd=sd, p_n=n))
            truths.append(pd.DataFrame({"scenario": name, "p_sd": sd, "p_n": n,
                                        "estimand": "interventional", "feature": "x",
                                        "row": -1, "x": GRID, "value": GRID, "se": 0.0}))
    names = sorted({p["scenario"].iloc[0] for p in parts})
    est = _write(pd.concat(parts, ignore_index=True), tmp_path / "estimates/s/rf/m/c0.parquet")
    truth = _write(pd.concat(truths, ignore_index=True), tmp_path / "truth/s/effects.parquet")
    inputs = FigureInputs({"estimates": [est], "truth": [truth]}, {"curves": "m"}, names)
    params = {"columns": "sweep", "sweep": ["sd", "n"], "feature": "x",
              "truths": ["interventional"], "truth_column": "intervention",
              "panel_title": "N = {n:,.0f}, {reps} runs", "look": "book",
              "error_bars": "none", "ylim": [-2, 2], "legend": False}
    spec = {"title": "t", "caption": "c", "params": params}
    FIGURES.get("rep_curve_grid")(inputs, spec, tmp_path / "g.png", tmp_path / "g.pdf")
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    one = _write(_pdp("a", 1.0), tmp_path / "estimates/a/rf/m/c0.parquet")
    inputs = FigureInputs({"estimates": [one]}, {"curves": "m"}, ["a"])
    panels = {"panels": [{"scenario": "a", "title": "a", "xlabel": "X"}], "look": "book",
              "truths": []}
    FIGURES.get("rep_curve_grid")(inputs, {**spec, "params": panels}, tmp_path / "p.png",
                                  tmp_path / "p.pdf")
    assert (tmp_path / "p.pdf").read_bytes()[:4] == b"%PDF"
