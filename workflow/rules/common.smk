# Validates config/config.yaml and every enabled study file before any job runs,
# and computes the outputs of each stage from the study files.
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from imlbench.compare import COMPARED_KINDS  # noqa: E402
from imlbench.config import ConfigError, config_hash, load_config  # noqa: E402
from imlbench.truth import ESTIMANDS  # noqa: E402

try:
    CFG, STUDIES = load_config(Path.cwd(), dict(config))
except ConfigError as exc:
    raise WorkflowError(f"configuration error: {exc}") from None

PROFILE = CFG["profile"]
SEED = CFG["base_seed"]
MAX_ROWS = CFG.get("max_rows_per_predict", 1_000_000)
# the interpreter running Snakemake, so jobs see the same environment whatever PATH is
PY = f"{sys.executable} -m imlbench"
CLI = f"{PY} --root . --profile {PROFILE} --base-seed {SEED} --max-rows {MAX_ROWS}"


def safe(name):
    """A rule-name-safe version of a scenario name."""
    return name.replace(".", "p").replace("-", "_")


def data_path(study, scenario, chunk):
    return f"results/{study}/data/{scenario}/{chunk}.parquet"


def model_path(study, scenario, learner, chunk):
    return f"results/{study}/models/{scenario}/{learner}/{chunk}.joblib"


def estimate_path(study, scenario, learner, method, chunk):
    return f"results/{study}/estimates/{scenario}/{learner}/{method}/{chunk}.parquet"


def truth_paths(study, sc):
    return {e: f"results/{study}/truth/{sc.name}/{e}.parquet" for e in ESTIMANDS.get(sc.dgp, ())}


def estimates_of(study, scenarios, kinds=None):
    """Estimate files of ``scenarios``, optionally only of methods of the given kinds."""
    return [
        estimate_path(study.name, sc.name, learner, m, chunk)
        for sc in scenarios
        for learner in sc.learners
        for m in study.methods_for(sc.name, learner)
        if kinds is None or study.method_kind(m) in kinds
        for chunk in sc.chunks
    ]


def fingerprint(*parts):
    """Parameters that change results: a change reruns the job (rerun trigger: params)."""
    return config_hash([PROFILE, SEED, *parts])


def figure_targets(study):
    return [
        f"results/{study.name}/figures/{fig}.{ext}"
        for fig in study.figures
        for ext in ("png", "pdf")
    ]


ALL_TARGETS = [
    *(t for s in STUDIES.values() for t in figure_targets(s)),
    # every estimate and truth, also those no figure or claim reads yet
    *(p for s in STUDIES.values() for p in estimates_of(s, s.scenarios.values())),
    *(p for s in STUDIES.values() for sc in s.scenarios.values()
      for p in truth_paths(s.name, sc).values()),
    *(f"results/{s}/scorecard.parquet" for s in STUDIES),
    "results/SCORECARD.md",
    "results/scorecard.html",
]
