"""The book_ale study's figures draw from small synthetic inputs laid out as the workflow
writes them, with the parameters the study file gives them, and their helpers compute the
numbers the figures show (envelope widths, steps, surfaces, run-time ratios) as documented."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from figure_inputs import WrittenInputs, write

from imlbench import studies
from imlbench.explain.estimands import truth_frame
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.params import check_all
from imlbench.studies.book_ale.figures import ch5, ch6_munich
from imlbench.studies.book_ale.figures import ch7_intervals as iv

RNG = np.random.default_rng(11)
REPS = 3
Curve = Callable[[np.ndarray], np.ndarray]


def _edges(x: np.ndarray, k: int, equidistant: bool = False) -> np.ndarray:
    """The edges of K intervals of x: type-1 quantiles (ties collapse) or equal widths."""
    if equidistant:
        return np.linspace(x.min(), x.max(), k + 1)
    return np.unique(np.quantile(x, np.arange(k + 1) / k, method="inverted_cdf"))


class Inputs(WrittenInputs):
    """Synthetic Parquet inputs of one figure, written where the workflow puts them."""

    def ale(self, scenario: str, method: str, role: str, data: pd.DataFrame,
            f: Curve | dict[str, Curve], k: int | None = None, learner: str = "truth",
            noise: float = 0.05) -> pd.DataFrame:
        """Each repetition's centred ALE at the edges of K intervals (K and their kind from
        the method's name, e.g. ale_k<K>[_equal], unless given) of its rows, f plus noise, for
        every feature of ``f``."""
        fs = f if isinstance(f, dict) else {"x1": f}
        k = k or int(re.search(r"\d+", method).group())
        frames = []
        for rep, rows in data.groupby("rep"):
            for feature, g in fs.items():
                x = _edges(rows[feature].to_numpy(float), k, method.endswith("_equal"))
                v = g(x) + RNG.normal(0, noise, len(x))
                frames.append(pd.DataFrame({"rep": rep, "feature": feature, "x": x,
                                            "value": v - v.mean()}))
        return self.table(scenario, learner, method, role, pd.concat(frames, ignore_index=True))

    def surface(self, scenario: str, method: str, role: str, data: pd.DataFrame,
                features: list[str], g: Callable[[np.ndarray, np.ndarray], np.ndarray],
                quantile: bool) -> None:
        """Each repetition's 2-D estimate on the product grid of its rows: 21 quantile edges
        per axis (ale2) or 21 equidistant points from min to max (surface)."""
        frames = []
        for rep, rows in data.groupby("rep"):
            gx, gz = (_edges(v, 20) if quantile else np.linspace(v.min(), v.max(), 21)
                      for v in (rows[f].to_numpy(float) for f in features))
            xx, zz = np.meshgrid(gx, gz)
            value = g(xx, zz) + RNG.normal(0, 0.01, xx.shape)
            frames.append(pd.DataFrame({"rep": rep, "x": xx.ravel(), "z": zz.ravel(),
                                        "value": value.ravel()}))
        self.table(scenario, "truth", method, role, pd.concat(frames, ignore_index=True))

    def truth(self, scenario: str, curves: dict[str, tuple[np.ndarray, Curve]]) -> None:
        frames = [truth_frame(e, feature, f(x), x=x)
                  for feature, (x, f) in curves.items() for e in ("pd", "ale", "conditional")]
        table = pd.concat(frames, ignore_index=True).assign(scenario=scenario)
        self.paths["truth"].append(
            write(table, self.root / "truth" / scenario / "effects.parquet"))

    def data(self, scenario: str, table: pd.DataFrame) -> pd.DataFrame:
        self.paths["data"].append(write(table, self.root / "data" / scenario / "c0.parquet"))
        return table

    def truth_errors(self, table: pd.DataFrame) -> None:
        self.paths["truth_error_reps"].append(
            write(table, self.root / "metrics" / "truth_error_reps.parquet"))

    def inputs(self, name: str, scenarios: list[str]) -> FigureInputs:
        studies.load(["book_ale"], figures=True)
        spec = FIGURES.get(_registered(name))
        assert set(self.methods) == set(spec.methods), "the test fills every declared role"
        # what the study's methods in these roles declare
        declared = {"ale": "ale", "ale1": "ale", "edges": "ale", "pdp": "pd", "ice": "pd"}
        return FigureInputs(self.paths, self.methods, scenarios,
                            estimands={m: declared.get(role) for role, methods
                                       in self.methods.items() for m in methods})

    def draw(self, name: str, scenarios: list[str], params: dict) -> Path:
        spec = FIGURES.get(_registered(name))
        inputs = self.inputs(name, scenarios)
        check_all(spec.params, params, owner=name)  # as the study file's validator does
        png, pdf = self.root / f"{name}.png", self.root / f"{name}.pdf"
        spec(inputs, {"title": name, "caption": "test", "params": params}, png, pdf)
        assert pdf.read_bytes()[:4] == b"%PDF"
        return png


def _registered(name: str) -> str:
    """The registered name of a figure function: a layer drawer's, else the study's."""
    return name if name in FIGURES.names() else f"book_ale.{name}"


def _entry(figure: str) -> dict:
    """The study file's entry of ``figure``."""
    path = Path(__file__).parents[3] / "config" / "studies" / "book_ale.yaml"
    return yaml.safe_load(path.read_text())["figures"][figure]


# --- the data of the book's examples -------------------------------------------------------


def _rows(reps: int, **columns: np.ndarray) -> pd.DataFrame:
    """The same training rows in each of ``reps`` repetitions (a table DGP's data)."""
    frame = pd.concat([pd.DataFrame(columns).assign(rep=rep, split="train")
                       for rep in range(reps)], ignore_index=True)
    return frame[["rep", "split", *columns]]


def _ch7(n: int, reps: int = REPS, *, normal: bool = False, clip: bool = False) -> pd.DataFrame:
    """Ch. 7's law: x1 ~ U(0, 10) (or N(10, 3^2)), x2 | x1 ~ U(x1 - 3, x1 + 3), within
    [0, 10] with ``clip``; y = x1 + x2."""
    frames = []
    for rep in range(reps):
        x1 = RNG.normal(10, 3, n) if normal else RNG.uniform(0, 10, n)
        lo, hi = x1 - 3, x1 + 3
        if clip:
            lo, hi = np.maximum(lo, 0), np.minimum(hi, 10)
        x2 = RNG.uniform(lo, hi)
        frames.append(pd.DataFrame({"rep": rep, "split": "train", "x1": x1, "x2": x2,
                                    "y": x1 + x2}))
    return pd.concat(frames, ignore_index=True)


def _ch6(reps: int = REPS, b: float = 0.5, mu: float = 5.0, sd: float = 1.0) -> pd.DataFrame:
    """Ch. 6's law: x1 ~ U(0, b), x2 ~ N(mu, sd^2), x3 | x1, x2 ~ N(x2, x1^2); y = x1 x2 x3."""
    frames = []
    for rep in range(reps):
        x1, x2 = RNG.uniform(0, b, 150), RNG.normal(mu, sd, 150)
        x3 = x2 + x1 * RNG.normal(0, 1, 150)
        frames.append(pd.DataFrame({"rep": rep, "split": "train", "x1": x1, "x2": x2,
                                    "x3": x3, "y": x1 * x2 * x3}))
    return pd.concat(frames, ignore_index=True)


def _cubic(x: np.ndarray) -> np.ndarray:
    return (x - 4) * (x - 5) * (x - 6)


def _steps2(x: np.ndarray) -> np.ndarray:
    return np.where(x < 10 / 3, 2.0, np.where(x <= 20 / 3, 3.0, 1.0))


#: per ch. 7 scenario: its rows and the (uncentred) true ALE of x1
CH7: dict[str, tuple[Callable[[], pd.DataFrame], Curve, np.ndarray]] = {
    "additive7": (lambda: _ch7(100), _cubic, np.linspace(0, 10, 101)),
    "mult7": (lambda: _ch7(100),
              lambda x: 0.5 * x**6 - 6 * x**5 + 25.25 * x**4 - 90 * x**3 + 333 * x**2,
              np.linspace(0, 10, 101)),
    "shaky7": (lambda: _ch7(1000, normal=True),
               lambda x: x * np.sin(10 * x) + np.cos(10 * x) / 10, np.linspace(2.3, 17.7, 101)),
    "spike7": (lambda: _ch7(100, clip=True), lambda x: 10.0 * ((x >= 4.9) & (x <= 5.1)),
               np.linspace(0.5, 9.5, 21)),
    "steps2": (lambda: _ch7(100, clip=True), _steps2, np.linspace(0.5, 9.5, 21)),
    "steps3": (lambda: _ch7(100, clip=True),
               lambda x: 0.5 * (x >= 10 / 3) - 1.0 * (x > 20 / 3), np.linspace(0.5, 9.5, 21)),
}


def _scenario7(d: Inputs, scenario: str, methods: list[str], role: str = "ale"
               ) -> dict[str, pd.DataFrame]:
    """A ch. 7 scenario's data, truth and the ALE estimates of ``methods``."""
    draw, f, grid = CH7[scenario]
    data = d.data(scenario, draw())
    d.truth(scenario, {"x1": (grid, f), "x2": (grid, lambda x: x**3)})
    return {m: d.ale(scenario, m, role, data, f) for m in methods}


# --- builders: (inputs, figure of the study file) -> scenarios and that figure's params ------

Built = tuple[list[str], dict]


def _construction(d: Inputs, figure: str) -> Built:
    data = d.data("construction", _ch7(30, reps=1))
    d.ale("construction", "ale_k5", "ale", data, _cubic)
    if figure == "fig_5_1":
        return ["construction"], {"features": ["x1", "x2"], "interval": 4}
    d.truth("construction", {"x1": (np.linspace(0, 10, 101), _cubic)})
    return ["construction"], {"feature": "x1"}


def _ex1b_ale2(d: Inputs, figure: str) -> Built:
    data = d.data("ex1b", _ch6())
    d.surface("ex1b", "ale2_x1x2", "ale2", data, ["x1", "x2"],
              lambda x, z: 0.5 * (x - 0.25) * (z**2 - 26), quantile=True)
    if figure == "fig_6_7":
        return ["ex1b"], {"features": ["x1", "x2"], "thin": 4, "cell": [4, 3]}
    return ["ex1b"], {"features": ["x1", "x2"], "a": 0.0, "b": 0.5, "mu": 5.0, "sd": 1.0}


SURFACES = {"fig_6_9": ("ex2", ["x2", "x3"]), "fig_6_10": ("ex2", ["x2", "x3"]),
            "fig_6_12": ("modified", ["x1", "x2"])}


#: per scenario: its rows, the 2-D PDP, the pure 2-D ALE and the 1-D ALEs
SURFACE_LAWS = {
    "ex2": (lambda: _ch6(b=2.0, mu=2.0, sd=0.5), lambda x, z: x - z, lambda x, z: 0.0 * x,
            {"x1": lambda x: x, "x2": lambda x: x, "x3": lambda x: -x}),
    "modified": (_ch6, lambda x, z: np.where(z < 4, 300.0, x * z * z),
                 lambda x, z: 0.5 * (x - 0.25) * (z**2 - 26),
                 {"x1": lambda x: 25 * x, "x2": lambda x: 0.25 * x**2, "x3": lambda x: 0.25 * x}),
}


def _surfaces(d: Inputs, figure: str) -> Built:
    scenario, features = SURFACES[figure]
    rows, pdp2, ale2, mains = SURFACE_LAWS[scenario]
    pair = "".join(features)
    data = d.data(scenario, rows())
    d.surface(scenario, f"pdp2_{pair}", "surface", data, features, pdp2, quantile=False)
    d.surface(scenario, f"ale2_{pair}", "surface", data, features, ale2, quantile=True)
    d.ale(scenario, "ale20", "surface", data, mains)
    return [scenario], _entry(figure)["params"]


def _area_rows(reps: int = REPS) -> pd.DataFrame:
    """The substitute's houses, the same rows in every repetition (a table DGP)."""
    area = RNG.uniform(334, 5642, 80)
    rooms = np.clip(np.round((area - 334) / 400 + RNG.normal(0, 2, 80)), 0, 13)
    return _rows(reps, Gr_Liv_Area=area, TotRms_AbvGrd=rooms,
                 Year_Built=RNG.integers(1872, 2011, 80) * 1.0,
                 Neighborhood=RNG.integers(0, 28, 80) * 1.0,
                 y=60 * area + 5000 * rooms + RNG.normal(0, 2e4, 80))


def _correlations(d: Inputs, figure: str) -> Built:
    d.data("area", _area_rows())
    return ["area"], _entry(figure)["params"]


def _price(area: np.ndarray) -> np.ndarray:
    return 80 * area - 0.004 * area**2


def _munich(d: Inputs, figure: str) -> Built:
    data = d.data("munich", _area_rows().drop(columns=["Year_Built", "Neighborhood"]))
    f = _price
    d.ale("munich", "ale_area15", "ale", data, {"Gr_Liv_Area": f}, learner="rf_munich",
          noise=500.0)
    pdp, ice = [], []
    for rep, rows in data.groupby("rep"):
        area = rows["Gr_Liv_Area"].to_numpy(float)
        grid = np.linspace(area.min(), area.max(), 20)
        shift = RNG.normal(0, 1000)
        pdp.append(pd.DataFrame({"rep": rep, "feature": "Gr_Liv_Area", "x": grid,
                                 "value": f(grid) + shift}))
        for row, rooms in enumerate(rows["TotRms_AbvGrd"]):  # one curve per room count
            ice.append(pd.DataFrame({"rep": rep, "feature": "Gr_Liv_Area", "row": row,
                                     "x": grid, "value": f(grid) + shift + 3000 * rooms}))
    d.table("munich", "rf_munich", "pdp_area", "pdp", pd.concat(pdp, ignore_index=True))
    d.table("munich", "rf_munich", "ice_area", "ice", pd.concat(ice, ignore_index=True))
    if figure == "fig_6_20":
        return ["munich"], {"m2": 0.09290304}
    return ["munich"], {"ice": True, "x_range": [2000, 5700], "m2": 0.09290304,
                        "group_levels": [str(r) for r in range(2, 16)]}


NEIGHBOURHOODS = [
    "Blmngtn", "Blueste", "BrDale", "BrkSide", "ClearCr", "CollgCr", "Crawfor", "Edwards",
    "Gilbert", "GrnHill", "Greens", "IDOTRR", "Landmrk", "MeadowV", "Mitchel", "NAmes",
    "NPkVill", "NoRidge", "NridgHt", "NWAmes", "OldTown", "Sawyer", "SawyerW", "Somerst",
    "SWISU", "StoneBr", "Timber", "Veenker"]


def _categorical(d: Inputs, figure: str) -> Built:
    scenarios = ["area", "arearestricted"] if figure == "fig_7_19" else ["area"]
    methods = ["ale_district", "ale_district_codes"] if figure == "fig_7_20" else [
        "ale_district"]
    for scenario in scenarios:
        for method in methods:
            order = np.arange(28.0) if method.endswith("codes") else RNG.permutation(28) * 1.0
            frames = []
            for rep in range(REPS):
                value = np.cumsum(RNG.normal(0, 2e4, 28))
                frames.append(pd.DataFrame({"rep": rep, "feature": "Neighborhood", "x": order,
                                            "value": value - value.mean()}))
            d.table(scenario, "ksvm", method, "ale", pd.concat(frames, ignore_index=True))
    titles = {"fig_7_19": ["full model (all four features), its similarity order",
                           "restricted model (Year_Built and Neighborhood), its similarity order"],
              "fig_7_20": ["full model, similarity order", "full model, order of the level codes"]}
    return scenarios, {"feature": "Neighborhood", "levels": NEIGHBOURHOODS,
                       "titles": titles[figure],
                       "ylabel": "ALE of Neighborhood (sale price, dollars)"}


def _scatter(d: Inputs, figure: str) -> Built:
    scenario = "additive7" if figure == "fig_7_1" else "shaky7"
    d.data(scenario, CH7[scenario][0]())
    return [scenario], {"band": 3} if figure == "fig_7_1" else {"band": 3, "histogram": True}


def _k_panels(d: Inputs, figure: str) -> Built:
    """A ch. 7 figure of the ALE against K: the study file's scenarios, methods and
    parameters of the layer's rep_curve_grid."""
    entry = _entry(figure)
    for scenario in entry["scenarios"]:
        _scenario7(d, scenario, entry["methods"]["curves"], role="curves")
    return entry["scenarios"], entry["params"]


def _envelope(d: Inputs, figure: str) -> Built:
    if figure == "fig_7_5":
        _scenario7(d, "mult7", ["ale_k10"])
        return ["mult7"], {"marks": [2.5, 5, 7.5, 9, 9.5], "ylim": [-15000, 100000]}
    _scenario7(d, "mult7", ["ale_k10", "ale_k25", "ale_k50"])
    return ["mult7"], {}


K_ERROR_METHODS = ["ale_k2", "ale_k3", "ale_k5", "ale_k10", "ale_k20", "ale_k25", "ale_k50",
                   "ale_k100", "ale_k1000", "ale_k100_equal"]


def _k_error(d: Inputs, figure: str) -> Built:
    d.methods["ale"] = list(K_ERROR_METHODS)  # the role's order is the study file's
    errors = []
    for scenario, methods in (("additive7", ["ale_k2", "ale_k3", "ale_k5", "ale_k10"]),
                              ("mult7", ["ale_k2", "ale_k5", "ale_k10", "ale_k25", "ale_k50",
                                         "ale_k100"]),
                              ("shaky7", ["ale_k20", "ale_k100", "ale_k1000",
                                          "ale_k100_equal"])):
        f = CH7[scenario][1]
        for est in _scenario7(d, scenario, methods).values():
            for anchor in ("none", "mean"):
                truth = f(est["x"].to_numpy(float))
                errors.append(est.assign(estimand="ale", anchor=anchor, estimate=est["value"],
                                         truth=truth, truth_se=0.0,
                                         error=est["value"] - truth + truth.mean())
                              .drop(columns="value"))
    d.truth_errors(pd.concat(errors, ignore_index=True))
    k = {m: int(m.split("_k")[1].split("_")[0]) for m in K_ERROR_METHODS}
    return ["additive7", "mult7", "shaky7"], {"k": k, "equidistant": ["ale_k100_equal"],
                                              "points": ["edges", "grid"]}


F3 = [[3.333333, 6.666667, 3.333333, 6.666667, 3], [0, 3.333333, 0, 3.333333, 2],
      [0, 3.333333, 6.666667, 10, 2], [6.666667, 10, 0, 3.333333, 1],
      [6.666667, 10, 6.666667, 10, 1]]


def _step_sketch(d: Inputs, figure: str) -> Built:
    if figure == "fig_7_10":
        _scenario7(d, "spike7", ["ale_k20", "ale_k50"], role="edges")
        return ["spike7"], {"regions": [[4.9, 5.1, 0, 10, 10]], "window": [3.5, 6.5]}
    _scenario7(d, "steps3", ["ale_k5"], role="edges")
    return ["steps3"], {"strips": False, "regions": F3}


def _step_points(d: Inputs, figure: str) -> Built:
    _scenario7(d, "steps3", ["ale_k20" if figure == "fig_7_16" else "ale_k50"])
    return ["steps3"], {"steps": [3.333333, 6.666667], "bands": [3.333333, 6.666667],
                        "margin": 2, "regions": F3}


BUILDERS: dict[str, Callable[[Inputs, str], Built]] = {
    "ale_intuition": _construction, "ale_construction": _construction,
    "second_order_cells": _ex1b_ale2, "ale2_theory": _ex1b_ale2,
    "area_effects": _munich, "categorical_bars": _categorical, "scatter": _scatter,
    "envelope": _envelope, "envelope_width": _envelope, "k_error": _k_error,
    "step_sketch": _step_sketch, "step_points": _step_points,
}
#: the study file's figures drawn, each by its function (several where the params differ)
CASES = {
    "fig_5_1": "ale_intuition", "fig_5_2": "ale_construction",
    "fig_6_7": "second_order_cells", "fig_6_8": "ale2_theory",
    "fig_6_20": "area_effects", "fig_6_22": "area_effects",
    "fig_7_1": "scatter", "fig_7_7": "scatter",
    "fig_7_5": "envelope", "fig_7_6": "envelope_width",
    "fig_7_10": "step_sketch", "fig_7_13": "step_sketch", "fig_7_16": "step_points",
    "fig_7_19": "categorical_bars", "fig_7_20": "categorical_bars",
    "fig_ale_k_error": "k_error",
}


@pytest.mark.slow
@pytest.mark.parametrize("figure", list(CASES))
def test_figure_draws(tmp_path, figure):
    name = CASES[figure]
    inputs = Inputs(tmp_path)
    scenarios, params = BUILDERS[name](inputs, figure)
    png = inputs.draw(name, scenarios, params)
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10_000


#: the study file's figures drawn by layer drawers, with their builders
LAYER_CASES = {"fig_6_9": _surfaces, "fig_6_10": _surfaces, "fig_6_12": _surfaces,
               "fig_6_19": _correlations, "fig_7_2": _k_panels, "fig_7_4": _k_panels,
               "fig_7_8": _k_panels, "fig_7_11": _k_panels, "fig_7_14": _k_panels}


@pytest.mark.slow
@pytest.mark.parametrize("figure", list(LAYER_CASES))
def test_layer_figure_draws(tmp_path, figure):
    """The study file's entries of layer drawers draw from the synthetic inputs."""
    inputs = Inputs(tmp_path)
    scenarios, params = LAYER_CASES[figure](inputs, figure)
    png = inputs.draw(_entry(figure)["function"], scenarios, params)
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10_000


def test_every_figure_is_tested():
    studies.load(["book_ale"], figures=True)
    registered = {n.split(".", 1)[1] for n in FIGURES.names() if n.startswith("book_ale.")}
    assert registered == set(BUILDERS) == set(CASES.values())


# --- helpers -------------------------------------------------------------------------------


def test_envelope_is_the_range_over_the_repetitions_covering_x():
    """Curves centred over the span all cover (2 to 8): y = x and 2x become x - 5 and 2x - 10,
    the constant 4 on [2, 8] becomes 0 there; the band runs from the least to the greatest
    at each x where the curve covers it."""
    lines = {0: (np.array([0.0, 10.0]), np.array([0.0, 10.0])),
             1: (np.array([0.0, 10.0]), np.array([0.0, 20.0])),
             2: (np.array([2.0, 8.0]), np.array([4.0, 4.0]))}
    at, low, high, span = iv.envelope(lines, None, [0.0, 10.0, 1.0])
    assert span == (2.0, 8.0)
    np.testing.assert_allclose(at, np.arange(11.0))
    np.testing.assert_allclose(high - low, [5, 4, 6, 4, 2, 0, 2, 4, 6, 4, 5], atol=1e-12)
    np.testing.assert_allclose(low[[0, 3, 9]], [-10, -4, 4], atol=1e-12)


def test_envelope_is_centred_within_the_truths_grid():
    """With a truth on [4, 6] the curves are centred over [4, 6]: y = x by 5, y = 2x by 10."""
    lines = {0: (np.array([0.0, 10.0]), np.array([0.0, 10.0])),
             1: (np.array([0.0, 10.0]), np.array([0.0, 20.0]))}
    truth = (np.array([4.0, 6.0]), np.array([0.0, 0.0]))
    at, low, high, span = iv.envelope(lines, truth, [0.0, 10.0, 5.0])
    assert span == (4.0, 6.0)
    np.testing.assert_allclose(low, [-10, 0, 5])
    np.testing.assert_allclose(high, [-5, 0, 10])


def test_rep_lines_keeps_the_first_repetitions_when_asked():
    """The envelope of a published figure runs over as many data sets as the paper drew:
    ``rep_lines(est, first)`` keeps repetitions 0 .. first - 1, each curve sorted by x."""
    est = pd.DataFrame({"rep": np.repeat([2, 0, 1], 2), "x": [1.0, 0.0] * 3,
                        "value": [5.0, 4.0, 1.0, 0.0, 3.0, 2.0]})
    assert sorted(iv.rep_lines(est)) == [0, 1, 2]
    kept = iv.rep_lines(est, 2)
    assert sorted(kept) == [0, 1]
    np.testing.assert_allclose(kept[1][1], [2.0, 3.0])


def test_integral_mean():
    """The mean of a piecewise-linear curve is its integral over the span."""
    x, y = np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 2.0])
    assert iv.integral_mean(x, y, 0.0, 3.0) == pytest.approx(5 / 3)
    assert iv.integral_mean(x, y, 0.5, 2.0) == pytest.approx(2.75 / 1.5)


def test_grid_errors_centre_both_curves_over_their_shared_range():
    """An estimate off its truth by a constant has no error; one rising 2 per unit to 10 at
    x = 5 and flat after (mean 7.5 over [0, 10]) against the truth x (mean 5) differs at
    x = 0, ..., 10 by est - x - 2.5, whose squares sum to 28.75."""
    tx = np.linspace(0, 10, 11)
    truth = truth_frame("ale", "x1", tx + 7, x=tx).assign(scenario="s")
    est = pd.DataFrame({"scenario": "s", "method": "m", "feature": "x1",
                        "rep": [0, 0, 0, 1, 1, 1], "x": [0.0, 5, 10] * 2,
                        "value": [0.0, 5, 10, 0, 10, 10]})
    rms = iv.grid_errors(est, truth, "x1").set_index("rep")["rms"]
    assert rms[0] == pytest.approx(0.0, abs=1e-12)
    assert rms[1] == pytest.approx(np.sqrt(28.75 / 11))


def test_intervals_hold_their_upper_edge():
    """Interval k is ]z_{k-1}, z_k], the lowest edge in interval 1 (Figs. 5.1, 5.2 count
    rows so); every 4th edge keeps the last one (Fig. 6.7)."""
    edges = np.array([0.0, 2.0, 5.0, 9.0])
    x = np.array([0.0, 1.0, 2.0, 2.5, 5.0, 9.0])
    np.testing.assert_array_equal(ch5.interval_of(x, edges), [1, 1, 1, 2, 2, 3])
    np.testing.assert_array_equal(ch5._thinned(np.arange(21.0), 4), [0, 4, 8, 12, 16, 20])
    np.testing.assert_array_equal(ch5._thinned(np.arange(22.0), 4), [0, 4, 8, 12, 16, 20, 21])


def test_curves_centred_over_the_houses():
    """Each curve less its mean at the houses' areas (interpolated): 0, 5, 5 on y = x."""
    curves = pd.DataFrame([[0.0, 10.0], [1.0, 1.0]], columns=[0.0, 10.0])
    centred = ch6_munich._centred(curves, np.array([0.0, 5.0, 5.0]))
    np.testing.assert_allclose(centred.to_numpy(), [[-10 / 3, 20 / 3], [0, 0]])


def test_step_points_name_the_interval_and_the_step(tmp_path, drawn):
    """The interval ]3, 4] holds the step at 10/3: its rows are 3.5, 3.9 and 4 (not 3), and
    the estimate rises by 3 - 1 = 2 across it; ]6, 7] holds 20/3, with one row and a step of
    1.5 - 3 = -1.5."""
    d = Inputs(tmp_path)
    x1 = np.array([0.5, 1.5, 2.5, 3.0, 3.5, 3.9, 4.0, 5.0, 6.5, 8.0])
    d.data("steps3", _rows(1, x1=x1, x2=x1, y=0 * x1))
    d.table("steps3", "truth", "ale_k20", "ale", pd.DataFrame({
        "rep": 0, "feature": "x1", "x": [0.0, 2, 3, 4, 6, 7, 10],
        "value": [0.0, 0.5, 1, 3, 3, 1.5, 1.5]}))
    scenarios, params = ["steps3"], {"steps": [3.333333, 6.666667],
                                     "bands": [3.333333, 6.666667], "margin": 2, "regions": F3}
    FIGURES.get("book_ale.step_points")(d.inputs("step_points", scenarios),
                                        {"title": "t", "params": params}, tmp_path / "a.png",
                                        tmp_path / "a.pdf")
    titles = [ax.get_title() for ax in drawn[0].axes if ax.get_title()]
    assert titles == ["step at x1 = 3.33: interval [3.00, 4.00], 3 rows,\nestimated step +2.00",
                      "step at x1 = 6.67: interval [6.00, 7.00], 1 rows,\nestimated step -1.50"]
