"""Start-up cost of one workflow job: the seconds before a job's own work begins.

Every job of the workflow is a fresh ``python -m imlbench <stage> ...`` process, so its
start-up (the interpreter, the imports, reading the study file) is paid once per job. This
script times a job whose own work takes milliseconds, as the rules call it: the truths of the
extrapolation study's smoke-size ``main`` scenario (closed forms), written to a scratch
directory. The command is timed ``--repeats`` times, one run after the other, next to the bare
interpreter start, the import of numpy and pandas, and the import of every library the job
needs (the floor no such job can go below):

    uv run python benchmarks/job_start.py --repeats 15
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDY, SCENARIO = "extrapolation", "main_rho0"
#: the libraries the job cannot do without: arrays, tables, writing Parquet
FLOOR = "import numpy, pandas, pyarrow.parquet"


def _cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "imlbench", "--root", str(root), "--profile", "smoke",
            "--base-seed", "2021", *args]


def _seconds(cmd: list[str], repeats: int, cwd: Path) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="project root")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "config").symlink_to(root / "config")  # the study file; results/ in tmp
        truth = _cli(tmp, "truth", "--study", STUDY, "--scenarios", SCENARIO)
        rows = {
            "python -c pass": _seconds([sys.executable, "-c", "pass"], args.repeats, root),
            "import numpy, pandas": _seconds(
                [sys.executable, "-c", "import numpy, pandas"], args.repeats, root),
            "import what the job needs (+ pyarrow)": _seconds(
                [sys.executable, "-c", FLOOR], args.repeats, root),
            f"truth job ({STUDY}/{SCENARIO})": _seconds(truth, args.repeats, root),
        }
    print(f"| command | median s | min s | max s |  ({args.repeats} runs each)")
    print("|---|---:|---:|---:|")
    for name, secs in rows.items():
        print(f"| {name} | {statistics.median(secs):.3f} | {min(secs):.3f} | {max(secs):.3f} |")


if __name__ == "__main__":
    main()
