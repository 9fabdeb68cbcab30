"""Chapter 13 of the book (LIME and the kernel width): the piecewise sine reference, the study
methods, the statistics through ``contrast`` and the window kind (each on a case that holds and
one that fails) and the figures on synthetic inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs

import imlbench.studies.book_lime  # noqa: F401  (registers the methods, kinds, figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.studies.book_lime.ch13 import SINE_PIECES, sine_reference

REPS, REPEATS = 6, 5
WIDTHS = (0.02, 0.1, 0.5, 2.0)


def test_the_piecewise_reference_is_continuous_and_follows_the_sine():
    slope, intercept = sine_reference(12.75)
    assert (float(slope), float(intercept)) == (-4.5, 61.15)
    for start, *_ in SINE_PIECES[1:]:
        (s0, c0), (s1, c1) = (sine_reference(start - 1e-9), sine_reference(start))
        # the printed knots and coefficients are rounded: jumps up to 0.06 (9.1: 0.055)
        assert s0 * start + c0 == pytest.approx(s1 * start + c1, abs=0.06)
    x = np.linspace(6.2, 13.4, 300)  # the pieces around the data's bulk
    s, c = sine_reference(x)
    truth = 4 * (np.sin(0.06 * x**2) + 0.1 * x)
    assert np.max(np.abs(s * x + c - truth)) < 1.0  # a description, not an interpolation


def _lime(slope: dict[str, callable], noise: float = 0.1, seed: int = 0) -> pd.DataFrame:
    """LIME rows per rep, width, point and repeat: x1's coefficient slope[point](width) plus
    noise shrinking with the width; x2 0 and deselected; intercept 10."""
    r = np.random.default_rng(seed)
    rows = []
    for rep in range(REPS):
        for w in WIDTHS:
            for point, f in slope.items():
                for k in range(REPEATS):
                    v = f(w) + noise / w * r.normal()
                    rows += [{"rep": rep, "kernel_width": w, "point": point, "repeat": k,
                              "feature": "x1", "x": 12.75, "value": v, "intercept": 10.0,
                              "selected": True},
                             {"rep": rep, "kernel_width": w, "point": point, "repeat": k,
                              "feature": "x2", "x": 4.0, "value": 0.0, "intercept": 10.0,
                              "selected": bool(w < 0.05 and k % 2)}]
    return pd.DataFrame(rows).assign(scenario="s", learner="l", method="m")


def _verdict(kind: str, other: pd.DataFrame, **params) -> dict:
    """The row of a claim of ``kind``, or of a ``contrast`` claim on the study's statistic
    ``kind`` (``book_lime.<kind>``)."""
    if kind != "book_lime.lime_window":
        params = {"statistic": f"book_lime.{kind}", **params}
        kind = "contrast"
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": "s", "learner": "l", "method": "m"}, **params}
    spec = CLAIMS.get(kind)
    (row,) = spec(claim, Tables(ranked=pd.DataFrame(), truth={}, other=other))
    return row


LOCAL = {"left_0": lambda w: 5.0 if w <= 0.5 else 2.5, "right_0": lambda w: 0.0}
COEF = {"point": "left", "feature": "x1", "kernel_width": 0.1}


def test_coefficient_against_a_number_a_reference_and_another_cell():
    rows = _lime(LOCAL)
    assert _verdict("coefficient", rows, **COEF, value=5.0)["verdict"] == REPRODUCED
    assert _verdict("coefficient", rows, **COEF, value=3.0)["verdict"] == NOT_REPRODUCED
    published = {**COEF, "kernel_width": 2.0, "value": 2.5, "test": "prediction"}
    assert _verdict("coefficient", rows, **published)["verdict"] == REPRODUCED
    ref = {**COEF, "minus_reference": "sine_slope"}  # -4.5 at x = 12.75: far from 5
    row = _verdict("coefficient", rows, **ref)
    assert row["verdict"] == NOT_REPRODUCED and "9.5" in row["reproduced"]
    diff = {**COEF, "kernel_width": 0.5, "test": "paired", "than": {"point": "right"},
            "value": 5.0}
    assert _verdict("coefficient", rows, **diff)["verdict"] == REPRODUCED
    wider = {**COEF, "test": "paired", "than": {"kernel_width": 2.0}, "compare": "above"}
    assert _verdict("coefficient", rows, **wider)["verdict"] == REPRODUCED
    every = {**COEF, "kernel_width": None, "test": "paired", "than": {"kernel_width": 2.0}}
    assert _verdict("coefficient", rows, **every)["verdict"] == NOT_REPRODUCED


def test_window_holds_inside_and_fails_beyond():
    rows = _lime(LOCAL)
    claim = {"points": ["left", "right"], "truths": [5.0, 0.0], "feature": "x1", "k": 3.0,
             "atol": 0.0}
    assert (_verdict("book_lime.lime_window", rows, **claim, between=[0.1, 0.5])["verdict"]
            == REPRODUCED)
    assert (_verdict("book_lime.lime_window", rows, **claim, between=[0.1, 2.0])["verdict"]
            == NOT_REPRODUCED)


def test_spread_is_larger_at_small_widths():
    base = {"feature": "x1", "widths": [0, 0.05], "test": "paired",
            "than": {"widths": [0.1, 2.0]}}
    assert (_verdict("log_sd", _lime(LOCAL), **base, compare="above")["verdict"]
            == REPRODUCED)
    assert (_verdict("log_sd", _lime(LOCAL), **base, compare="below")["verdict"]
            == NOT_REPRODUCED)


def test_inclusion_and_mixing():
    rows = _lime(LOCAL)
    inc = {"features": ["x1"], "mode": "all", "kernel_width": 2.0, "value": 1.0}
    assert _verdict("inclusion", rows, **inc)["verdict"] == REPRODUCED
    both = {**inc, "features": ["x1", "x2"]}  # x2 never kept at width 2
    assert _verdict("inclusion", rows, **both)["verdict"] == NOT_REPRODUCED
    assert _verdict("inclusion", rows, **{**both, "mode": "any"})["verdict"] == REPRODUCED
    mix = {"kernel_width": 0.02, "test": "paired", "than": {"kernel_width": 2.0}}
    assert _verdict("mixing", rows, **mix, compare="above")["verdict"] == REPRODUCED
    assert _verdict("mixing", rows, **mix, compare="below")["verdict"] == NOT_REPRODUCED


def _curve() -> pd.DataFrame:
    x = np.linspace(6, 14, 40)
    f = 4 * (np.sin(0.06 * x**2) + 0.1 * x)
    return pd.concat([pd.DataFrame({"part": "data", "x": x, "value": f + 0.1, "truth": np.nan}),
                      pd.DataFrame({"part": "grid", "x": x, "value": f, "truth": f})]
                     ).assign(rep=0)


def _kde() -> pd.DataFrame:
    x = np.linspace(-3, 3, 50)
    d = np.exp(-x**2 / 2) / np.sqrt(2 * np.pi)
    return pd.concat([pd.DataFrame({"rule": r, "bandwidth": b, "x": x, "value": d})
                      for r, b in (("silverman", 0.3), ("fixed", 0.01))]).assign(rep=0)


@pytest.mark.parametrize("name, params", [
    ("book_lime.kde", {}),
    ("book_lime.sine_fit", {"show": "reference"}),
    ("book_lime.lime_lines", {"points": ["left_0"], "widths": [0.1, 2.0], "reference": True}),
    ("book_lime.coef_paths", {"point_truths": {"left": 5}, "band": "normal"}),
    ("book_lime.ideal_paths", {"features": ["a", "b", "c", "d", "e"]}),
    ("book_lime.inclusion_paths", {"n_points": 2, "max_width": 4.0}),
    ("book_lime.gower", {"point": "left", "feature": "x1", "truth": 5.0}),
])
def test_figures_draw_synthetic_inputs(tmp_path, name, params):
    w = WrittenInputs(tmp_path)
    lime = _lime(LOCAL).drop(columns=["scenario", "learner", "method"])
    w.table("s", "l", "lime", "lime", lime)
    w.table("s", "l", "gower", "gower", lime[lime["kernel_width"] == 2.0]
            .drop(columns="kernel_width"))
    w.table("s", "l", "curve", "curve", _curve())
    w.table("s", "l", "kde", "kde", _kde())
    inputs = FigureInputs(w.paths, w.methods, ["s"])
    spec = {"title": "t", "caption": "c", "params": params}
    FIGURES.get(name)(inputs, spec, tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
