"""The ``set-resources`` block of workflow/profiles/slurm/config.yaml, from measured jobs.

Every job writes Snakemake's benchmark record (wall seconds ``s``, peak memory ``max_rss`` in
MB) at the path of its rule's ``benchmark:``, e.g.
``results/<study>/benchmarks/<stage>/<scenario>/<chunk>.tsv``. This script loads the workflow
with the run's profile and studies, gives each record to the rule whose benchmark pattern its
path matches (rule names are made from study and scenario names: the workflow knows them, this
script does not guess them), and prints, per rule, its longest job's time and its largest
peak memory with headroom (:data:`RUNTIME_FACTOR`, :data:`MEM_FACTOR`): paste the block into
the profile in place of its ``set-resources:``.

    uv run python benchmarks/cluster_resources.py                 # the run in results/run.json
    uv run python benchmarks/cluster_resources.py --profile default --studies stratpd

Rules run on the submitting host (``localrules``) are left out. A job's time on a cluster
node also depends on the node, so measure on a machine like the nodes, with the profile the
cluster will run (or one whose chunks are the same size).
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

import pandas as pd

from imlbench.config import read_yaml
from imlbench.runinfo import RUN_FILE, read_run

#: headroom on the longest measured job (slower nodes, busier file systems)
RUNTIME_FACTOR = 2.0
#: headroom on the largest measured peak memory (the sampled ``max_rss`` misses short peaks)
MEM_FACTOR = 1.5
#: smallest requests: SLURM counts time in minutes; below ~500 MB a Python job cannot start
MIN_RUNTIME_MIN, MIN_MEM_MB = 1, 500


def benchmark_patterns(root: Path, profile: str, studies: list[str]) -> dict[str, str]:
    """Rule name -> regular expression of its benchmark path, for the rules that run on the
    cluster, read from the workflow loaded with ``profile`` and ``studies``."""
    from snakemake.api import SnakemakeApi
    from snakemake.io import regex_from_filepattern
    from snakemake.settings.types import (
        ConfigSettings,
        OutputSettings,
        Quietness,
        ResourceSettings,
        StorageSettings,
    )

    with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
        workflow = api.workflow(
            resource_settings=ResourceSettings(cores=1),
            config_settings=ConfigSettings(config={"profile": profile, "studies": studies}),
            storage_settings=StorageSettings(),
            snakefile=root / "Snakefile", workdir=root,
        )._workflow  # the parsed workflow: its rules, their benchmark paths and local rules
        return {rule.name: regex_from_filepattern(str(rule.benchmark))
                for rule in workflow.rules
                if rule.benchmark is not None and rule.name not in workflow._localrules}


def measured(root: Path, patterns: dict[str, str]) -> pd.DataFrame:
    """One row per benchmark record under ``root/results``: its rule, wall ``s``, ``max_rss``."""
    compiled = {name: re.compile(rx) for name, rx in patterns.items()}
    rows = []
    for path in sorted((root / "results").rglob("benchmarks/**/*.tsv")):
        rel = str(path.relative_to(root))
        rule = next((name for name, rx in compiled.items() if rx.fullmatch(rel)), None)
        if rule is None:
            continue
        rec = pd.read_csv(path, sep="\t").iloc[-1]
        rows.append({"rule": rule, "s": float(rec["s"]), "max_rss": float(rec["max_rss"])})
    return pd.DataFrame(rows, columns=["rule", "s", "max_rss"])


def set_resources(jobs: pd.DataFrame) -> str:
    """The profile's ``set-resources`` block: per rule, runtime (minutes) and mem_mb."""
    lines = ["set-resources:"]
    for rule, part in jobs.groupby("rule", sort=True):
        runtime = max(MIN_RUNTIME_MIN, math.ceil(part["s"].max() * RUNTIME_FACTOR / 60))
        mem = max(MIN_MEM_MB, math.ceil(part["max_rss"].max() * MEM_FACTOR / 100) * 100)
        lines += [f"  {rule}:  # {len(part)} jobs, longest {part['s'].max():.0f} s, "
                  f"peak {part['max_rss'].max():.0f} MB",
                  f"    runtime: {runtime}", f"    mem_mb: {mem}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=".", help="the project (default: .)")
    parser.add_argument("--profile", help="the measured run's profile (default: results/run.json)")
    parser.add_argument("--studies", nargs="+", help="its studies (default: results/run.json)")
    args = parser.parse_args()
    root = Path(args.root).resolve()
    run = read_run(root / RUN_FILE) or {}
    profile = args.profile or run.get("profile")
    studies = args.studies or run.get("studies") or read_yaml(
        root / "config" / "config.yaml")["studies"]
    if profile is None:
        raise SystemExit(f"{root / RUN_FILE}: no completed run recorded; give --profile")
    jobs = measured(root, benchmark_patterns(root, profile, studies))
    if jobs.empty:
        raise SystemExit(f"no benchmark records of profile {profile!r} under {root / 'results'}")
    print(f"# from {len(jobs)} benchmark records of a {profile} run of {', '.join(studies)}")
    print(set_resources(jobs))


if __name__ == "__main__":
    main()
