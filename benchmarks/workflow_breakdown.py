"""Where the time of a workflow run goes: by study, stage, learner and method, and outside them.

Every job writes Snakemake's benchmark record (wall seconds ``s``, peak memory) under
``results/<study>/benchmarks/<stage>/<scenario>/<chunk>.tsv``, and the fit and explain jobs log
one ``work`` line per learner or (learner, method) with the CPU seconds spent inside the
estimator or the method (:mod:`imlbench.workclock`). A job's cost is its wall seconds: the jobs
compute on one thread, so on a machine without other load their wall time is their CPU time
plus the moments they wait for a core. The record's ``cpu_time`` is no substitute: Snakemake
samples it every 0.5 s for 30 s and every 30 s after, so it misses the end of every job (in
the default run, the methods' own CPU seconds exceeded their jobs' ``cpu_time``).
This script reads both after a run and writes:

- the job seconds by study and stage (data, fit, explain, truth, summaries, claims, figure,
  scorecard);
- the fit seconds by learner and the explain seconds by learner and by method;
- the share outside the numerical work: job seconds not inside a fit or a method (interpreter
  start, imports, validation, Parquet and model I/O), the start-up of the other jobs
  (``--job-start`` seconds each, from ``benchmarks/job_start.py``), and the DAG building of
  Snakemake itself (a dry run on the finished results, timed here with ``--time-dag``);
- the critical path of the run's DAG (data -> fit -> explain of the longest chunk, or the
  slowest truth, then the study's summaries, its slowest claims or figure job, and the
  scorecard) against the total, so that the wall time on more cores can be bounded:
  wall >= max(critical path, total / cores).

    uv run python benchmarks/workflow_breakdown.py --time-dag \
        --out benchmarks/results_breakdown.md
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from imlbench.config import load_study, study_path
from imlbench.workclock import WORK_LINE

ROOT = Path(__file__).resolve().parents[1]

STAGES = ("data", "fit", "explain", "truth", "summaries", "claims", "figure", "scorecard")
#: median start-up of one job measured by ``benchmarks/job_start.py`` (2026-11-23, 2 cores)
JOB_START_S = 1.09


def job_records(root: Path) -> pd.DataFrame:
    """One row per job: study, stage, scenario, chunk, wall seconds ``s``, CPU seconds ``cpu``,
    ``max_rss`` (MB)."""
    rows = []
    for path in sorted((root / "results").glob("*/benchmarks/*/*/*.tsv")):
        rec = pd.read_csv(path, sep="\t").iloc[-1]
        study = path.parents[3].name
        rows.append({"study": study, "stage": path.parents[1].name, "scenario": path.parent.name,
                     "chunk": path.stem, "s": float(rec["s"]), "cpu": float(rec["cpu_time"]),
                     "max_rss": float(rec["max_rss"])})
    card = root / "results" / "benchmarks" / "scorecard.tsv"
    if card.exists():
        rec = pd.read_csv(card, sep="\t").iloc[-1]
        rows.append({"study": "(all)", "stage": "scorecard", "scenario": "all", "chunk": "all",
                     "s": float(rec["s"]), "cpu": float(rec["cpu_time"]),
                     "max_rss": float(rec["max_rss"])})
    return pd.DataFrame(rows)


def work_records(root: Path) -> pd.DataFrame:
    """One row per ``work`` line of the fit and explain logs, with the method's registered name."""
    rows = []
    registered: dict[str, dict[str, str]] = {}
    kinds: dict[str, dict[str, str]] = {}
    for path in sorted((root / "results").glob("*/logs/*/*/*.log")):
        study, stage = path.parents[3].name, path.parents[1].name
        if stage not in ("fit", "explain"):
            continue
        if study not in registered:
            spec = load_study(study_path(root, study), "default")
            registered[study] = {m: v["method"] for m, v in spec.methods.items()}
            kinds[study] = {lrn: v["learner"] for lrn, v in spec.learners.items()}
        for line in path.read_text().splitlines():
            hit = WORK_LINE.search(line)
            if hit:
                m = hit["method"]
                rows.append({"study": study, "stage": stage, "scenario": path.parent.name,
                             "chunk": path.stem, "learner": hit["learner"],
                             "learner_kind": kinds[study].get(hit["learner"], hit["learner"]),
                             "method": m,
                             "registered": registered[study].get(m, "-"),
                             "cpu_s": float(hit["cpu_s"]), "wall_s": float(hit["wall_s"])})
    return pd.DataFrame(rows)


def critical_path(jobs: pd.DataFrame) -> tuple[float, str]:
    """Seconds of the longest dependency chain of the run, and the study it runs through."""
    best, where = 0.0, ""
    per = jobs.pivot_table(index=["study", "scenario", "chunk"], columns="stage", values="s",
                           aggfunc="sum", fill_value=0.0)
    card = jobs.loc[jobs["stage"] == "scorecard", "s"].sum()
    for study, part in jobs[jobs["study"] != "(all)"].groupby("study"):
        chains = per.loc[study]
        chain = (chains.reindex(columns=["data", "fit", "explain"], fill_value=0.0)
                 .sum(axis=1).max())
        truth = part.loc[part["stage"] == "truth", "s"].max()
        summaries = part.loc[part["stage"] == "summaries", "s"].sum()
        tail = part.loc[part["stage"].isin(["claims", "figure"]), "s"].max()
        total = (max(chain, 0.0 if pd.isna(truth) else truth) + summaries
                 + (0.0 if pd.isna(tail) else tail) + card)
        if total > best:
            best, where = total, study
    return best, where


def _table(df: pd.DataFrame) -> str:
    return df.to_markdown(index=False, floatfmt=".1f")


def dag_seconds(root: Path) -> float:
    """Wall seconds of a dry run on the finished results (DAG building and checks only)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "2", "--quiet", "all"],
                   cwd=root, check=True, capture_output=True)
    return time.perf_counter() - t0


def report(root: Path, job_start: float, dag: float | None) -> str:
    jobs, work = job_records(root), work_records(root)
    if jobs.empty:
        raise SystemExit(f"no benchmark records under {root / 'results'}")
    total, cpu = jobs["s"].sum(), jobs["cpu"].sum()
    out = [f"{total:.0f} job seconds ({total / 60:.1f} min) in {len(jobs)} jobs (Snakemake's "
           f"sampled cpu_time: {cpu:.0f} s).", ""]

    by = (jobs.groupby(["study", "stage"])["s"].agg(["count", "sum"]).reset_index()
          .rename(columns={"count": "jobs", "sum": "seconds"}))
    by["share %"] = 100 * by["seconds"] / total
    by["stage"] = pd.Categorical(by["stage"], STAGES, ordered=True)
    out += ["## By study and stage", "", _table(by.sort_values(["study", "stage"])), ""]
    study = by.groupby("study", observed=True)[["jobs", "seconds"]].sum().reset_index()
    study["share %"] = 100 * study["seconds"] / total
    out += ["## By study", "", _table(study.sort_values("seconds", ascending=False)), ""]

    fit = work[work["stage"] == "fit"].groupby("learner_kind")["cpu_s"].sum().reset_index()
    fit["share %"] = 100 * fit["cpu_s"] / total
    out += ["## Fitting by learner (CPU s inside `fit`)", "",
            _table(fit.sort_values("cpu_s", ascending=False)), ""]
    ex = work[work["stage"] == "explain"]
    for key, title in (("learner_kind", "learner"), ("registered", "method (registered name)")):
        t = ex.groupby(key)["cpu_s"].sum().reset_index()
        t["share %"] = 100 * t["cpu_s"] / total
        out += [f"## Explaining by {title} (CPU s inside the method)", "",
                _table(t.sort_values("cpu_s", ascending=False)), ""]
    top = (ex.groupby(["study", "scenario", "learner", "method"])["cpu_s"].sum().reset_index()
           .sort_values("cpu_s", ascending=False).head(20))
    out += ["## The 20 largest (scenario, learner, method) items", "", _table(top), ""]

    inside = work.groupby(["study", "stage", "scenario", "chunk"])["cpu_s"].sum()
    fe = jobs[jobs["stage"].isin(["fit", "explain"])].set_index(
        ["study", "stage", "scenario", "chunk"])["s"]
    fe_out = (fe - inside.reindex(fe.index, fill_value=0.0)).clip(lower=0.0).sum()
    others = jobs[~jobs["stage"].isin(["fit", "explain"])]
    rows = [
        ("fit and explain jobs: outside the estimator and the methods", fe_out),
        (f"other jobs: start-up ({len(others)} jobs x {job_start:.2f} s)",
         len(others) * job_start),
    ]
    if dag is not None:
        rows.append(("Snakemake: building the DAG and checking outputs (dry run)", dag))
    over = pd.DataFrame(rows, columns=["outside the numerical work", "seconds"])
    over["share %"] = 100 * over["seconds"] / total
    out += ["## Outside the numerical work", "", _table(over), ""]

    path, where = critical_path(jobs)
    cores = pd.DataFrame({"cores": [1, 2, 4, 8, 16]})
    cores["wall lower bound (min)"] = [max(path, total / c) / 60 for c in cores["cores"]]
    out += ["## Critical path and cores", "",
            f"Critical path {path:.0f} s ({path / 60:.1f} min, through `{where}`) against "
            f"{total:.0f} s of jobs: no number of cores brings the wall time below the path.", "",
            _table(cores), ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--job-start", type=float, default=JOB_START_S)
    ap.add_argument("--time-dag", action="store_true", help="time a dry run (DAG building)")
    ap.add_argument("--out", type=Path, default=None, help="write the tables here (markdown)")
    args = ap.parse_args()
    text = report(args.root, args.job_start, dag_seconds(args.root) if args.time_dag else None)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
