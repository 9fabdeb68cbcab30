"""Where the CPU of a workflow run goes: the numerical work by study, stage, learner and
method, and the workflow's own cost around it.

A run leaves three kinds of records under ``results/``:

- every job's Snakemake benchmark record (``<study>/benchmarks/<stage>/...tsv``: wall seconds,
  peak memory), and its log (``<study>/logs/...``), where the job writes one ``work`` line per
  piece of numerical work (sampling a chunk's data, fitting a learner, running a method,
  computing a truth, summarising, evaluating the claims, drawing a figure) with its CPU
  seconds, and at its end one ``process`` line with the CPU seconds of its whole process,
  interpreter start-up included (:mod:`imlbench.workclock`);
- ``benchmarks/snakemake.tsv``, written by Snakemake's process when the run ends: its own CPU
  seconds (building the graph, selecting jobs, sampling the benchmark records) and those of
  all the job processes it waited for.

The workflow's own cost is everything but the numerical work: Snakemake's process, the job
processes outside their ``work`` lines (interpreter start-up, imports, reading the study
file, Parquet I/O) and the shells around them. A run of the layout before the jobs were
batched (one data, fit and explain job per scenario chunk, fit and explain jobs the only ones
with ``work`` lines, no run record) is read too: its total CPU comes from ``--cpu-s`` (e.g.
``/usr/bin/time``'s user + system seconds), and the work of its jobs without ``work`` lines
is taken as their wall seconds less one job start-up (``--job-start``), an upper bound.

    uv run python benchmarks/workflow_breakdown.py --out benchmarks/results_breakdown.md \
        [--before OTHER_ROOT --before-cpu-s S --before-wall-s S]
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from imlbench.config import load_study, study_path
from imlbench.workclock import PROCESS_LINE, WORK_LINE

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("data", "fit", "explain", "run", "truth", "summaries", "claims", "figure",
          "figures", "scorecard")
#: the ``work`` line of the layout before batching: no item nor chunk (the log's path has them)
LEGACY_WORK_LINE = re.compile(
    r"work stage=(?P<stage>\S+) learner=(?P<learner>\S+) method=(?P<method>\S+) "
    r"cpu_s=(?P<cpu_s>[0-9.]+) wall_s=(?P<wall_s>[0-9.]+)")
#: median start-up of one job of the layout before batching (``benchmarks/job_start.py``,
#: 2026-11-23, 2 cores)
JOB_START_S = 1.09


def job_records(root: Path) -> pd.DataFrame:
    """One row per job: study, stage, job (the record's path below the stage), wall seconds
    ``s``, ``max_rss`` (MB)."""
    rows = []
    for path in sorted((root / "results").glob("**/benchmarks/**/*.tsv")):
        rel = path.relative_to(root / "results")
        if rel.parts[0] == "benchmarks":  # results/benchmarks/: the scorecard, the run record
            if path.name != "scorecard.tsv":
                continue
            study, stage, job = "(all)", "scorecard", "all"
        else:
            below = rel.parts[2:]
            study, stage = rel.parts[0], below[0].removesuffix(".tsv")
            job = "/".join(below[1:]).removesuffix(".tsv") or "all"
        rec = pd.read_csv(path, sep="\t").iloc[-1]
        rows.append({"study": study, "stage": stage, "job": job, "s": float(rec["s"]),
                     "max_rss": float(rec["max_rss"])})
    return pd.DataFrame(rows, columns=["study", "stage", "job", "s", "max_rss"])


def work_records(root: Path) -> pd.DataFrame:
    """One row per ``work`` line of the job logs: study, stage, item (scenario or figure),
    chunk, learner, learner kind, method, registered method, CPU and wall seconds."""
    rows = []
    specs: dict[str, tuple[dict, dict]] = {}
    for path in sorted((root / "results").glob("*/logs/**/*.log")):
        study = path.relative_to(root / "results").parts[0]
        rel = path.relative_to(root / "results" / study / "logs")
        if study not in specs:
            spec = load_study(study_path(root, study), "default")
            specs[study] = ({m: v["method"] for m, v in spec.methods.items()},
                            {lrn: v["learner"] for lrn, v in spec.learners.items()})
        registered, kinds = specs[study]
        for line in path.read_text().splitlines():
            if hit := WORK_LINE.search(line):
                item, chunk = hit["item"], hit["chunk"]
            elif hit := LEGACY_WORK_LINE.search(line):  # logs/<stage>/<scenario>/<chunk>.log
                item, chunk = rel.parts[-2], rel.stem
            else:
                continue
            rows.append({"study": study, "stage": hit["stage"], "item": item, "chunk": chunk,
                         "learner": hit["learner"],
                         "learner_kind": kinds.get(hit["learner"], hit["learner"]),
                         "method": hit["method"],
                         "registered": registered.get(hit["method"], "-"),
                         "cpu_s": float(hit["cpu_s"]), "wall_s": float(hit["wall_s"])})
    return pd.DataFrame(rows, columns=["study", "stage", "item", "chunk", "learner",
                                       "learner_kind", "method", "registered", "cpu_s",
                                       "wall_s"])


def process_seconds(root: Path) -> float:
    """The CPU seconds of every job process that logged its ``process`` line."""
    total = 0.0
    for path in (root / "results").glob("**/logs/**/*.log"):
        hits = PROCESS_LINE.findall(path.read_text())
        total += float(hits[-1]) if hits else 0.0
    return total


def run_record(root: Path) -> pd.Series | None:
    """The last row of ``results/benchmarks/snakemake.tsv`` (the run that did the work, when
    read right after a run on fresh results), or None."""
    path = root / "results" / "benchmarks" / "snakemake.tsv"
    return pd.read_csv(path, sep="\t").iloc[-1] if path.exists() else None


@dataclass
class Cost:
    """The CPU of a run, split into the numerical work and the workflow's own cost."""

    wall_s: float
    jobs: int
    total_cpu_s: float
    work_cpu_s: float
    #: the parts of the own cost: name -> CPU seconds
    own: dict[str, float]

    @property
    def own_share(self) -> float:
        return 1.0 - self.work_cpu_s / self.total_cpu_s


def cost(root: Path, jobs: pd.DataFrame, work: pd.DataFrame, cpu_s: float | None,
         wall_s: float | None, job_start: float) -> Cost:
    """The run's :class:`Cost`, from its run record, or from ``cpu_s`` and ``wall_s`` (and
    an upper bound of the work of jobs without ``work`` lines) for a run without one."""
    record = run_record(root)
    clocked = work["cpu_s"].sum()
    if record is not None:
        processes = process_seconds(root)
        own = {"Snakemake's process": float(record["snakemake_cpu_s"]),
               "job processes outside their work (start-up, imports, Parquet I/O)":
                   processes - clocked,
               "around the job processes (shells, subprocesses)":
                   float(record["jobs_cpu_s"]) - processes}
        total = float(record["snakemake_cpu_s"]) + float(record["jobs_cpu_s"])
        return Cost(wall_s if wall_s is not None else float(record["wall_s"]), len(jobs),
                    total, clocked, own)
    if cpu_s is None or wall_s is None:
        raise SystemExit(f"{root}: no run record (results/benchmarks/snakemake.tsv); give its "
                         "total CPU and wall seconds")
    has_work = set(work["stage"])
    unclocked = jobs[~jobs["stage"].isin(has_work)]
    unclocked_work = (unclocked["s"] - job_start).clip(lower=0.0).sum()
    work_s = clocked + unclocked_work
    own = {"everything but the work (Snakemake's process, start-ups, I/O)": cpu_s - work_s}
    return Cost(wall_s, len(jobs), cpu_s, work_s, own)


def _table(df: pd.DataFrame) -> str:
    return df.to_markdown(index=False, floatfmt=".1f")


def _share(df: pd.DataFrame, column: str, total: float) -> pd.DataFrame:
    df["share %"] = 100 * df[column] / total
    return df.sort_values(column, ascending=False)


def critical_path(jobs: pd.DataFrame) -> tuple[float, str]:
    """Seconds of the longest chain of the run's graph, and its study: the slowest of a
    study's first jobs (run, or data + fit + explain of one chunk, or truth), its summaries,
    its slowest claims or figure job, and the scorecard."""
    best, where = 0.0, ""
    card = jobs.loc[jobs["stage"] == "scorecard", "s"].sum()
    for study, part in jobs[jobs["study"] != "(all)"].groupby("study"):
        chunks = part[part["stage"].isin(["data", "fit", "explain"])].copy()
        chunks["chunk"] = chunks["job"]
        first = max(part.loc[part["stage"].isin(["run", "truth"]), "s"].max(),
                    chunks.groupby("chunk")["s"].sum().max() if len(chunks) else 0.0)
        tail = part.loc[part["stage"].isin(["claims", "figure", "figures"]), "s"].max()
        total = (first + part.loc[part["stage"] == "summaries", "s"].sum()
                 + (0.0 if pd.isna(tail) else tail) + card)
        if total > best:
            best, where = total, study
    return best, where


def breakdown(jobs: pd.DataFrame, work: pd.DataFrame, run: Cost) -> str:
    """The tables of one run."""
    total = run.total_cpu_s
    out = [f"{run.jobs} jobs, {total:.0f} CPU s ({total / 60:.1f} min), of which "
           f"{run.work_cpu_s:.0f} s numerical work and {100 * run.own_share:.1f}% the "
           "workflow's own cost.", ""]
    own = pd.DataFrame([{"own cost": k, "cpu_s": v} for k, v in run.own.items()])
    out += ["### The workflow's own cost", "", _table(_share(own, "cpu_s", total)), ""]

    by = (jobs.groupby(["study", "stage"])["s"].agg(["count", "sum"]).reset_index()
          .rename(columns={"count": "jobs", "sum": "job seconds"}))
    by["stage"] = pd.Categorical(by["stage"], STAGES, ordered=True)
    out += ["### Jobs by study and stage (wall seconds of the benchmark records)", "",
            _table(by.sort_values(["study", "stage"])), ""]
    stage = work.groupby("stage")["cpu_s"].sum().reset_index()
    out += ["### Numerical work by stage (CPU s)", "", _table(_share(stage, "cpu_s", total)),
            ""]
    fit = work[work["stage"] == "fit"].groupby("learner_kind")["cpu_s"].sum().reset_index()
    out += ["### Fitting by learner (CPU s)", "", _table(_share(fit, "cpu_s", total)), ""]
    ex = work[work["stage"] == "explain"]
    for key, title in (("learner_kind", "learner"), ("registered", "method (registered name)")):
        t = ex.groupby(key)["cpu_s"].sum().reset_index()
        out += [f"### Explaining by {title} (CPU s inside the method)", "",
                _table(_share(t, "cpu_s", total)), ""]
    top = (ex.groupby(["study", "item", "learner", "method"])["cpu_s"].sum().reset_index()
           .rename(columns={"item": "scenario"})
           .sort_values("cpu_s", ascending=False).head(20))
    out += ["### The 20 largest (scenario, learner, method) items", "", _table(top), ""]

    path, where = critical_path(jobs)
    seconds = jobs["s"].sum()
    cores = pd.DataFrame({"cores": [1, 2, 4, 8, 16]})
    cores["wall lower bound (min)"] = [max(path, seconds / c) / 60 for c in cores["cores"]]
    out += ["### Critical path and cores", "",
            f"Critical path {path:.0f} s ({path / 60:.1f} min, through `{where}`) against "
            f"{seconds:.0f} job seconds: wall >= max(path, job seconds / cores).", "",
            _table(cores), ""]
    return "\n".join(out)


def comparison(before: Cost, after: Cost) -> str:
    rows = [("wall", f"{before.wall_s / 60:.1f} min", f"{after.wall_s / 60:.1f} min",
             f"{after.wall_s / before.wall_s:.2f}"),
            ("jobs", f"{before.jobs}", f"{after.jobs}", f"{after.jobs / before.jobs:.2f}"),
            ("CPU, all processes", f"{before.total_cpu_s / 60:.1f} min",
             f"{after.total_cpu_s / 60:.1f} min",
             f"{after.total_cpu_s / before.total_cpu_s:.2f}"),
            ("numerical work (CPU)", f"{before.work_cpu_s / 60:.1f} min",
             f"{after.work_cpu_s / 60:.1f} min",
             f"{after.work_cpu_s / before.work_cpu_s:.2f}"),
            ("the workflow's own cost, share of the CPU", f"{100 * before.own_share:.1f}%",
             f"{100 * after.own_share:.1f}%", "")]
    return pd.DataFrame(rows, columns=["", "before", "after", "after / before"]).to_markdown(
        index=False, disable_numparse=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--cpu-s", type=float, help="total CPU seconds, for a run without record")
    ap.add_argument("--wall-s", type=float, help="wall seconds of the run (`time`)")
    ap.add_argument("--before", type=Path, help="the root of a run to compare with")
    ap.add_argument("--before-cpu-s", type=float)
    ap.add_argument("--before-wall-s", type=float)
    ap.add_argument("--job-start", type=float, default=JOB_START_S)
    ap.add_argument("--out", type=Path, default=None, help="write the tables here (markdown)")
    args = ap.parse_args()
    jobs, work = job_records(args.root), work_records(args.root)
    if jobs.empty:
        raise SystemExit(f"no benchmark records under {args.root / 'results'}")
    after = cost(args.root, jobs, work, args.cpu_s, args.wall_s, args.job_start)
    text = [f"The workflow's own cost: {100 * after.own_share:.1f}% of the run's CPU.", ""]
    if args.before is not None:
        b_jobs, b_work = job_records(args.before), work_records(args.before)
        before = cost(args.before, b_jobs, b_work, args.before_cpu_s, args.before_wall_s,
                      args.job_start)
        text += ["## Before and after", "", comparison(before, after), "",
                 "## After", "", breakdown(jobs, work, after), "",
                 "## Before", "", breakdown(b_jobs, b_work, before)]
    else:
        text += [breakdown(jobs, work, after)]
    if args.out:
        args.out.write_text("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
