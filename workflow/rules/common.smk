# Checks config/config.yaml and every enabled study file once, before any job runs (the jobs
# read their study without checking it again, and so does the Snakemake process a cluster
# executor starts per job), and computes each rule's files from the studies (imlbench.targets).
# Every name in a path or a command has passed the check's strict name patterns, and every
# value that reaches a shell command is quoted (`:q`).
import os
import shlex
import sys
import time
from pathlib import Path

from imlbench import interrupt, jobenv, runinfo, runlock, studies, targets, workclock
from imlbench.config import ConfigError, load_study, study_path
from imlbench.validate import check_config

STARTED = time.perf_counter()
if workflow.is_main_process:
    # Ctrl-C stops the run whenever it comes, with exit status 1 (imlbench.interrupt)
    interrupt.watch(workflow)
    # An interrupted run resumes with the same command (imlbench.runlock): what a dead run
    # left (locks, temporary files, outputs of the jobs it had started) is cleared, so those
    # jobs run again.
    RUN_LOCK = runlock.hold(Path.cwd())
    if RUN_LOCK is not None:
        runlock.clear_stale(Path.cwd())
    try:
        # `snakemake --report` reports on the last completed run: its profile and studies
        # (results/run.json) unless --config sets them
        config.update(
            runinfo.workflow_config(config, workflow.config_settings.config, Path.cwd(), sys.argv)
        )
        CFG, STUDIES = check_config(Path.cwd(), dict(config))
    except ConfigError as exc:
        raise WorkflowError(f"configuration error: {exc}") from None
else:  # a job that a cluster executor runs: the main process has checked the configuration
    CFG = dict(config)
    STUDIES = {s: load_study(study_path(Path.cwd(), s), CFG["profile"]) for s in CFG["studies"]}
    studies.load(STUDIES, figures=True)

PROFILE = CFG["profile"]
# the cores of the run, which an `exclusive` scenario's jobs claim (1 when none are given, as
# for `--report`, which runs no job)
ALL_CORES = workflow.resource_settings.cores or 1
SEED = CFG["base_seed"]
MAX_ROWS = CFG.get("max_rows_per_predict", 1_000_000)
# the environment's interpreter, found on PATH where the job runs (the project's environment
# under `uv run`, the rule's conda environment with `--sdm conda`, a container's), never the
# absolute path of the submitting host's
PY = "python -m imlbench"
CLI = shlex.join(
    [
        "python",
        "-m",
        "imlbench",
        "--root",
        ".",
        "--profile",
        PROFILE,
        "--base-seed",
        str(SEED),
        "--max-rows",
        str(MAX_ROWS),
    ]
)
# the software of every job: the environment equivalent to pyproject.toml and uv.lock
ENV = "../../environment.yml"


def check_job_interpreter():
    """Before a local run starts its first job (``onstart``; a dry run, `--lint` or `--report`
    runs no job and needs no interpreter): the jobs' `python` must be the environment running
    Snakemake, unless a deployment method (`--sdm conda`, a container) provides their software."""
    if workflow.deployment_settings.deployment_method or jobenv.same_interpreter("python"):
        return
    raise WorkflowError(
        "the jobs run `python -m imlbench` with the `python` found on PATH, which is not the "
        f"environment running Snakemake ({sys.prefix}): run `uv run snakemake ...`, or "
        "activate that environment first"
    )


# the report's caption of each figure, from its study-file entry (written when the workflow is
# read, so that `snakemake --report` shows the current text)
CAPTIONS = Path(".snakemake") / "imlbench" / "captions"


def caption_file(study, fig):
    """The report caption of a figure, relative to the rule files (written by the main
    process; a job only needs the name)."""
    path = CAPTIONS / study / f"{fig}.rst"
    if workflow.is_main_process:
        spec = STUDIES[study].figures[fig]
        path.parent.mkdir(parents=True, exist_ok=True)
        text = f"**{spec['title']}** ({study}, {fig})\n\n{spec['caption']}\n"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return os.path.relpath(Path.cwd() / path, Path(workflow.current_basedir))


def pairs(mapping):
    """``name=path`` command-line arguments of a named input or output (quote with `:q`)."""
    return [f"{k}={v}" for k, v in mapping.items()]


ALL_TARGETS = [
    *(
        p
        for s in STUDIES.values()
        for fig in s.figures
        for p in targets.figure_paths(s.name, fig).values()
    ),
    # every output of every run job (its data and estimates, also those no figure or claim
    # reads): a run job whose outputs are not all present runs again, so a data file removed
    # while a killed run's orphaned job wrote its estimates comes back (imlbench.runlock)
    *(
        p
        for s in STUDIES.values()
        for batch in targets.batches(s)
        for p in targets.batch_outputs(s, batch)
    ),
    *(p for s in STUDIES.values() for p in targets.all_truths(s)),
    *(p for s in STUDIES for p in targets.metrics_paths(s).values()),
    *(f"results/{s}/scorecard.parquet" for s in STUDIES),
    "results/SCORECARD.md",
    "results/scorecard.html",
]
_outside = targets.outside_results(ALL_TARGETS)
if _outside:
    raise WorkflowError(f"output paths outside results/: {', '.join(_outside[:5])}")
