"""Each configuration error stops the run with ONE message naming the file, the key and the
allowed values, before any job: through ``check_config``, ``python -m imlbench check`` and
``snakemake -n``.

Every broken configuration (``tests/broken_configs.py``) is a copy of ``config/`` and
``workflow/schemas/`` in a temporary directory with one edit of the YAML.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from broken_configs import CASES, STUDY, Broken, dry_run, rename, set_at, workflow_copy
from shipped import STUDIES

from imlbench import studies as study_packages
from imlbench.cli import main as cli_main
from imlbench.config import ConfigError, load_study, read_yaml
from imlbench.dgp.base import make_dgp
from imlbench.params import ParamError
from imlbench.validate import check_config

REPO = Path(__file__).resolve().parents[1]
BY_NAME: dict[str, Broken] = {case.name: case for case in CASES}


def _copy_root(dst: Path) -> Path:
    shutil.copytree(REPO / "config", dst / "config")
    shutil.copytree(REPO / "workflow" / "schemas", dst / "workflow" / "schemas")
    return dst


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return _copy_root(tmp_path)


def test_the_table_has_at_least_50_distinct_cases():
    assert len(CASES) >= 50 and len(BY_NAME) == len(CASES)


def _break(root: Path, case: str) -> tuple[Path, str, tuple[str, ...]]:
    broken = BY_NAME[case]
    return broken.apply(root), broken.key, broken.fragments


def _check_message(msg: str, path: Path, key: str, fragments: list[str]) -> None:
    assert "\n" not in msg, f"not one message: {msg!r}"
    assert str(path) in msg or path.name in msg, msg
    assert f"{key}:" in msg, msg
    for frag in fragments:
        assert frag in msg, f"{frag!r} missing from {msg!r}"


#: shipped studies that the shipped config does not enable yet, and why: a study is enabled
#: once its verdicts across three base seeds (benchmarks/results_verdicts.md), its misses
#: (results_misses.md) and its part of both committed references are written
NOT_YET_ENABLED = {"error_sources": "its seeds, misses and references are not yet written"}


def test_shipped_config_is_valid(root):
    cfg, studies = check_config(root)
    # the shipped config enables every shipped study but those not yet enabled
    assert set(studies) == set(STUDIES) - set(NOT_YET_ENABLED)
    for profile in ("smoke", "paper"):
        _, studies = check_config(root, {**cfg, "profile": profile})
        assert {s.profile for s in studies.values()} == {profile}


@pytest.mark.parametrize("coding", ["numeric", "treatment"])
def test_a_learner_coding_is_valid(root, coding):
    """``coding`` of ``lm`` (and ``svm_e1071``) takes numeric or treatment (the broken case
    ``unknown_learner_coding`` is any other value)."""
    set_at("learners", "lm", "params", value={"coding": coding})(
        root / "config" / "studies" / f"{STUDY}.yaml")
    _, studies = check_config(root)
    assert studies[STUDY].learner_params("lm") == {"coding": coding}


@pytest.mark.slow
@pytest.mark.parametrize("section, old, new", [
    ("methods", "ice_x1", "ice_line"), ("learners", "rf100", "forest100"),
    ("scenarios", "twod", "surface2d"), ("figures", "fig_4", "fig_4b"),
])
def test_an_entry_renamed_everywhere_is_valid(root, section, old, new):
    """Figures read the study's methods through their roles, and no code names a study-file
    entry: renaming one (and its uses) keeps the configuration valid."""
    rename(section, old, new)(root / "config" / "studies" / f"{STUDY}.yaml")
    _, studies = check_config(root)
    assert new in getattr(studies[STUDY], section) and old not in getattr(studies[STUDY], section)


@pytest.mark.parametrize("case", list(BY_NAME))
def test_config_error_message(root, case):
    path, key, fragments = _break(root, case)
    with pytest.raises(ConfigError) as exc:
        check_config(root)
    _check_message(str(exc.value), path, key, fragments)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BY_NAME))
def test_cli_check_reports_config_error(root, case, capsys, monkeypatch):
    """``imlbench check`` in-process (same code path as ``python -m imlbench``): status 2."""
    monkeypatch.setattr(os, "environ", dict(os.environ))  # main() sets OMP_NUM_THREADS etc.
    path, key, fragments = _break(root, case)
    assert cli_main(["--root", str(root), "check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("imlbench: configuration error: ")
    _check_message(err.strip().removeprefix("imlbench: configuration error: "), path, key,
                   fragments)


@pytest.mark.workflow
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


@pytest.mark.workflow
def test_python_m_imlbench_check_ok(root):
    res = subprocess.run(
        [sys.executable, "-m", "imlbench", "--root", str(root), "check"],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert f"{STUDY}:" in res.stdout


@pytest.mark.workflow
@pytest.mark.parametrize("case", [
    "unknown_learner_in_scenario", "method_parameter_not_accepted",
    "method_parameter_of_the_wrong_type", "method_parameter_outside_the_allowed_set",
    "test_data_without_test_rows", "unknown_dgp_parameter", "unknown_learner_parameter",
    "reps_missing_a_profile", "scenario_given_twice", "config_key_given_twice",
    "sweep_values_with_one_name", "dgp_negative_noise_sd", "figure_scenario_without_repetitions",
    "study_yaml_syntax",
])
def test_snakemake_dry_run_fails_before_any_job(tmp_path, case):
    path, key, fragments = _break(workflow_copy(tmp_path), case)
    out = dry_run(tmp_path)
    for frag in [key, *fragments]:
        assert frag in out, f"{frag!r} missing from snakemake output:\n{out}"
    assert str(path) in out or path.name in out


TOY = {
    "title": "A toy study of generic methods",
    "reference": "none",
    "learners": {"rf": {"learner": "rf", "params": {"n_estimators": 20}}, "lm": {"learner": "lm"}},
    "methods": {"pfi": {"method": "pfi", "params": {"n_repeats": 2}},
                "pdp": {"method": "pdp", "params": {"features": ["x1"]}}},
    "scenarios": {"example": {"dgp": "ale_book_ch6", "n": 200, "reps": 2,
                              "learners": ["rf", "lm"], "methods": ["pfi", "pdp"]}},
}


def _toy_study(root: Path, edit=None, name: str = "toy") -> Path:
    """A study file that no config enables and no package backs: generic entries only."""
    path = root / "config" / "studies" / f"{name}.yaml"
    path.write_text(yaml.safe_dump(TOY, sort_keys=False))
    if edit is not None:
        edit(path)
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
    path = _toy_study(root, set_at("methods", "pfi", "params", "n_repeats", value="many"))
    assert cli_main(["--root", str(root), "check", "--study", str(path)]) == 2
    msg = capsys.readouterr().err.strip().removeprefix("imlbench: configuration error: ")
    _check_message(msg, path, "key methods.pfi.params.n_repeats",
                   ["'many'", "allowed: an integer >= 1"])


def test_check_names_the_study_files_when_the_study_is_unknown(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    assert cli_main(["--root", str(root), "check", "--study", "shapley"]) == 2
    err = capsys.readouterr().err
    assert ("allowed: book_ale, book_importance, book_lime, book_pdp, conditional_subgroups, "
            "error_sources, extrapolation, pd_pfi_dgp, stratpd") in err


def test_method_parameters_per_profile(root):
    """A method parameter given per profile resolves to the profile's value (also nested)."""
    from imlbench.config import resolve_profile

    value = {"n": {"smoke": 1, "default": 2, "paper": 3}, "inner": {"k": {"smoke": "a",
             "default": "b", "paper": "c"}}, "plain": [1, 2]}
    assert resolve_profile(value, "smoke") == {"n": 1, "inner": {"k": "a"}, "plain": [1, 2]}
    assert resolve_profile(value, "paper")["inner"] == {"k": "c"}


# --- reading YAML -----------------------------------------------------------------------------


@pytest.mark.parametrize("text, key, lines", [
    ("a: 1\nb: 2\na: 3\n", "key a:", "line 1, column 1 and line 3, column 1"),
    # the same value spelt differently is the same key
    ("m: {1: x, 0x1: y}\n", "key m[1]:", "line 1, column 5 and line 1, column 11"),
    ("l:\n  - {k: 1}\n  - {k: 1, k: 2}\n", "key l[1].k:", "line 3, column 6 and line 3, column 12"),
])
def test_a_key_given_twice_in_one_mapping_is_an_error(tmp_path, text, key, lines):
    path = tmp_path / "x.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        read_yaml(path)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(f"{path}: {key} given twice in one mapping"), msg
    assert lines in msg and "allowed: each key once per mapping" in msg


def test_merge_keys_and_one_key_in_several_mappings_are_fine(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("base: &b {n: 1, m: 2}\nover: {<<: *b, n: 3}\nother: {n: 4}\n")
    assert read_yaml(path) == {"base": {"n": 1, "m": 2}, "over": {"n": 3, "m": 2},
                               "other": {"n": 4}}


def test_a_yaml_error_names_the_line_and_column_in_one_line(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb: [1, 2\nc: 3\n")
    with pytest.raises(ConfigError) as err:
        read_yaml(path)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(f"{path}: line 3, column 2: not valid YAML"), msg


def test_load_study_rejects_two_scenarios_of_one_name_in_any_profile(root):
    """Jobs read their study with load_study, unchecked: a collision still stops them."""
    path = root / "config" / "studies" / f"{STUDY}.yaml"
    set_at("scenarios", "grid", "sweep", "rho",
           value={"smoke": [0.1], "default": [0.1], "paper": [0.25, 0.25000001]})(path)
    with pytest.raises(ConfigError, match=r"both give scenario name 'grid_rho0.25_n100' "
                                          r"\(profile paper\)"):
        load_study(path, "smoke")


# --- DGP constructors reject obviously invalid values -----------------------------------------


@pytest.mark.parametrize("dgp, params, key, allowed", [
    ("ale_book_ch6", {"noise_sd": -1}, "noise_sd", "a number >= 0"),
    ("ale_book_ch6", {"a": 1.0, "b": 0.5}, "b", "a number > 1"),
    ("ale_book_ch6", {"a": -1.0}, "a", "a number >= 0"),  # x1 is x3's sd
    ("ale_book_ch7", {"noise_sd": "loud"}, "noise_sd", "a number >= 0"),
    ("stratpd_synthetic", {"noise_sd": float("nan")}, "noise_sd", "a number >= 0"),
    ("stratpd_weight", {"noise_sd": -0.5}, "noise_sd", "a number >= 0"),
    ("extrapolation.copula_linear", {"beta": [1, 1], "rho": 1.0, "noise_sd": 1}, "rho",
     "a number > -1 and < 1"),
    ("extrapolation.copula_linear", {"beta": [1, 1], "rho": 0.5, "noise_sd": -1}, "noise_sd",
     "a number >= 0"),
    ("extrapolation.copula_linear", {"beta": [1, "x"], "rho": 0.5, "noise_sd": 1}, "beta[1]",
     "a number"),
    ("extrapolation.gaussian_noise_features", {"beta": [1], "rho": -0.1, "snr": 1, "q": 1}, "rho",
     "a number >= 0 and < 1"),
    ("extrapolation.gaussian_noise_features", {"beta": [1], "rho": 0.5, "snr": 0, "q": 1}, "snr",
     "a number > 0"),
    ("extrapolation.gaussian_noise_features", {"beta": [1], "rho": 0.5, "snr": 1, "q": 0}, "q",
     "an integer >= 1"),
    ("conditional_subgroups.bivariate_normal", {"cov": -1}, "cov", "a number > -1 and < 1"),
    ("conditional_subgroups.collinear", {"beta": [1, 2]}, "beta",
     "a list of 3 items, each a number"),
    ("conditional_subgroups.collinear", {"sd2": 0}, "sd2", "a number > 0"),
    ("conditional_subgroups.mixture", {"cut": 1.0}, "cut", "a number > 0 and < 1"),
    ("conditional_subgroups.rounded_linear", {"decimals": 1.5}, "decimals", "an integer >= 0"),
    ("conditional_subgroups.gamma_log", {"shape": 0}, "shape", "a number > 0"),
    ("conditional_subgroups.simulation", {"p": 5}, "p", "an integer >= 10"),
    ("conditional_subgroups.simulation", {"noise_sd": -1}, "noise_sd", "a number >= 0"),
    ("pd_pfi_dgp.simulation", {"noise_sd": -1}, "noise_sd", "a number >= 0"),
    ("pd_pfi_dgp.pdp_uncertainty_toy", {"noise_sd": -1}, "noise_sd", "a number >= 0"),
])
def test_dgp_constructors_reject_invalid_values(dgp, params, key, allowed):
    study_packages.load(STUDIES)
    with pytest.raises(ParamError) as err:
        make_dgp(dgp, params)
    assert err.value.key == key
    assert err.value.message.endswith(f"allowed: {allowed}")
