"""Each configuration error stops the run with ONE message naming the file, the key and the
allowed values, before any job: through ``check_config``, ``python -m imlbench check`` and
``snakemake -n``.

Every broken configuration is a copy of ``config/`` and ``workflow/schemas/`` in a temporary
directory with one edit of the YAML.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from imlbench.cli import main as cli_main
from imlbench.config import ConfigError
from imlbench.validate import check_config

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"
STUDY = "extrapolation"

REGISTERED_LEARNERS = "bagging, cart, forest, gbm, knn, lm, mlp, none, ols, rf, svm, tree, truth"
# the DGPs this study may use: the layers' and its own (other studies' are not allowed)
REGISTERED_DGPS = ("ale_book_ch6, ale_book_ch7, bikeshare, copula_linear, "
                   "gaussian_noise_features, stratpd_synthetic, stratpd_weight")
STUDY_LEARNERS = "rf, mlp, lm, gbm, svm, knn, rf100, bagging100"


def _copy_root(dst: Path) -> Path:
    shutil.copytree(REPO / "config", dst / "config")
    shutil.copytree(REPO / "workflow" / "schemas", dst / "workflow" / "schemas")
    return dst


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return _copy_root(tmp_path)


def _edit(path: Path, change: Callable[[dict], None]) -> None:
    doc = yaml.safe_load(path.read_text())
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


def _study_path(root: Path) -> Path:
    return root / "config" / "studies" / f"{STUDY}.yaml"


def _config_path(root: Path) -> Path:
    return root / "config" / "config.yaml"


def _set(*keys, value):
    def change(doc):
        d = doc
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value

    return change


def _append(*keys, value):
    def change(doc):
        d = doc
        for k in keys:
            d = d[k]
        d.append(value)

    return change


def _delete(*keys):
    def change(doc):
        d = doc
        for k in keys[:-1]:
            d = d[k]
        del d[keys[-1]]

    return change


def _add_method(name, spec):
    """Register ``spec`` as method ``name`` of the study and use it in the main scenario."""

    def change(doc):
        doc["methods"][name] = spec
        doc["scenarios"]["main"]["methods"].append(name)

    return change


def _add_truth_to_bike():
    def change(doc):
        doc["learners"]["oracle"] = {"learner": "truth"}
        doc["scenarios"]["bike"]["learners"].append("oracle")

    return change


# name: (file edited, edit, expected key, expected fragments incl. the allowed values)
CASES = {
    "unknown_top_level_key": (
        "config", _set("workers", value=4), "key (top level)",
        ["'workers'", "allowed: base_seed, max_rows_per_predict, profile, studies"],
    ),
    "wrong_profile": (
        "config", _set("profile", value="fast"), "key profile",
        ["'fast'", "allowed: smoke, default, paper"],
    ),
    "fit_models_false_with_a_fitted_model_method": (
        "study", _set("scenarios", "main", "fit_models", value=False),
        "key scenarios.main.fit_models",
        ["fit_models is false", "pfi", "allowed: methods that refit the learner themselves"],
    ),
    "unknown_study": (
        "config", _set("studies", value=["extrapolation", "shapley"]), "key studies",
        ["shapley", "allowed: conditional_subgroups, extrapolation, pd_pfi_dgp"],
    ),
    "unknown_dgp": (
        "study", _set("scenarios", "main", "dgp", value="copula"), "key scenarios.main.dgp",
        ["'copula'", f"allowed: {REGISTERED_DGPS}"],
    ),
    "unknown_learner_in_scenario": (
        "study", _append("scenarios", "main", "learners", value="xgb"),
        "key scenarios.main.learners", ["'xgb'", f"allowed: {STUDY_LEARNERS}"],
    ),
    "unknown_registered_learner": (
        "study", _set("learners", "rf", "learner", value="randomforest"), "key learners.rf.learner",
        ["'randomforest'", f"allowed: {REGISTERED_LEARNERS}"],
    ),
    "unknown_method": (
        "study", _set("methods", "pfi", "method", value="permutation"), "key methods.pfi.method",
        ["'permutation'", "allowed: ", "cpfi", "loco", "oob_pfi", "pdp", "pfi"],
    ),
    "unknown_method_in_scenario": (
        "study", _append("scenarios", "main", "methods", value="shap"),
        "key scenarios.main.methods", ["'shap'", "allowed: pfi, oob, ", "lm_theory, cpfi"],
    ),
    "method_parameter_not_accepted": (
        "study", _set("methods", "pfi", "params", "n_permutations", value=5),
        "key methods.pfi.params",
        ["n_permutations", "allowed: aggregate, contrast, data, features, groups, loss, n_repeats"],
    ),
    "feature_not_in_dgp": (
        "study", _set("methods", "pdp_x1", "params", "features", value=["x1", "x11"]),
        "key methods.pdp_x1.params.features",
        ["x11", "allowed: x1, x2, x3, x4, x5, x6, x7, x8, x9, x10"],
    ),
    "categorical_feature_not_in_dgp": (
        "study", _add_method("ale_cat", {"method": "ale", "params": {"categorical": ["sex"]}}),
        "key methods.ale_cat.params.categorical",
        ["sex", "allowed: x1, x2, x3, x4, x5, x6, x7, x8, x9, x10"],
    ),
    "group_with_unknown_feature": (
        "study", _set("methods", "pfi", "params", "groups", value={"pair": ["x1", "x12"]}),
        "key methods.pfi.params.groups", ["x12", "allowed: x1, x2, x3"],
    ),
    "truth_learner_on_real_data": (
        "study", _add_truth_to_bike(), "key scenarios.bike.learners",
        ["'oracle'", "'bikeshare'", "allowed: the study's other learners"],
    ),
    "unknown_sampler": (
        "study", _add_method("cs", {"method": "conditional_pfi", "params": {"sampler": "ctree"}}),
        "key methods.cs.params.sampler",
        ["'ctree'", "allowed: exact, gaussian, impute_rf, knockoff, permutation, subgroups"],
    ),
    "oob_on_learner_without_oob": (
        "study", _set("methods", "oob", "learners", value=["rf", "svm"]),
        "key scenarios.main.methods",
        # the learners that have out-of-bag rows are the allowed values
        ["'oob'", "'svm'", "allowed", "rf", "rf100", "bagging100"],
    ),
    "figure_unknown_function": (
        "study", _set("figures", "fig_1", "function", value="extrapolation.fig99"),
        "key figures.fig_1.function",
        ["'extrapolation.fig99'", "allowed: ", "extrapolation.fig1", "extrapolation.fig9"],
    ),
    "claim_unknown_scenario": (
        "study", _set("claims", 0, "where", "scenario", value="main_rho0.5"),
        "key claims[0].where.scenario", ["'main_rho0.5'", "allowed: ", "main_rho0, main_rho0.9"],
    ),
    "dgp_data_file_missing": (  # a wrong path is a configuration error, not a traceback
        "study", _set("scenarios", "bike", "params",
                      value={"source": "uci", "path": "/nonexistent/hour.csv"}),
        "key scenarios.bike.params", ["'bikeshare'", "/nonexistent/hour.csv"],
    ),
    # typed method parameters: checked before any job runs, not by int() inside a job
    "method_parameter_of_the_wrong_type": (
        "study", _set("methods", "pfi", "params", "n_repeats", value="many"),
        "key methods.pfi.params.n_repeats", ["'many'", "allowed: an integer >= 1"],
    ),
    "method_parameter_outside_the_allowed_set": (
        "study", _set("methods", "pfi", "params", "aggregate", value="mode"),
        "key methods.pfi.params.aggregate", ["'mode'", "allowed: mean, median"],
    ),
    "method_parameter_wrong_in_another_profile": (
        "study", _set("methods", "pfi", "params", "n_repeats",
                      value={"smoke": 1, "default": 1, "paper": 0}),
        "key methods.pfi.params.n_repeats", ["0", "(profile paper)", "allowed: an integer >= 1"],
    ),
    "grid_kind_outside_the_allowed_set": (
        "study", _set("methods", "pdp", "params", "grid", "kind", value="log"),
        "key methods.pdp.params.grid.kind",
        ["'log'", "allowed: equidistant, quantile, values, levels"],
    ),
    "unknown_sampler_parameter": (
        "study", _add_method("cs", {"method": "conditional_pfi",
                                    "params": {"sampler": "subgroups",
                                               "sampler_params": {"depth": 3}}}),
        "key methods.cs.params.sampler_params",
        ["depth", "allowed: alpha, categorical_columns, cp, max_depth"],
    ),
    "conditional_pfi_without_a_sampler": (  # the sampler decides the estimand: no default
        "study", _add_method("cs", {"method": "conditional_pfi"}), "key methods.cs.params",
        ["sampler", "must be given", "allowed: sampler: exact, gaussian, impute_rf"],
    ),
    "test_data_without_test_rows": (
        "study", _set("methods", "pfi", "params", "data", value="test"),
        "key methods.pfi.params.data", ["has no test rows", "n_test", "allowed: train"],
    ),
    "test_method_without_test_rows": (
        "study", _append("scenarios", "main", "methods", value="test_permute"),
        "key scenarios.main.n_test",
        ["'test_permute' needs test rows", "allowed: n_test >= 1 or test_fraction"],
    ),
    "unknown_dgp_parameter": (
        "study", _set("scenarios", "main", "params", "betas", value=[1.0]),
        "key scenarios.main.params",
        ["betas", "'copula_linear'", "allowed: beta, rho, noise_sd"],
    ),
    "unknown_learner_parameter": (
        "study", _set("learners", "rf", "params", "n_trees", value=100),
        "key learners.rf.params",
        ["n_trees", "'rf'", "allowed: ccp_alpha, criterion, max_depth"],
    ),
    "claim_parameter_of_the_wrong_type": (
        "study", _set("claims", 0, "z", value="three"), "key claims[0].z",
        ["'three'", "allowed: a number >= 0"],
    ),
    "claim_parameter_not_accepted": (
        "study", _set("claims", 0, "sigma", value=3), "key claims[0]",
        ["sigma", "claim kind 'ranks_match_theory'", "allowed: truth, z"],
    ),
    "claim_names_an_unknown_method": (
        "study", _set("claims", 6, "theory_method", value="lm_thoery"),
        "key claims[6].theory_method", ["'lm_thoery'", "allowed: pfi, oob, oob_raw, lm_theory"],
    ),
    "figure_roles_do_not_match_its_function": (
        "study", _set("figures", "fig_3", "methods", value={"pdp": "pdp_x1"}),
        "key figures.fig_3.methods", ["pdp", "extrapolation.fig3", "allowed: pdp, ice"],
    ),
    "figure_role_names_an_unknown_method": (
        "study", _set("figures", "fig_3", "methods", "ice", value="ice_x2"),
        "key figures.fig_3.methods.ice", ["'ice_x2'", "allowed: pfi, oob"],
    ),
    "study_unknown_top_level_key": (
        "study", _set("sweeps", value={}), "key (top level)",
        ["'sweeps'", "allowed: claims, description, deviations, figures, learners, methods, "
         "reference, scenarios, title"],
    ),
}


def _break(root: Path, case: str) -> tuple[Path, str, list[str]]:
    which, change, key, fragments = CASES[case]
    path = _config_path(root) if which == "config" else _study_path(root)
    _edit(path, change)
    return path, key, fragments


def _check_message(msg: str, path: Path, key: str, fragments: list[str]) -> None:
    assert "\n" not in msg, f"not one message: {msg!r}"
    assert str(path) in msg or path.name in msg, msg
    assert f"{key}:" in msg, msg
    for frag in fragments:
        assert frag in msg, f"{frag!r} missing from {msg!r}"


def test_shipped_config_is_valid(root):
    cfg, studies = check_config(root)
    assert set(studies) == {STUDY, "conditional_subgroups", "pd_pfi_dgp"}
    for profile in ("smoke", "paper"):
        _, studies = check_config(root, {**cfg, "profile": profile})
        assert {s.profile for s in studies.values()} == {profile}


@pytest.mark.parametrize("case", list(CASES))
def test_config_error_message(root, case):
    path, key, fragments = _break(root, case)
    with pytest.raises(ConfigError) as exc:
        check_config(root)
    _check_message(str(exc.value), path, key, fragments)


@pytest.mark.parametrize("case", list(CASES))
def test_cli_check_reports_config_error(root, case, capsys, monkeypatch):
    """``imlbench check`` in-process (same code path as ``python -m imlbench``): status 2."""
    monkeypatch.setattr(os, "environ", dict(os.environ))  # main() sets OMP_NUM_THREADS etc.
    path, key, fragments = _break(root, case)
    assert cli_main(["--root", str(root), "check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("imlbench: configuration error: ")
    _check_message(err.strip().removeprefix("imlbench: configuration error: "), path, key,
                   fragments)


@pytest.mark.parametrize("case", ["wrong_profile", "unknown_dgp"])
def test_python_m_imlbench_check_exit_status(root, case):
    path, key, fragments = _break(root, case)
    res = subprocess.run(
        [sys.executable, "-m", "imlbench", "--root", str(root), "check"],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    _check_message(res.stderr.strip().removeprefix("imlbench: configuration error: "), path,
                   key, fragments)


def test_python_m_imlbench_check_ok(root):
    res = subprocess.run(
        [sys.executable, "-m", "imlbench", "--root", str(root), "check"],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert f"{STUDY}:" in res.stdout


@pytest.mark.parametrize("case", [
    "unknown_learner_in_scenario", "method_parameter_not_accepted",
    "method_parameter_of_the_wrong_type", "method_parameter_outside_the_allowed_set",
    "test_data_without_test_rows", "unknown_dgp_parameter", "unknown_learner_parameter",
])
def test_snakemake_dry_run_fails_before_any_job(tmp_path, case):
    shutil.copytree(REPO / "config", tmp_path / "config")
    (tmp_path / "workflow").symlink_to(REPO / "workflow")
    path, key, fragments = _break(tmp_path, case)
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    res = subprocess.run(
        [str(VENV_BIN / "snakemake"), "-s", str(REPO / "Snakefile"), "-d", str(tmp_path),
         "-n", "--cores", "1"],
        capture_output=True, text=True, timeout=300, env=env,
    )
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "configuration error" in out, out
    for frag in [key, *fragments]:
        assert frag in out, f"{frag!r} missing from snakemake output:\n{out}"
    assert str(path) in out or path.name in out
    # failed while parsing the workflow: no DAG, no job, no output
    assert "Building DAG" not in out and "Job stats" not in out, out
    assert not (tmp_path / "results").exists()


TOY = {
    "title": "A toy study of generic methods",
    "reference": "none",
    "learners": {"rf": {"learner": "rf", "params": {"n_estimators": 20}}, "lm": {"learner": "lm"}},
    "methods": {"pfi": {"method": "pfi", "params": {"n_repeats": 2}},
                "pdp": {"method": "pdp", "params": {"features": ["x1"]}}},
    "scenarios": {"example": {"dgp": "ale_book_ch6", "n": 200, "reps": 2,
                              "learners": ["rf", "lm"], "methods": ["pfi", "pdp"]}},
}


def _toy_study(root: Path, change=None) -> Path:
    """A study file that no config enables and no package backs: generic entries only."""
    path = root / "config" / "studies" / "toy.yaml"
    path.write_text(yaml.safe_dump(TOY, sort_keys=False))
    if change is not None:
        _edit(path, change)
    return path


@pytest.mark.parametrize("by", ["path", "name"])
def test_check_validates_a_study_that_is_not_enabled(root, by, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    path = _toy_study(root)
    study = str(path) if by == "path" else "toy"
    assert cli_main(["--root", str(root), "--profile", "smoke", "check", "--study", study]) == 0
    assert capsys.readouterr().out.startswith("toy: ")


def test_check_reports_the_error_of_a_study_that_is_not_enabled(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    path = _toy_study(root, _set("methods", "pfi", "params", "n_repeats", value="many"))
    assert cli_main(["--root", str(root), "check", "--study", str(path)]) == 2
    msg = capsys.readouterr().err.strip().removeprefix("imlbench: configuration error: ")
    _check_message(msg, path, "key methods.pfi.params.n_repeats",
                   ["'many'", "allowed: an integer >= 1"])


def test_check_names_the_study_files_when_the_study_is_unknown(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    assert cli_main(["--root", str(root), "check", "--study", "shapley"]) == 2
    assert "allowed: conditional_subgroups, extrapolation, pd_pfi_dgp" in capsys.readouterr().err


def test_method_parameters_per_profile(root):
    """A method parameter given per profile resolves to the profile's value (also nested)."""
    from imlbench.config import resolve_profile

    value = {"n": {"smoke": 1, "default": 2, "paper": 3}, "inner": {"k": {"smoke": "a",
             "default": "b", "paper": "c"}}, "plain": [1, 2]}
    assert resolve_profile(value, "smoke") == {"n": 1, "inner": {"k": "a"}, "plain": [1, 2]}
    assert resolve_profile(value, "paper")["inner"] == {"k": "c"}
