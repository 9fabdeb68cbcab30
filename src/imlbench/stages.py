"""The workflow stages: data, fit, explain, truth, figure. Each writes its own outputs only.

Every random stream is derived from (base seed, study, scenario, [learner,
method,] rep, stage), so any job rerun gives identical values regardless of
which other jobs ran before it. A stage reads a study that was checked before the
workflow started (:mod:`imlbench.validate`) and whose package is loaded
(:func:`imlbench.studies.load`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.config import Scenario, Study
from imlbench.dgp.base import DGP, make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.io import dump_object, load_object, read_parquet, write_parquet
from imlbench.learners import fit_quietly, make_learner
from imlbench.seeds import int_seed, rng_for
from imlbench.truth import TRUTHS
from imlbench.workclock import WorkClock

log = logging.getLogger("imlbench")

TARGET = "y"


def realized_dgp(study: Study, sc: Scenario, rep: int, base_seed: int) -> DGP:
    """The scenario's DGP with its per-data-set structure fixed for ``rep``."""
    dgp = make_dgp(sc.dgp, sc.params)
    return dgp.realize(rng_for(base_seed, study.name, sc.name, rep, "structure"))


def simulate(study: Study, sc: Scenario, rep: int, base_seed: int) -> pd.DataFrame:
    """One repetition's data: features, ``y`` and a ``split`` column (train/test)."""
    dgp = realized_dgp(study, sc, rep, base_seed)
    rng = rng_for(base_seed, study.name, sc.name, rep, "data")
    if sc.test_fraction:
        df = dgp.sample(sc.n, rng)
        n_test = int(round(sc.test_fraction * len(df)))
    else:
        df = dgp.sample(None if sc.n is None else sc.n + sc.n_test, rng)
        n_test = sc.n_test
    split = np.full(len(df), "train", dtype=object)
    if n_test:
        split[rng.permutation(len(df))[:n_test]] = "test"
    df.insert(0, "split", split)
    df.insert(0, "rep", rep)
    return df


def run_data(study: Study, scenario: str, chunk: str, base_seed: int, out: Path) -> None:
    sc = study.scenarios[scenario]
    frames = [simulate(study, sc, rep, base_seed) for rep in sc.chunk_reps(chunk)]
    write_parquet(pd.concat(frames, ignore_index=True), out,
                  config_hash=study.hash(), seed=[base_seed, study.name, scenario, chunk])


def split_xy(df: pd.DataFrame, features: list[str], split: str) -> tuple[np.ndarray, np.ndarray]:
    part = df[df["split"] == split]
    return part[features].to_numpy(dtype=float), part[TARGET].to_numpy(dtype=float)


def feature_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in ("rep", "split", TARGET)]


def learner_factory(study: Study, learner: str, threads: int, refit: bool = False):
    """``build(seed)``: a fresh estimator of the study's learner instance ``learner`` (with
    ``refit``, the learner's estimator for refits that only predict: see
    :func:`imlbench.learners.make_learner`)."""
    name, params = study.learners[learner]["learner"], study.learner_params(learner)

    def build(seed: int):
        return make_learner(name, params, seed, threads, refit=refit)

    return build


def run_fit(study: Study, scenario: str, chunk: str, base_seed: int, data: Path,
            outs: dict[str, Path], threads: int = 1) -> None:
    """Fit every learner of ``outs`` (learner -> model file) on each repetition of the chunk."""
    sc = study.scenarios[scenario]
    df = read_parquet(data)
    features = feature_columns(df)
    for learner, out in outs.items():
        build = learner_factory(study, learner, threads)
        models = {}
        clock = WorkClock()
        for rep in sc.chunk_reps(chunk):
            X, y = split_xy(df[df["rep"] == rep], features, "train")
            seed = int_seed(rng_for(base_seed, study.name, scenario, learner, rep, "fit"))
            estimator = build(seed)
            if hasattr(estimator, "bind"):  # the truth learner predicts with the DGP's f
                estimator.bind(realized_dgp(study, sc, rep, base_seed))
            with clock:
                models[rep] = fit_quietly(estimator, X, y)
        log.info("fitted %s on %s %s (%d reps)", learner, scenario, chunk, len(models))
        log.info("%s", clock.record("fit", learner, "-"))
        dump_object(models, out)


def run_explain(study: Study, scenario: str, chunk: str, base_seed: int, data: Path,
                models: dict[str, Path], outs: dict[tuple[str, str], Path], max_rows: int,
                threads: int = 1) -> None:
    """Run every (learner, method) of ``outs`` on each repetition; one Parquet file each."""
    sc = study.scenarios[scenario]
    df = read_parquet(data)
    features = feature_columns(df)
    # fitted samplers depend on the repetition's training rows only: shared by the learners
    samplers: dict[int, dict] = {rep: {} for rep in sc.chunk_reps(chunk)}
    for learner in dict.fromkeys(lrn for lrn, _ in outs):
        fitted = load_object(models[learner]) if learner in models else {}
        build = learner_factory(study, learner, threads, refit=True)
        methods = [m for (lrn, m) in outs if lrn == learner]
        specs = {m: METHODS.get(study.methods[m]["method"]) for m in methods}
        results: dict[str, list[pd.DataFrame]] = {m: [] for m in methods}
        clocks = {m: WorkClock() for m in methods}
        for rep in sc.chunk_reps(chunk):
            part = df[df["rep"] == rep]
            X, y = split_xy(part, features, "train")
            X_test, y_test = split_xy(part, features, "test")
            dgp = realized_dgp(study, sc, rep, base_seed)
            for m in methods:
                refit_rng = rng_for(base_seed, study.name, scenario, learner, m, rep, "refit")

                def fit(Xn: np.ndarray, yn: np.ndarray, _r=refit_rng, _b=build):
                    return fit_quietly(_b(int_seed(_r)), Xn, yn).predict

                ctx = ExplainContext(
                    model=fitted.get(rep), X=X, y=y, feature_names=features, dgp=dgp, fit=fit,
                    fixed_rng=lambda label: rng_for(base_seed, study.name, label),
                    X_test=X_test, y_test=y_test, max_rows=max_rows,
                    sampler_rng=lambda key, _rep=rep: rng_for(
                        base_seed, study.name, scenario, _rep, "sampler", key),
                    samplers=samplers[rep],
                )
                rng = rng_for(base_seed, study.name, scenario, learner, m, rep, "explain")
                with clocks[m]:
                    res = specs[m](ctx, study.method_params(m), rng)
                res.insert(0, "rep", rep)
                results[m].append(res)
        log.info("explained %s / %s %s: %s", scenario, learner, chunk, ", ".join(methods))
        for m in methods:
            log.info("%s", clocks[m].record("explain", learner, m))
        for m in methods:
            frame = tag(pd.concat(results[m], ignore_index=True), sc, learner=learner, method=m)
            write_parquet(frame, outs[(learner, m)], config_hash=study.hash(),
                          seed=[base_seed, study.name, scenario, learner, m, chunk])


def tag(df: pd.DataFrame, sc: Scenario, **labels: str) -> pd.DataFrame:
    """Prefix ``df`` with the scenario, the given labels and ``p_*`` swept parameters."""
    front = {"scenario": sc.name, **labels, **{f"p_{k}": v for k, v in sc.swept.items()}}
    for i, (k, v) in enumerate(front.items()):
        df.insert(i, k, v)
    return df


def run_truth(study: Study, scenario: str, base_seed: int, outs: dict[str, Path]) -> None:
    """The truth tables of the scenario's DGP (:mod:`imlbench.truth`), one file per estimand."""
    sc = study.scenarios[scenario]
    dgp = make_dgp(sc.dgp, sc.params)
    compute = TRUTHS.get(sc.dgp).compute
    tables = compute(dgp, lambda label: rng_for(base_seed, study.name, label))
    for estimand, path in outs.items():
        write_parquet(tag(tables[estimand], sc), path, config_hash=study.hash(),
                      seed=[base_seed, study.name, scenario, "truth"])


def run_figure(study: Study, figure: str, inputs: list[str], outs: dict[str, Path]) -> None:
    """Draw figure ``figure`` of the study from ``inputs`` (``kind=path``: estimates, truth,
    ranks, summary, data, truth_error_reps) into ``outs['png']`` and ``outs['pdf']``."""
    spec = study.figures[figure]
    paths: dict[str, list[Path]] = {}
    for kind, path in (item.split("=", 1) for item in inputs):
        paths.setdefault(kind, []).append(Path(path))
    scenarios = [sc.name for sc in study.scenarios_of(spec["scenarios"]) if sc.chunks]
    FIGURES.get(spec["function"]).draw(
        FigureInputs(paths, spec.get("methods", {}), scenarios), spec, outs["png"], outs["pdf"])
