"""The cross-study table of methods against their truths (imlbench.metrics.truth_synthesis):
squared bias plus variance is the MSE on every row, the numbers are those of
``metrics/truth_errors.parquet`` and ``truth_error_reps.parquet``, every compared (estimand,
method, learner, scenario) has its row, and a method without an estimand family is an
error. On a toy study written to a temporary folder, and on the smoke run's results (the
``smoke_run`` fixture)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from imlbench.explain.api import METHODS
from imlbench.explain.estimands import truth_frame
from imlbench.io import read_parquet, write_parquet
from imlbench.metrics import truth_synthesis
from imlbench.metrics.truth_errors import rep_errors, summarise_errors
from imlbench.metrics.truth_synthesis import COLUMNS, FAMILY, ROW, family, synthesis

GAUSS = {"law": "normal", "mean": 0, "sd": 1}
#: a toy study: a copula with a swept correlation constant, Hooker et al.'s DGP with its
#: rho, independent features; PFI on training and on test rows, a PDP
TOY = {
    "title": "toy",
    "learners": {"lm": {"learner": "lm"}},
    "methods": {
        "pfi_train": {"method": "pfi", "params": {"data": "train"}},
        "pfi_test": {"method": "pfi", "params": {"data": "test"}},
        "pdp": {"method": "pdp"},
    },
    "scenarios": {
        "cop": {
            "dgp": "formula", "reps": 3, "learners": ["lm"], "methods": ["pfi_train", "pfi_test"],
            "sweep": {"rho": [0.5]},
            "params": {"features": {"x1": GAUSS, "x2": GAUSS}, "f": "x1 + x2",
                       "constants": {"rho": 0},
                       "dependence": {"features": ["x1", "x2"],
                                      "correlation": [[1, "rho"], ["rho", 1]]}},
        },
        "hooker": {"dgp": "extrapolation.copula_linear", "reps": 2, "learners": ["lm"],
                   "methods": ["pdp"], "params": {"beta": [1, 1], "rho": 0.3, "noise_sd": 0.1}},
        "indep": {"dgp": "formula", "reps": 2, "learners": ["lm"], "methods": ["pdp"],
                  "params": {"features": {"x1": GAUSS}, "f": "x1**2"}},
    },
}
#: importance estimates of scenario cop_rho0.5, by method, feature: (truth, per repetition)
PFI = {"pfi_train": {"x1": (2.0, [1.0, 3.0, 2.5]), "x2": (1.0, [1.0, 1.0, 1.0])},
       "pfi_test": {"x1": (2.0, [2.0, 2.2, 1.9])}}
#: the PDP of x1 at x = 0, 0.5, 1 per repetition, and its truth there
GRID = np.array([0.0, 0.5, 1.0])
PDP = {"hooker": ([[0.1, 0.4, 1.2], [0.0, 0.6, 0.9]], [0.0, 0.5, 1.0]),
       "indep": ([[0.0, 0.3, 1.1], [0.1, 0.2, 0.8]], [0.0, 0.25, 1.0])}


def _write(results: Path, study: str, reps: pd.DataFrame) -> None:
    """The two metrics files of ``study`` as the summaries stage writes them."""
    folder = results / study / "metrics"
    folder.mkdir(parents=True)
    for name, table in (("truth_error_reps", reps), ("truth_errors", summarise_errors(reps))):
        write_parquet(table, folder / f"{name}.parquet", config_hash="toy", seed=[0])


def _toy_reps() -> pd.DataFrame:
    """truth_error_reps of the toy study, from estimates and truths by the summaries' code."""
    parts = []
    for method, features in PFI.items():
        for feature, (truth, values) in features.items():
            est = pd.DataFrame({"scenario": "cop_rho0.5", "learner": "lm", "method": method,
                                "rep": range(len(values)), "feature": feature,
                                "value": values})
            parts.append(rep_errors(est, truth_frame("pfi_marginal", feature, truth),
                                    "pfi_marginal"))
    for scenario, (curves, truth) in PDP.items():
        est = pd.DataFrame([{"scenario": scenario, "learner": "lm", "method": "pdp", "rep": r,
                             "feature": "x1", "x": x, "value": v}
                            for r, curve in enumerate(curves)
                            for x, v in zip(GRID, curve, strict=True)])
        parts.append(rep_errors(est, truth_frame("pd", "x1", np.array(truth), x=GRID), "pd"))
    return pd.concat(parts, ignore_index=True)


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A project folder with the toy study file and its metrics under results/."""
    studies = tmp_path / "config" / "studies"
    studies.mkdir(parents=True)
    (studies / "toy.yaml").write_text(yaml.safe_dump(TOY))
    _write(tmp_path / "results", "toy", _toy_reps())
    (tmp_path / "results" / "logs").mkdir()  # a folder without metrics is not a study
    return tmp_path / "results"


def _decomposition(errors: np.ndarray) -> tuple[float, float, float]:
    """Squared bias, variance and MSE of errors (repetitions x points), averaged over the
    points."""
    bias = errors.mean(axis=0)
    return (float(np.mean(bias**2)), float(np.mean(errors.var(axis=0))),
            float(np.mean(errors**2)))


def test_toy_rows_have_the_decomposition_by_hand(toy):
    table = synthesis(toy)
    assert list(table.columns) == COLUMNS
    rows = table.set_index(["scenario", "method"])
    assert len(rows) == 4

    train = rows.loc[("cop_rho0.5", "pfi_train")]
    errors = np.array([[v - t for v in values] for t, values in PFI["pfi_train"].values()]).T
    assert [train["bias2"], train["variance"], train["mse"]] == pytest.approx(
        _decomposition(errors), rel=1e-12)
    assert train["truth_range"] == 2.0  # from 0 to the largest importance
    assert train["nrmse"] == pytest.approx(np.sqrt(train["mse"]) / 2.0, rel=1e-12)
    assert (train["n_points"], train["n_reps"]) == (2, 3)
    assert (train["family"], train["estimand"]) == ("marginal PFI", "pfi_marginal")

    for scenario, (curves, truth) in PDP.items():
        pdp = rows.loc[(scenario, "pdp")]
        est, t = np.array(curves), np.array(truth)
        errors = (est - est.mean(axis=1, keepdims=True)) - (t - t.mean())  # anchored: shapes
        assert [pdp["bias2"], pdp["variance"], pdp["mse"]] == pytest.approx(
            _decomposition(errors), rel=1e-12)
        assert pdp["truth_range"] == pytest.approx(np.ptp(t))
        assert (pdp["family"], pdp["n_points"], pdp["n_reps"]) == ("PD", 3, 2)


def test_toy_dependence_and_data(toy):
    table = synthesis(toy).set_index(["scenario", "method"])
    assert table.loc[("cop_rho0.5", "pfi_train"), "dependence"] == 0.5  # the swept constant
    assert table.loc[("hooker", "pdp"), "dependence"] == 0.3
    assert np.isnan(table.loc[("indep", "pdp"), "dependence"])
    # PFI ran on training and on test rows of cop_rho0.5; the PDPs on their one kind
    assert table.loc[("cop_rho0.5", "pfi_train"), "data"] == "train"
    assert table.loc[("cop_rho0.5", "pfi_test"), "data"] == "test"
    assert table.loc[("hooker", "pdp"), "data"] is None


def test_a_flat_truth_has_no_nrmse(tmp_path):
    flat = {**TOY, "scenarios": {"indep": TOY["scenarios"]["indep"]}}
    studies = tmp_path / "config" / "studies"
    studies.mkdir(parents=True)
    (studies / "toy.yaml").write_text(yaml.safe_dump(flat))
    est = pd.DataFrame({"scenario": "indep", "learner": "lm", "method": "pdp", "rep": 0,
                        "feature": "x1", "x": GRID, "value": [0.1, 0.3, 0.2]})
    _write(tmp_path / "results", "toy",
           rep_errors(est, truth_frame("pd", "x1", 0.7, x=GRID), "pd"))
    row = synthesis(tmp_path / "results").iloc[0]
    assert row["truth_range"] < 1e-12 and np.isnan(row["nrmse"]) and row["mse"] > 0


def test_a_row_without_common_points_is_kept_without_errors(tmp_path):
    studies = tmp_path / "config" / "studies"
    studies.mkdir(parents=True)
    (studies / "toy.yaml").write_text(yaml.safe_dump(TOY))
    # grids of different sizes that share no span: summarise_errors keeps no point
    est = pd.DataFrame({"scenario": "indep", "learner": "lm", "method": "pdp",
                        "rep": [0, 0, 1], "feature": "x1", "x": [0.1, 0.2, 0.9],
                        "value": [0.1, 0.3, 0.2]})
    _write(tmp_path / "results", "toy", rep_errors(
        est, truth_frame("pd", "x1", np.array([0.0, 1.0]), x=np.array([0.0, 1.0])), "pd"))
    row = synthesis(tmp_path / "results").iloc[0]
    assert (row["n_points"], row["n_reps"]) == (0, 2)
    assert np.isnan([row["mse"], row["bias2"], row["variance"], row["nrmse"]]).all()


def test_an_unmapped_method_is_an_error(toy, monkeypatch):
    with pytest.raises(ValueError, match=r"method 'shap' with estimand 'pd' has no estimand "
                                         r"family; add it to .*FAMILY"):
        family("shap", "pd")
    monkeypatch.delitem(truth_synthesis.FAMILY, ("pdp", "pd"))
    with pytest.raises(ValueError, match="method 'pdp' with estimand 'pd'"):
        synthesis(toy)


def test_every_method_with_an_estimand_has_a_family():
    declared = {n for n in METHODS.names() if METHODS.get(n).estimand is not None}
    assert declared == {m for m, _ in FAMILY}


def test_results_without_their_study_file_are_an_error(toy):
    (toy.parent / "config" / "studies" / "toy.yaml").unlink()
    with pytest.raises(ValueError, match="results of study 'toy' without its study file"):
        synthesis(toy)


# --- the smoke run's results ---------------------------------------------------------


def _metrics(results: Path, study: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    folder = results / study / "metrics"
    return (read_parquet(folder / "truth_errors.parquet"),
            read_parquet(folder / "truth_error_reps.parquet"))


@pytest.fixture(scope="module")
def smoke(workdir, smoke_run) -> tuple[Path, pd.DataFrame]:
    results = workdir / "results"
    return results, synthesis(results, root=workdir)


@pytest.mark.e2e
@pytest.mark.workflow
def test_smoke_bias2_plus_variance_is_the_mse(smoke):
    _, real = smoke
    assert len(real) > 0
    np.testing.assert_allclose(real["bias2"] + real["variance"], real["mse"], rtol=1e-12)


@pytest.mark.e2e
@pytest.mark.workflow
def test_smoke_rows_cover_every_compared_estimate_and_match_the_metrics(smoke):
    results, real = smoke
    compared = {p.parent.parent.name for p in results.glob("*/metrics/truth_error_reps.parquet")
                if len(read_parquet(p))}
    assert set(real["study"]) == compared
    pooled = 0
    for study, rows in real.groupby("study"):
        errors, reps = _metrics(results, study)
        keys = set(map(tuple, reps[ROW].drop_duplicates().to_numpy()))
        assert set(map(tuple, rows[ROW].to_numpy())) == keys
        points = errors[(errors["anchor"] == "mean") | errors["x"].isna()]
        by_row = points.groupby(ROW)
        got = rows[rows["n_points"] > 0].set_index(ROW).sort_index()
        assert rows.loc[rows["n_points"] == 0, "mse"].isna().all()
        np.testing.assert_allclose(got["mse"], by_row["rmse"].apply(
            lambda r: np.mean(r**2)).sort_index(), rtol=1e-12)
        np.testing.assert_allclose(got["bias2"], by_row["bias"].apply(
            lambda b: np.mean(b**2)).sort_index(), rtol=1e-12, atol=1e-300)
        one = got[got["n_points"] == 1].join(points.set_index(ROW)[["rmse", "bias"]])
        np.testing.assert_allclose(np.sqrt(one["mse"]), one["rmse"], rtol=1e-12)
        # rows whose repetitions share the summary's points (a fixed grid, importances):
        # the MSE is that of every error of the reps
        compared = reps[(reps["anchor"] == "mean") | reps["x"].isna()]
        at = [*ROW, "feature", "x"]
        per_point = compared.assign(x=compared["x"].fillna(np.inf)).groupby(at).size()
        shown = points.assign(x=points["x"].fillna(np.inf)).set_index(at).index
        n_reps = got["n_reps"].reindex(per_point.index.droplevel(["feature", "x"])).to_numpy()
        fixed = (pd.Series(per_point.index.isin(shown) & (per_point.to_numpy() == n_reps),
                           index=per_point.index).groupby(ROW).all())
        size = compared.groupby(ROW).size().reindex(got.index)
        whole = got[fixed.reindex(got.index, fill_value=False)
                    & (got["n_points"] * got["n_reps"] == size)]
        np.testing.assert_allclose(
            whole["mse"], compared.groupby(ROW)["error"].apply(
                lambda e: np.mean(e**2)).reindex(whole.index), rtol=1e-9)
        pooled += len(whole)
    assert pooled > 0
    assert set(real["family"]) <= set(FAMILY.values())
