"""Broken configurations, as data: each is one edit of ``config/config.yaml`` or of a study file
in a copy of the project, with the key and the fragments (the allowed values among them) that
the one-line error message must hold. ``tests/test_config_errors.py`` checks every case through
``check_config``, ``imlbench check`` and (some) ``snakemake -n``;
``benchmarks/broken_configs.py`` prints their messages as a table.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
STUDY = "extrapolation"

REGISTERED_LEARNERS = ("bagging, cart, forest, gam, gbm, gbm_classifier, knn, lm, mars, mlp, none, "
                       "ols, rf, rf_classifier, svm, svm_e1071, tree, truth")
# the DGPs this study may use: the layers' and its own (other studies' are not allowed)
REGISTERED_DGPS = ("ale_book_ch6, ale_book_ch7, bikeshare_daily, extrapolation.bikeshare, "
                   "extrapolation.copula_linear, extrapolation.gaussian_noise_features, formula, "
                   "stratpd_synthetic, stratpd_weight, table")
STUDY_LEARNERS = "rf, mlp, lm, gbm, svm, knn, rf100, bagging100"
PER_PROFILE_INT = "an integer >= 0, or a map with keys smoke, default, paper (each an integer >= 0)"
KEY_WORDS = "a name of at most 64 ASCII letters, digits and underscores, starting with a letter"
FAMILY_WORDS = "a name of at most 32 lower-case ASCII letters and digits, starting with a letter"
SWEEP_VALUE = f"a number or true or false, or {KEY_WORDS}"

#: names that must never reach a path, a rule name or a command
HOSTILE_NAMES = [
    "k$(touch ../pwned)", "x`touch ../pwned`", "a;touch ../pwned", "a|b", "../escape", "/abs",
    "a b", "a\nb", "rf\n", "r\u0430",  # Cyrillic a
    "\uff52\uff46",  # fullwidth rf
    "", "x" * 65,
]

Edit = Callable[[Path], None]


@dataclass(frozen=True)
class Broken:
    """One broken configuration: ``edit`` changes the file ``file`` (``config`` or a study's
    name); the message names ``key`` and holds each of ``fragments``."""

    name: str
    what: str
    file: str
    edit: Edit
    key: str
    fragments: tuple[str, ...]

    def path(self, root: Path) -> Path:
        """The file this case breaks, under the project root ``root``."""
        if self.file == "config":
            return root / "config" / "config.yaml"
        return root / "config" / "studies" / f"{self.file}.yaml"

    def apply(self, root: Path) -> Path:
        """Break the copy of the project at ``root``; return the broken file."""
        path = self.path(root)
        self.edit(path)
        return path


def workflow_copy(project: Path) -> Path:
    """A project at ``project`` for ``snakemake -n``: a copy of ``config/``, the workflow
    linked."""
    shutil.copytree(REPO / "config", project / "config")
    (project / "workflow").symlink_to(REPO / "workflow")
    return project


def dry_run(project: Path) -> str:
    """The output of ``snakemake -n`` in ``project``; asserts that it failed while parsing the
    workflow, with a configuration error, before any DAG, job or output."""
    bin_dir = REPO / ".venv" / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    res = subprocess.run(
        [str(bin_dir / "snakemake"), "-s", str(REPO / "Snakefile"), "-d", str(project), "-n",
         "--cores", "1"],
        capture_output=True, text=True, timeout=300, env=env,
    )
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "configuration error" in out, out
    assert "Building DAG" not in out and "Job stats" not in out, out
    assert not (project / "results").exists()
    return out


# --- edits ---------------------------------------------------------------------------------


def doc(change: Callable[[Any], None]) -> Edit:
    """An edit of the parsed document (written back as YAML)."""

    def edit(path: Path) -> None:
        data = yaml.safe_load(path.read_text())
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))

    return edit


def text(old: str, new: str) -> Edit:
    """An edit of the file's text: the first ``old`` becomes ``new``."""

    def edit(path: Path) -> None:
        content = path.read_text()
        assert old in content, f"{old!r} not in {path}"
        path.write_text(content.replace(old, new, 1))

    return edit


def _walk(data: Any, keys: tuple) -> Any:
    for k in keys:
        data = data[k]
    return data


def set_at(*keys: Any, value: Any) -> Edit:
    return doc(lambda d: _walk(d, keys[:-1]).__setitem__(keys[-1], value))


def append_at(*keys: Any, value: Any) -> Edit:
    return doc(lambda d: _walk(d, keys).append(value))


def delete_at(*keys: Any) -> Edit:
    return doc(lambda d: _walk(d, keys[:-1]).__delitem__(keys[-1]))


def _replace_values(data: Any, old: str, new: str) -> Any:
    if isinstance(data, dict):
        return {k: _replace_values(v, old, new) for k, v in data.items()}
    if isinstance(data, list):
        return [_replace_values(v, old, new) for v in data]
    return new if data == old else data


def rename(section: str, old: str, new: str) -> Edit:
    """Rename entry ``old`` of ``section`` (learners, methods, scenarios, figures) to ``new``,
    and every value naming it, so that the new name would reach the jobs."""

    def change(d: dict) -> None:
        d.update(_replace_values(d, old, new))
        d[section] = {new if k == old else k: v for k, v in d[section].items()}

    return doc(change)


def add_method(name: str, spec: dict) -> Edit:
    """Register ``spec`` as method ``name`` of the study and use it in the main scenario."""

    def change(d: dict) -> None:
        d["methods"][name] = spec
        d["scenarios"]["main"]["methods"].append(name)

    return doc(change)


def _add_truth_to_bike(d: dict) -> None:
    d["learners"]["oracle"] = {"learner": "truth"}
    d["scenarios"]["bike"]["learners"].append("oracle")


def _both_test_settings(d: dict) -> None:
    d["scenarios"]["main"].update({"n_test": 100, "test_fraction": 0.5})


def _rename_method_not_in_figure(d: dict) -> None:
    d["methods"]["ice_line"] = d["methods"].pop("ice_x1")
    d["scenarios"]["main"]["methods"] = ["ice_line" if m == "ice_x1" else m
                                         for m in d["scenarios"]["main"]["methods"]]


def hostile(section: str, name: str) -> Broken:
    """``name`` as the key of an entry of ``section`` (or a claim id, or a study name)."""
    shown = ascii(name)
    if section == "studies":
        return Broken(f"hostile_study_{shown}", f"study name {shown}", "config",
                      doc(lambda d: d.__setitem__("studies", [name, "pd_pfi_dgp"])),
                      "key studies[0]", (shown, "allowed: a study name of at most 64"))
    if section == "claims":
        return Broken(f"hostile_claim_{shown}", f"claim id {shown}", STUDY,
                      set_at("claims", 0, "id", value=name), "key claims[0].id",
                      (shown, "allowed: an id of at most 64 ASCII letters"))
    old, new, words = {
        "learners": ("rf100", name, KEY_WORDS),
        "methods": ("oob_raw", name, KEY_WORDS),
        "scenarios": ("twod", name, FAMILY_WORDS),
        "figures": ("fig_4", f"fig_{name}", "a name fig_<suffix> of at most 64"),
    }[section]
    return Broken(f"hostile_{section}_{shown}", f"{section[:-1]} key {ascii(new)}", STUDY,
                  rename(section, old, new), f"key {section}",
                  (f"name {ascii(new)} is not allowed", f"allowed: {words}"))


CASES: list[Broken] = [
    # --- config/config.yaml --------------------------------------------------------------
    Broken("unknown_top_level_key", "config.yaml: an unknown key workers", "config",
           set_at("workers", value=4), "key (top level)",
           ("'workers'", "allowed: base_seed, max_rows_per_predict, profile, studies")),
    Broken("wrong_profile", "config.yaml: profile fast", "config",
           set_at("profile", value="fast"), "key profile",
           ("'fast'", "allowed: smoke, default, paper")),
    Broken("unknown_study", "config.yaml: a study without a file", "config",
           set_at("studies", value=["extrapolation", "shapley"]), "key studies",
           ("shapley", "allowed: book_ale, book_importance, book_lime, book_pdp, "
                       "conditional_subgroups, error_sources, extrapolation, pd_pfi_dgp")),
    Broken("no_study", "config.yaml: an empty study list", "config",
           set_at("studies", value=[]), "key studies",
           ("[] has 0 item(s)", "allowed: a non-empty list without repeats")),
    Broken("study_listed_twice", "config.yaml: a study listed twice", "config",
           set_at("studies", value=["extrapolation", "extrapolation"]), "key studies",
           ("'extrapolation' is given more than once", "allowed: a non-empty list")),
    Broken("negative_seed", "config.yaml: base_seed -1", "config",
           set_at("base_seed", value=-1), "key base_seed",
           ("-1 is out of range", "allowed: an integer >= 0")),
    Broken("small_row_cap", "config.yaml: max_rows_per_predict 10", "config",
           set_at("max_rows_per_predict", value=10), "key max_rows_per_predict",
           ("10 is out of range", "allowed: an integer >= 1000")),
    Broken("config_yaml_syntax", "config.yaml: an unclosed list", "config",
           text("profile: default", "profile: [default"), "line 4, column 1",
           ("not valid YAML",)),
    Broken("config_key_given_twice", "config.yaml: profile given twice", "config",
           text("profile: default", "profile: default\nprofile: paper"), "key profile",
           ("given twice in one mapping", "line 3, column 1 and line 4, column 1",
            "allowed: each key once")),
    # --- YAML of a study file ------------------------------------------------------------
    Broken("study_yaml_syntax", "study: an unclosed flow sequence", STUDY,
           text("title:", "title: [unclosed\n  x:"), "line 2, column 4",
           ("not valid YAML", "did not find expected ',' or ']'",
            "while parsing a flow sequence at line 1, column 8")),
    Broken("study_yaml_tab", "study: a tab before a key", STUDY,
           text("learners:\n", "learners:\n\t"), "line 21, column 1",
           ("not valid YAML", "cannot start any token")),
    Broken("scenario_given_twice", "study: scenario twod given twice", STUDY,
           text("scenarios:\n", "scenarios:\n  twod:\n    dgp: extrapolation.copula_linear\n"),
           "key scenarios.twod",
           ("given twice in one mapping", "allowed: each key once per mapping")),
    Broken("empty_study_file", "study: an empty file", STUDY, lambda p: p.write_text(""),
           "key (top level)", ("None is not allowed", "allowed: a map with keys title")),
    Broken("study_unknown_top_level_key", "study: an unknown key sweeps", STUDY,
           set_at("sweeps", value={}), "key (top level)",
           ("'sweeps'", "allowed: claims, description, deviations, figures, learners, methods, "
                        "reference, scenarios, title")),
    Broken("no_learners", "study: learners: {}", STUDY, set_at("learners", value={}),
           "key learners", ("no entries", "with at least one entry")),
    # --- learners and methods ------------------------------------------------------------
    Broken("unknown_registered_learner", "learner randomforest", STUDY,
           set_at("learners", "rf", "learner", value="randomforest"), "key learners.rf.learner",
           ("'randomforest'", f"allowed: {REGISTERED_LEARNERS}")),
    Broken("unknown_learner_parameter", "hyperparameter n_trees of rf", STUDY,
           set_at("learners", "rf", "params", "n_trees", value=100), "key learners.rf.params",
           ("n_trees", "'rf'", "allowed: ccp_alpha, criterion, max_depth")),
    Broken("unknown_learner_coding", "lm coding dummy", STUDY,
           set_at("learners", "lm", "params", value={"coding": "dummy"}),
           "key learners.lm.params.coding",
           ("'dummy' is not allowed", "allowed: numeric, treatment")),
    Broken("unknown_method", "method permutation", STUDY,
           set_at("methods", "pfi", "method", value="permutation"), "key methods.pfi.method",
           ("'permutation'", "allowed: ", "cpfi", "loco", "oob_pfi", "pdp", "pfi")),
    Broken("method_of_another_study", "method conditional_subgroups.cs_pfi_depths", STUDY,
           set_at("methods", "pfi", "method", value="conditional_subgroups.cs_pfi_depths"),
           "key methods.pfi.method",
           ("method 'conditional_subgroups.cs_pfi_depths' belongs to study 'conditional_subgroups'",
            "src/imlbench/studies/conditional_subgroups/",
            "to reuse it, move its code into a layer", "allowed: ", "pfi")),
    Broken("claim_kind_of_another_study", "claim kind conditional_subgroups.data_fidelity_rank",
           STUDY, set_at("claims", 0, "kind", value="conditional_subgroups.data_fidelity_rank"),
           "key claims[0].kind",
           ("claim kind 'conditional_subgroups.data_fidelity_rank' belongs to study "
            "'conditional_subgroups'",
            "allowed: ")),
    Broken("method_parameter_not_accepted", "pfi parameter n_permutations", STUDY,
           set_at("methods", "pfi", "params", "n_permutations", value=5),
           "key methods.pfi.params",
           ("n_permutations",
            "allowed: aggregate, contrast, data, features, folds, groups, holdout_share, loss, "
            "model_effect_rows, n_repeats")),
    Broken("method_parameter_of_the_wrong_type", "n_repeats: many", STUDY,
           set_at("methods", "pfi", "params", "n_repeats", value="many"),
           "key methods.pfi.params.n_repeats", ("'many'", "allowed: an integer >= 1")),
    Broken("method_parameter_outside_the_allowed_set", "aggregate: mode", STUDY,
           set_at("methods", "pfi", "params", "aggregate", value="mode"),
           "key methods.pfi.params.aggregate", ("'mode'", "allowed: mean, median")),
    Broken("method_parameter_wrong_in_another_profile", "n_repeats 0 in profile paper", STUDY,
           set_at("methods", "pfi", "params", "n_repeats",
                  value={"smoke": 1, "default": 1, "paper": 0}),
           "key methods.pfi.params.n_repeats",
           ("0", "(profile paper)", "allowed: an integer >= 1")),
    Broken("data_validation", "data: validation", STUDY,
           set_at("methods", "pfi", "params", "data", value="validation"),
           "key methods.pfi.params.data", ("'validation'", "allowed: train, test")),
    Broken("grid_kind_outside_the_allowed_set", "grid kind log", STUDY,
           set_at("methods", "pdp", "params", "grid", "kind", value="log"),
           "key methods.pdp.params.grid.kind",
           ("'log'", "allowed: equidistant, quantile, values, levels")),
    Broken("grid_size_not_a_number", "grid size: ten", STUDY,
           set_at("methods", "pdp", "params", "grid", "size", value="ten"),
           "key methods.pdp.params.grid.size", ("'ten'", "allowed: an integer >= 1")),
    Broken("feature_not_in_dgp", "feature x11 of a 10-feature DGP", STUDY,
           set_at("methods", "pdp_x1", "params", "features", value=["x1", "x11"]),
           "key methods.pdp_x1.params.features",
           ("x11", "allowed: x1, x2, x3, x4, x5, x6, x7, x8, x9, x10")),
    Broken("categorical_feature_not_in_dgp", "categorical feature sex", STUDY,
           add_method("ale_cat", {"method": "ale", "params": {"categorical": ["sex"]}}),
           "key methods.ale_cat.params.categorical",
           ("sex", "allowed: x1, x2, x3, x4, x5, x6, x7, x8, x9, x10")),
    Broken("group_with_unknown_feature", "group of x1 and x12", STUDY,
           set_at("methods", "pfi", "params", "groups", value={"pair": ["x1", "x12"]}),
           "key methods.pfi.params.groups", ("x12", "allowed: x1, x2, x3")),
    Broken("unknown_sampler", "sampler ctree", STUDY,
           add_method("cs", {"method": "conditional_pfi", "params": {"sampler": "ctree"}}),
           "key methods.cs.params.sampler",
           ("'ctree'", "allowed: exact, gaussian, impute_rf, knockoff, permutation, subgroups")),
    Broken("unknown_sampler_parameter", "sampler parameter depth", STUDY,
           add_method("cs", {"method": "conditional_pfi",
                             "params": {"sampler": "subgroups", "sampler_params": {"depth": 3}}}),
           "key methods.cs.params.sampler_params",
           ("depth", "allowed: alpha, categorical_columns, cp, max_depth")),
    Broken("conditional_pfi_without_a_sampler", "conditional_pfi without sampler", STUDY,
           add_method("cs", {"method": "conditional_pfi"}), "key methods.cs.params",
           ("sampler", "must be given", "allowed: sampler: exact, gaussian, impute_rf")),
    Broken("test_data_without_test_rows", "data: test without test rows", STUDY,
           set_at("methods", "pfi", "params", "data", value="test"),
           "key methods.pfi.params.data", ("has no test rows", "n_test", "allowed: train")),
    Broken("oob_on_learner_without_oob", "oob on svm", STUDY,
           set_at("methods", "oob", "learners", value=["rf", "svm"]),
           "key scenarios.main.methods",
           # the learners that have out-of-bag rows are the allowed values
           ("'oob'", "'svm'", "allowed", "rf", "rf100", "bagging100")),
    # --- scenarios -----------------------------------------------------------------------
    Broken("unknown_dgp", "DGP copula", STUDY,
           set_at("scenarios", "main", "dgp", value="copula"), "key scenarios.main.dgp",
           ("'copula'", f"allowed: {REGISTERED_DGPS}")),
    Broken("missing_dgp", "a scenario without dgp", STUDY, delete_at("scenarios", "main", "dgp"),
           "key scenarios.main",
           ("missing key(s) dgp", "(dgp, reps, learners, methods required)")),
    Broken("scenario_key_misspelt", "rep instead of reps", STUDY,
           doc(lambda d: d["scenarios"]["main"].__setitem__("rep", d["scenarios"]["main"]
                                                           .pop("reps"))),
           "key scenarios.main", ("unknown key(s) 'rep'", "allowed: batch, chunk_size, "
                                  "description, dgp, exclusive, fit_models, learners, methods, "
                                  "n, n_test, params, reps")),
    Broken("exclusive_family_in_a_shared_batch", "an exclusive family shares its run jobs",
           STUDY, doc(lambda d: (d["scenarios"]["main"].__setitem__("exclusive", True),
                                 d["scenarios"]["twod"].__setitem__("batch", "main"))),
           "key scenarios.main.batch", ("batch 'main' holds the exclusive family 'main' and "
                                        "the family 'twod'", "allowed: a batch of its own")),
    Broken("unknown_learner_in_scenario", "learner xgb in a scenario", STUDY,
           append_at("scenarios", "main", "learners", value="xgb"),
           "key scenarios.main.learners", ("'xgb'", f"allowed: {STUDY_LEARNERS}")),
    Broken("learner_listed_twice", "learner rf listed twice in a scenario", STUDY,
           append_at("scenarios", "main", "learners", value="rf"),
           "key scenarios.main.learners",
           ("'rf' is given more than once", "allowed: a non-empty list without repeats")),
    Broken("unknown_method_in_scenario", "method shap in a scenario", STUDY,
           append_at("scenarios", "main", "methods", value="shap"),
           "key scenarios.main.methods", ("'shap'", "allowed: pfi, oob, ", "lm_theory, cpfi")),
    Broken("truth_learner_on_real_data", "the truth learner on bike data", STUDY,
           doc(_add_truth_to_bike), "key scenarios.bike.learners",
           ("'oracle'", "'extrapolation.bikeshare'", "allowed: the study's other learners")),
    Broken("fit_models_false_with_a_fitted_model_method", "fit_models false with pfi", STUDY,
           set_at("scenarios", "main", "fit_models", value=False),
           "key scenarios.main.fit_models",
           ("fit_models is false", "pfi", "allowed: methods that refit the learner themselves")),
    Broken("fit_models_not_a_flag", "fit_models: yes please", STUDY,
           set_at("scenarios", "main", "fit_models", value="yes please"),
           "key scenarios.main.fit_models", ("'yes please'", "allowed: true or false")),
    Broken("test_method_without_test_rows", "test_permute without test rows", STUDY,
           append_at("scenarios", "main", "methods", value="test_permute"),
           "key scenarios.main.n_test",
           ("'test_permute' needs test rows", "allowed: n_test >= 1 or test_fraction")),
    Broken("n_test_and_test_fraction", "both n_test and test_fraction", STUDY,
           doc(_both_test_settings), "key scenarios.main",
           ("n_test and test_fraction are given together",
            "allowed: at most one of n_test, test_fraction")),
    Broken("test_fraction_one", "test_fraction 1.5", STUDY,
           set_at("scenarios", "twod", "test_fraction", value=1.5),
           "key scenarios.twod.test_fraction",
           ("1.5 is out of range", "allowed: a number > 0 and < 1")),
    Broken("reps_missing_a_profile", "reps: {smoke: 1, default: 2}", STUDY,
           set_at("scenarios", "main", "reps", value={"smoke": 1, "default": 2}),
           "key scenarios.main.reps", ("missing key(s) paper", f"allowed: {PER_PROFILE_INT}")),
    Broken("reps_unknown_profile", "reps with a profile fast", STUDY,
           set_at("scenarios", "main", "reps",
                  value={"smoke": 1, "default": 2, "paper": 3, "fast": 1}),
           "key scenarios.main.reps", ("unknown key(s) 'fast'", f"allowed: {PER_PROFILE_INT}")),
    Broken("reps_negative", "reps: -1", STUDY, set_at("scenarios", "main", "reps", value=-1),
           "key scenarios.main.reps", ("-1 is out of range", f"allowed: {PER_PROFILE_INT}")),
    Broken("reps_negative_in_one_profile", "reps -1 in profile smoke", STUDY,
           set_at("scenarios", "main", "reps", value={"smoke": -1, "default": 2, "paper": 3}),
           "key scenarios.main.reps.smoke", ("-1 is out of range", "allowed: an integer >= 0")),
    Broken("reps_not_a_number", "reps: many", STUDY,
           set_at("scenarios", "main", "reps", value="many"), "key scenarios.main.reps",
           ("'many' is not allowed", f"allowed: {PER_PROFILE_INT}")),
    Broken("chunk_size_not_a_number", "chunk_size: 2.5", STUDY,
           set_at("scenarios", "main", "chunk_size", value=2.5), "key scenarios.main.chunk_size",
           ("2.5 is not allowed", f"allowed: {PER_PROFILE_INT}")),
    Broken("n_negative", "n: -5", STUDY, set_at("scenarios", "twod", "n", value=-5),
           "key scenarios.twod.n",
           ("-5 is out of range", "allowed: an integer >= 1 or null, or a map with keys smoke, "
                                  "default, paper (each an integer >= 1 or null)")),
    Broken("n_too_small", "n: 5", STUDY, set_at("scenarios", "twod", "n", value=5),
           "key scenarios.twod.n", ("5 rows", "allowed: an integer >= 10")),
    Broken("swept_n_not_a_number", "a swept n of many", STUDY,
           set_at("scenarios", "grid", "sweep", "n", value=["many"]),
           "key scenarios.grid.sweep.n", ("'many' rows", "allowed: an integer >= 10")),
    Broken("sweep_empty", "sweep rho: []", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=[]), "key scenarios.main.sweep.rho",
           ("[] has 0 item(s)", "allowed: a non-empty list without repeats",
            "or a map with keys smoke, default, paper")),
    Broken("sweep_empty_in_one_profile", "sweep rho: [] in profile smoke", STUDY,
           set_at("scenarios", "grid", "sweep", "rho",
                  value={"smoke": [], "default": [0.1], "paper": [0.1]}),
           "key scenarios.grid.sweep.rho.smoke",
           ("[] has 0 item(s)", "allowed: a non-empty list without repeats")),
    Broken("sweep_value_repeated", "sweep rho: [0.9, 0.9]", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=[0.9, 0.9]),
           "key scenarios.main.sweep.rho", ("0.9 is given more than once", "without repeats")),
    Broken("sweep_values_with_one_name", "sweep rho: [0.1, 0.10000001]", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=[0.1, 0.10000001]),
           "key scenarios.main.sweep",
           ("rho=0.1 and", "rho=0.10000001", "'main_rho0.1'",
            "allowed: sweep values whose names differ")),
    Broken("sweep_value_a_path", "a sweep value ../x", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=["../x"]),
           "key scenarios.main.sweep.rho[0]", ("'../x' is not allowed", f"allowed: {SWEEP_VALUE}")),
    Broken("sweep_value_a_list", "a sweep value [1, 2]", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=[[1, 2]]),
           "key scenarios.main.sweep.rho[0]", ("[1, 2] is not allowed", f"allowed: {SWEEP_VALUE}")),
    Broken("sweep_key_hostile", "a sweep key r ho", STUDY,
           doc(lambda d: d["scenarios"]["main"]["sweep"].__setitem__(
               "r ho", d["scenarios"]["main"]["sweep"].pop("rho"))),
           "key scenarios.main.sweep", ("name 'r ho' is not allowed", f"allowed: {KEY_WORDS}")),
    Broken("unknown_dgp_parameter", "DGP parameter betas", STUDY,
           set_at("scenarios", "main", "params", "betas", value=[1.0]),
           "key scenarios.main.params.betas",
           ("unknown parameter 'betas'", "'extrapolation.copula_linear'",
            "allowed: beta, rho, noise_sd")),
    Broken("dgp_negative_noise_sd", "noise_sd: -1", STUDY,
           set_at("scenarios", "main", "params", "noise_sd", value=-1),
           "key scenarios.main.params.noise_sd", ("-1 is out of range", "allowed: a number >= 0")),
    Broken("dgp_noise_sd_not_a_number", "noise_sd: loud", STUDY,
           set_at("scenarios", "main", "params", "noise_sd", value="loud"),
           "key scenarios.main.params.noise_sd",
           ("'loud' is not allowed", "allowed: a number >= 0")),
    Broken("dgp_correlation_outside", "a swept rho of 1.5", STUDY,
           set_at("scenarios", "main", "sweep", "rho", value=[0.0, 1.5]),
           "key scenarios.main.sweep.rho",
           ("main_rho1.5", "1.5 is out of range", "allowed: a number > -1 and < 1")),
    Broken("dgp_value_wrong_in_another_profile", "a swept rho of 1.5 in profile paper only", STUDY,
           set_at("scenarios", "grid", "sweep", "rho",
                  value={"smoke": [0.1], "default": [0.1], "paper": [0.1, 1.5]}),
           "key scenarios.grid.sweep.rho",
           ("grid_rho1.5_n100 (another profile)", "allowed: a number > -1 and < 1")),
    Broken("dgp_too_few_coefficients", "beta: [1.0]", STUDY,
           set_at("scenarios", "main", "params", "beta", value=[1.0]),
           "key scenarios.main.params.beta", ("has 1 items", "allowed: a list of at least two")),
    Broken("dgp_data_file_missing", "a bike data file that does not exist", STUDY,
           set_at("scenarios", "bike", "params",
                  value={"source": "uci", "path": "/nonexistent/hour.csv"}),
           "key scenarios.bike.params", ("'extrapolation.bikeshare'", "/nonexistent/hour.csv")),
    # --- figures and claims --------------------------------------------------------------
    Broken("figure_unknown_function", "figure function extrapolation.fig_99", STUDY,
           set_at("figures", "fig_1", "function", value="extrapolation.fig_99"),
           "key figures.fig_1.function",
           ("'extrapolation.fig_99'", "allowed: ", "extrapolation.fig_1", "extrapolation.fig_9")),
    Broken("figure_roles_do_not_match_its_function", "figure roles pdp only", STUDY,
           set_at("figures", "fig_3", "methods", value={"pdp": "pdp_x1"}),
           "key figures.fig_3.methods", ("pdp", "extrapolation.fig_3", "allowed: pdp, ice")),
    Broken("figure_role_names_an_unknown_method", "figure role ice: ice_x2", STUDY,
           set_at("figures", "fig_3", "methods", "ice", value="ice_x2"),
           "key figures.fig_3.methods.ice", ("'ice_x2'", "allowed: pfi, oob")),
    Broken("method_renamed_but_not_in_figure", "method ice_x1 renamed ice_line", STUDY,
           doc(_rename_method_not_in_figure), "key figures.fig_3.methods.ice",
           ("unknown method 'ice_x1'", "allowed: ", "ice_line")),
    Broken("figure_role_not_a_name", "figure role ice: 5", STUDY,
           set_at("figures", "fig_3", "methods", "ice", value=5),
           "key figures.fig_3.methods.ice",
           ("5 is not allowed", "allowed: a string, or a non-empty list without repeats")),
    Broken("figure_scenario_without_repetitions", "twod with 0 reps in profile default", STUDY,
           set_at("scenarios", "twod", "reps", value={"smoke": 0, "default": 0, "paper": 5}),
           "key figures.fig_4.scenarios",
           ("twod run no repetitions in profile default", "fig_4 would have nothing to draw",
            "allowed: reps >= 1 in profile default")),
    Broken("tree_pd_on_a_learner_without_trees", "pdp algorithm path for svm", STUDY,
           set_at("methods", "pdp_x1_path", "learners", value=["rf", "svm"]),
           "key scenarios.main.methods",
           ("method 'pdp_x1_path' needs tree_ensemble", "learner 'svm'",
            "or set params.algorithm to one of auto, brute",
            "allowed: rf, gbm, rf100, bagging100")),
    Broken("figure_parameter_value_not_allowed", "refit grid measure: speed", "pd_pfi_dgp",
           set_at("figures", "fig_7", "params", "measure", value="speed"),
           "key figures.fig_7.params.measure",
           ("'speed' is not allowed", "allowed: coverage, width")),
    Broken("figure_parameter_unknown", "refit grid colour: red", "pd_pfi_dgp",
           set_at("figures", "fig_7", "params", "colour", value="red"),
           "key figures.fig_7.params",
           ("unknown parameter(s) colour", "'pd_pfi_dgp.refit_grid'",
            "allowed: measure, quantity")),
    Broken("figure_parameters_of_a_function_without_any", "fig_1 params: {k: 1}", STUDY,
           set_at("figures", "fig_1", "params", value={"k": 1}), "key figures.fig_1.params",
           ("unknown parameter(s) k", "'extrapolation.fig_1'", "allowed: none")),
    Broken("claim_unknown_scenario", "claim on scenario main_rho0.5", STUDY,
           set_at("claims", 0, "where", "scenario", value="main_rho0.5"),
           "key claims[0].where.scenario",
           ("'main_rho0.5'", "allowed: ", "main_rho0, main_rho0.9")),
    Broken("claim_parameter_of_the_wrong_type", "claim k: three", STUDY,
           set_at("claims", 0, "k", value="three"), "key claims[0].k",
           ("'three'", "allowed: a number >= 0")),
    Broken("claim_parameter_not_accepted", "claim parameter sigma", STUDY,
           set_at("claims", 0, "sigma", value=3), "key claims[0]",
           ("sigma", "claim kind 'ranks_match_theory'", "allowed: k, truth")),
    Broken("claim_names_an_unknown_method", "claim theory_method lm_thoery", STUDY,
           set_at("claims", 6, "theory_method", value="lm_thoery"),
           "key claims[6].theory_method", ("'lm_thoery'", "allowed: pfi, oob, oob_raw, lm_theory")),
    Broken("claim_without_where_method", "claim where without method", STUDY,
           delete_at("claims", 0, "where", "method"), "key claims[0].where",
           ("missing key(s) method", "allowed: a map with keys scenario, learner, method")),
    Broken("claim_id_given_twice", "two claims with one id", STUDY,
           set_at("claims", 1, "id", value="lm-theory-ranks-rho0"), "key claims[1].id",
           ("'lm-theory-ranks-rho0' is also that of claims[0]", "allowed: an id not given before")),
    Broken("claim_without_source", "claim without source", STUDY,
           delete_at("claims", 0, "source"), "key claims[0]",
           ("missing key(s) source",)),
    Broken("claim_source_unknown", "claim source: paper", STUDY,
           set_at("claims", 0, "source", value="paper"), "key claims[0].source",
           ("'paper'", "allowed: paper_number, paper_code_result, paper_statement, derived, "
                       "beyond")),
    Broken("claim_printed_number_without_place", "paper_number without place", STUDY,
           set_at("claims", 0, "source", value="paper_number"), "key claims[0]",
           ("missing key(s) place",)),
    Broken("claim_beyond_without_rationale", "beyond without rationale", STUDY,
           set_at("claims", 0, "source", value="beyond"), "key claims[0]",
           ("missing key(s) rationale",)),
    Broken("claim_code_result_without_saved", "paper_code_result without saved", STUDY,
           set_at("claims", 0, "source", value="paper_code_result"), "key claims[0]",
           ("missing key(s) saved",)),
    Broken("claim_miss_of_a_learner_it_has_not", "misses of learner gbm on an lm claim", STUDY,
           set_at("claims", 0, "misses", value=[{"class": "method", "why": "w", "learner": "gbm"}]),
           "key claims[0].misses[0].learner", ("'gbm'", "allowed: lm")),
    Broken("claim_miss_class_unknown", "misses class chance", STUDY,
           set_at("claims", 0, "misses", value=[{"class": "chance", "why": "w"}]),
           "key claims[0].misses[0].class", ("'chance'", "allowed: method, paper_text_vs_code")),
    Broken("claim_that_cannot_fail", "atol 2 on a claim about a departure of 1", STUDY,
           doc(lambda d: d["claims"][17].update(atol=2.0, resolution=1.0)),
           "key claims[17].atol", ("accepts the departure of 1", "cannot fail",
                                   "allowed: a atol below 1")),
    # --- names that would reach paths, rule names and commands ---------------------------
    hostile("learners", "k$(touch ../pwned)"),
    hostile("learners", "r\u0430"),
    hostile("methods", "../escape"),
    hostile("methods", "a\nb"),
    hostile("methods", "rf\n"),
    hostile("scenarios", "a;touch ../pwned"),
    hostile("scenarios", "Main"),
    hostile("figures", "x`touch ../pwned`"),
    hostile("claims", "a|b"),
    hostile("claims", ""),
    hostile("studies", "/abs"),
    hostile("studies", "\uff52\uff46"),
]
