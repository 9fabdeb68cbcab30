"""The StratPD study's figures draw from small synthetic inputs laid out as the workflow
writes them, and their helpers anchor, average and score curves as documented."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench import studies
from imlbench.curves import GRID_SIZE
from imlbench.explain.estimands import truth_frame
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn
from imlbench.studies.stratpd.figures.fig_growth import rms_errors

RNG = np.random.default_rng(7)
REPS = 3


class Inputs(WrittenInputs):
    """Synthetic Parquet inputs of one figure, written where the workflow puts them."""

    def curves(self, scenario: str, learner: str, method: str, role: str,
               features: dict[str, np.ndarray], f: Callable[[np.ndarray], np.ndarray],
               rows: int = 0, **columns: object) -> None:
        """Every repetition's curve (with ``rows`` > 0: that many curves per repetition, in
        column ``row``) of each feature at its x, value f(x) plus noise."""
        frames = []
        for rep in range(REPS):
            for feature, x in features.items():
                for row in range(max(rows, 1)):
                    frame = pd.DataFrame({"feature": feature, "x": x,
                                          "value": f(x) + RNG.normal(0, 0.1, len(x)) + row})
                    frames.append(frame.assign(rep=rep, **({"row": row} if rows else {})))
        self.table(scenario, learner, method, role, pd.concat(frames, ignore_index=True),
                   **columns)

    def fit(self, scenario: str, learners: list[str]) -> None:
        for learner in learners:
            metrics = ["r2_train", "r2_oob"] if learner.startswith("rf") else ["r2_train"]
            table = pd.DataFrame([{"rep": rep, "metric": m, "value": 0.9}
                                  for rep in range(REPS) for m in metrics])
            self.table(scenario, learner, "fit", "fit", table)

    def truth(self, scenario: str, curves: dict[str, tuple[np.ndarray, Callable]],
              **columns: object) -> None:
        frames = [truth_frame(e, feature, f(x), x=x)
                  for feature, (x, f) in curves.items() for e in ("pd", "ale", "conditional")]
        table = pd.concat(frames, ignore_index=True).assign(scenario=scenario, **columns)
        self.paths["truth"].append(
            write(table, self.root / "truth" / scenario / "effects.parquet"))

    def data(self, scenario: str, table: pd.DataFrame) -> None:
        self.paths["data"].append(write(table.assign(rep=0, split="train"),
                                         self.root / "data" / scenario / "c0.parquet"))

    def draw(self, name: str, scenarios: list[str]) -> Path:
        studies.load(["stratpd"], figures=True)
        spec = FIGURES.get(f"stratpd.{name}")
        assert set(self.methods) == set(spec.methods), "the test fills every declared role"
        # what the study's methods in these roles declare (pdp, ice: pd; ale, stratpd: ale)
        declared = {"pdp": "pd", "ice": "pd", "ale": "ale", "stratpd": "ale", "catstratpd": "ale"}
        inputs = FigureInputs(self.paths, self.methods, scenarios,
                              estimands={m: declared.get(role) for role, methods
                                         in self.methods.items() for m in methods})
        png, pdf = self.root / f"{name}.png", self.root / f"{name}.pdf"
        spec(inputs, {"title": name, "caption": "test"}, png, pdf)
        assert pdf.read_bytes()[:4] == b"%PDF"
        return png


def _unit(n: int) -> np.ndarray:
    return np.sort(RNG.uniform(0, 10, n))


def _fig1(d: Inputs) -> list[str]:
    bath = np.arange(1.0, 4.5, 0.5)
    learners = ["rf", "gbm_rent", "lm", "mlp", "svm", "knn"]
    d.table("rent", "rf", "marginal_rent", "marginal",
            pd.DataFrame({"rep": 0, "feature": "bathrooms", "x": bath, "value": 100 + 40 * bath,
                          "count": 10}))
    for learner in learners:
        d.curves("rent", learner, "pdp_rent", "pdp", {"bathrooms": bath}, lambda x: 150 + 20 * x)
        d.curves("rent", learner, "ice_rent", "ice", {"bathrooms": bath},
                 lambda x: 150 + 20 * x, rows=5)
    d.curves("rent", "rf", "stratpd1", "stratpd", {"bathrooms": bath[:-1]}, lambda x: 20 * x)
    d.fit("rent", learners)
    d.data("rent", pd.DataFrame({"bathrooms": RNG.choice(bath, 50), "y": RNG.normal(200, 50, 50)}))
    return ["rent"]


def _fig2(d: Inputs) -> list[str]:
    for scenario, x in (("schematic", _unit(30)), ("schematiccat", RNG.integers(0, 2, 30) * 1.0)):
        other = RNG.uniform(0, 10, 30)
        d.table(scenario, "none", "strata", "strata",
                pd.DataFrame({"rep": 0, "feature": "x1", "x": x, "other": other,
                              "y": x + other, "leaf": (other // 3).astype(int)}))
        ux = np.unique(x)
        d.table(scenario, "none", "stratpd_schematic", "stratpd",
                pd.DataFrame({"rep": 0, "feature": "x1", "x": ux[:-1] if len(ux) > 2 else ux,
                              "value": (ux[:-1] if len(ux) > 2 else ux) - ux[0]}))
    return ["schematic", "schematiccat"]


def _fig3(d: Inputs) -> list[str]:
    features = {f: np.linspace(0, 10, 11) for f in ("x1", "x2", "x3")}
    for learner in ("rf10", "gbm"):
        d.curves("interaction", learner, "pdp3", "pdp", features, lambda x: x**2)
        d.curves("interaction", learner, "ale3", "ale", {f: _unit(20) for f in features},
                 lambda x: x**2)
        shap = "shap3_tree" if learner == "rf10" else "shap3_exact"
        d.curves("interaction", learner, shap, "shap", {f: _unit(30) for f in features},
                 lambda x: x**2 - 33)
    d.curves("interaction", "rf10", "stratpd3", "stratpd", {f: _unit(40) for f in features},
             lambda x: x**2)
    d.fit("interaction", ["rf10", "gbm"])
    d.truth("interaction", {f: (np.linspace(0, 10, 101), lambda x: x**2) for f in features})
    return ["interaction"]


def _fig4(d: Inputs) -> list[str]:
    scenarios = []
    for sd in (0.0, 2.0):
        scenario = f"quadratic_noise_sd{sd:g}"
        x = np.linspace(-2, 2, 101)
        d.curves(scenario, "none", "stratpd4", "stratpd", {"x1": np.sort(RNG.uniform(-2, 2, 80))},
                 lambda z: z**2 - 4, p_noise_sd=sd)
        d.truth(scenario, {"x1": (x, lambda z: z**2 + 10)}, p_noise_sd=sd)
        scenarios.append(scenario)
    return scenarios


def _fig5(d: Inputs) -> list[str]:
    base = np.array([90.0, 70.0, 40.0, 80.0, 60.0])
    levels = np.arange(5.0)
    for learner in ("rf_weather", "gbm"):
        for method, role in (("pdp_state", "pdp"), ("ale_state", "ale")):
            d.curves("weather", learner, method, role, {"state": levels},
                     lambda x: base[x.astype(int)])
    d.curves("weather", "rf_weather", "catstratpd_state", "catstratpd", {"state": levels},
             lambda x: base[x.astype(int)] - 40)
    d.truth("weather", {"state": (levels, lambda x: base[x.astype(int)])})
    day = np.arange(1.0, 366.0)
    d.data("weather", pd.DataFrame({"state": RNG.integers(0, 5, 365) * 1.0, "dayofyear": day,
                                    "year": 1.0, "y": 60 + 10 * np.sin(day / 58)}))
    return ["weather"]


def _weight(d: Inputs, pregnant_only: bool) -> None:
    height = np.linspace(61, 76, 16)
    features = {"pregnant": np.array([0.0, 1.0])}
    if not pregnant_only:
        features["height"] = height
    rows = {"pregnant": RNG.integers(0, 2, 40) * 1.0, "height": np.sort(RNG.uniform(61, 76, 40))}
    for learner in ("rf", "gbm"):
        d.curves("weight", learner, "pdp_weight", "pdp", features, lambda x: 10 * x)
        d.curves("weight", learner, "ale_weight", "ale", features, lambda x: 10 * x)
        for shap in (["shap_path", "shap_interventional"] if learner == "rf" else ["shap_exact"]):
            d.curves("weight", learner, shap, "shap", {f: rows[f] for f in features},
                     lambda x: 10 * x)
        if not pregnant_only:
            d.curves("weight", learner, "ice_height", "ice", {"height": height},
                     lambda x: 10 * x, rows=4)
    d.curves("weight", "rf", "stratpd6", "stratpd", features, lambda x: 10 * x)
    if not pregnant_only:
        d.fit("weight", ["rf", "gbm"])
        d.truth("weight", {"height": (height, lambda x: 10 * x)})


def _fig6(d: Inputs) -> list[str]:
    _weight(d, pregnant_only=False)
    return ["weight"]


def _fig7(d: Inputs) -> list[str]:
    _weight(d, pregnant_only=True)
    return ["weight"]


def _dozer(d: Inputs) -> list[str]:
    features = {"YearMade": np.arange(1950.0, 2010.0, 5.0), "ProductSize": np.arange(6.0)}
    for learner in ("rf", "gbm"):
        d.curves("bulldozer", learner, "pdp_dozer", "pdp", features, lambda x: x / 10)
        d.curves("bulldozer", learner, "ice_dozer", "ice", features, lambda x: x / 10, rows=4)
        d.curves("bulldozer", learner, "ale_dozer", "ale", features, lambda x: x / 10)
        d.curves("bulldozer", learner, "shap_dozer", "shap",
                 {f: RNG.choice(x, 30) for f, x in features.items()}, lambda x: x / 10)
    d.curves("bulldozer", "rf", "stratpd8", "stratpd",
             {f: x[:-1] for f, x in features.items()}, lambda x: x / 10, rows=4)
    d.fit("bulldozer", ["rf", "gbm"])
    return ["bulldozer"]


def _fig10(d: Inputs) -> list[str]:
    n = np.array([500, 1000, 2000])
    frames = [pd.DataFrame({"rep": 0, "feature": feature, "n": n, "repeat": 0,
                            "seconds": 1e-5 * n**power, "levels": 10})
              for feature, power in (("distance", 1.0), ("dep_time", 1.1), ("carrier", 1.0),
                                     ("tailnum", 1.5))]
    d.table("timing", "none", "timing", "timing", pd.concat(frames, ignore_index=True))
    return ["timing"]


def _growth(d: Inputs) -> list[str]:
    scenarios, frames = [], []
    x = np.linspace(-2, 2, 21)
    for n in (300, 1000):
        for sd in (0.0, 2.0):
            scenario = f"growth_n{n}_noise_sd{sd:g}"
            scenarios.append(scenario)
            for method, role in (("pdp_growth", "pdp"), ("ale_growth", "ale"),
                                 ("stratpd_growth", "stratpd")):
                d.curves(scenario, "rf_growth", method, role, {"x1": x}, lambda z: z**2,
                         p_n=n, p_noise_sd=sd)
                for rep in range(REPS):
                    for anchor in ("none", "mean"):
                        frames.append(pd.DataFrame({
                            "scenario": scenario, "learner": "rf_growth", "method": method,
                            "rep": rep, "feature": "x1", "x": x, "estimand": "pd",
                            "anchor": anchor, "estimate": x**2 + RNG.normal(0, sd + 0.1, len(x)),
                            "truth": x**2 + 10}))
    table = pd.concat(frames, ignore_index=True)
    table["truth_se"] = 0.0
    table["error"] = table["estimate"] - table["truth"]
    d.paths["truth_error_reps"].append(
        write(table, d.root / "metrics" / "truth_error_reps.parquet"))
    return scenarios


BUILDERS = {"fig_1": _fig1, "fig_2": _fig2, "fig_3": _fig3, "fig_4": _fig4, "fig_5": _fig5,
            "fig_6": _fig6, "fig_7": _fig7, "fig_8": _dozer, "fig_9": _dozer, "fig_10": _fig10,
            "fig_growth": _growth}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BUILDERS))
def test_figure_draws(tmp_path, name):
    inputs = Inputs(tmp_path)
    scenarios = BUILDERS[name](inputs)
    png = inputs.draw(name, scenarios)
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10_000


def test_every_figure_is_tested():
    studies.load(["stratpd"], figures=True)
    registered = {n.split(".", 1)[1] for n in FIGURES.names() if n.startswith("stratpd.")}
    assert registered == set(BUILDERS)


# --- helpers -----------------------------------------------------------------------------


def _long(curves: dict[int, tuple[np.ndarray, np.ndarray]]) -> pd.DataFrame:
    return pd.concat([pd.DataFrame({"rep": rep, "x": x, "value": v})
                      for rep, (x, v) in curves.items()], ignore_index=True)


def test_mean_curve_anchors_every_repetition_on_a_common_grid():
    """Two repetitions of one line on different x and with different constants become the
    same curve, 0 at the smallest x both cover."""
    x0, x1 = np.linspace(0, 10, 60), np.linspace(1, 9, 70)
    curves = pn.mean_curve(_long({0: (x0, 3 * x0 + 5), 1: (x1, 3 * x1 - 2)}))
    grid = curves.columns.to_numpy()
    assert grid[0] == 1 and grid[-1] == 9 and len(grid) == GRID_SIZE
    expected = 3 * (grid - 1)
    np.testing.assert_allclose(curves.to_numpy(), np.vstack([expected, expected]), atol=1e-9)


def test_mean_curve_keeps_few_shared_values():
    """Discrete curves stay at their values, restricted to those every repetition has."""
    x = np.arange(6.0)
    curves = pn.mean_curve(_long({0: (x, x**2), 1: (x[:-1], x[:-1] ** 2 + 7)}))
    assert list(curves.columns) == list(x[:-1])
    np.testing.assert_allclose(curves.loc[1].to_numpy(), x[:-1] ** 2)


def test_level_gaps_average_rows_first():
    """SHAP rows are averaged per level and repetition before the gap to the reference."""
    shap = pd.DataFrame({"rep": [0, 0, 0, 0, 1, 1], "x": [0.0, 0.0, 1.0, 1.0, 0.0, 1.0],
                         "value": [-1.0, -3.0, 30.0, 40.0, 0.0, 41.0]})
    gaps = pn.level_gaps(shap, 0.0)
    np.testing.assert_allclose(gaps[1.0].to_numpy(), [37.0, 41.0])
    mean, whisker = pn.mean_2se(gaps[[1.0]])
    assert mean[1.0] == pytest.approx(39.0)
    assert whisker[1.0] == pytest.approx(2 * np.std([37.0, 41.0], ddof=1) / np.sqrt(2))


def test_rms_errors_anchor_at_the_smallest_x():
    """A curve off its truth by a constant has no error; off by a line through its first
    point, the RMS of that line."""
    x = np.linspace(-2, 2, 41)
    rows = []
    for rep, estimate in ((0, x**2 + 5), (1, x**2 + (x + 2))):
        rows.append(pd.DataFrame({"scenario": "s", "role": "stratpd", "rep": rep, "x": x,
                                  "estimate": estimate, "truth": x**2 + 10}))
    errors = rms_errors(pd.concat(rows)).set_index("rep")["rms"]
    assert errors[0] == pytest.approx(0.0, abs=1e-12)
    assert errors[1] == pytest.approx(np.sqrt(np.mean((x + 2) ** 2)))
