"""``python -m imlbench <stage> ...``: what the Snakemake rules call.

Stages: ``check`` (validate the configuration, or one study file with ``--study``),
``run`` (sample, fit and explain a batch of scenario chunks), ``truth`` (every truth of a
study), ``summaries``, ``claims`` (a study's scorecard), ``figure`` (a group of a study's
figures), ``scorecard`` (all studies) and ``site`` (the results site of the given studies,
:func:`imlbench.site.build.build_site`); ``compare`` is no stage of the workflow: it writes the
reference of the run under ``--root`` or compares the run with one
(:mod:`imlbench.reference`). Every stage but ``check`` reads its study file from
``config/studies`` under ``--root`` with the given ``--profile``, without checking it again:
the workflow checks the configuration once, before any job runs. The files a stage writes are
those :mod:`imlbench.targets` names, under ``--root``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from imlbench.config import PROFILES, ConfigError, load_study, read_yaml, study_names, study_path
from imlbench.numerics import limit_threads
from imlbench.workclock import process_record


def _pairs(items: list[str]) -> dict[str, Path]:
    """``name=path`` arguments as a mapping."""
    return {k: Path(v) for k, v in (item.split("=", 1) for item in items)}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="imlbench", description=__doc__)
    parser.add_argument("--root", default=".", help="project root (holds config/ and workflow/)")
    parser.add_argument("--profile", choices=PROFILES,
                        help="smoke, default or paper (check: default from config/config.yaml; "
                             "other stages: default)")
    parser.add_argument("--base-seed", type=int, default=2021)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-rows", type=int, default=1_000_000)
    sub = parser.add_subparsers(dest="stage", required=True)

    check = sub.add_parser("check", help="validate config/config.yaml and the enabled studies")
    check.add_argument("--study", help="validate this study instead (a path, or the name of a "
                                       "file or folder under config/studies, enabled or not)")
    run = sub.add_parser("run", help="sample, fit and explain scenario chunks of a study")
    run.add_argument("--study", required=True)
    run.add_argument("--units", nargs="+", required=True, metavar="SCENARIO:CHUNK")
    truth = sub.add_parser("truth", help="the truths of a study's scenarios")
    truth.add_argument("--study", required=True)
    truth.add_argument("--scenarios", nargs="+", required=True)
    for name in ("summaries", "claims"):
        p = sub.add_parser(name)
        p.add_argument("--study", required=True)
        p.add_argument("--estimates", nargs="*", default=[])
        p.add_argument("--truths", nargs="*", default=[])
        p.add_argument("--out", nargs="+", required=True, help="name=path pairs, or the path")
        if name == "claims":
            p.add_argument("--tables", nargs="+", required=True,
                           help="name=path pairs: ranks, summary, truth_errors, "
                                "truth_error_reps")
    figure = sub.add_parser("figure", help="draw figures of a study")
    figure.add_argument("--study", required=True)
    figure.add_argument("--figures", nargs="+", required=True)
    sc = sub.add_parser("scorecard")
    sc.add_argument("--cards", nargs="+", required=True)
    sc.add_argument("--out", nargs=2, required=True, metavar=("MD", "HTML"))
    sc.add_argument("--run", required=True,
                    help="where to record the run's profile, studies and time (run.json)")
    site = sub.add_parser("site", help="the results site of these studies (their scorecards, "
                                       "figures and metrics under results/)")
    site.add_argument("--studies", nargs="+", required=True)
    site.add_argument("--out", default="results/site")
    compare = sub.add_parser(
        "compare", help="compare the run under --root with a reference run: exit status 0 when "
                        "nothing differs beyond floating point, 1 when something does, 2 when "
                        "they do not compare (another profile or base seed)")
    what = compare.add_mutually_exclusive_group(required=True)
    what.add_argument("--reference", nargs="?", const="", metavar="PATH",
                      help="the reference (default: reference/<the run's profile>.json)")
    what.add_argument("--write-reference", nargs="?", const="", metavar="PATH",
                      help="write the run's reference there instead (default: "
                           "reference/<the run's profile>.json)")
    compare.add_argument("--studies", nargs="+",
                         help="compare only these studies (with --write-reference: replace "
                              "only these studies in the reference, keeping the others)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s",
                        stream=sys.stderr)
    limit_threads(args.threads)
    try:
        return _run(args)
    except ConfigError as exc:
        print(f"imlbench: configuration error: {exc}", file=sys.stderr)
        return 2
    finally:
        # a workflow job: its whole CPU, for the cost breakdown
        if args.stage not in ("check", "compare"):
            logging.getLogger("imlbench").info("%s", process_record())


def _check(args: argparse.Namespace) -> int:
    from imlbench.validate import check_config, check_study

    root = Path(args.root)
    if args.study is None:
        config = read_yaml(root / "config" / "config.yaml")
        if args.profile and isinstance(config, dict):
            config = {**config, "profile": args.profile}
        _, checked = check_config(root, config)
    else:
        path = Path(args.study)
        if not (path.is_file() or path.is_dir()):
            path = study_path(root, args.study)
            if not path.exists():
                names = study_names(path.parent)
                raise ConfigError(f"{args.study}: no such study file (a path, or a name under "
                                  f"{path.parent}); allowed: {', '.join(names)}")
        study = check_study(path, args.profile or "default", root)
        checked = {study.name: study}
    for s in checked.values():
        print(f"{s.name}: {len(s.scenarios)} scenarios, profile {s.profile}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from imlbench.reference.command import compare_command
    from imlbench.reference.digest import RefusedComparison

    try:
        return compare_command(Path(args.root), args.reference, args.write_reference,
                               args.studies)
    except RefusedComparison as exc:
        print(f"imlbench compare: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.stage == "check":
        return _check(args)
    if args.stage == "compare":
        return _compare(args)
    from imlbench import compare, stages, studies

    if args.stage == "scorecard":
        compare.write_scorecard_summary([Path(p) for p in args.cards], *map(Path, args.out),
                                        args.profile or "default", Path(args.run))
        return 0
    root = Path(args.root)
    if args.stage == "site":
        from imlbench.site.build import build_site

        build_site(root / "results", root, Path(args.out), studies=args.studies)
        return 0
    study = load_study(study_path(root, args.study), args.profile or "default")
    studies.load([study.name], figures=args.stage == "figure")
    seed = args.base_seed
    if args.stage == "run":
        units = [tuple(unit.split(":", 1)) for unit in args.units]
        stages.run_batch(study, units, seed, root, args.max_rows, args.threads)
    elif args.stage == "truth":
        for scenario in args.scenarios:
            stages.run_truth(study, scenario, seed, root)
    elif args.stage == "summaries":
        compare.run_summaries(study, [Path(p) for p in args.estimates],
                              [Path(p) for p in args.truths], _pairs(args.out), seed)
    elif args.stage == "claims":
        compare.run_scorecard(study, [Path(p) for p in args.estimates],
                              [Path(p) for p in args.truths], _pairs(args.tables),
                              Path(args.out[0]), seed)
    elif args.stage == "figure":
        for figure in args.figures:
            stages.run_figure(study, figure, root)
    return 0
