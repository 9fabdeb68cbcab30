"""Chapter 2 of the book (PDP and ICE on the Titanic passengers): the study's claim kinds and
statistics on cases that hold and cases that fail, and its figures on synthetic inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from figure_inputs import WrittenInputs, write

import imlbench.studies.book_pdp  # noqa: F401  (registers the kinds and figures)
from imlbench.figures import FIGURES
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.params import check_all

AGES = np.linspace(0.17, 80, 20)


def _row(kind: str, est: pd.DataFrame, **params) -> dict:
    spec = CLAIMS.get(kind)
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": "s", "learner": "rf", "method": "m"}, "k": 3.0, "atol": 0.0,
             "compare": "equal", **params}
    claim = {**{k: p.default for k, p in spec.params.items()}, **claim}
    (row,) = spec(claim, Tables(ranked=pd.DataFrame(), truth={}, other=est))
    return row


def _surface(slopes: dict[float, float], reps: int = 5, zs=None) -> pd.DataFrame:
    """f(x, z) = slope_z * x plus a small spread over repetitions."""
    return pd.DataFrame([{"scenario": "s", "learner": "rf", "method": "m", "rep": r, "x": x,
                          "z": z, "value": (b + 1e-4 * r) * x}
                         for r in range(reps) for z, b in slopes.items() for x in AGES])


def _slice(est: pd.DataFrame, **params) -> dict:
    """The row of a ``contrast`` claim on the statistic ``book_pdp.surface_slice``."""
    return _row("contrast", est, statistic="book_pdp.surface_slice", **params)


def test_surface_slices_compare_the_slopes_of_two_slices():
    est = _surface({0.0: -0.002, 1.0: -0.006})
    steeper = dict(at=1, minus_at=0, range=[0, 81], value=0.0, compare="below")
    assert _slice(est, **steeper)["verdict"] == REPRODUCED
    flatter = _surface({0.0: -0.006, 1.0: -0.002})
    assert _slice(flatter, **steeper)["verdict"] == NOT_REPRODUCED
    alone = _slice(est, at=0, range=[0, 81], value=0.0, compare="below")
    assert alone["verdict"] == REPRODUCED and "at z = 0:" in alone["reproduced"]
    same = _slice(est, at=1, minus_at=0.9, range=[0, 81], value=0.0)
    assert same["verdict"] == NO_DATA and "same grid z 1" in same["reason"]


def test_surface_slices_mean_gap_beyond_another_range():
    # the high-z slice lies above the low one by x / 40: a gap of about 1 over adults and
    # about 0.15 over children
    rows = [{"scenario": "s", "learner": "rf", "method": "m", "rep": r, "x": x, "z": z,
             "value": 0.3 + (x / 40 if z == 100 else 0.0) + 0.001 * r}
            for r in range(4) for z in (0.0, 25.0, 100.0) for x in AGES]
    est = pd.DataFrame(rows)
    gap = dict(at=95, minus_at=3, range=[18, 81], stat="mean", value=0.0, compare="above")
    assert _slice(est, **gap)["verdict"] == REPRODUCED
    # the same gap over the children's ages, paired by repetition
    beyond = _slice(est, **gap, test="paired", than={"range": [0, 12]})
    assert beyond["verdict"] == REPRODUCED
    mean = 0.3 + AGES[AGES >= 18].mean() / 40 - 0.3
    assert f"{mean - AGES[AGES <= 12].mean() / 40:.4g}" in beyond["reproduced"]
    reversed_ = _slice(est, **{**gap, "at": 3, "minus_at": 95})
    assert reversed_["verdict"] == NOT_REPRODUCED


def _ice(ends: list[float], reps: int = 3) -> pd.DataFrame:
    """Centred ICE curves rising linearly from 0 to each end value."""
    return pd.DataFrame([{"scenario": "s", "learner": "rf", "method": "m", "rep": r,
                          "feature": "age", "row": i, "x": x,
                          "value": end * (x - AGES[0]) / (AGES[-1] - AGES[0])}
                         for r in range(reps) for i, end in enumerate(ends) for x in AGES])


def test_the_share_of_centred_ice_curves_ending_below_or_above_their_anchor():
    """The layer's ``ice_share`` over the whole grid, as the centred ICE claims of Fig. 2.6
    read it: a curve that ends at 0 neither falls nor rises."""
    est = _ice([-0.5, -0.3, -0.2, 0.0, 0.4])
    most = _row("ice_share", est, feature="age", direction="falling", value=0.5,
                compare="above")
    assert most["verdict"] == REPRODUCED and "age (by their change): 0.6 (SE" in most["reproduced"]
    some = _row("ice_share", est, feature="age", direction="rising", value=0.0, compare="above")
    assert some["verdict"] == REPRODUCED and "age (by their change): 0.2 (SE" in some["reproduced"]
    none = _row("ice_share", _ice([-0.5, -0.1, 0.0]), feature="age", direction="rising",
                value=0.0, compare="above")
    assert none["verdict"] == NOT_REPRODUCED


def test_grid_start_is_exact_up_to_the_printed_rounding():
    est = _ice([-0.5, 0.2])
    assert _row("book_pdp.grid_start", est, feature="age", value=0.17, atol=0.005)["verdict"] == \
        REPRODUCED
    missed = _row("book_pdp.grid_start", est, feature="age", value=0.42, atol=0.005)
    assert missed["verdict"] == NOT_REPRODUCED and "0.17 to 0.17" in missed["reproduced"]


# --- figures -------------------------------------------------------------------------------


class Written(WrittenInputs):
    def data(self, scenario: str = "titanic") -> None:
        rng = np.random.default_rng(0)
        table = pd.DataFrame({"rep": 0, "split": "train", "age": rng.uniform(0.17, 80, 60),
                              "sex": rng.integers(0, 2, 60), "pclass": rng.integers(0, 3, 60),
                              "y": rng.integers(0, 2, 60)})
        self.paths["data"].append(write(table, self.root / "data" / scenario / "c0.parquet"))

    def draw(self, name: str, params: dict) -> Path:
        spec = FIGURES.get(name if name in FIGURES.names() else f"book_pdp.{name}")
        assert set(self.methods) == set(spec.methods), "the test fills every declared role"
        check_all(spec.params, params, owner=name)  # as the study file's validator does
        inputs = FigureInputs(self.paths, self.methods, ["titanic"])
        png, pdf = self.root / f"{name}.png", self.root / f"{name}.pdf"
        spec(inputs, {"title": name, "caption": "test", "params": params}, png, pdf)
        return png


@pytest.fixture
def drawn(monkeypatch):
    """The figures the functions draw, instead of writing them."""
    figures = []
    monkeypatch.setattr(st, "save", lambda fig, *_: figures.append(fig))
    return figures


def _titles(fig) -> list[str]:
    return [ax.get_title() for ax in fig.axes if ax.get_title()]


def test_pdp_figure_draws_a_numeric_and_a_categorical_feature(tmp_path, drawn):
    d = Written(tmp_path)
    d.data()
    curves = pd.DataFrame([{"rep": r, "feature": "age", "x": x, "value": 0.7 - x / 200}
                           for r in range(3) for x in AGES])
    d.table("titanic", "t_rf", "t_pdp_age", "pdp", curves)
    d.draw("titanic_pdp", {"xlabel": "age (years)"})
    (fig,) = drawn
    ax = fig.axes[0]
    assert len(ax.lines) == 4 and ax.get_xlabel() == "age (years)"  # 3 forests and the mean
    assert len(ax.collections) == 1  # the rug
    d = Written(tmp_path / "levels")
    levels = pd.DataFrame([{"rep": r, "feature": "pclass", "x": float(k), "value": 0.6 - 0.2 * k}
                           for r in range(3) for k in range(3)])
    d.table("titanic", "t_rf", "t_pdp_pclass", "pdp", levels)
    d.data()
    d.draw("titanic_pdp", {"levels": ["1st", "2nd", "3rd"]})
    ticks = [t.get_text() for t in drawn[1].axes[0].get_xticklabels()]
    assert ticks == ["1st", "2nd", "3rd"]


def _entry(figure: str) -> dict:
    """The parameters the study file gives ``figure``."""
    path = Path(__file__).parents[3] / "config" / "studies" / "book_pdp" / "10_ch2.yaml"
    return yaml.safe_load(path.read_text())["figures"][figure]["params"]


def test_surface_figure_draws_lines_or_a_colour_scale_and_names_a_stand_in(tmp_path, drawn):
    d = Written(tmp_path)
    d.table("titanic", "t_rf", "t_surface_age_sex", "surface",
            _surface({0.0: -0.002, 1.0: -0.006}, reps=3).drop(
                columns=["scenario", "learner", "method"]))
    d.data()
    d.draw("surface", _entry("fig_2_3"))
    legend = [t.get_text() for t in drawn[0].axes[0].get_legend().get_texts()]
    assert legend == ["sex = female", "sex = male"]
    d = Written(tmp_path / "colour")
    d.table("titanic", "t_rf", "t_surface_age_pclass", "surface",
            _surface({0.0: 0.0, 1.0: -0.002, 2.0: -0.004}, reps=2).drop(
                columns=["scenario", "learner", "method"]))
    d.data()
    d.draw("surface", _entry("fig_2_4"))
    (title,) = _titles(drawn[1])
    assert "stand-in: the data have no fare; drawn: age x passenger class" in title
    assert [t.get_text() for t in drawn[1].axes[0].get_yticklabels()] == ["1st", "2nd", "3rd"]


def test_ice_figure_draws_a_readable_subset_and_the_pdp(tmp_path, drawn):
    d = Written(tmp_path)
    d.data()
    ends = [-0.5, -0.3, 0.2] * 10  # 30 rows, 3 distinct curves
    d.table("titanic", "t_rf", "t_cice_age", "ice",
            _ice(ends, reps=2).drop(columns=["scenario", "learner", "method"]))
    d.draw("titanic_ice", {"drawn": 10, "ylabel": "difference"})
    (fig,) = drawn
    ax = fig.axes[0]
    assert len(ax.lines) == 11  # every 3rd of 30 curves and the PDP
    assert _titles(fig)[0].startswith("10 of 30 ICE curves of the first forest (grey; 3 "
                                      "distinct)")
    np.testing.assert_allclose(ax.lines[-1].get_ydata(),
                               np.mean(ends) * (AGES - AGES[0]) / (AGES[-1] - AGES[0]))
