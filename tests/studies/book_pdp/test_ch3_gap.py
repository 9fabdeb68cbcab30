"""Chapter 3.1, 3.3.5 and 3.4 of the book (the gap, the categorical simulation, the potato
function): the part's data method and claim kinds on cases that hold and cases that fail, the
categorical case written by Bayes' rule against the book's conditional law, and the figures on
synthetic inputs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml
from figure_inputs import WrittenInputs, write
from scipy import stats

import imlbench.studies.book_pdp  # noqa: F401  (registers the method, kinds and figures)
from imlbench.dgp.formula import FormulaDGP
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.association import corrected_contingency, variance_explained
from imlbench.explain.estimands import truth_frame
from imlbench.figures import FIGURES
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.params import check_all

STUDY_FILE = Path(__file__).parents[3] / "config" / "studies" / "book_pdp" / "40_ch3_gap.yaml"
POTATO = "where((x1 > 0.5) * (x2 < x1 - 0.5) + (x2 > 0.5) * (x1 < x2 - 0.5), 0, x1 + x2)"


def _row(kind: str, est: pd.DataFrame, where: dict | None = None, **params) -> dict:
    spec = CLAIMS.get(kind)
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": where or {"scenario": "a", "learner": "rf", "method": "m"}, **params}
    claim = {**{k: p.default for k, p in spec.params.items() if k not in claim}, **claim}
    (row,) = spec(claim, Tables(ranked=pd.DataFrame(), truth={}, other=est))
    return row


# --- the data method -----------------------------------------------------------------------


def _ctx(X: np.ndarray, names: list[str]) -> ExplainContext:
    return ExplainContext(model=None, X=X, y=np.zeros(len(X)), feature_names=names,
                          dgp=SimpleNamespace(categorical=()), fit=None, fixed_rng=None)


def test_gap_marginal_measures_the_distance_from_the_untruncated_normal():
    rng = np.random.default_rng(3)
    normal = rng.normal(size=4000)
    # the lower half of the plane loses the square 0 < x <= 1.5 (as the gap does to x2)
    cut = normal[~((normal > 0) & (normal <= 1.5))]
    X = np.column_stack([normal[:len(cut)], cut])
    out = METHODS.get("book_pdp.gap_marginal")(_ctx(X, ["x1", "x2"]), {}, rng)
    got = dict(zip(out["metric"], out["value"], strict=True))
    assert list(got) == ["mean:x1", "sd:x1", "ks:x1", "mean:x2", "sd:x2", "ks:x2"]
    assert got["ks:x2"] == pytest.approx(stats.kstest(cut, "norm").statistic)
    # n about 2,500: the KS distance of a true N(0, 1) sample stays below 1.63 / sqrt(n)
    # (its 1% critical value), while the cut law is 0.22 away (population value)
    assert got["ks:x1"] < 1.63 / np.sqrt(len(cut)) < 0.1 < got["ks:x2"]
    assert got["mean:x2"] == pytest.approx(cut.mean())
    shifted = METHODS.get("book_pdp.gap_marginal")(_ctx(X, ["x1", "x2"]),
                                          {"features": ["x1"], "mean": 1.0}, rng)
    assert shifted["metric"].tolist() == ["mean:x1", "sd:x1", "ks:x1"]
    assert shifted["value"].iloc[2] > 0.3  # N(0, 1) data against N(1, 1): 0.38 apart


# --- the categorical simulation's DGPs -------------------------------------------------------


def _scenario_dgp(name: str) -> FormulaDGP:
    doc = yaml.safe_load(STUDY_FILE.read_text())
    return FormulaDGP(**doc["scenarios"][name]["params"])


def test_case_2_by_bayes_rule_has_the_books_law_of_x2_given_x1():
    """x2 drawn from its marginal and x1 given x2 must give P(x2 | x1 = 0) = (0.9, 0.1, 0) and
    P(x2 | x1 = 1) = (0.05, 0.25, 0.7); 200,000 rows: each share within 4 binomial SE."""
    data = _scenario_dgp("catx1x2").sample(200_000, np.random.default_rng(1))
    assert set(np.unique(data["x1"])) == {0.0, 1.0}
    for x1, want in ((0, (0.9, 0.1, 0.0)), (1, (0.05, 0.25, 0.7))):
        x2 = data.loc[data["x1"] == x1, "x2"].to_numpy()
        share = np.array([(x2 == k).mean() for k in range(3)])
        se = np.sqrt(np.maximum(np.array(want) * (1 - np.array(want)), 1e-12) / len(x2))
        assert np.all(np.abs(share - want) <= 4 * se + 1e-12), (x1, share)
    assert (data["x1"] == 1).mean() == pytest.approx(0.5, abs=4 * 0.5 / np.sqrt(200_000))
    # the population K* of this joint law is 0.930 (sampling SE at 200,000 rows ~ 0.001)
    assert corrected_contingency(data["x1"], data["x2"]) == pytest.approx(0.930, abs=0.005)


def test_case_3_has_the_books_variance_explained():
    """x3 | x1: N(1, 1) or N(20, sd 2); sqrt(R^2) = sqrt(90.25 / 92.75) = 0.9864, the book's
    0.986 (200,000 rows: the estimate's SE is about 1e-4)."""
    data = _scenario_dgp("catx1x3").sample(200_000, np.random.default_rng(2))
    eta = variance_explained(data["x3"].to_numpy(), data["x1"].to_numpy())
    assert eta == pytest.approx(np.sqrt(90.25 / 92.75), abs=1e-3)
    assert data.loc[data["x1"] == 1, "x3"].mean() == pytest.approx(20.0, abs=0.05)


# --- claims ---------------------------------------------------------------------------------


def _metrics(values: dict[str, list[float]], metric: str = "ks:x2") -> pd.DataFrame:
    return pd.DataFrame([{"scenario": s, "learner": "rf", "method": "m", "rep": r,
                          "metric": metric, "value": v}
                         for s, vs in values.items() for r, v in enumerate(vs)])


def test_metric_difference_between_two_scenarios():
    """A ``contrast`` of the layer's ``metric`` by ``difference`` (independent data sets)."""
    est = _metrics({"a": [0.33, 0.34, 0.35, 0.34], "b": [0.11, 0.12, 0.13, 0.12]})
    diff = dict(statistic="metric", metric="ks:x2", test="difference", than={"scenario": "b"},
                value=0.0)
    row = _row("contrast", est, **diff, compare="above")
    assert row["verdict"] == REPRODUCED and "= 0.22" in row["reproduced"]
    reversed_ = _row("contrast", est, where={"scenario": "b", "learner": "rf", "method": "m"},
                     **{**diff, "than": {"scenario": "a"}}, compare="above")
    assert reversed_["verdict"] == NOT_REPRODUCED
    same = _metrics({"a": [0.03, 0.02, 0.025, 0.03], "b": [0.02, 0.03, 0.03, 0.025]})
    assert _row("contrast", same, **diff, atol=0.02)["verdict"] == REPRODUCED
    assert _row("contrast", est, **diff, atol=0.02)["verdict"] == NOT_REPRODUCED
    missing = _row("contrast", est, **{**diff, "metric": "mean:x2"})
    assert missing["verdict"] == "no data" and "metric mean:x2" in missing["reason"]


def _surface(g, reps: int = 2, size: int = 20) -> pd.DataFrame:
    grid = np.linspace(0.0, 1.0, size)
    xx, zz = np.meshgrid(grid, grid)
    return pd.DataFrame([{"scenario": "a", "learner": "truth", "method": "m", "rep": r,
                          "x": x, "z": z, "value": g(x, z)}
                         for r in range(reps) for x, z in zip(xx.ravel(), zz.ravel(),
                                                              strict=True)])


def _potato(x1: float, x2: float) -> float:
    return 0.0 if (x1 > 0.5 and x2 < x1 - 0.5) or (x2 > 0.5 and x1 < x2 - 0.5) else x1 + x2


def test_surface_equals_f_is_exact():
    where = {"scenario": "a", "learner": "truth", "method": "m"}
    row = _row("book_pdp.surface_equals_f", _surface(_potato), where, f=POTATO,
               features=["x1", "x2"])
    assert row["verdict"] == REPRODUCED and "800 points (2 reps)" in row["reproduced"]
    # the plain sum (no zero corners) differs by up to 1 + 9/19 = 1.47 (at x1 = 1, x2 = 9/19,
    # the largest grid point of a zero corner)
    plain = _row("book_pdp.surface_equals_f", _surface(lambda a, b: a + b), where, f=POTATO,
                 features=["x1", "x2"])
    assert plain["verdict"] == NOT_REPRODUCED and ": 1.47" in plain["reproduced"]
    with pytest.raises(ValueError, match="claim c: f"):
        _row("book_pdp.surface_equals_f", _surface(_potato), where, f="x1 + x3",
             features=["x1", "x2"])



@pytest.mark.parametrize(("off", "verdict"), [(1e-12, REPRODUCED), (1e-6, NOT_REPRODUCED)])
def test_surface_equals_f_up_to_the_floating_point_floor_only(off, verdict):
    # the potato off by ``off`` everywhere: the floor of its largest |value| 2 is 1e-9 x 2 +
    # 1e-12 (fp_floor, the one floor of every comparison with a closed form)
    where = {"scenario": "a", "learner": "truth", "method": "m"}
    row = _row("book_pdp.surface_equals_f", _surface(lambda a, b: _potato(a, b) + off),
               where, f=POTATO, features=["x1", "x2"])
    assert row["verdict"] == verdict and "floating-point floor" in row["tolerance"]


def test_curve_kink_sees_the_potato_pdp_bend():
    """The layer's kink check on the true PD of x1 (Monte Carlo over x2 = x1 + N(0, 0.1)):
    about 1.6 below 0.5 and -0.1 above, so the slope change is about -1.7."""
    rng = np.random.default_rng(4)
    grid = np.linspace(0.0, 1.0, 50)
    rows = []
    for rep in range(4):
        u = rng.uniform(0, 1, 2000)
        x2 = u + rng.normal(0, 0.1, 2000)
        rows += [{"scenario": "a", "learner": "truth", "method": "m", "rep": rep,
                  "feature": "x1", "x": g, "value": np.mean([_potato(g, b) for b in x2])}
                 for g in grid]
    est = pd.DataFrame(rows)
    where = {"scenario": "a", "learner": "truth", "method": "m"}
    row = _row("curve_kink", est, where, feature="x1", at=0.5, range=[-0.5, 1.5], value=0.0,
               compare="below")
    assert row["verdict"] == REPRODUCED
    straight = est.assign(value=est["x"] + 0.5 + 0.001 * est["rep"])
    assert _row("curve_kink", straight, where, feature="x1", at=0.5, range=[-0.5, 1.5],
                value=0.0, compare="below")["verdict"] in (NOT_REPRODUCED, INCONCLUSIVE)


# --- figures -------------------------------------------------------------------------------


class Written(WrittenInputs):
    def data(self, scenario: str, rho: float, gap: bool, n: int = 300) -> None:
        rng = np.random.default_rng(7)
        x = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], 3 * n)
        if gap:
            x = x[~((x[:, 0] > 0) & (x[:, 0] <= 1.5) & (x[:, 1] > 0) & (x[:, 1] <= 1.5))]
        x = x[:n]
        table = pd.DataFrame({"rep": 0, "split": "train", "x1": x[:, 0], "x2": x[:, 1],
                              "y": np.sin(x[:, 0]) + x[:, 1]})
        self.paths["data"].append(write(table, self.root / "data" / scenario / "c0.parquet"))

    def truth(self, scenario: str, curves: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
        table = pd.concat([truth_frame("pd", f, v, x=x) for f, (x, v) in curves.items()],
                          ignore_index=True).assign(scenario=scenario)
        self.paths["truth"].append(
            write(table, self.root / "truth" / scenario / "effects.parquet"))

    def draw(self, name: str, params: dict, scenarios: list[str]) -> None:
        spec = FIGURES.get(name)
        assert set(self.methods) == set(spec.methods), "the test fills every declared role"
        check_all(spec.params, params, owner=name)  # as the study file's validator does
        inputs = FigureInputs(self.paths, self.methods, scenarios)
        spec(inputs, {"title": name, "caption": "test", "params": params},
             self.root / "f.png", self.root / "f.pdf")

    def entry(self, figure: str) -> None:
        """The study file's figure ``figure``, with its function and parameters."""
        entry = yaml.safe_load(STUDY_FILE.read_text())["figures"][figure]
        self.draw(entry["function"], entry.get("params", {}), entry["scenarios"])


@pytest.fixture
def drawn(monkeypatch):
    """The figures the functions draw, instead of writing them."""
    figures = []
    monkeypatch.setattr(st, "save", lambda fig, *_: figures.append(fig))
    return figures


def test_scatter_draws_each_data_set_with_the_density_of_x2(tmp_path, drawn):
    d = Written(tmp_path)
    d.data("gapind", 0.0, gap=True)
    d.data("gapcor", 0.99, gap=True)
    d.draw("book_pdp.gap_scatter", {"column_labels": ["ind", "cor"], "box": [0, 1.5, 0, 1.5]},
           ["gapind", "gapcor"])
    (fig,) = drawn
    scatter, side = fig.axes[0], fig.axes[1]
    assert len(fig.axes) == 4 and scatter.get_title() == "ind (n = 300)"
    assert len(scatter.collections) == 1 and len(scatter.patches) == 1  # points and the box
    assert len(side.lines) == 2  # the data's density and the normal one
    with pytest.raises(ValueError, match="params.column_labels: 1 labels for 2"):
        d.draw("book_pdp.gap_scatter", {"column_labels": ["one"]}, ["gapind", "gapcor"])


def _curves(scenario: str, learner: str, features: dict[str, np.ndarray], reps: int = 3
            ) -> pd.DataFrame:
    return pd.DataFrame([{"rep": r, "feature": f, "x": x, "value": v + 0.01 * r}
                         for r in range(reps) for f, (xs, vs) in features.items()
                         for x, v in zip(xs, vs, strict=True)])


def test_gap_pdps_draw_both_learners_the_truth_and_shade_the_gap(tmp_path, drawn):
    d = Written(tmp_path)
    grid = np.linspace(-3, 3, 30)
    for scenario, gap in (("toyind", False), ("gapind", True)):
        d.data(scenario, 0.0, gap=gap)
        d.truth(scenario, {"x1": (grid[5:-5], np.sin(grid[5:-5])), "x2": (grid[5:-5],
                                                                         grid[5:-5])})
        for learner in ("g_rf", "g_svm"):
            d.table(scenario, learner, "g_pdp30", "curves",
                    _curves(scenario, learner, {"x1": (grid, np.sin(grid)), "x2": (grid, grid)}))
    d.entry("fig_3_25")
    (fig,) = drawn
    complete, gap = fig.axes[0], fig.axes[2]
    # 3 repetitions and the mean per learner, and the true PD
    assert len(complete.lines) == len(gap.lines) == 2 * 4 + 1
    assert len(complete.patches) == 0 and len(gap.patches) == 1  # the gap shaded below only
    assert [line.get_color() for line in complete.lines[3:8:4]] == ["black", "#1f5fd1"]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[:2] == ["random forest", "SVM"]
    with pytest.raises(ValueError, match="params.learners: 'g_lm' has no estimates"):
        d.draw("rep_curve_grid", {"learners": ["g_lm"]}, ["toyind", "gapind"])


def test_case_pdps_give_each_feature_its_own_axis(tmp_path, drawn):
    d = Written(tmp_path)
    x3 = np.linspace(-2, 26, 50)
    for scenario in ("catind", "catx1x2", "catx1x3"):
        d.truth(scenario, {"x3": (x3[5:-5], x3[5:-5])})
        d.table(scenario, "g_lm", "g_pdp_levels", "curves",
                _curves(scenario, "g_lm", {"x1": (np.array([0.0, 1.0]), np.array([11., 12.])),
                                           "x2": (np.arange(3.0), np.array([12., 12., 11.]))}))
        d.table(scenario, "g_lm", "g_pdp_x3", "curves",
                _curves(scenario, "g_lm", {"x3": (x3, x3)}))
    d.entry("fig_3_22")
    (fig,) = drawn
    axes = fig.axes
    assert [t.get_text() for t in axes[7].get_xticklabels()] == ["A", "B", "C"]
    assert axes[2].get_xlim()[1] > 20 > axes[0].get_xlim()[1]  # x3's axis is its own
    assert len(axes[2].lines) >= 5  # 3 data sets, their mean and the true PD


def test_potato_figures_draw_the_surface_the_points_and_the_pdps(tmp_path, drawn):
    d = Written(tmp_path)
    rng = np.random.default_rng(0)
    u = rng.uniform(0, 1, 100)
    d.paths["data"].append(write(pd.DataFrame({"rep": 0, "split": "train", "x1": u,
                                               "x2": u + rng.normal(0, 0.1, 100), "y": 0.0}),
                                 tmp_path / "data" / "potato" / "c0.parquet"))
    surface = _surface(_potato, size=10).drop(columns=["scenario", "learner", "method"])
    d.table("potato", "g_truth", "g_surface_unit", "surface", surface)
    d.entry("fig_3_27")
    (fig,) = drawn
    ax = fig.axes[0]
    assert len(ax.collections) == 2  # the colour mesh and the observations
    np.testing.assert_allclose(ax.collections[0].get_array().min(), 0.0)
    assert ax.get_title() == "prediction function and the 100 observations of the first data set"
    d = Written(tmp_path / "pdps")
    d.table("potato", "g_truth", "g_surface", "curves", surface)
    grid = np.linspace(0, 1, 11)
    d.table("potato", "g_truth", "g_pdp50", "curves",
            _curves("potato", "g_truth", {"x1": (grid, grid), "x2": (grid, grid)}, reps=2))
    x = np.linspace(0, 1, 5)
    d.truth("potato", {"x1": (x, x), "x2": (x, x)})
    d.entry("fig_3_28")
    fig = drawn[1]
    assert [ax.get_title() for ax in fig.axes[:3]] == [
        "2-D PDP of x1 and x2", "PDP of x1 (2 data sets)", "PDP of x2 (2 data sets)"]
