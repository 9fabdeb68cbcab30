"""Reruns give identical values: the run (data, fit, explain) and truth stages run twice (in
a different order) into two directories give equal Parquet tables; another base seed gives
other data; every file carries its provenance record.

The stages run a tiny study file of this study's DGPs and methods (it takes the study's name,
so it may use them), checked as the workflow checks it before any job.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import imlbench
from imlbench import stages
from imlbench.io import read_parquet, read_provenance
from imlbench.validate import check_study

pytestmark = pytest.mark.slow  # runs a small study twice, in process

REPO = Path(__file__).resolve().parents[3]
STUDY = "extrapolation"
SEED = 2021

TINY = """
title: tiny
reference: none
learners:
  lm: {learner: lm}
  rf: {learner: rf, params: {n_estimators: 15, min_samples_leaf: 5}}
  gbm: {learner: gbm, params: {n_estimators: 10}}
  mlp: {learner: mlp, params: {size: 5, maxit: 30}}
methods:
  pfi: {method: pfi, params: {n_repeats: 2}}
  oob: {method: oob_pfi, params: {scale: true}, learners: [rf]}
  lm_theory: {method: extrapolation.linear_pfi_theory, learners: [lm]}
  cpfi: {method: cpfi}
  loco: {method: loco, learners: [lm, rf]}  # refits: only the cheap learners
  permute_relearn: {method: permute_relearn, learners: [lm, rf]}
  pdp: {method: pdp, params: {features: [x1], grid: {kind: equidistant, size: 5}}}
  ice: {method: ice, params: {features: [x2], rows: reference, n_rows: 3,
                              grid: {kind: quantile, size: 4}}}
  test_knockoff: {method: extrapolation.substitute_test, params: {substitute: knockoff}}
scenarios:
  main:
    dgp: extrapolation.copula_linear
    params: {beta: [1, 1, 0.5, 0], noise_sd: 0.1}
    sweep: {rho: [0.9]}
    n: 80
    reps: 3
    chunk_size: 2
    learners: [lm, rf, gbm, mlp]
    methods: [pfi, oob, lm_theory, cpfi, loco, permute_relearn, pdp, ice]
  noise:
    dgp: extrapolation.gaussian_noise_features
    params: {beta: [1, 0.5], rho: 0.5, snr: 2.0, q: 2}
    n: 60
    n_test: 60
    reps: 2
    learners: [lm]
    methods: [test_knockoff, pfi]
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    shutil.copytree(REPO / "config", root / "config")
    shutil.copytree(REPO / "workflow" / "schemas", root / "workflow" / "schemas")
    path = root / "config" / "studies" / f"{STUDY}.yaml"
    path.write_text(TINY)
    return check_study(path, "smoke", root)


def _run_all(study, root: Path, seed: int, reverse: bool = False) -> list[Path]:
    """Every stage of every (scenario, chunk) under ``root``; returns the Parquet files."""
    units = [(sc.name, chunk) for sc in study.scenarios.values() for chunk in sc.chunks]
    if reverse:  # another job order must not change any value
        units = units[::-1]
    stages.run_batch(study, units, seed, root, max_rows=10_000)
    for sc in study.scenarios.values():
        if sc.dgp == "extrapolation.copula_linear":
            stages.run_truth(study, sc.name, seed, root)
    return sorted((root / "results" / STUDY).rglob("*.parquet"))


@pytest.fixture(scope="module")
def runs(study, tmp_path_factory):
    a = tmp_path_factory.mktemp("run_a")
    b = tmp_path_factory.mktemp("run_b")
    files_a = _run_all(study, a, SEED)
    files_b = _run_all(study, b, SEED, reverse=True)
    return a / "results" / STUDY, b / "results" / STUDY, files_a, files_b


def test_expected_outputs(study, runs):
    a, _, files_a, _ = runs
    rel = {str(p.relative_to(a)) for p in files_a}
    assert "data/main_rho0.9/c0.parquet" in rel and "data/main_rho0.9/c1.parquet" in rel
    assert "estimates/main_rho0.9/rf/oob/c1.parquet" in rel
    assert "estimates/main_rho0.9/lm/oob/c0.parquet" not in rel  # oob is restricted to rf
    assert "estimates/noise/lm/test_knockoff/c0.parquet" in rel
    assert "truth/main_rho0.9/effects.parquet" in rel
    # chunking: reps 0, 1 in c0 and rep 2 in c1
    assert sorted(read_parquet(a / "data/main_rho0.9/c0.parquet")["rep"].unique()) == [0, 1]
    assert sorted(read_parquet(a / "data/main_rho0.9/c1.parquet")["rep"].unique()) == [2]
    est = read_parquet(a / "estimates/main_rho0.9/rf/pfi/c0.parquet")
    assert {"scenario", "learner", "method", "p_rho", "rep", "feature", "value"} <= set(est)
    assert est["value"].notna().all() and len(est) == 2 * 4


def test_two_runs_give_equal_values(runs):
    a, b, files_a, files_b = runs
    assert [p.relative_to(a) for p in files_a] == [p.relative_to(b) for p in files_b]
    for pa, pb in zip(files_a, files_b, strict=True):
        pd.testing.assert_frame_equal(read_parquet(pa), read_parquet(pb), check_exact=True,
                                      obj=str(pa.relative_to(a)))


def test_an_interleaved_batch_gives_the_same_values(study, runs, tmp_path):
    """A batch that measures run time runs repetition by repetition and method by method
    (:func:`imlbench.stages.run_interleaved`); every data and estimate table equals the one of
    the units run one after the other (learners restricted to some methods, two chunks of one
    scenario, methods that refit included)."""
    a, _, files_a, _ = runs
    units = [(sc.name, chunk) for sc in study.scenarios.values() for chunk in sc.chunks]
    stages.run_interleaved(study, units, SEED, tmp_path, max_rows=10_000)
    c = tmp_path / "results" / STUDY
    run_files = [p for p in files_a if p.relative_to(a).parts[0] in ("data", "estimates")]
    assert sorted(c.rglob("*.parquet")) == [c / p.relative_to(a) for p in run_files]
    for pa in run_files:
        pd.testing.assert_frame_equal(read_parquet(pa), read_parquet(c / pa.relative_to(a)),
                                      check_exact=True, obj=str(pa.relative_to(a)))


def test_an_interleaved_batch_runs_each_method_on_every_scenario_before_the_next(
        study, tmp_path, monkeypatch):
    """Per repetition, one method after the other, each on every scenario (and learner) that
    has it: the calls compared across scenarios are made seconds apart."""
    calls = []
    explain = stages.explain_chunk

    def spy(*args):
        _, sc, _, _, _, learner, methods, *_, reps = args
        calls.append((*reps, sc.name, learner, *methods))
        return explain(*args)

    monkeypatch.setattr(stages, "explain_chunk", spy)
    units = [(sc.name, chunk) for sc in study.scenarios.values() for chunk in sc.chunks]
    stages.run_interleaved(study, units, SEED, tmp_path, max_rows=10_000)
    reps = [c[0] for c in calls]
    assert reps == sorted(reps) and set(reps) == {0, 1, 2}
    for rep in set(reps):
        order = [c[3] for c in calls if c[0] == rep]
        blocks = [m for k, m in enumerate(order) if k == 0 or order[k - 1] != m]
        assert len(blocks) == len(set(blocks)), order  # no method comes back after another
    # pfi runs on both scenarios (main and noise) and every learner in one block of repetition 0
    assert {(c[1], c[2]) for c in calls if c[0] == 0 and c[3] == "pfi"} == {
        ("main_rho0.9", "lm"), ("main_rho0.9", "rf"), ("main_rho0.9", "gbm"),
        ("main_rho0.9", "mlp"), ("noise", "lm")}


def test_two_fits_give_equal_models(study):
    sc = study.scenarios["main_rho0.9"]
    df = stages.sample_chunk(study, sc, "c0", SEED)
    X = np.random.default_rng(0).uniform(size=(50, 4))
    for learner in ("lm", "rf", "gbm", "mlp"):
        ma = stages.fit_chunk(study, sc, "c0", SEED, df, learner)
        mb = stages.fit_chunk(study, sc, "c0", SEED, df, learner)
        assert sorted(ma) == sorted(mb) == [0, 1]
        for rep in ma:
            np.testing.assert_array_equal(ma[rep].predict(X), mb[rep].predict(X))
        # the repetitions are different fits (different data)
        assert not np.array_equal(ma[0].predict(X), ma[1].predict(X))


def test_other_base_seed_gives_other_data(study):
    sc = study.scenarios["main_rho0.9"]
    d1 = stages.sample_chunk(study, sc, "c0", SEED)
    d2 = stages.sample_chunk(study, sc, "c0", SEED + 1)
    assert d1.shape == d2.shape
    for col in ("x1", "x2", "x3", "x4", "y"):
        assert not np.allclose(d1[col], d2[col])
    # the repetitions of one seed are different streams too
    r0 = d1[d1["rep"] == 0][["x1", "y"]].to_numpy()
    r1 = d1[d1["rep"] == 1][["x1", "y"]].to_numpy()
    assert not np.allclose(r0, r1)


@pytest.mark.workflow
def test_run_stage_through_cli_equals_in_process(study, runs, tmp_path):
    a, _, _, _ = runs
    root = study.path.parents[2]
    res = subprocess.run(
        [sys.executable, "-m", "imlbench", "--root", str(root), "--profile", "smoke",
         "--base-seed", str(SEED), "--max-rows", "10000", "run", "--study", STUDY,
         "--units", "main_rho0.9:c1"],
        capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr
    written = root / "results" / STUDY
    for rel in ("data/main_rho0.9/c1.parquet", "estimates/main_rho0.9/rf/pfi/c1.parquet"):
        pd.testing.assert_frame_equal(read_parquet(written / rel), read_parquet(a / rel),
                                      check_exact=True, obj=rel)
    # the job logs its work per piece and its whole CPU time
    assert "work stage=fit item=main_rho0.9 chunk=c1 learner=rf method=-" in res.stderr
    assert "process cpu_s=" in res.stderr


def test_provenance(study, runs):
    a, _, files_a, _ = runs
    for path in files_a:
        prov = read_provenance(path)
        assert set(prov) >= {"package_version", "git_revision", "config_hash", "seed",
                             "libraries"}
        assert prov["package_version"] == imlbench.__version__
        assert isinstance(prov["git_revision"], str) and prov["git_revision"]
        assert prov["config_hash"] == study.hash()
        assert prov["seed"][:2] == [SEED, STUDY]
        libs = prov["libraries"]
        for lib in ("numpy", "pandas", "scikit-learn", "pyarrow", "scipy"):
            assert libs[lib] == version(lib)
    prov = read_provenance(a / "data/main_rho0.9/c1.parquet")
    assert prov["seed"] == [SEED, STUDY, "main_rho0.9", "c1"]
    prov = read_provenance(a / "estimates/main_rho0.9/rf/oob/c0.parquet")
    assert prov["seed"] == [SEED, STUDY, "main_rho0.9", "rf", "oob", "c0"]
