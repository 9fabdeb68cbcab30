"""``python -m imlbench.site --results results --root . --out results/site [--studies ...]``:
build the results site (:func:`imlbench.site.build.build_site`)."""

import argparse
from pathlib import Path

from imlbench.site.build import build_site

parser = argparse.ArgumentParser(prog="python -m imlbench.site", description=__doc__)
parser.add_argument("--results", type=Path, default=Path("results"))
parser.add_argument("--root", type=Path, default=Path("."), help="the project root")
parser.add_argument("--out", type=Path, default=Path("results/site"))
parser.add_argument("--studies", nargs="*", help="default: those of results/run.json")
args = parser.parse_args()
build_site(args.results, args.root, args.out, studies=args.studies)
