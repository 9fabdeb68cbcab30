"""The files each workflow rule reads and writes, and the fingerprints that decide reruns.

``workflow/rules/*.smk`` build their rules from these functions over checked studies. A
fingerprint is a rule parameter (Snakemake reruns a job when it changes) holding exactly what
changes the job's values: the values it is given (a data job's DGP, parameters, sizes,
repetitions and seed, never a scenario's description) and the code it executes
(:func:`imlbench.codehash.code_hash` of the modules of its DGP, learners, methods, samplers,
truths, summaries, claim kinds or figure function, and of what they import). A figure's inputs
are the estimates of the methods its study-file entry names and the truths and tables its
function declares; the summaries', the importance and summarised estimates, those compared
with a truth and the truths; the scorecard's, the summaries, the truths and the estimates of
the methods the claims name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from imlbench.codehash import code_hash
from imlbench.config import Scenario, Study
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.explain.samplers import SAMPLERS
from imlbench.figures import FIGURES
from imlbench.figures.table import SOURCES as TABLE_SOURCES
from imlbench.learners import LEARNERS
from imlbench.metrics.claims import CLAIMS, methods_named
from imlbench.metrics.truth_errors import KINDS as TRUTH_ERROR_KINDS
from imlbench.metrics.truth_errors import why_not_compared
from imlbench.params import with_defaults
from imlbench.seeds import config_hash
from imlbench.truth import TRUTHS, truth_tables

#: the kinds of files a figure job reads
FIGURE_INPUTS = ("estimates", "truth", "ranks", "summary", "data", "truth_error_reps")
#: the most scenario chunks of one family that one `run` job samples, fits and explains, and
#: the most figures one `figure` job draws (README, "Job sizes"): a job then does tens of
#: seconds of work or more against about 3 s of its own cost (a Python start with the
#: scientific stack, Snakemake's bookkeeping), and editing one scenario or restyling one
#: figure reruns at most this many
UNITS_PER_JOB = 8
FIGURES_PER_JOB = 8


@dataclass(frozen=True)
class Batch:
    """The scenario chunks one `run` job samples, fits and explains: one after the other, or
    interleaved when one of them measures run time (:func:`imlbench.stages.run_batch`)."""

    name: str
    #: (scenario, chunk) pairs
    units: tuple[tuple[str, str], ...]
    #: whether the job runs with no other job on the cores (a scenario that measures time)
    exclusive: bool


def batches(study: Study) -> list[Batch]:
    """The study's `run` jobs: the chunks with the same chunk name of the scenarios of one
    family (one entry of the study file, expanded over its sweep), or of the families that
    share a ``batch``, at most :data:`UNITS_PER_JOB` to a job, named ``<batch>_<chunk>`` (and
    ``_<k>`` when a batch needs several)."""
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for sc in study.scenarios.values():
        for chunk in sc.chunks:
            groups.setdefault((sc.batch, chunk), []).append((sc.name, chunk))
    out = []
    for (batch, chunk), units in groups.items():
        pieces = [units[i:i + UNITS_PER_JOB] for i in range(0, len(units), UNITS_PER_JOB)]
        for k, piece in enumerate(pieces):
            out.append(Batch(
                name=f"{batch}_{chunk}" + (f"_{k}" if len(pieces) > 1 else ""),
                units=tuple(piece),
                exclusive=any(study.scenarios[sc].exclusive for sc, _ in piece)))
    return out


def batch_outputs(study: Study, batch: Batch) -> list[str]:
    """What a `run` job writes: each chunk's data and its estimates, one file per (learner,
    method)."""
    out = []
    for scenario, chunk in batch.units:
        sc = study.scenarios[scenario]
        out.append(data_path(study.name, scenario, chunk))
        out += [estimate_path(study.name, scenario, learner, m, chunk)
                for learner, m in explain_pairs(study, sc)]
    return out


def data_path(study: str, scenario: str, chunk: str) -> str:
    return f"results/{study}/data/{scenario}/{chunk}.parquet"


def estimate_path(study: str, scenario: str, learner: str, method: str, chunk: str) -> str:
    return f"results/{study}/estimates/{scenario}/{learner}/{method}/{chunk}.parquet"


def figure_paths(study: str, fig: str) -> dict[str, str]:
    return {ext: f"results/{study}/figures/{fig}.{ext}" for ext in ("png", "pdf")}


def metrics_paths(study: str) -> dict[str, str]:
    """The summaries of a study."""
    return {name: f"results/{study}/metrics/{name}.parquet"
            for name in ("ranks", "mean_ranks", "summary", "truth_errors", "truth_error_reps")}


def outside_results(paths: list[str]) -> list[str]:
    """The paths that do not stay inside ``results/`` once normalised (``..``, absolute)."""
    return [p for p in paths
            if os.path.isabs(p) or not os.path.normpath(p).startswith("results" + os.sep)]


def truth_paths(study: Study, sc: Scenario) -> dict[str, str]:
    """The truth tables of a scenario, by table name (``effects``, ``importance``)."""
    return {e: f"results/{study.name}/truth/{sc.name}/{e}.parquet" for e in truth_tables(sc.dgp)}


def explain_pairs(study: Study, sc: Scenario) -> list[tuple[str, str]]:
    """Every (learner, method) the scenario's explain job runs."""
    return [(learner, m) for learner in sc.learners for m in study.methods_for(sc.name, learner)]


def estimates_of(study: Study, scenarios: list[Scenario], keep=lambda m: True) -> list[str]:
    """The estimate files of the scenarios' methods for which ``keep(method)`` holds."""
    return [
        estimate_path(study.name, sc.name, learner, m, chunk)
        for sc in scenarios
        for learner, m in explain_pairs(study, sc) if keep(m)
        for chunk in sc.chunks
    ]


def _spec(study: Study, method: str):
    return METHODS.get(study.methods[method]["method"])


def summarised_estimates(study: Study) -> list[str]:
    """What the summaries job reads: importance estimates, and those of summarised methods."""
    def summarised(m: str) -> bool:
        return _spec(study, m).kind == "importance" or _spec(study, m).summarise is not None

    return estimates_of(study, list(study.scenarios.values()), summarised)


def truth_compared_estimates(study: Study) -> list[str]:
    """The estimates compared with a truth of their scenario
    (:mod:`imlbench.metrics.truth_errors`)."""
    return [p for sc in study.scenarios.values()
            for p in estimates_of(study, [sc], lambda m, sc=sc: why_not_compared(
                study, m, sc.name, list(truth_paths(study, sc))) is None)]


def summaries_estimates(study: Study) -> list[str]:
    """What the summaries job reads: the summarised estimates and those compared with a
    truth."""
    return list(dict.fromkeys(summarised_estimates(study) + truth_compared_estimates(study)))


def claimed_methods(study: Study) -> set[str]:
    """The study's methods its claims name (:func:`imlbench.metrics.claims.methods_named`),
    but for claims on truth errors against the method's own estimand (they read
    ``metrics/truth_error*.parquet``; those with a ``truth`` compare the estimates
    themselves)."""
    return {m for claim in study.claims
            if claim["kind"] not in TRUTH_ERROR_KINDS or claim.get("truth") is not None
            for m in methods_named(claim)}


def claim_estimates(study: Study) -> list[str]:
    """The estimates the scorecard job reads directly: those of the methods the claims name,
    but for importances (read through the ranks), summarised methods (read through the
    summary) and claims on truth errors."""
    named = claimed_methods(study)

    def read(m: str) -> bool:
        spec = _spec(study, m)
        return m in named and spec.kind != "importance" and spec.summarise is None

    return estimates_of(study, list(study.scenarios.values()), read)


def all_truths(study: Study) -> list[str]:
    return [p for sc in study.scenarios.values() for p in truth_paths(study, sc).values()]


def truth_scenarios(study: Study) -> list[str]:
    """The scenarios with truths, all computed by the study's one `truth` job."""
    return [sc.name for sc in study.scenarios.values() if truth_paths(study, sc)]


def figure_groups(study: Study) -> list[list[str]]:
    """The figures of each `figure` job: those that read only estimates, truths and data
    (drawn as soon as these exist) apart from those that read the summaries, each kind in
    groups of at most :data:`FIGURES_PER_JOB` in study-file order."""
    def reads_summaries(fig: str) -> bool:
        files = figure_inputs(study, fig)
        return any(files[kind] for kind in ("ranks", "summary", "truth_error_reps"))

    out = []
    for late in (False, True):
        figs = [fig for fig in study.figures if reads_summaries(fig) == late]
        out += [figs[i:i + FIGURES_PER_JOB] for i in range(0, len(figs), FIGURES_PER_JOB)]
    return out


def _roles(spec: dict) -> set[str]:
    methods = spec.get("methods", {})
    return {m for v in methods.values() for m in ([v] if isinstance(v, str) else v)}


def figure_inputs(study: Study, fig: str) -> dict[str, list[str]]:
    """The files figure ``fig`` reads, by kind: the estimates of the methods its entry names
    (in its scenarios), the truths and the tables its function declares."""
    spec = study.figures[fig]
    declared = FIGURES.get(spec["function"])
    scenarios = study.scenarios_of(spec["scenarios"])
    named = _roles(spec)
    metrics = metrics_paths(study.name)
    files = {
        "estimates": estimates_of(study, scenarios, lambda m: m in named),
        "truth": [p for sc in scenarios for e, p in truth_paths(study, sc).items()
                  if e in declared.truths],
        "ranks": [metrics["ranks"]] if "ranks" in declared.tables else [],
        "summary": [metrics["summary"]] if "summary" in declared.tables else [],
        "truth_error_reps": ([metrics["truth_error_reps"]]
                             if "truth_error_reps" in declared.tables else []),
        # a scenario may run no repetitions in a profile
        "data": [data_path(study.name, sc.name, "c0") for sc in scenarios
                 if sc.chunks and "data" in declared.tables],
    }
    return {kind: files[kind] for kind in FIGURE_INPUTS}


# --- fingerprints: what changes a job's values ----------------------------------------------


def _methods_code(study: Study, methods: list[str]) -> list[str]:
    """The modules of methods and of the samplers and methods their parameters name (the
    method ``timing`` runs the method ``timed``)."""
    out = []
    for m in methods:
        spec = _spec(study, m)
        out.append(spec.run.__module__)
        params = with_defaults(spec.params, study.method_params(m))
        sampler, timed = params.get("sampler"), params.get("timed")
        if isinstance(sampler, str) and sampler in SAMPLERS:
            out.append(SAMPLERS.get(sampler).build.__module__)
        if isinstance(timed, str) and timed in METHODS:
            out.append(METHODS.get(timed).run.__module__)
    return out


def _learners_code(study: Study, learners: list[str]) -> list[str]:
    return [LEARNERS.get(study.learners[lrn]["learner"]).build.__module__ for lrn in learners]


def data_fingerprint(sc: Scenario, chunk: str, base_seed: int) -> str:
    return config_hash([base_seed, sc.dgp, sc.params, sc.n, sc.n_test, sc.test_fraction,
                        list(sc.chunk_reps(chunk)), code_hash([DGPS.get(sc.dgp).__module__])])


def truth_fingerprint(sc: Scenario, base_seed: int) -> str:
    code = [DGPS.get(sc.dgp).__module__, TRUTHS.get(sc.dgp).compute.__module__]
    return config_hash([base_seed, sc.dgp, sc.params, code_hash(code)])


def _learners(study: Study, sc: Scenario) -> dict:
    return {lrn: [study.learners[lrn]["learner"], study.learner_params(lrn)]
            for lrn in sc.learners}


def explain_fingerprint(study: Study, sc: Scenario, base_seed: int) -> str:
    """What the fits and methods of a scenario's chunk depend on besides its data: the
    learners, the (learner, method) pairs with their parameters, and their code."""
    pairs = explain_pairs(study, sc)
    methods = {m: [study.methods[m]["method"], study.method_params(m)] for _, m in pairs}
    code = [DGPS.get(sc.dgp).__module__, *_learners_code(study, list(sc.learners)),
            *_methods_code(study, sorted(methods))]
    # the summarising functions run in the summaries job (summaries_fingerprint), not here
    summarising = {f.__module__ for m in methods if (f := _spec(study, m).summarise)}
    return config_hash([base_seed, _learners(study, sc), sc.fit_models, pairs, methods,
                        code_hash(code, exclude=summarising)])


def batch_fingerprints(study: Study, batch: Batch, base_seed: int) -> dict[str, str]:
    """The fingerprint of each chunk of a `run` job (``scenario:chunk``): its data and its
    fits and methods. The job reruns when any of them changes."""
    return {f"{scenario}:{chunk}": config_hash([
        data_fingerprint(study.scenarios[scenario], chunk, base_seed),
        explain_fingerprint(study, study.scenarios[scenario], base_seed)])
        for scenario, chunk in batch.units}


def truths_fingerprints(study: Study, base_seed: int) -> dict[str, str]:
    """The fingerprint of each scenario's truths, all computed by the study's `truth` job."""
    return {name: truth_fingerprint(study.scenarios[name], base_seed)
            for name in truth_scenarios(study)}


def summaries_fingerprint(study: Study) -> str:
    """The code of the summaries job: the ranks, the truth errors, the summarising functions
    and the modules of the methods that declare an estimand (where they declare it)."""
    summarised = [_spec(study, m).summarise for m in study.methods]
    compared = [_spec(study, m) for m in study.methods if _spec(study, m).estimand is not None]
    return code_hash(["imlbench.metrics.ranks", "imlbench.metrics.truth_errors",
                      *(f.__module__ for f in summarised if f is not None),
                      *(spec.run.__module__ for spec in compared)])


def claims_fingerprint(study: Study) -> str:
    """The study's claims and the code that judges them (kinds and the statistics they name)."""
    modules = sorted({m for claim in study.claims
                      for m in CLAIMS.get(claim["kind"]).modules(claim)})
    return config_hash([study.claims, code_hash(modules)])


def figure_fingerprint(study: Study, fig: str) -> str:
    """The figure's entry and the code of its function (and of the table source it names)."""
    spec = study.figures[fig]
    modules = [FIGURES.get(spec["function"]).draw.__module__]
    source = spec.get("params", {}).get("source")
    if isinstance(source, str):  # a study's table source, which the layer's table draws
        modules.append(TABLE_SOURCES.get(source).make.__module__)
    return config_hash([spec, code_hash(modules)])


def scorecard_fingerprint() -> str:
    """The code that renders SCORECARD.md and scorecard.html from the studies' scorecards."""
    return code_hash(["imlbench.compare"])
