"""The workflow stages: data, fit and explain (one process per batch of scenario chunks),
truth and figure. Each writes its own outputs only, and logs a ``work`` line
(:mod:`imlbench.workclock`) for the seconds of each piece of numerical work in it.

Every random stream is derived from (base seed, study, scenario, [learner,
method,] rep, stage), so any job rerun gives identical values regardless of
which other jobs ran before it. A stage reads a study that was checked before the
workflow started (:mod:`imlbench.validate`) and whose package is loaded
(:func:`imlbench.studies.load`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from imlbench import targets
from imlbench.config import Scenario, Study
from imlbench.dgp.base import DGP, make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.frames import check_estimates, check_frame
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.io import write_parquet
from imlbench.learners import LEARNERS, fit_quietly, make_learner
from imlbench.metrics.truth_errors import instance_estimand
from imlbench.seeds import config_hash, int_seed, rng_for
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


def sample_chunk(study: Study, sc: Scenario, chunk: str, base_seed: int) -> pd.DataFrame:
    """The chunk's repetitions of the scenario's DGP, one data set each (:func:`simulate`)."""
    clock = WorkClock()
    with clock:
        df = pd.concat([simulate(study, sc, rep, base_seed) for rep in sc.chunk_reps(chunk)],
                       ignore_index=True)
    log.info("%s", clock.record("data", sc.name, chunk))
    return df


def split_xy(df: pd.DataFrame, features: list[str], split: str) -> tuple[np.ndarray, np.ndarray]:
    part = df[df["split"] == split]
    return part[features].to_numpy(dtype=float), part[TARGET].to_numpy(dtype=float)


def feature_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in ("rep", "split", TARGET)]


def categorical_columns(study: Study, learner: str, dgp: DGP,
                        features: Sequence[str]) -> tuple[int, ...]:
    """The indices in ``features`` (the columns of X) of the DGP's categorical features
    (integer codes; none when the DGP declares none), for a learner that codes them
    (:attr:`imlbench.learners.LearnerSpec.categorical`); none for the others (a real data
    set's DGP reads its table to name them)."""
    if not LEARNERS.get(study.learners[learner]["learner"]).categorical:
        return ()
    categorical = set(getattr(dgp, "categorical", ()))
    return tuple(i for i, f in enumerate(features) if f in categorical)


def kept_columns(Xn: np.ndarray, X: np.ndarray, columns: Sequence[int]) -> tuple[int, ...]:
    """``columns`` of ``X`` as columns of ``Xn``, a design made from ``X`` for a refit: the
    same when ``Xn`` has X's columns; when it has fewer (a feature dropped, as LOCO does),
    the columns of ``X`` that ``Xn``'s columns copy, in order, are matched by their values
    (a ValueError when they are not a selection of X's columns)."""
    if not columns or Xn.shape[1] == X.shape[1]:
        return tuple(columns)
    if Xn.shape[0] == X.shape[0] and Xn.shape[1] < X.shape[1]:
        source, j = [], 0
        for c in range(Xn.shape[1]):
            while j < X.shape[1] and not np.array_equal(Xn[:, c], X[:, j], equal_nan=True):
                j += 1
            if j == X.shape[1]:
                break
            source.append(j)
            j += 1
        else:
            wanted = set(columns)
            return tuple(c for c, j in enumerate(source) if j in wanted)
    raise ValueError(f"cannot tell the categorical columns of a refit design of shape "
                     f"{Xn.shape} made from one of shape {X.shape}")


def learner_factory(study: Study, learner: str, threads: int, refit: bool = False,
                    categorical: Sequence[int] = ()):
    """``build(seed)``: a fresh estimator of the study's learner instance ``learner`` (with
    ``refit``, the learner's estimator for refits that only predict; ``categorical``, the
    columns of X holding categorical codes, for the learners that code them: see
    :func:`imlbench.learners.make_learner`); ``build(seed, columns)`` for a design whose
    categorical columns are ``columns``."""
    name, params = study.learners[learner]["learner"], study.learner_params(learner)

    def build(seed: int, columns: Sequence[int] | None = None):
        return make_learner(name, params, seed, threads, refit=refit,
                            categorical=categorical if columns is None else columns)

    return build


def fit_chunk(study: Study, sc: Scenario, chunk: str, base_seed: int, df: pd.DataFrame,
              learner: str, threads: int = 1, reps: Sequence[int] | None = None
              ) -> dict[int, object]:
    """The learner fitted on the training rows of each repetition of the chunk (or of
    ``reps`` only), by rep."""
    features = feature_columns(df)
    models = {}
    clock = WorkClock()
    for rep in sc.chunk_reps(chunk) if reps is None else reps:
        X, y = split_xy(df[df["rep"] == rep], features, "train")
        seed = int_seed(rng_for(base_seed, study.name, sc.name, learner, rep, "fit"))
        dgp = realized_dgp(study, sc, rep, base_seed)
        estimator = learner_factory(study, learner, threads, categorical=categorical_columns(
            study, learner, dgp, features))(seed)
        if hasattr(estimator, "bind"):  # the truth learner predicts with the DGP's f
            estimator.bind(dgp)
        with clock:
            models[rep] = fit_quietly(estimator, X, y)
    log.info("%s", clock.record("fit", sc.name, chunk, learner))
    return models


def explain_chunk(study: Study, sc: Scenario, chunk: str, base_seed: int, df: pd.DataFrame,
                  learner: str, methods: list[str], fitted: dict[int, object],
                  samplers: dict[int, dict], max_rows: int,
                  threads: int = 1, reps: Sequence[int] | None = None
                  ) -> dict[str, pd.DataFrame]:
    """The methods of the learner on each repetition of the chunk (or of ``reps`` only): one
    tidy table per method, tagged with the scenario, learner and method (:func:`tag`).
    ``samplers`` caches the fitted samplers of each repetition, shared by every learner of the
    chunk."""
    features = feature_columns(df)
    specs = {m: METHODS.get(study.methods[m]["method"]) for m in methods}
    results: dict[str, list[pd.DataFrame]] = {m: [] for m in methods}
    clocks = {m: WorkClock() for m in methods}
    for rep in sc.chunk_reps(chunk) if reps is None else reps:
        part = df[df["rep"] == rep]
        X, y = split_xy(part, features, "train")
        X_test, y_test = split_xy(part, features, "test")
        dgp = realized_dgp(study, sc, rep, base_seed)
        categorical = categorical_columns(study, learner, dgp, features)
        build = learner_factory(study, learner, threads, refit=True, categorical=categorical)
        refits: dict[bytes, object] = {}

        def refit(rows: np.ndarray, _rep=rep, _b=build, _X=X, _y=y, _c=categorical,
                  _cache=refits) -> object:
            """The learner refitted on training rows ``rows``, once per repetition and
            learner (the estimation strategies' splits, shared by the methods)."""
            key = np.asarray(rows, dtype=np.int64).tobytes()
            if key not in _cache:
                seed = int_seed(rng_for(base_seed, study.name, sc.name, learner, _rep,
                                        "strategy refit", hashlib.sha256(key).hexdigest()))
                _cache[key] = fit_quietly(_b(seed, kept_columns(_X[rows], _X, _c)),
                                          _X[rows], _y[rows])
            return _cache[key]

        for m in methods:
            refit_rng = rng_for(base_seed, study.name, sc.name, learner, m, rep, "refit")

            def fit(Xn: np.ndarray, yn: np.ndarray, _r=refit_rng, _b=build, _X=X,
                    _c=categorical):
                return fit_quietly(_b(int_seed(_r), kept_columns(Xn, _X, _c)), Xn, yn).predict

            ctx = ExplainContext(
                model=fitted.get(rep), X=X, y=y, feature_names=features, dgp=dgp, fit=fit,
                fixed_rng=lambda label: rng_for(base_seed, study.name, label),
                X_test=X_test, y_test=y_test, max_rows=max_rows,
                sampler_rng=lambda key, _rep=rep: rng_for(
                    base_seed, study.name, sc.name, _rep, "sampler", key),
                samplers=samplers[rep],
                split=lambda label, _rep=rep: rng_for(base_seed, study.name, sc.name, _rep,
                                                      "split", label),
                refit=refit,
            )
            rng = rng_for(base_seed, study.name, sc.name, learner, m, rep, "explain")
            with clocks[m]:
                res = specs[m](ctx, study.method_params(m), rng)
            check_frame(specs[m].kind, res, f"method {m} ({specs[m].name}) of {sc.name}/"
                        f"{learner}, repetition {rep}")
            res.insert(0, "rep", rep)
            results[m].append(res)
    out = {}
    for m in methods:
        log.info("%s", clocks[m].record("explain", sc.name, chunk, learner, m))
        out[m] = pd.concat(results[m], ignore_index=True)
        check_estimates(specs[m].kind, out[m], f"method {m} ({specs[m].name}) with parameters "
                        f"{study.method_params(m)} of {sc.name}/{learner}, chunk {chunk}")
    return {m: tag(frame, sc, learner=learner, method=m) for m, frame in out.items()}


def _sampled(study: Study, sc: Scenario, chunk: str, base_seed: int, root: Path
             ) -> pd.DataFrame:
    """The chunk's data (:func:`sample_chunk`), written to its file under ``root``."""
    df = sample_chunk(study, sc, chunk, base_seed)
    write_parquet(df, root / targets.data_path(study.name, sc.name, chunk),
                  config_hash=study.hash(), seed=[base_seed, study.name, sc.name, chunk])
    return df


def _write_estimates(study: Study, sc: Scenario, chunk: str, base_seed: int, root: Path,
                     learner: str, tables: dict[str, pd.DataFrame]) -> None:
    for m, frame in tables.items():
        write_parquet(frame, root / targets.estimate_path(study.name, sc.name, learner, m,
                                                          chunk),
                      config_hash=study.hash(),
                      seed=[base_seed, study.name, sc.name, learner, m, chunk])
    log.info("explained %s / %s %s: %s", sc.name, learner, chunk, ", ".join(tables))


def run_chunk(study: Study, scenario: str, chunk: str, base_seed: int, root: Path,
              max_rows: int, threads: int = 1) -> None:
    """Sample, fit and explain one chunk of a scenario in this process: its data file and one
    estimate file per (learner, method) (:mod:`imlbench.targets`), under ``root``. The fitted
    models live in memory only: no later job reads them."""
    sc = study.scenarios[scenario]
    df = _sampled(study, sc, chunk, base_seed, root)
    # fitted samplers depend on the repetition's training rows only: shared by the learners
    samplers: dict[int, dict] = {rep: {} for rep in sc.chunk_reps(chunk)}
    for learner in sc.learners:
        methods = study.methods_for(scenario, learner)
        if not methods:
            continue
        fitted = (fit_chunk(study, sc, chunk, base_seed, df, learner, threads)
                  if sc.fit_models else {})
        _write_estimates(study, sc, chunk, base_seed, root, learner, explain_chunk(
            study, sc, chunk, base_seed, df, learner, methods, fitted, samplers, max_rows,
            threads))


def run_interleaved(study: Study, units: list[tuple[str, str]], base_seed: int, root: Path,
                    max_rows: int, threads: int = 1) -> None:
    """:func:`run_chunk` for the (scenario, chunk) units of a batch that measures run time,
    interleaved: for each repetition, every unit's learners are fitted on that repetition,
    then each method runs on every unit that has it, one unit after the other, before the
    next method. A run time is compared with others (another scenario's, at another number
    of features; another method's), and a machine's speed drifts over seconds and minutes
    (the same ratio of two calls measured 2.4 in one run and 3.5 in another), so the calls
    compared are made seconds apart. Every value but the measured times equals
    :func:`run_chunk`'s: each random stream is keyed by scenario, learner, method and
    repetition, not by the order of the calls."""
    chunks = [(study.scenarios[scenario], chunk) for scenario, chunk in units]
    data = [_sampled(study, sc, chunk, base_seed, root) for sc, chunk in chunks]
    samplers = [{rep: {} for rep in sc.chunk_reps(chunk)} for sc, chunk in chunks]
    pairs = [[(learner, methods) for learner in sc.learners
              if (methods := study.methods_for(sc.name, learner))] for sc, _ in chunks]
    order = list(dict.fromkeys(m for unit in pairs for _, methods in unit for m in methods))
    parts: list[dict[tuple[str, str], list[pd.DataFrame]]] = [{} for _ in chunks]
    for rep in sorted(set().union(*samplers)):
        at = [k for k in range(len(chunks)) if rep in samplers[k]]
        fitted = {(k, learner): fit_chunk(study, *chunks[k], base_seed, data[k], learner,
                                          threads, [rep]) if chunks[k][0].fit_models else {}
                  for k in at for learner, _ in pairs[k]}
        for m in order:
            for k in at:
                for learner, methods in pairs[k]:
                    if m in methods:
                        out = explain_chunk(study, *chunks[k], base_seed, data[k], learner,
                                            [m], fitted[k, learner], samplers[k], max_rows,
                                            threads, [rep])
                        parts[k].setdefault((learner, m), []).append(out[m])
    for k, (sc, chunk) in enumerate(chunks):
        for learner, methods in pairs[k]:
            _write_estimates(study, sc, chunk, base_seed, root, learner, {
                m: pd.concat(parts[k][learner, m], ignore_index=True) for m in methods})


def run_batch(study: Study, units: list[tuple[str, str]], base_seed: int, root: Path,
              max_rows: int, threads: int = 1) -> None:
    """:func:`run_chunk` for each (scenario, chunk) of a batch (:func:`imlbench.targets.batches`),
    one after the other in this process; :func:`run_interleaved` when one of its scenarios
    measures run time (``exclusive``)."""
    if any(study.scenarios[scenario].exclusive for scenario, _ in units):
        run_interleaved(study, units, base_seed, root, max_rows, threads)
        return
    for scenario, chunk in units:
        run_chunk(study, scenario, chunk, base_seed, root, max_rows, threads)


def tag(df: pd.DataFrame, sc: Scenario, **labels: str) -> pd.DataFrame:
    """Prefix ``df`` with the scenario, the given labels and ``p_*`` swept parameters."""
    front = {"scenario": sc.name, **labels, **{f"p_{k}": v for k, v in sc.swept.items()}}
    for i, (k, v) in enumerate(front.items()):
        df.insert(i, k, v)
    return df


#: truth tables computed in this process, by study, base seed, DGP and its parameters: the
#: truths' streams are named by the study alone, so scenarios of one DGP (another n, another
#: learner) have the same tables, computed once
_TRUTH_TABLES: dict[tuple[str, int, str, str], dict[str, pd.DataFrame]] = {}


def run_truth(study: Study, scenario: str, base_seed: int, root: Path) -> None:
    """The truth tables of the scenario's DGP (:mod:`imlbench.truth`), one file per table
    (``effects``, ``importance``: :func:`imlbench.targets.truth_paths`, under ``root``)."""
    sc = study.scenarios[scenario]
    key = (study.name, base_seed, sc.dgp, config_hash(sc.params))
    clock = WorkClock()
    with clock:  # every table in the one shape of imlbench.explain.estimands, checked
        if key not in _TRUTH_TABLES:
            _TRUTH_TABLES[key] = TRUTHS.get(sc.dgp).tables(
                make_dgp(sc.dgp, sc.params), lambda label: rng_for(base_seed, study.name, label))
        tables = {name: t.copy() for name, t in _TRUTH_TABLES[key].items()}
    log.info("%s", clock.record("truth", scenario, "-"))
    for name, path in targets.truth_paths(study, sc).items():
        write_parquet(tag(tables[name], sc), root / path, config_hash=study.hash(),
                      seed=[base_seed, study.name, scenario, "truth"])


def run_figure(study: Study, figure: str, root: Path) -> None:
    """Draw figure ``figure`` of the study from the files it reads
    (:func:`imlbench.targets.figure_inputs`) into its PNG and PDF files
    (:func:`imlbench.targets.figure_paths`), under ``root``."""
    spec = study.figures[figure]
    paths = {kind: [root / p for p in files]
             for kind, files in targets.figure_inputs(study, figure).items()}
    outs = {ext: root / p for ext, p in targets.figure_paths(study.name, figure).items()}
    scenarios = [sc.name for sc in study.scenarios_of(spec["scenarios"]) if sc.chunks]
    clock = WorkClock()
    with clock:
        inputs = FigureInputs(
            paths, spec.get("methods", {}), scenarios,
            method_kinds={m: s["method"] for m, s in study.methods.items()},
            learner_kinds={lrn: s["learner"] for lrn, s in study.learners.items()},
            estimands={m: instance_estimand(study, m) for m in study.methods})
        FIGURES.get(spec["function"])(inputs, spec, outs["png"], outs["pdf"])
    log.info("%s", clock.record("figure", figure, "-"))
