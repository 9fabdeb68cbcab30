"""What each rule reads and when it reruns (:mod:`imlbench.targets`), on the shipped studies.

A data job's fingerprint holds what changes its values and nothing else; a figure reads the
estimates of the methods its entry names, the truths and tables its function declares; its
code is its own module and helpers, never the study's other figures.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from imlbench import targets
from imlbench.codehash import closure
from imlbench.config import expand_scenarios
from imlbench.figures import FIGURES
from imlbench.validate import check_config

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def studies():
    return check_config(ROOT)[1]


def _scenario(spec: dict, profile: str = "default"):
    return expand_scenarios("main", spec, profile)[0]


def test_data_fingerprint_ignores_the_description_and_follows_the_values(studies):
    spec = copy.deepcopy(studies["extrapolation"].doc["scenarios"]["twod"])
    base = targets.data_fingerprint(_scenario(spec), "c0", 2021)
    described = {**spec, "description": "another text", "methods": ["pfi"]}
    assert targets.data_fingerprint(_scenario(described), "c0", 2021) == base
    for changed in ({**spec, "n": 300}, {**spec, "params": {**spec["params"], "rho": 0.5}},
                    {**spec, "dgp": "extrapolation.gaussian_noise_features"}):
        assert targets.data_fingerprint(_scenario(changed), "c0", 2021) != base
    assert targets.data_fingerprint(_scenario(spec), "c0", 2022) != base
    # a chunk's fingerprint holds its own repetitions: more of them change only new chunks
    more = {**spec, "reps": {"smoke": 3, "default": 150, "paper": 100}}
    assert targets.data_fingerprint(_scenario(more), "c0", 2021) == base
    assert targets.data_fingerprint(_scenario(more), "c2", 2021) != base


def test_a_figure_reads_the_methods_its_entry_names(studies):
    study = studies["extrapolation"]
    files = targets.figure_inputs(study, "fig_3")
    methods = {Path(p).parent.name for p in files["estimates"]}
    assert methods == {"pdp_x1", "ice_x1"}  # the main scenario also runs pfi, oob, ...
    assert {Path(p).stem for p in files["truth"]} == {"effects"}
    assert files["ranks"] == files["summary"] == files["data"] == []
    fig1 = targets.figure_inputs(study, "fig_1")
    assert fig1["ranks"] == ["results/extrapolation/metrics/ranks.parquet"]
    assert {Path(p).stem for p in fig1["truth"]} == {"importance"}


def test_a_figure_depends_on_its_own_code_only(studies):
    function = studies["extrapolation"].figures["fig_1"]["function"]
    code = {m.removeprefix("imlbench.")
            for m in closure([FIGURES.get(function).draw.__module__])}
    assert {"figures", "figures.inputs", "figures.style", "studies.extrapolation.figures.fig_1",
            "studies.extrapolation.figures.panels"} <= code
    # never another figure of the study, nor the study's package with all its modules
    assert not {m for m in code if m.startswith("studies.extrapolation.figures.fig")} - {
        "studies.extrapolation.figures.fig_1"}
    assert "studies.extrapolation" not in code


def test_the_scorecard_reads_tests_truths_and_metrics_not_importances(studies):
    study = studies["extrapolation"]
    methods = {Path(p).parent.name for p in targets.claim_estimates(study)}
    # the tests, the theories of Theorems 1 and 3, the curves the claims of Figs. 3-6 read and
    # the three PDs of x1 compared beyond the paper
    assert methods == {"lm_theory", "lm_theory_conditional", "lm_theory_drop",
                       "lm_theory_relearn", "test_permute", "test_conditional", "test_knockoff",
                       "pdp_x1", "ice_x1", "ice", "surface", "pdp_x1_brute", "pdp_x1_tree",
                       "pdp_x1_path"}
    summarised = {Path(p).parent.name for p in targets.summarised_estimates(study)}
    assert {"pfi", "oob", "cpfi", "loco"} <= summarised and "pdp" not in summarised


def test_paths_that_leave_results_are_found():
    inside = ["results/x/data/main/c0.parquet", "results/x/../y/figures/fig_1.png"]
    outside = ["results/../escape.parquet", "/tmp/abs.parquet", "results/x/../../up.png",
               "config/config.yaml"]
    assert targets.outside_results(inside + outside) == outside


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["smoke", "default", "paper"])
def test_every_scenario_chunk_is_in_one_batch_of_its_families(profile):
    for study in check_config(ROOT, {**_config(), "profile": profile})[1].values():
        batches = targets.batches(study)
        units = [u for b in batches for u in b.units]
        expected = [(sc.name, c) for sc in study.scenarios.values() for c in sc.chunks]
        assert sorted(units) == sorted(expected)
        assert len({b.name for b in batches}) == len(batches)
        for b in batches:
            assert 1 <= len(b.units) <= targets.UNITS_PER_JOB
            assert len({study.scenarios[sc].batch for sc, _ in b.units}) == 1
            assert len({chunk for _, chunk in b.units}) == 1
            assert b.exclusive == any(study.scenarios[sc].exclusive for sc, _ in b.units)


def test_a_batch_fingerprint_changes_for_the_scenario_that_changes_only(studies):
    study = copy.deepcopy(studies["stratpd"])
    (batch,) = [b for b in targets.batches(study) if ("quadratic_noise_sd2", "c0") in b.units]
    before = targets.batch_fingerprints(study, batch, 2021)
    assert len(before) == len(batch.units) > 1
    name = "quadratic_noise_sd2"
    sc = study.scenarios[name]
    study.scenarios[name] = type(sc)(**{**sc.__dict__, "params": {**sc.params, "noise_sd": 3}})
    after = targets.batch_fingerprints(study, batch, 2021)
    assert {k for k in before if before[k] != after[k]} == {f"{name}:c0"}


def test_figure_groups_hold_every_figure_once(studies):
    for study in studies.values():
        groups = targets.figure_groups(study)
        assert sorted(f for g in groups for f in g) == sorted(study.figures)
        assert all(1 <= len(g) <= targets.FIGURES_PER_JOB for g in groups)


def _config() -> dict:
    import yaml

    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def test_a_summarising_function_is_code_of_the_summaries_job_not_of_the_run(studies,
                                                                              monkeypatch):
    """The refit method's module imports its coverage summary, which the summaries job runs:
    editing the summary must rerun that job, not the refits (about 15 CPU-minutes)."""
    summaries = "imlbench.studies.pd_pfi_dgp.summaries"
    run_module = "imlbench.studies.pd_pfi_dgp.methods_refits"
    assert summaries in closure([run_module])
    assert summaries not in closure([run_module], exclude=[summaries])
    study = studies["pd_pfi_dgp"]
    sc = next(s for s in study.scenarios.values() if "rf" in s.learners)
    run_before = targets.explain_fingerprint(study, sc, 2021)
    summaries_before = targets.summaries_fingerprint(study)
    from imlbench import codehash

    real = codehash._read

    def edited(module: str):
        tree, imports = real(module)
        return (tree + "# edited" if module == summaries else tree), imports

    monkeypatch.setattr(codehash, "_read", edited)
    codehash._hash.cache_clear()
    try:
        assert targets.explain_fingerprint(study, sc, 2021) == run_before
        assert targets.summaries_fingerprint(study) != summaries_before
    finally:
        codehash._hash.cache_clear()


def test_a_learners_code_is_its_own_family_module():
    """A run job's fingerprint holds its learners' build modules: each family of learners
    has its own, so adding or editing one learner (an SVM) does not rerun the jobs of the
    others (a forest), and the registration table is no learner's code."""
    from imlbench.learners import LEARNERS

    rf = set(closure([LEARNERS.get("rf").build.__module__]))
    svm = set(closure([LEARNERS.get("svm_e1071").build.__module__]))
    assert "imlbench.learners.kernel_svr" in svm
    assert not rf & {"imlbench.learners", "imlbench.learners.kernel_svr",
                     "imlbench.learners.svms"}
