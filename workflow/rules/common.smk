# Checks config/config.yaml and every enabled study file once, before any job runs (the jobs
# read their study without checking it again, and so does the Snakemake process a cluster
# executor starts per job), and computes each rule's files from the studies (imlbench.targets).
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from imlbench import studies, targets  # noqa: E402
from imlbench.config import ConfigError, load_study, study_path  # noqa: E402
from imlbench.validate import check_config  # noqa: E402

if workflow.is_main_process:
    try:
        CFG, STUDIES = check_config(Path.cwd(), dict(config))
    except ConfigError as exc:
        raise WorkflowError(f"configuration error: {exc}") from None
else:  # a job that a cluster executor runs: the main process has checked the configuration
    CFG = dict(config)
    STUDIES = {s: load_study(study_path(Path.cwd(), s), CFG["profile"]) for s in CFG["studies"]}
    studies.load(STUDIES, figures=True)

PROFILE = CFG["profile"]
SEED = CFG["base_seed"]
MAX_ROWS = CFG.get("max_rows_per_predict", 1_000_000)
# the interpreter running Snakemake, so jobs see the same environment whatever PATH is
PY = f"{sys.executable} -m imlbench"
CLI = f"{PY} --root . --profile {PROFILE} --base-seed {SEED} --max-rows {MAX_ROWS}"
# the software of every job: the environment equivalent to pyproject.toml and uv.lock
ENV = "../../environment.yml"


def safe(name):
    """A rule-name-safe version of a scenario name."""
    return name.replace(".", "p").replace("-", "_")


def pairs(mapping):
    """``name=path`` command-line arguments of a named input or output."""
    return " ".join(f"{k}={v}" for k, v in mapping.items())


ALL_TARGETS = [
    *(f"results/{s.name}/figures/{fig}.{ext}" for s in STUDIES.values()
      for fig in s.figures for ext in ("png", "pdf")),
    # every estimate and truth, also those no figure or claim reads yet
    *(p for s in STUDIES.values() for p in targets.estimates_of(s, list(s.scenarios.values()))),
    *(p for s in STUDIES.values() for p in targets.all_truths(s)),
    *(p for s in STUDIES for p in targets.metrics_paths(s).values()),
    *(f"results/{s}/scorecard.parquet" for s in STUDIES),
    "results/SCORECARD.md",
    "results/scorecard.html",
]
