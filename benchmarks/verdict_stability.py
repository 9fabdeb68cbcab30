"""Do the scorecard's verdicts hold when the random streams change? Rerun the studies at their
default profile under other base seeds and compare every scored row's verdict.

Each seed runs in its own copy of the project under ``--work`` (the Snakefile, the
configuration, the workflow and the package source, as a user's clone holds them), with
``--config base_seed=<seed>``; a copy that exists is brought up to date with this checkout and
run again, so that only the jobs whose code or configuration changed rerun (a change of a claim
kind reruns the claims, not the estimates). The verdicts of ``--base`` (a default-profile run
of this checkout, e.g. ``results``) are the reference.

    uv run python benchmarks/verdict_stability.py --seeds 2022 2023 --work /tmp/verdicts \\
        --base results --out benchmarks/results_verdicts.md
    uv run python benchmarks/verdict_stability.py --base results --rescore --misses-only

A row is identified by its study, claim, scenario, learner, method and its place among the
claim's rows of the same (scenario, learner, method) (a claim with one row per feature or
pair). A row changes when its verdict differs between seeds, ``reproduced`` and
``consistent`` counting as one (both pass; they differ in the check's power, which moves with
its SE); rows that move between those two only are counted and listed apart. Rows ``no
data`` or ``not run in this profile`` under every seed are not scored, nor rows that fewer
than two seeds ran (a seed run of fewer studies: ``--studies``). The
table counts, per study, the scored rows and those whose verdict is not the same under all
seeds, and lists the latter. A second file (``--misses-out``, ``results_misses.md``) lists
every default-profile row of the base seed that does not reproduce (``not reproduced`` or
``inconclusive``), which ``tests/test_claim_reasons.py`` reads: every such row needs a reason
in its study file. ``--misses-only`` writes that file alone from the base tree (with
``--rescore``: after a change of claims, in minutes and without a run).

With ``--rescore`` every tree's estimates, truths and summaries (the base's and each seed's)
are scored again with this checkout's claims (``benchmarks/rescore.py``) instead of read from
its scorecards: a change of claims or claim kinds is then compared without running anything
(``--compare-only --rescore``), and a tree may be a run of an earlier commit whose run stage
computes the same values (a change of names only). The file says so.

Exits 1 when more than ``--max-share`` of the scored rows change verdict.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
from rescore import rescore  # this folder's (the script's own folder is on the path)

from imlbench.io import read_parquet
from imlbench.metrics.claims import CONSISTENT, CONSISTENT_SHARE, REPRODUCED

REPO = Path(__file__).resolve().parents[1]
#: the project's environment, whose snakemake and python the runs use
BIN = (REPO / ".venv").resolve() / "bin"
KEY = ["study", "claim", "scenario", "learner", "method", "occurrence"]
UNSCORED = ("no data", "not run in this profile", "reported")
MISSES = ("not reproduced", "inconclusive")


def sync_project(dst: Path) -> None:
    """Make ``dst`` hold this checkout's Snakefile, configuration, workflow and source,
    leaving its ``results`` and ``.snakemake`` in place: files whose content did not change
    keep their modification times, files gone from the checkout go."""
    dst.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "environment.yml", "environment.post-deploy.sh",
                 "config", "workflow", "src"):
        src = REPO / name
        files = [src] if src.is_file() else [p for p in src.rglob("*")
                                              if p.is_file() and "__pycache__" not in p.parts]
        wanted = {dst / p.relative_to(REPO) for p in files}
        for p in files:
            target = dst / p.relative_to(REPO)
            if not target.is_file() or not filecmp.cmp(p, target, shallow=False):
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(p, target)
        if src.is_dir():
            for old in (dst / name).rglob("*"):
                if old.is_file() and "__pycache__" not in old.parts and old not in wanted:
                    old.unlink()
    if not (dst / "profiles").is_symlink():
        (dst / "profiles").symlink_to(os.readlink(REPO / "profiles"))


def run_seed(dst: Path, seed: int, cores: int, studies: list[str] | None = None,
             scorecards_only: bool = False) -> float:
    """The default profile under base seed ``seed`` in ``dst`` (of ``studies``, default those
    of ``config/config.yaml``; up to the studies' scorecards when ``scorecards_only``, no
    figures); returns the wall time. The jobs import the copy's own ``src``, not this
    checkout's, so that editing this checkout during a run does not reach it."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str((dst / "src").resolve())}
    started = time.perf_counter()
    with open(dst / "console.txt", "w") as console:
        only = [f"studies={json.dumps(studies)}"] if studies else []
        until = ["--until", "claims"] if scorecards_only else []
        res = subprocess.run([str(BIN / "snakemake"), "--cores", str(cores), *until,
                              "--config", f"base_seed={seed}", *only],
                             cwd=dst, env=env, stdout=console, stderr=subprocess.STDOUT)
    if res.returncode:
        sys.exit(f"seed {seed}: the run failed; see {dst / 'console.txt'}")
    return time.perf_counter() - started


def verdicts(results: Path, rescore_seed: int | None = None) -> pd.DataFrame:
    """Every row of every study scorecard under ``results``, with its :data:`KEY`; with
    ``rescore_seed``, each scored again with this checkout's claims (:func:`rescore.rescore`)."""
    frames = []
    for card in sorted(results.glob("*/scorecard.parquet")):
        study = card.parent.name
        df = (read_parquet(card) if rescore_seed is None
              else rescore(results, study, "default", rescore_seed))
        df = df.assign(study=study)
        df["occurrence"] = df.groupby(["claim", "scenario", "learner", "method"]).cumcount()
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def compare(runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per scorecard row with its verdict under every run (columns: the run names)."""
    wide = None
    for name, df in runs.items():
        v = df[[*KEY, "verdict"]].rename(columns={"verdict": name})
        wide = v if wide is None else wide.merge(v, on=KEY, how="outer")
    names = list(runs)
    # a row counts where at least two runs score it (a run of fewer studies has no row)
    scored = wide[names].notna().sum(axis=1).ge(2) & ~wide[names].isin(UNSCORED).all(axis=1)
    wide = wide[scored].copy()
    # a pass with and without the power to fail (reproduced, consistent) is one outcome: a row
    # whose power sits near CONSISTENT_SHARE moves between them with the SE, its finding does not
    outcome = wide[names].replace({CONSISTENT: REPRODUCED})
    wide["changed"] = outcome.nunique(axis=1) > 1
    wide["changed_power"] = (wide[names].nunique(axis=1) > 1) & ~wide["changed"]
    return wide


def commit() -> str:
    """This checkout's commit (short), marked when files differ from it."""
    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout
    dirty = " with uncommitted changes" if git("status", "--porcelain", "--", "src", "config",
                                               "workflow").strip() else ""
    return f"`{git('rev-parse', '--short', 'HEAD').strip()}`{dirty}"


def report(wide: pd.DataFrame, names: list[str], times: dict[str, float], max_share: float,
           runs_studies: dict[str, list[str]], rescored: bool) -> str:
    by = wide.groupby("study", sort=False).agg(scored=("changed", "size"),
                                               changed=("changed", "sum"),
                                               power=("changed_power", "sum"))
    by.loc["all"] = by.sum()
    by = by.astype(int)
    by["share"] = by["changed"] / by["scored"]
    by["any_share"] = (by["changed"] + by["power"]) / by["scored"]
    covered = {name: ", ".join(sorted(set(runs_studies[name]))) for name in names}
    lines = ["# Verdict stability across base seeds", "",
             "Written by `benchmarks/verdict_stability.py` (its docstring says how) at commit "
             f"{commit()}. Default "
             f"profile, base seeds {', '.join(names)}; a row changes when its verdict is not "
             f"the same under all of them, `reproduced` and `consistent` (a pass without the "
             f"power to fail) counting as one: a row whose power sits near the "
             f"{CONSISTENT_SHARE:.0%} mark moves between the two with its SE while its "
             f"finding stays. Rows that move only between those two are counted apart (power "
             f"only). Limit: {max_share:.0%} of the scored rows changing. Across machines "
             "(BLAS kernels and threads): `results_blas_kernels.md`.", ""]
    lines += ["Studies per seed: " + "; ".join(f"{k}: {v}" for k, v in covered.items()) + ".",
              ""]
    if rescored:
        lines += ["Every seed's estimates, truths and summaries scored again with this "
                  "checkout's claims (`--rescore`).", ""]
    if times:
        lines += ["Wall time per seed (2 cores, the studies it ran): "
                  + ", ".join(f"{k}: {v / 60:.1f} min" for k, v in times.items()) + ".", ""]
    lines += ["| study | scored rows | changed | share | power only | share of any change |",
              "|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r.Index} | {r.scored} | {r.changed} | {r.share:.1%} | {r.power} | "
              f"{r.any_share:.1%} |" for r in by.itertuples()]
    for title, flips in (("Rows whose verdict changes", wide[wide["changed"]]),
                         ("Rows that move between reproduced and consistent only",
                          wide[wide["changed_power"]])):
        lines += ["", f"## {title}", ""]
        if flips.empty:
            lines.append("None.")
            continue
        lines += ["| study | claim | scenario | learner | method | " + " | ".join(names) + " |",
                  "|---|---|---|---|---|" + "---|" * len(names)]
        lines += ["| " + " | ".join(str(r[c]) for c in
                                    ["study", "claim", "scenario", "learner", "method", *names])
                  + " |" for _, r in flips.iterrows()]
    return "\n".join(lines) + "\n"


def misses_report(base: pd.DataFrame, seed: str, rescored: bool) -> str:
    """Every row of the base tree that does not reproduce, with the studies it holds."""
    misses = base[base["verdict"].isin(MISSES)]
    how = (" (its estimates, truths and summaries scored again with this checkout's claims: "
           "`--rescore`)" if rescored else "")
    studies = ", ".join(sorted(base["study"].unique()))
    lines = ["# Default-profile rows that do not reproduce", "",
             f"Written by `benchmarks/verdict_stability.py` at commit {commit()} from the "
             f"default-profile run of base seed {seed}{how}, studies {studies}: every "
             "row `not reproduced` or `inconclusive`. `tests/test_claim_reasons.py` reads it: "
             "each needs a reason in its study file, and no reason may sit on rows that "
             "reproduce.", "",
             "## Default-profile rows that do not reproduce (base seed)", "",
             "| study | claim | scenario | learner | method | verdict |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r.study} | {r.claim} | {r.scenario} | {r.learner} | {r.method} | "
              f"{r.verdict} |" for r in misses.itertuples()]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[2022, 2023])
    ap.add_argument("--base", type=Path, default=REPO / "results",
                    help="a default-profile results tree of this checkout (base seed)")
    ap.add_argument("--base-seed", type=int, default=2021)
    ap.add_argument("--work", type=Path, help="where the seeds' copies live (required unless "
                    "--misses-only)")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--studies", nargs="+", help="default: those of config/config.yaml")
    ap.add_argument("--scorecards-only", action="store_true",
                    help="run each seed up to its scorecards (no figures, no site)")
    ap.add_argument("--rescore", action="store_true",
                    help="score every tree's estimates again with this checkout's claims")
    ap.add_argument("--compare-only", action="store_true",
                    help="compare the seeds' results as they are, running nothing")
    ap.add_argument("--max-share", type=float, default=0.05)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results_verdicts.md")
    ap.add_argument("--misses-out", type=Path,
                    default=REPO / "benchmarks" / "results_misses.md")
    ap.add_argument("--misses-only", action="store_true",
                    help="write only the base seed's misses (--misses-out), running nothing")
    args = ap.parse_args()
    if args.work is None and not args.misses_only:
        ap.error("--work is required unless --misses-only")

    base = verdicts(args.base, args.base_seed if args.rescore else None)
    args.misses_out.write_text(misses_report(base, str(args.base_seed), args.rescore))
    print(f"{base['verdict'].isin(MISSES).sum()} rows of the base seed miss; list in "
          f"{args.misses_out}")
    if args.misses_only:
        return 0
    runs = {str(args.base_seed): base}
    times = {}
    for seed in args.seeds:
        dst = args.work / f"seed_{seed}"
        if not args.compare_only:
            sync_project(dst)
            times[str(seed)] = run_seed(dst, seed, args.cores, args.studies,
                                         args.scorecards_only)
            print(f"seed {seed}: {times[str(seed)] / 60:.1f} min", flush=True)
        runs[str(seed)] = verdicts(dst / "results", seed if args.rescore else None)
    wide = compare(runs)
    studies = {name: list(df["study"].unique()) for name, df in runs.items()}
    args.out.write_text(report(wide, list(runs), times, args.max_share, studies,
                               args.rescore))
    share = wide["changed"].mean()
    print(f"{int(wide['changed'].sum())} of {len(wide)} scored rows change verdict "
          f"({share:.1%}; {int(wide['changed_power'].sum())} more between reproduced and "
          f"consistent only); table in {args.out}")
    return int(share > args.max_share)


if __name__ == "__main__":
    sys.exit(main())
