"""The files each workflow rule reads and writes, and the fingerprints that decide reruns.

``workflow/rules/*.smk`` build their rules from these functions over checked studies. A
fingerprint is a rule parameter (Snakemake reruns a job when it changes) holding exactly what
changes the job's values: a data job's DGP, parameters, sizes, repetitions and seed, never a
scenario's description. A figure's inputs are the estimates of the methods its study-file
entry names, the truths and tables its function declares, and its code; the scorecard's, the
summaries, the truths and the estimates of the methods the claims name.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from imlbench.config import Scenario, Study
from imlbench.explain.api import METHODS
from imlbench.figures import FIGURES
from imlbench.metrics.claims import CLAIMS
from imlbench.params import named_values
from imlbench.seeds import config_hash
from imlbench.truth import estimands

#: the kinds of files a figure job reads
FIGURE_INPUTS = ("estimates", "truth", "ranks", "summary", "data")


def data_path(study: str, scenario: str, chunk: str) -> str:
    return f"results/{study}/data/{scenario}/{chunk}.parquet"


def model_path(study: str, scenario: str, learner: str, chunk: str) -> str:
    return f"results/{study}/models/{scenario}/{learner}/{chunk}.joblib"


def estimate_path(study: str, scenario: str, learner: str, method: str, chunk: str) -> str:
    return f"results/{study}/estimates/{scenario}/{learner}/{method}/{chunk}.parquet"


def metrics_paths(study: str) -> dict[str, str]:
    """The summaries of a study."""
    return {name: f"results/{study}/metrics/{name}.parquet"
            for name in ("ranks", "mean_ranks", "summary")}


def truth_paths(study: Study, sc: Scenario) -> dict[str, str]:
    """The truth tables of a scenario, by estimand."""
    return {e: f"results/{study.name}/truth/{sc.name}/{e}.parquet" for e in estimands(sc.dgp)}


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


def claimed_methods(study: Study) -> set[str]:
    """The study's methods its claims name: in ``where.method`` or in a parameter that names
    methods (e.g. the theory a claim compares with)."""
    named = set()
    for claim in study.claims:
        method = claim["where"]["method"]
        named |= {method} if isinstance(method, str) else set(method)
        for key, param in CLAIMS.get(claim["kind"]).params.items():
            named |= set(named_values(param, claim.get(key), "refers", "methods"))
    return named


def claim_estimates(study: Study) -> list[str]:
    """The estimates the scorecard job reads directly: those of the methods the claims name,
    but for importances (read through the ranks) and summarised methods (read through the
    summary)."""
    named = claimed_methods(study)

    def read(m: str) -> bool:
        spec = _spec(study, m)
        return m in named and spec.kind != "importance" and spec.summarise is None

    return estimates_of(study, list(study.scenarios.values()), read)


def all_truths(study: Study) -> list[str]:
    return [p for sc in study.scenarios.values() for p in truth_paths(study, sc).values()]


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
        # a scenario may run no repetitions in a profile
        "data": [data_path(study.name, sc.name, "c0") for sc in scenarios
                 if sc.chunks and "data" in declared.tables],
    }
    return {kind: files[kind] for kind in FIGURE_INPUTS}


def _module_file(module: str) -> Path | None:
    """The source file of ``module``, or None when the name is not a module (a function)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ModuleNotFoundError, ValueError):
        return None
    return Path(spec.origin) if spec is not None and spec.origin else None


def figure_code(study: Study, fig: str) -> list[str]:
    """The source files of figure ``fig``'s function: its module and every module of its
    study's package or of :mod:`imlbench.figures` that it imports, directly or not."""
    scope = (f"imlbench.studies.{study.name}", "imlbench.figures")
    todo = [FIGURES.get(study.figures[fig]["function"]).draw.__module__]
    seen: dict[str, Path] = {}
    while todo:
        module = todo.pop()
        path = _module_file(module)
        if module in seen or path is None:
            continue
        seen[module] = path
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                # ``from package import module`` reads the module, not the package's other ones
                names = [f"{node.module}.{a.name}" if _module_file(f"{node.module}.{a.name}")
                         else node.module for a in node.names]
            else:
                continue
            todo += [n for n in names if n.startswith(scope) and _module_file(n) is not None]
    return sorted(str(p) for p in seen.values())


# --- fingerprints: what changes a job's values ----------------------------------------------


def data_fingerprint(sc: Scenario, chunk: str, base_seed: int) -> str:
    return config_hash([base_seed, sc.dgp, sc.params, sc.n, sc.n_test, sc.test_fraction,
                        list(sc.chunk_reps(chunk))])


def truth_fingerprint(sc: Scenario, base_seed: int) -> str:
    return config_hash([base_seed, sc.dgp, sc.params])


def _learners(study: Study, sc: Scenario) -> dict:
    return {lrn: [study.learners[lrn]["learner"], study.learner_params(lrn)]
            for lrn in sc.learners}


def fit_fingerprint(study: Study, sc: Scenario, base_seed: int) -> str:
    return config_hash([base_seed, _learners(study, sc)])


def explain_fingerprint(study: Study, sc: Scenario, base_seed: int) -> str:
    pairs = explain_pairs(study, sc)
    methods = {m: [study.methods[m]["method"], study.method_params(m)] for _, m in pairs}
    return config_hash([base_seed, _learners(study, sc), pairs, methods])


def claims_fingerprint(study: Study) -> str:
    return config_hash(study.claims)
