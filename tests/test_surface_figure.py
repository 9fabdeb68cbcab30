"""The layer's surface drawer (:mod:`imlbench.figures.surface`) from synthetic 2-D estimates:
the mean over repetitions on their grid or on the common one, the 1-D curves added, each
kind drawn with the training rows, and bad panels refused with a message naming them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.surface import summarised, surface_levels, with_curves
from imlbench.params import check_all


def _plane(x: np.ndarray, z: np.ndarray, c: float) -> tuple:
    return x, z, z[:, None] + x[None, :] + c


def test_mean_surface_on_their_grid_or_on_the_range_every_repetition_covers():
    """x + z on x, z in [0, 2] and x + z + 1 on x in [1, 3], z in [0, 3]: their mean on
    [1, 2] x [0, 2] is x + z + 0.5 (bilinear interpolation is exact on a plane); on a shared
    grid the mean is taken there."""
    grids = {0: _plane(np.array([0.0, 2.0]), np.array([0.0, 1.0, 2.0]), 0.0),
             1: _plane(np.array([1.0, 3.0]), np.array([0.0, 1.0, 3.0]), 1.0)}
    x, z, mean = summarised(grids, "mean")
    assert (x[0], x[-1], z[0], z[-1]) == (1.0, 2.0, 0.0, 2.0)
    np.testing.assert_allclose(mean, z[:, None] + x[None, :] + 0.5)
    assert summarised(grids, "first") is grids[0]
    shared = {0: _plane(np.array([0.0, 1.0]), np.array([0.0, 1.0]), 0.0),
              1: _plane(np.array([0.0, 1.0]), np.array([0.0, 1.0]), 2.0)}
    x, z, mean = summarised(shared, "mean")
    np.testing.assert_array_equal(x, [0.0, 1.0])
    np.testing.assert_allclose(mean, z[:, None] + x[None, :] + 1.0)


def test_surface_plus_its_curves():
    """Each repetition's surface plus its own 1-D curves read at the grid points:
    10 z + x plus a = -1, 1 at x = 0, 1 and b = 2 z."""
    x, z = np.array([0.0, 1.0]), np.array([0.0, 1.0, 2.0])
    values = 10 * z[:, None] + x[None, :]
    curves = pd.DataFrame({"rep": [0, 0, 0, 0, 1, 1, 1, 1], "feature": ["a", "a", "b", "b"] * 2,
                           "x": [0.0, 1, 0, 2] * 2, "value": [-1.0, 1, 0, 4, 0, 0, 0, 0]})
    out = with_curves({0: (x, z, values), 1: (x, z, values)}, curves, ["a", "b"])
    np.testing.assert_allclose(out[0][2], [[-1, 2], [11, 14], [23, 26]])
    np.testing.assert_allclose(out[1][2], values)
    with pytest.raises(ValueError, match="no 1-D curve of c"):
        with_curves({0: (x, z, values)}, curves, ["a", "c"])


def test_centred_levels_are_symmetric_with_zero_in_a_band():
    levels = surface_levels([np.array([[-0.3, 1.0]])], centred=True)
    assert levels[0] == -levels[-1] and np.any((levels[:-1] < 0) & (levels[1:] > 0))


def _inputs(tmp_path, reps: int = 2) -> FigureInputs:
    """A 2-D estimate x + z on 5 x 4 points (its grid moving with the repetition), a 1-D curve
    of x1 and x2 (``m1``) and the training rows, in two scenarios."""
    w = WrittenInputs(tmp_path)
    for scenario in ("a", "b"):
        frames, curves = [], []
        for rep in range(reps):
            gx, gz = np.linspace(0, 1 + 0.1 * rep, 5), np.linspace(0, 2, 4)
            xx, zz = np.meshgrid(gx, gz)
            frames.append(pd.DataFrame({"rep": rep, "x": xx.ravel(), "z": zz.ravel(),
                                        "value": (xx + zz).ravel()}))
            curves += [pd.DataFrame({"rep": rep, "feature": f, "x": g, "value": g})
                       for f, g in (("x1", gx), ("x2", gz))]
        w.table(scenario, "rf", "m2", "surface", pd.concat(frames, ignore_index=True))
        w.table(scenario, "rf", "m1", "surface", pd.concat(curves, ignore_index=True))
        rows = pd.DataFrame({"rep": 0, "split": "train", "x1": [0.2, 0.5], "x2": [1.0, 1.5],
                             "y": 0.0})
        w.paths["data"].append(write(rows, tmp_path / "data" / scenario / "c0.parquet"))
    return FigureInputs(w.paths, w.methods, ["a", "b"])


def _draw(inputs: FigureInputs, **params) -> None:
    spec = FIGURES.get("surface")
    check_all(spec.params, params, owner="surface")
    spec(inputs, {"title": "t", "caption": "c", "params": params}, None, None)


def test_one_panel_per_scenario_with_rows_arrows_and_marks(tmp_path, drawn):
    _draw(_inputs(tmp_path), panels=[{"scenario": "a", "method": "m2", "title": "{rows} rows"},
                                     {"scenario": "b", "method": "m2"}],
          stat="first", points="rings", arrows=[[0, 0, 1, 0]], marks=[[1, 1]])
    (fig,) = drawn
    ax = fig.axes[0]
    assert ax.get_title() == "2 rows"
    assert len(ax.collections) == 2 and len(ax.texts) == 1  # mesh and rows; the arrow
    assert len(fig.axes) == 3  # two panels and one shared colour bar


def test_contours_of_a_centred_sum_on_their_own_scales(tmp_path, drawn):
    _draw(_inputs(tmp_path), kind="contour", centre=True, scale="own", points="dots",
          panels=[{"scenario": "a", "method": "m2", "plus": "m1", "title": "{range}"},
                  {"scenario": "a", "method": "m2", "points": False}])
    (fig,) = drawn
    assert fig.axes[0].get_title().startswith("values -")
    assert len(fig.axes) == 4  # a colour bar per panel


def test_lines_per_level_of_z(tmp_path, drawn):
    _draw(_inputs(tmp_path, reps=1), kind="lines", levels=["p", "q", "r", "s"], ylabel="z",
          panels=[{"scenario": "a", "method": "m2"}])
    legend = [t.get_text() for t in drawn[0].axes[0].get_legend().get_texts()]
    assert legend == ["z = p", "z = q", "z = r", "z = s"]


@pytest.mark.parametrize(("params", "message"), [
    ({}, r"params.panels\[0\]: the role surface has methods m2, m1"),
    ({"panels": [{"scenario": "a", "method": "m3"}]}, r"params.panels\[0\].method: 'm3'"),
    ({"panels": [{"scenario": "a", "method": "m2", "title": "{nothing}"}]},
     "allowed placeholders"),
    ({"panels": [{"scenario": "a", "method": "m2"}], "levels": ["p"]}, "params.levels"),
])
def test_bad_panels_are_named(tmp_path, drawn, params, message):
    with pytest.raises(ValueError, match=message):
        _draw(_inputs(tmp_path), **params)
