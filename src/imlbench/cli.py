"""``python -m imlbench <stage> ...``: what the Snakemake rules call.

Stages: ``check`` (validate the configuration), ``data``, ``fit``, ``explain``,
``truth``, ``compare``, ``figure`` and ``scorecard``. Every stage reads the study
file from ``config/studies`` under ``--root`` with the given ``--profile``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from imlbench.config import PROFILES, ConfigError, load_study


def _study(args: argparse.Namespace):
    root = Path(args.root)
    return load_study(root / "config" / "studies" / f"{args.study}.yaml", args.profile, root)


def _pairs(items: list[str]) -> dict[str, Path]:
    """``name=path`` arguments as a mapping."""
    return {k: Path(v) for k, v in (item.split("=", 1) for item in items)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="imlbench", description=__doc__)
    parser.add_argument("--root", default=".", help="project root (holds config/ and workflow/)")
    parser.add_argument("--profile", choices=PROFILES, default="default")
    parser.add_argument("--base-seed", type=int, default=2021)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-rows", type=int, default=1_000_000)
    sub = parser.add_subparsers(dest="stage", required=True)

    sub.add_parser("check", help="validate config/config.yaml and the enabled study files")
    for name in ("data", "fit", "explain", "truth", "compare", "figure"):
        p = sub.add_parser(name)
        p.add_argument("--study", required=True)
        if name in ("data", "fit", "explain", "truth"):
            p.add_argument("--scenario", required=True)
        if name in ("data", "fit", "explain"):
            p.add_argument("--chunk", required=True)
        if name in ("fit", "explain"):
            p.add_argument("--data", required=True)
        p.add_argument("--out", nargs="+", required=True,
                       help="output path, or name=path pairs for several outputs "
                            "(fit: learner=path; explain: learner/method=path)")
        if name == "explain":
            p.add_argument("--models", nargs="*", default=[],
                           help="learner=path pairs (none when the scenario fits no models)")
        if name == "compare":
            p.add_argument("--estimates", nargs="*", default=[])
            p.add_argument("--truths", nargs="*", default=[])
        if name == "figure":
            p.add_argument("--figure", required=True)
            p.add_argument("--inputs", nargs="*", default=[], help="role=path pairs")
    sc = sub.add_parser("scorecard")
    sc.add_argument("--cards", nargs="+", required=True)
    sc.add_argument("--out", nargs=2, required=True, metavar=("MD", "HTML"))

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s",
                        stream=sys.stderr)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(args.threads))
    try:
        return _run(args)
    except ConfigError as exc:
        print(f"imlbench: configuration error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from imlbench import compare, stages

    if args.stage == "check":
        from imlbench.config import load_config

        _, studies = load_config(Path(args.root))
        for s in studies.values():
            print(f"{s.name}: {len(s.scenarios)} scenarios, profile {s.profile}")
        return 0
    if args.stage == "scorecard":
        compare.write_scorecard_summary([Path(p) for p in args.cards], *map(Path, args.out))
        return 0
    study = _study(args)
    seed = args.base_seed
    if args.stage == "data":
        stages.run_data(study, args.scenario, args.chunk, seed, Path(args.out[0]))
    elif args.stage == "fit":
        stages.run_fit(study, args.scenario, args.chunk, seed, Path(args.data),
                       _pairs(args.out), args.threads)
    elif args.stage == "explain":
        outs = {tuple(k.split("/", 1)): v for k, v in _pairs(args.out).items()}
        stages.run_explain(study, args.scenario, args.chunk, seed, Path(args.data),
                           _pairs(args.models), outs, args.max_rows, args.threads)
    elif args.stage == "truth":
        stages.run_truth(study, args.scenario, seed, _pairs(args.out))
    elif args.stage == "compare":
        outs = _pairs(args.out)
        compare.run_compare(study, [Path(p) for p in args.estimates],
                            [Path(p) for p in args.truths], outs["ranks"], outs["mean_ranks"],
                            outs["scorecard"], outs["summary"], seed)
    elif args.stage == "figure":
        from imlbench.figures import FIGURES, load_figures

        load_figures()
        spec = study.figures[args.figure]
        inputs: dict[str, list[Path]] = {}
        for role, path in (item.split("=", 1) for item in args.inputs):
            inputs.setdefault(role, []).append(Path(path))
        outs = _pairs(args.out)
        FIGURES.get(spec["function"])(inputs, spec, outs["png"], outs["pdf"])
    return 0
