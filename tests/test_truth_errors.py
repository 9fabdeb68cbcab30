"""Estimates against their truths: the truth-error tables of the summaries stage and the
generic claim kinds over them, on synthetic estimates with known bias and spread."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import imlbench.metrics.truth_errors as truth_errors
import imlbench.studies.extrapolation.truth  # noqa: F401  (registers extrapolation.copula_linear's truths)
from imlbench.compare import no_data_reason, run_summaries
from imlbench.config import Scenario, Study
from imlbench.explain.estimands import truth_frame
from imlbench.io import read_parquet
from imlbench.metrics.claims import NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables, claim_row
from imlbench.metrics.truth_errors import (
    ANCHORS,
    closer_to_truth,
    long_truths,
    matches_truth,
    rep_errors,
    summarise_errors,
)
from imlbench.params import with_defaults
from imlbench.stats import t_multiplier
from imlbench.targets import metrics_paths, truth_compared_estimates

#: per repetition, the estimate's deviation from the truth at each grid point (4 reps x 3 x):
#: a constant offset 5 (removed by anchoring) plus a shape error with known mean and spread
GRID = np.array([0.1, 0.5, 0.9])
SHAPE = np.array([[0.0, 0.2, -0.2], [0.1, 0.3, -0.1], [0.0, 0.2, -0.2], [0.1, 0.3, -0.1]])
OFFSET = 5.0


def _truth_pd(x: np.ndarray) -> np.ndarray:
    return 2.0 * x + 1.0


def _scenario(name: str) -> Scenario:
    return Scenario(name=name, family=name, dgp="extrapolation.copula_linear", params={}, n=10,
                    n_test=0, reps=4, chunk_size=4, learners=("lm",),
                    methods=("pdp", "pfi", "cpfi", "oob", "ice_c"))


def _study() -> Study:
    doc = {
        "learners": {"lm": {"learner": "lm"}},
        "methods": {"pdp": {"method": "pdp"}, "pfi": {"method": "pfi"},
                    "cpfi": {"method": "cpfi"}, "oob": {"method": "oob_pfi"},
                    "ice_c": {"method": "ice", "params": {"curve": "centered"}}},
    }
    return Study(name="s", path=Path("s.yaml"), doc=doc, profile="smoke",
                 scenarios={"main": _scenario("main")}, all_scenarios={"main"})


def _pdp_estimates(offset: float = OFFSET) -> pd.DataFrame:
    rows = [{"scenario": "main", "learner": "lm", "method": "pdp", "rep": r, "feature": "x1",
             "x": x, "value": _truth_pd(x) + offset + SHAPE[r, i]}
            for r in range(4) for i, x in enumerate(GRID)]
    # a grid point beyond the truth's range [0, 1] is left out
    rows += [{"scenario": "main", "learner": "lm", "method": "pdp", "rep": r, "feature": "x1",
              "x": 1.5, "value": 99.0} for r in range(4)]
    return pd.DataFrame(rows)


def _effects_truth() -> pd.DataFrame:
    """An ``effects`` truth (the one shape, with the scenario the truth stage adds) on a
    coarser grid than the estimate's: linear, so interpolation is exact."""
    x = np.linspace(0.0, 1.0, 5)
    return truth_frame("pd", "x1", _truth_pd(x), x=x).assign(scenario="main")


def _long(truth: pd.DataFrame) -> pd.DataFrame:
    """An ``effects`` truth table as the long truth frame of its scenario."""
    return long_truths({("main", "effects"): truth})["main"]


def _errors(est: pd.DataFrame, truth: pd.DataFrame, estimand: str = "pd") -> pd.DataFrame:
    return summarise_errors(rep_errors(est, _long(truth), estimand))


def test_bias_se_and_rmse_of_curves_equal_hand_computed_values():
    table = _errors(_pdp_estimates(), _effects_truth())
    for anchor, err in (("none", SHAPE + OFFSET),
                        ("mean", SHAPE - SHAPE.mean(axis=1, keepdims=True))):
        t = table[table["anchor"] == anchor].sort_values("x")
        assert list(t["x"]) == pytest.approx(GRID)  # x = 1.5 lies beyond the truth
        assert list(t["bias"]) == pytest.approx(err.mean(axis=0))
        assert list(t["se"]) == pytest.approx(err.std(axis=0, ddof=1) / 2.0)
        assert list(t["rmse"]) == pytest.approx(np.sqrt((err**2).mean(axis=0)))
        assert list(t["reps"]) == [4, 4, 4]
    uncentred = table[table["anchor"] == "none"].sort_values("x")
    assert list(uncentred["truth"]) == pytest.approx(_truth_pd(GRID))
    assert list(uncentred["mean"] - uncentred["truth"]) == pytest.approx(uncentred["bias"])


def test_anchoring_removes_a_constant_offset_only():
    table = _errors(_pdp_estimates(offset=3.0).assign(
        value=lambda d: _truth_pd(d["x"]) + 3.0), _effects_truth())
    anchored = table[table["anchor"] == "mean"]
    assert np.abs(anchored["bias"]).max() < 1e-12
    assert table[table["anchor"] == "none"]["bias"].to_numpy() == pytest.approx(3.0)


def test_the_truth_is_interpolated_linearly_within_its_range():
    # truth x^2 known at 0, 1 and 2 only: at 0.5 linear interpolation gives 0.5, not 0.25
    truth = _long(truth_frame("pd", "x1", [0.0, 1.0, 4.0], x=[0.0, 1.0, 2.0]))
    est = pd.DataFrame({"scenario": "main", "learner": "lm", "method": "pdp", "rep": 0,
                        "feature": "x1", "x": [-0.5, 0.5, 1.5, 2.5], "value": 0.0})
    reps = rep_errors(est, truth, "pd")
    uncentred = reps[reps["anchor"] == "none"]
    assert list(uncentred["x"]) == [0.5, 1.5]
    assert list(uncentred["truth"]) == pytest.approx([0.5, 2.5])


def test_ice_of_reference_rows_is_compared_with_the_rows_true_curves():
    x = np.linspace(0.0, 1.0, 3)
    truth = _long(truth_frame("ice", "x1", np.r_[x, x + 10.0], x=np.tile(x, 2),
                              row=np.repeat([0, 1], 3)))
    est = pd.DataFrame({"scenario": "main", "learner": "lm", "method": "ice", "rep": 0,
                        "feature": "x1", "row": np.repeat([0, 1], 3), "x": np.tile(x, 2),
                        "value": np.r_[x + 1.0, x + 10.0]})
    reps = rep_errors(est, truth, "ice")
    uncentred = reps[reps["anchor"] == "none"]
    # the mean over the two rows: errors 1 and 0
    assert list(uncentred["error"]) == pytest.approx([0.5, 0.5, 0.5])
    assert list(uncentred["truth"]) == pytest.approx(x + 5.0)


def _importance_truth(marginal_se: float = 0.0) -> pd.DataFrame:
    return pd.concat([truth_frame("pfi_marginal", ["x1", "x2"], [1.0, 2.0], se=marginal_se),
                      truth_frame("pfi_conditional", ["x1", "x2"], [0.5, 2.0])],
                     ignore_index=True).assign(scenario="main")


def _importance_estimates(method: str, errors: np.ndarray, base: list[float]) -> pd.DataFrame:
    """Per repetition (rows of ``errors``) and feature x1, x2: truth ``base`` + error."""
    return pd.DataFrame([{"scenario": "main", "learner": "lm", "method": method, "rep": r,
                          "feature": f, "value": base[j] + errors[r, j]}
                         for r in range(len(errors)) for j, f in enumerate(["x1", "x2"])])


PFI_ERRORS = np.array([[0.3, -0.1], [0.5, 0.1], [0.3, -0.1], [0.5, 0.1]])
CPFI_ERRORS = np.array([[0.01, 0.0], [-0.01, 0.02], [0.01, 0.0], [-0.01, 0.02]])


def _write(df: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_parquet(path)
    return path


def test_summaries_write_truth_errors_of_every_compared_method(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    study = _study()
    est = Path("results/s/estimates/main/lm")
    files = [
        _write(_pdp_estimates(), est / "pdp/c0.parquet"),
        _write(_importance_estimates("pfi", PFI_ERRORS, [1.0, 2.0]), est / "pfi/c0.parquet"),
        _write(_importance_estimates("cpfi", CPFI_ERRORS, [0.5, 2.0]), est / "cpfi/c0.parquet"),
        # no truth: out-of-bag importance, centred ICE
        _write(_importance_estimates("oob", PFI_ERRORS, [0.0, 0.0]), est / "oob/c0.parquet"),
    ]
    truths = [_write(_effects_truth(), Path("results/s/truth/main/effects.parquet")),
              _write(_importance_truth(), Path("results/s/truth/main/importance.parquet"))]
    outs = {k: Path(v) for k, v in metrics_paths("s").items()}
    run_summaries(study, files, truths, outs, base_seed=1)
    table = read_parquet(outs["truth_errors"])
    assert set(table["method"]) == {"pdp", "pfi", "cpfi"}
    assert set(table["estimand"]) == {"pd", "pfi_marginal", "pfi_conditional"}
    pfi = table[table["method"] == "pfi"].set_index("feature")
    assert pfi["x"].isna().all() and set(pfi["anchor"]) == {"none"}
    assert list(pfi["truth"]) == [1.0, 2.0]
    assert list(pfi["bias"]) == pytest.approx(PFI_ERRORS.mean(axis=0))
    assert list(pfi["se"]) == pytest.approx(PFI_ERRORS.std(axis=0, ddof=1) / 2.0)
    assert list(pfi["rmse"]) == pytest.approx(np.sqrt((PFI_ERRORS**2).mean(axis=0)))
    reps = read_parquet(outs["truth_error_reps"])
    assert len(reps[reps["method"] == "pdp"]) == 4 * 3 * 2  # reps x points x anchorings
    # the summaries job reads exactly the compared estimates of these methods
    methods = {Path(p).parent.name for p in truth_compared_estimates(study)}
    assert methods == {"pdp", "pfi", "cpfi"}


def _claim(kind: str, method: str = "pfi", **params) -> dict:
    from imlbench.metrics.claims import CLAIMS

    claim = {"id": "c", "kind": kind, "figure": "", "text": "t", "published": "p",
             "where": {"scenario": "main", "learner": "lm", "method": method}, **params}
    return with_defaults(CLAIMS.get(kind).params, claim)


def _tables(*frames: pd.DataFrame, truth: str = "marginal", truth_se: float = 0.0) -> Tables:
    long = long_truths({("main", "importance"): _importance_truth(truth_se)})["main"]
    reps = pd.concat([rep_errors(f, long, f"pfi_{truth}") for f in frames], ignore_index=True)
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(),
                  truth_errors=summarise_errors(reps), truth_error_reps=reps)


# errors with mean a and sd sqrt(4/3) over 4 reps: SE = sqrt(4/3) / 2
SE = np.sqrt(4.0 / 3.0) / 2.0


def _shifted(bias: float) -> pd.DataFrame:
    errors = np.array([[-1.0, -1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, 1.0]]) + bias
    return _importance_estimates("pfi", errors, [1.0, 2.0])


def test_matches_truth_holds_within_k_se_and_fails_beyond():
    # 4 reps: the SE is estimated with 3 df, so k = 3 stands for the t quantile at Phi(3)
    k3 = float(t_multiplier(3.0, 3))
    assert 9.2 < k3 < 9.25  # scipy.stats.t.ppf(0.99865, 3)
    near = matches_truth(_claim("matches_truth"), _tables(_shifted(0.97 * k3 * SE)))
    assert near[0]["verdict"] == REPRODUCED
    assert "t(3) SE" in near[0]["tolerance"] and "3 df" in near[0]["tolerance"]
    far = matches_truth(_claim("matches_truth"), _tables(_shifted(1.03 * k3 * SE)))
    assert far[0]["verdict"] == NOT_REPRODUCED
    # an absolute tolerance of 0.1 k3 SE admits the 1.03 k3 SE bias
    lenient = matches_truth(_claim("matches_truth", atol=0.1 * k3 * SE),
                            _tables(_shifted(1.03 * k3 * SE)))
    assert lenient[0]["verdict"] == REPRODUCED


def test_a_monte_carlo_truth_widens_the_tolerance_by_its_own_se():
    # bias 1.2 k3 SE of the estimate; a truth with SE 4 SE gives sqrt(1 + 16) SE = 4.12 SE
    k3 = float(t_multiplier(3.0, 3))
    tables = _tables(_shifted(1.2 * k3 * SE), truth_se=4.0 * SE)
    assert list(tables.truth_errors["truth_se"]) == pytest.approx([4.0 * SE] * 2)
    assert matches_truth(_claim("matches_truth"), tables)[0]["verdict"] == REPRODUCED


def test_truth_tables_are_read_as_they_are_without_adapters():
    """Every truth table has the one shape: the reader stacks a scenario's tables as they are
    (no adapter per table, no defaults) and reads a Monte Carlo truth's se as given."""
    for gone in ("TRUTH_TABLES", "TRUTH_DEFAULTS", "ESTIMANDS", "_effects", "_curves",
                 "_importance", "_importances"):
        assert not hasattr(truth_errors, gone), gone
    effects = truth_frame("ale", "x1", [0.0, 2.0], x=[0.0, 1.0], se=[0.0, 0.1])
    importance = truth_frame("pfi_marginal", "x1", 1.0, se=0.01)
    long = long_truths({("main", "effects"): effects.assign(scenario="main"),
                        ("main", "importance"): importance.assign(scenario="main", p_n=3)})
    pd.testing.assert_frame_equal(long["main"],
                                  pd.concat([effects, importance], ignore_index=True))
    est = pd.DataFrame({"scenario": "main", "learner": "lm", "method": "ale", "rep": 0,
                        "feature": "x1", "x": [0.5], "value": [1.0]})
    reps = rep_errors(est, long["main"], "ale").query("anchor == 'none'")
    assert list(reps["truth"]) == [1.0] and list(reps["truth_se"]) == pytest.approx([0.05])
    pfi = pd.DataFrame({"scenario": "main", "learner": "lm", "method": "pfi", "rep": 0,
                        "feature": "x1", "value": [1.5]})
    reps = rep_errors(pfi, long["main"], "pfi_marginal")
    assert list(reps["truth_se"]) == [0.01] and list(reps["error"]) == [0.5]


def test_closer_to_truth_picks_the_method_with_the_smaller_error():
    pfi = _importance_estimates("pfi", PFI_ERRORS, [1.0, 2.0])
    cpfi = _importance_estimates("cpfi", CPFI_ERRORS, [1.0, 2.0])
    tables = _tables(pfi, cpfi)
    closer = closer_to_truth(_claim("closer_to_truth", method="cpfi", than="pfi"), tables)
    assert closer[0]["verdict"] == REPRODUCED
    assert "4 paired reps" in closer[0]["reproduced"]
    farther = closer_to_truth(_claim("closer_to_truth", method="pfi", than="cpfi"), tables)
    assert farther[0]["verdict"] == NOT_REPRODUCED


def test_rows_without_data_say_why():
    one_rep = _shifted(0.0).query("rep == 0")
    row = matches_truth(_claim("matches_truth"), _tables(one_rep))[0]
    assert row["verdict"] == NO_DATA and "2 repetitions" in row["reason"]
    row = matches_truth(_claim("matches_truth", features=["x9"]), _tables(_shifted(0.0)))[0]
    assert row["verdict"] == NO_DATA and "x9" in row["reason"] and "x1, x2" in row["reason"]
    row = closer_to_truth(_claim("closer_to_truth", than="cpfi"),
                          _tables(one_rep, _importance_estimates("cpfi", CPFI_ERRORS[:1],
                                                                 [1.0, 2.0])))[0]
    assert row["verdict"] == NO_DATA and "share 1" in row["reason"]
    # rows the table lacks: the compare stage says why
    study, empty = _study(), Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame())
    for method, expected in (
        ("oob", "method oob (oob_pfi) is compared with no truth"),
        ("ice_c", "method ice_c (ice) estimates no truth estimand"),
        ("pdp", "results/s/metrics/truth_errors.parquet holds no rows of main/lm/pdp"),
    ):
        claim = _claim("matches_truth", method=method)
        row = claim_row(claim, "lm", method, "", "", None)
        assert no_data_reason(study, empty, claim, row).startswith(expected)


# --- curves whose grids differ between repetitions ----------------------------------------

#: a true ALE f(x) = x^2 on a grid of [-1, 1] (as effect truths span the central 99%)
TRUE_X = np.linspace(-1.0, 1.0, 21)


def _true_ale() -> pd.DataFrame:
    return _long(truth_frame("ale", "x1", TRUE_X**2, x=TRUE_X).assign(scenario="main"))


def _curve(method: str, xs: list[np.ndarray], error) -> pd.DataFrame:
    """Per repetition r, a curve at its own points ``xs[r]``: the truth (interpolated as the
    comparison does) plus ``error(r, x)``."""
    return pd.DataFrame([{"scenario": "main", "learner": "lm", "method": method, "rep": r,
                          "feature": "x1", "x": x,
                          "value": np.interp(x, TRUE_X, TRUE_X**2) + error(r, x)}
                         for r, x_r in enumerate(xs) for x in x_r])


def _curve_tables(*frames: pd.DataFrame) -> Tables:
    reps = pd.concat([rep_errors(f, _true_ale(), "ale") for f in frames], ignore_index=True)
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(),
                  truth_errors=summarise_errors(reps), truth_error_reps=reps)


#: ALE with quantile intervals: each repetition's edges are its data's quantiles; edges beyond
#: the truth's range [-1, 1] are left out, so 5, 5, 6 and 4 are compared
QUANTILE_EDGES = [np.array([-1.10, -0.62, -0.20, 0.21, 0.60, 0.98]),
                  np.array([-0.97, -0.58, -0.18, 0.19, 0.63, 1.05]),
                  np.array([-0.99, -0.61, -0.22, 0.20, 0.59, 0.99]),
                  np.array([-1.05, -0.60, -0.19, 0.22, 0.61, 1.02])]
#: per repetition an error a_r + b_r x, linear, so that interpolation between edges is exact
A, B = np.array([0.10, -0.10, 0.05, -0.05]), np.array([0.02, -0.01, 0.00, 0.01])


def test_quantile_interval_ale_is_compared_in_every_repetition_between_its_edges():
    ale = _curve("ale", QUANTILE_EDGES, lambda r, x: A[r] + B[r] * x)
    table = summarise_errors(rep_errors(ale, _true_ale(), "ale"))
    # every edge of any repetition within the span all four cover, [-0.60, 0.61]
    kept = np.unique(np.concatenate(QUANTILE_EDGES))
    kept = kept[(kept >= -0.60) & (kept <= 0.61)]
    for anchor in ANCHORS:
        t = table[table["anchor"] == anchor]
        assert list(t["x"]) == pytest.approx(kept)
        assert list(t["reps"]) == [4] * len(kept)
    t = table[table["anchor"] == "none"]
    err = A[:, None] + B[:, None] * kept  # each repetition's error at every kept x
    assert list(t["bias"]) == pytest.approx(err.mean(axis=0))
    assert list(t["se"]) == pytest.approx(err.std(axis=0, ddof=1) / 2.0)
    assert list(t["rmse"]) == pytest.approx(np.sqrt((err**2).mean(axis=0)))
    assert list(t["mean"] - t["truth"]) == pytest.approx(t["bias"])
    # the truth at x for the repetition holding x, its chord between edges for the others
    assert np.abs(t["truth"] - kept**2).max() < 0.05

    tables = _curve_tables(ale)
    row = matches_truth(_claim("matches_truth", method="ale"), tables)[0]
    assert row["verdict"] == REPRODUCED, row
    assert f"{len(kept)} points, 4 reps" in row["reproduced"]
    shifted = _curve_tables(_curve("ale", QUANTILE_EDGES, lambda r, x: 1.0 + A[r] / 10))
    row = matches_truth(_claim("matches_truth", method="ale", anchor="none"), shifted)[0]
    assert row["verdict"] == NOT_REPRODUCED, row


def _stratpd_points(seed: int = 1, reps: int = 5) -> list[np.ndarray]:
    """StratPD's x: each repetition's distinct data values, some dropped (fewer slopes than
    needed), another set and another number in each repetition."""
    rng = np.random.default_rng(seed)
    xs = [np.sort(rng.uniform(-1.0, 1.0, 40)) for _ in range(reps)]
    return [x[rng.random(len(x)) > 0.1 + 0.05 * r] for r, x in enumerate(xs)]


def test_stratpd_dropping_other_points_per_repetition_is_compared_with_the_truth():
    xs = _stratpd_points()
    assert len({len(x) for x in xs}) > 1
    lo, hi = max(x.min() for x in xs), min(x.max() for x in xs)
    kept = np.unique(np.concatenate(xs))
    kept = kept[(kept >= lo) & (kept <= hi)]
    # 0 at its smallest x (StratPD's anchoring): the truth minus a constant per repetition
    exact = _curve("stratpd", xs, lambda r, x: -float(np.interp(xs[r][0], TRUE_X, TRUE_X**2)))
    table = summarise_errors(rep_errors(exact, _true_ale(), "ale"))
    for anchor in ANCHORS:
        t = table[table["anchor"] == anchor]
        assert list(t["x"]) == pytest.approx(kept)
        assert (t["reps"] == 5).all()
    constants = [-np.interp(x[0], TRUE_X, TRUE_X**2) for x in xs]
    assert table.query("anchor == 'none'")["bias"].to_numpy() == pytest.approx(
        np.mean(constants))
    assert np.abs(table.query("anchor == 'mean'")["bias"]).max() < 1e-12

    rng = np.random.default_rng(2)
    noise = [rng.normal(0.0, 0.02, len(x)) for x in xs]
    noisy = _curve("stratpd", xs, lambda r, x: noise[r][np.searchsorted(xs[r], x)])
    row = matches_truth(_claim("matches_truth", method="stratpd"), _curve_tables(noisy))[0]
    assert row["verdict"] == REPRODUCED, row
    assert "5 reps" in row["reproduced"]


def test_closer_to_truth_pairs_curves_of_other_grids_by_repetition():
    xs = _stratpd_points(reps=4)
    stratpd = _curve("stratpd", xs, lambda r, x: 0.3 * x * (-1) ** r)
    ale = _curve("ale", QUANTILE_EDGES, lambda r, x: 0.01 * x * (-1) ** r)
    tables = _curve_tables(stratpd, ale)
    row = closer_to_truth(_claim("closer_to_truth", method="ale", than="stratpd"), tables)[0]
    assert row["verdict"] == REPRODUCED and "4 paired reps" in row["reproduced"], row


def test_curves_of_one_grid_size_are_pooled_as_before():
    """Grids of one size per repetition are pooled by position (a data-dependent grid: x the
    mean), a fixed grid missing a point in one repetition by x; nothing is interpolated."""
    # quantile-like grids: 3 points in each repetition, another x in each
    xs = [GRID + d for d in (0.0, 0.02, -0.02, 0.04)]
    est = pd.DataFrame([{"scenario": "main", "learner": "lm", "method": "pdp", "rep": r,
                         "feature": "x1", "x": x, "value": _truth_pd(x) + SHAPE[r, i]}
                        for r in range(4) for i, x in enumerate(xs[r])])
    t = _errors(est, _effects_truth()).query("anchor == 'none'")
    assert list(t["x"]) == pytest.approx(np.mean(xs, axis=0))
    assert list(t["bias"]) == pytest.approx(SHAPE.mean(axis=0))
    assert list(t["se"]) == pytest.approx(SHAPE.std(axis=0, ddof=1) / 2.0)
    assert list(t["reps"]) == [4, 4, 4]
    # a fixed grid whose repetition 2 lacks x = 0.5: 3 repetitions there, as they are
    est = _pdp_estimates()
    est.loc[(est["rep"] == 2) & (est["x"] == 0.5), "value"] = np.nan
    t = _errors(est, _effects_truth()).query("anchor == 'none'")
    keep = np.array([0, 1, 3])
    assert list(t["x"]) == pytest.approx(GRID)
    assert list(t["reps"]) == [4, 3, 4]
    err = SHAPE + OFFSET
    assert list(t["bias"]) == pytest.approx([err[:, 0].mean(), err[keep, 1].mean(),
                                             err[:, 2].mean()])
    assert t["se"].iloc[1] == pytest.approx(err[keep, 1].std(ddof=1) / np.sqrt(3))
