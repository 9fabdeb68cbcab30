"""The layer's repetition curve grid (:mod:`imlbench.figures.curve_grid`) from synthetic
estimates and truths: every layout drawn (features, scenarios, a sweep, a list of panels), the
mean and its error bars or band as stated, anchoring over one span, categorical levels, a
truth per panel, the looks, and every bad parameter refused with a message naming it."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench.config import ConfigError
from imlbench.figures import FIGURES
from imlbench.figures.curve_grid import draw_repetitions, panels
from imlbench.figures.inputs import FigureInputs
from imlbench.validate import check_study

SCENARIOS = ["ind", "cor", "dep"]
SPEC = {"title": "test", "caption": "test"}


def _inputs(tmp_path, scenarios=SCENARIOS, learners=("lm",)) -> FigureInputs:
    """Three repetitions of curves of slope 1 (x1, x2) with offsets -1, 0, 1, on grids that
    differ per repetition; true PD slope 1 and interventional slope 2 (x1)."""
    w = WrittenInputs(tmp_path)
    truths = []
    for sc in scenarios:
        for learner in learners:
            rows = []
            for rep in range(3):
                x = np.linspace(-3 + 0.1 * rep, 3 - 0.1 * rep, 50)
                for f in ("x1", "x2"):
                    rows.append(pd.DataFrame({"rep": rep, "feature": f, "x": x,
                                              "value": x + (rep - 1)}))
            w.table(sc, learner, "pdp", "curves", pd.concat(rows, ignore_index=True))
        grid = np.linspace(-1.6, 1.6, 19)
        truths += [pd.DataFrame({"scenario": sc, "estimand": e, "feature": f, "row": -1,
                                 "x": grid, "value": s * grid, "se": 0.0})
                   for e, f, s in (("pd", "x1", 1), ("pd", "x2", 1),
                                   ("interventional", "x1", 2), ("interventional", "x2", 1))]
    w.paths["truth"].append(write(pd.concat(truths), tmp_path / "truth" / "effects.parquet"))
    return FigureInputs(w.paths, w.methods, list(scenarios))


def _draw(inputs: FigureInputs, tmp_path, **params) -> None:
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    FIGURES.get("rep_curve_grid")(inputs, {**SPEC, "params": params}, png, pdf)
    assert png.read_bytes()[:4] == b"\x89PNG" and pdf.read_bytes()[:4] == b"%PDF"


def test_rows_of_scenarios_and_columns_of_features(tmp_path):
    _draw(_inputs(tmp_path), tmp_path, truths=["pd", "interventional"],
          references=[{"expression": "2*x", "label": "common effect", "features": ["x1"]}],
          xlim=[-3, 3], ylim=[-3, 3], row_labels=["independent", "correlated", "dependent"],
          error_bars="se", anchor="mean")


def test_a_grid_of_one_feature_over_scenarios(tmp_path):
    names = [f"s{i}" for i in range(5)]
    inputs = _inputs(tmp_path, scenarios=names)
    _draw(inputs, tmp_path, columns="scenarios", feature="x1",
          layout=[names[:3], names[3:]], column_labels=["N 100", "N 1000", "N 10000"],
          row_labels=["sd 0.1", "sd 0.5"], individual=False, error_bars="none")
    grid = panels(inputs, inputs.estimates("curves"), columns="scenarios", features=None,
                  feature="x1", layout=[names[:3], names[3:]])
    assert grid[1] == [("s3", "x1"), ("s4", "x1"), None]  # a ragged last row: an empty cell


def test_individual_max_draws_the_first_repetitions_and_the_mean_of_all():
    """With ``individual_max`` 2 of 3 repetitions are drawn thin, repetitions 0 and 1; the
    mean still runs over all three."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from imlbench.figures import style as st
    from imlbench.figures.curve_grid import SeriesLook

    x = np.linspace(0, 1, 11)
    est = pd.DataFrame({"rep": np.repeat([0, 1, 2], 11), "x": np.tile(x, 3),
                        "value": np.concatenate([x - 1, x, x + 4])})
    hues = st.LOOKS["house"]
    look = SeriesLook(hues, hues.rep, hues.mean, True, False, "none", 3, False, 2)
    fig, ax = plt.subplots()
    draw_repetitions(ax, est, look=look)
    thin = [line.get_ydata() for line in ax.lines[:2]]
    np.testing.assert_allclose(thin, [x - 1, x])
    np.testing.assert_allclose(ax.lines[2].get_ydata(), x + 1)  # the mean of all three
    assert len(ax.lines) == 3
    plt.close(fig)


def test_the_mean_and_its_sd_bars_are_those_of_the_repetitions():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.linspace(0, 1, 11)
    est = pd.DataFrame({"rep": np.repeat([0, 1, 2], 11), "x": np.tile(x, 3),
                        "value": np.concatenate([x - 1, x, x + 1])})
    fig, ax = plt.subplots()
    draw_repetitions(ax, est, anchor="none", individual=True, error_bars="sd", error_points=3)
    mean = ax.lines[3]  # three grey repetitions first
    np.testing.assert_allclose(mean.get_ydata(), x)
    bars = ax.collections[-1].get_segments()
    assert len(bars) == 3  # points 0, 5 and 10
    np.testing.assert_allclose([seg[1, 1] - seg[0, 1] for seg in bars], 2.0)  # 2 sd, sd = 1
    plt.close(fig)


@pytest.mark.parametrize(("params", "message"), [
    ({"references": [{"expression": "2*z"}]}, "params.references[0].expression"),
    ({"references": [{"label": "no line"}]}, "params.references[0]: no expression"),
    ({"row_labels": ["a", "b"]}, "params.row_labels: 2 labels for 3 rows"),
    ({"features": ["x9"]}, "params.features: no estimates of x9"),
    ({"columns": "scenarios", "feature": "x1", "layout": [["ind", "other"]]},
     "params.layout: other not among"),
    ({"columns": "scenarios", "layout": [["ind"]]}, "needs params.feature"),
    ({"feature": "x1"}, "go with columns: scenarios"),
])
def test_bad_parameters_are_named(tmp_path, params, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _draw(_inputs(tmp_path), tmp_path, **params)


def test_several_learners_need_one_picked(tmp_path):
    inputs = _inputs(tmp_path, learners=("lm", "rf"))
    with pytest.raises(ValueError, match="params.learner picks one"):
        _draw(inputs, tmp_path)
    with pytest.raises(ValueError, match="params.learner: 'svm' has no estimates"):
        _draw(inputs, tmp_path, learner="svm")
    _draw(inputs, tmp_path, learner="rf")


# --- panels, levels, truths per panel, sweeps, looks ------------------------------------------


def _spec(name: str, params: dict):
    from imlbench.params import check_all

    spec = FIGURES.get(name)
    check_all(spec.params, params, owner=name)  # as the study file's validator does
    return spec


def _panels(inputs: FigureInputs, **params) -> None:
    _spec("rep_curve_grid", params)(inputs, {**SPEC, "params": params}, None, None)


def test_a_list_of_panels_with_titles_limits_and_a_truth_each(tmp_path, drawn):
    _panels(_inputs(tmp_path), panels=[
        {"scenario": "ind", "feature": "x1", "title": "{scenario}: {reps} reps, K = {intervals}",
         "truths": ["interventional"]},
        {"scenario": "cor", "feature": "x2", "xlim": [0, 1], "shade": [0.2, 0.4],
         "vlines": [0.5], "ylabel": "PD"},
        {"scenario": "dep", "feature": "x1", "show": "truth", "title": "truth alone"}],
        ncols=2, share="none", anchor="mean", first=True, error_bars="band")
    (fig,) = drawn
    a, b, c = fig.axes[:3]
    assert a.get_title() == "ind: 3 reps, K = 49" and b.get_ylabel() == "PD"
    assert b.get_xlim() == (0, 1) and len(b.patches) == 1  # limited, the range shaded
    low, high = b.get_ylim()
    assert -1.5 < low < high < 1.5  # fitted to the anchored curves within x in [0, 1]
    assert c.get_title() == "truth alone" and len(c.lines) == 1
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "each of 3 repetitions" in labels and "first repetition (dots: its points)" in labels


def test_anchored_curves_and_the_truth_share_the_span():
    """Curves x + c on different grids, anchored at their mean over the span all cover: each
    becomes x less the span's midpoint, whatever c."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from imlbench.figures.curve_grid import draw_repetitions

    rows = [pd.DataFrame({"rep": r, "x": np.linspace(-r, 4 + r, 9 + 4 * r), "value": 0.0})
            for r in range(3)]
    est = pd.concat([d.assign(value=d["x"] + 5 * d["rep"]) for d in rows], ignore_index=True)
    fig, ax = plt.subplots()
    stats = draw_repetitions(ax, est, anchor="mean", span=(1.0, 3.0), error_bars="none")
    np.testing.assert_allclose(stats["mean"], stats["x"] - 2.0, atol=1e-9)
    np.testing.assert_allclose(stats["sd"], 0.0, atol=1e-9)
    assert (stats["x"].min(), stats["x"].max()) == (0.0, 4.0)  # the range every rep covers
    plt.close(fig)


def test_step_function_and_intervals():
    from imlbench.figures.curve_grid import intervals, step_curve, step_offset

    x, y = step_curve([[4.9, 5.1, 10.0]], 0.0, 10.0)
    np.testing.assert_allclose(x, [0, 4.9, 4.9, 5.1, 5.1, 10])
    np.testing.assert_allclose(y, [0, 0, 10, 10, 0, 0])
    assert step_offset([[4.9, 5.1, 10.0]], "mean", (0.0, 10.0)) == pytest.approx(0.2, abs=0.01)
    est = pd.DataFrame({"rep": [0] * 6 + [1] * 6 + [2] * 5,
                        "x": [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 1, 2, 3.0]})
    assert intervals(est) == 5  # tied points collapse, the most common count wins


def test_categorical_levels_label_the_codes(tmp_path, drawn):
    w = WrittenInputs(tmp_path)
    w.table("s", "lm", "pdp", "curves", pd.DataFrame(
        {"rep": np.repeat([0, 1], 3), "feature": "season", "x": [1.0, 2, 3] * 2,
         "value": [1.0, 2, 3, 1.5, 2.5, 3.5]}))
    inputs = FigureInputs(w.paths, w.methods, ["s"])
    params = {"panels": [{"scenario": "s"}], "levels": {"season": ["w", "sp", "su"]},
              "look": "book", "error_bars": "none", "truths": []}
    _spec("rep_curve_grid", params)(inputs, {**SPEC, "params": params}, None, None)
    ax = drawn[0].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["w", "sp", "su"]
    assert ax.lines[-1].get_marker() == "o"  # points per level, joined
    params["levels"] = {"season": ["w", "sp"]}
    with pytest.raises(ValueError, match=r"params.levels.season: 2 names for 3 levels"):
        _spec("rep_curve_grid", params)(inputs, {**SPEC, "params": params}, None, None)


def test_a_sweep_of_two_parameters_with_a_truth_column(tmp_path, drawn):
    w = WrittenInputs(tmp_path)
    truths = []
    for sd in (0.1, 0.5):
        for n in (100, 1000, 10000):
            name = f"sem_sd{sd}_n{n}"
            x = np.linspace(-1, 1, 5)
            w.table(name, "rf", "pdp", "curves", pd.DataFrame(
                {"rep": np.repeat([0, 1], 5), "feature": "x", "x": np.tile(x, 2),
                 "value": np.tile(x, 2)}), p_sd=sd, p_n=n)
            truths.append(pd.DataFrame({"scenario": name, "estimand": "interventional",
                                        "feature": "x", "row": -1, "x": x, "value": 2 * x,
                                        "se": 0.0}))
    w.paths["truth"].append(write(pd.concat(truths), tmp_path / "truth" / "effects.parquet"))
    names = [f"sem_sd{sd}_n{n}" for sd in (0.1, 0.5) for n in (100, 1000, 10000)]
    _panels(FigureInputs(w.paths, w.methods, names), columns="sweep", sweep=["sd", "n"],
            truths=["interventional"], truth_column="do", panel_title="N = {n:,.0f}",
            look="book", error_bars="none")
    axes = [ax for ax in drawn[0].axes if ax.get_visible()]
    assert len(axes) == 8  # 2 sd x (3 n + the truth column)
    assert [ax.get_title() for ax in axes[:4]] == ["N = 100", "N = 1,000", "N = 10,000", "do"]
    assert axes[0].get_ylabel() == "sd = 0.1" and axes[4].get_ylabel() == "sd = 0.5"
    dashed = [line for line in axes[0].lines if line.get_linestyle() == "--"]
    assert len(dashed) == 1 and dashed[0].get_color() == "#e6b800"  # the book's do-curve


def test_series_told_apart_by_learner_or_drawn_in_the_methods_colour(tmp_path, drawn):
    inputs = _inputs(tmp_path, learners=("g_rf", "g_svm"))
    panels = [{"scenario": "ind", "feature": "x1"}]
    _panels(inputs, panels=panels, learners=["g_rf", "g_svm"], colour="series", look="book",
            series_labels={"g_svm": "SVM"}, error_bars="none")
    labels = [t.get_text() for t in drawn[0].legends[0].get_texts()]
    assert labels[:2] == ["g_rf", "SVM"]
    assert [line.get_color() for line in drawn[0].axes[0].lines[3:8:4]] == ["black", "#1f5fd1"]
    with pytest.raises(ValueError, match="params.colour: series tells them apart"):
        _panels(inputs, panels=panels, learners=["g_rf", "g_svm"])
    inputs.method_kinds = {"pdp": "ale"}
    _panels(inputs, panels=panels, learner="g_rf", colour="method")
    assert drawn[-1].axes[0].lines[3].get_color() == "#1b7837"  # the ALE's colour


def test_a_surface_panel_beside_curves(tmp_path, drawn):
    inputs = _inputs(tmp_path, scenarios=["ind"])
    xx, zz = np.meshgrid(np.linspace(0, 1, 4), np.linspace(0, 1, 3))
    w = WrittenInputs(tmp_path / "surface")
    w.table("ind", "lm", "surf", "curves", pd.DataFrame(
        {"rep": 0, "x": xx.ravel(), "z": zz.ravel(), "value": (xx * zz).ravel()}))
    inputs.paths["estimates"] += w.paths["estimates"]
    inputs.roles["curves"].append("surf")
    _panels(inputs, panels=[{"scenario": "ind", "show": "surface", "method": "surf",
                             "zlabel": "2-D PD"},
                            {"scenario": "ind", "feature": "x1", "method": "pdp"}])
    fig = drawn[0]
    assert fig.axes[-1].get_ylabel() == "2-D PD"  # the surface's colour bar
    assert len(fig.axes[1].lines) >= 4  # three repetitions and the mean


@pytest.mark.parametrize(("params", "message"), [
    ({"panels": [{"scenario": "nowhere", "feature": "x1"}]},
     r"params.panels\[0\].scenario: 'nowhere'"),
    ({"panels": [{"scenario": "ind"}]}, r"params.panels\[0\].feature"),
    ({"panels": [{"scenario": "ind", "feature": "x1", "title": "{nothing}"}]},
     "allowed placeholders"),
    ({"columns": "sweep"}, "needs params.sweep"),
    ({"columns": "sweep", "sweep": ["sd", "n"]}, "no swept parameter 'sd'"),
])
def test_bad_panels_are_named(tmp_path, drawn, params, message):
    with pytest.raises(ValueError, match=message):
        _panels(_inputs(tmp_path), **params)


#: the start of the ch. 4 ice-cream figure's entry (real data: its DGP has no truth)
ENTRY = ("    function: rep_curve_grid\n    scenarios: [icecons, icetemp]\n"
         "    methods: {curves: [c_pdp_temp, c_pdp_cons]}\n    params:\n")


@pytest.mark.parametrize("edit, drawn", [
    # the shipped entry: no truth drawn, so the real-data scenarios need none
    (lambda text: text, None),
    # the default truths ([pd]) on scenarios whose DGP has no truth
    (lambda text: text.replace(ENTRY + "      truths: []\n", ENTRY), "truths"),
    # one panel names a truth although the entry draws none
    (lambda text: text.replace('{scenario: icecons, title: icecons,',
                               '{scenario: icecons, truths: [pd], title: icecons,'), "panel"),
])
def test_a_real_data_entry_draws_no_truth_or_the_check_refuses_it(tmp_path, edit, drawn):
    """``rep_curve_grid`` reads the effects truth only where an entry draws one; an entry that
    draws one on scenarios whose DGP has none is refused before any job, naming the figure."""
    repo = Path(__file__).resolve().parents[1]
    shutil.copytree(repo / "config", tmp_path / "config")
    shutil.copytree(repo / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    chapter = tmp_path / "config" / "studies" / "book_pdp" / "50_ch4.yaml"
    text = chapter.read_text()
    assert ENTRY + "      truths: []\n" in text
    chapter.write_text(edit(text))
    folder = chapter.parent
    if drawn is None:
        check_study(folder, "default", tmp_path)
        return
    with pytest.raises(ConfigError, match=r"key figures\.fig_4_1\.scenarios: rep_curve_grid "
                                          r"reads the effects truth, which none"):
        check_study(folder, "default", tmp_path)
