"""Compare the figures of two ``results/`` trees pixel by pixel.

For every PNG under ``<study>/figures/`` of either tree: ``same`` (equal pixels), ``moved``
(same size, with the share of pixels that differ), ``resized`` (another size) or ``missing``
on one side. A change of the code that must not change a figure shows only ``same`` rows; a
change of the drawing shows what moved, for the note that explains it:

    uv run python benchmarks/compare_figures.py /path/to/old/results results [--only STUDY]

Exits 1 when a figure is missing on one side.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def figures(root: Path, only: str) -> set[Path]:
    return {p.relative_to(root) for p in root.glob("*/figures/*.png")
            if p.relative_to(root).parts[0].startswith(only)}


def compare(old: Path, new: Path) -> str:
    """How the figure ``new`` differs from ``old``."""
    import matplotlib.image as mpimg

    a, b = mpimg.imread(old), mpimg.imread(new)
    if a.shape != b.shape:
        return f"resized {a.shape[1]}x{a.shape[0]} -> {b.shape[1]}x{b.shape[0]}"
    differ = np.any(a != b, axis=-1) if a.ndim == 3 else a != b
    share = float(differ.mean())
    return "same" if share == 0 else f"moved {100 * share:.2f}% of the pixels"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--only", default="", help="compare this study only")
    args = parser.parse_args(argv)
    old, new = figures(args.old, args.only), figures(args.new, args.only)
    missing = 0
    for path in sorted(old | new):
        if path not in old or path not in new:
            missing += 1
            print(f"{path}: missing in {'old' if path not in old else 'new'}")
        else:
            print(f"{path}: {compare(args.old / path, args.new / path)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
