"""Start-up cost of one workflow job: the seconds before a job's own work begins.

Every job of the workflow is a fresh ``python -m imlbench <stage> ...`` process, so its
start-up (the interpreter, the imports, reading the study file) is paid once per job. This
script times a no-op explain job as the rules call it: the closed-form Theorem 1 importance
(``lm_theory``) of a fitted linear model on the extrapolation study's smoke-size ``main``
scenario, whose own work takes milliseconds. The data and fit jobs it needs are run once,
untimed, in a scratch directory; then the explain command is timed ``--repeats`` times, one
run after the other, next to the bare interpreter start, the import of numpy and pandas, and
the import of every library the job needs (the floor no such job can go below):

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
STUDY, SCENARIO, LEARNER, METHOD = "extrapolation", "main_rho0", "lm", "lm_theory"
#: the libraries the job cannot do without: reading and writing Parquet, loading the model
FLOOR = "import numpy, pandas, pyarrow.parquet, joblib, sklearn.linear_model"


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
        data, model = tmp / "c0.parquet", tmp / "lm.joblib"
        subprocess.run(_cli(root, "data", "--study", STUDY, "--scenario", SCENARIO,
                            "--chunk", "c0", "--out", str(data)), cwd=root, check=True)
        subprocess.run(_cli(root, "fit", "--study", STUDY, "--scenario", SCENARIO, "--chunk",
                            "c0", "--data", str(data), "--out", f"{LEARNER}={model}"),
                       cwd=root, check=True)
        explain = _cli(root, "explain", "--study", STUDY, "--scenario", SCENARIO, "--chunk",
                       "c0", "--data", str(data), "--models", f"{LEARNER}={model}",
                       "--out", f"{LEARNER}/{METHOD}={tmp / 'out.parquet'}")
        rows = {
            "python -c pass": _seconds([sys.executable, "-c", "pass"], args.repeats, root),
            "import numpy, pandas": _seconds(
                [sys.executable, "-c", "import numpy, pandas"], args.repeats, root),
            "import what the job needs (+ pyarrow, joblib, sklearn for the model)": _seconds(
                [sys.executable, "-c", FLOOR], args.repeats, root),
            f"explain job ({STUDY}/{SCENARIO}, {LEARNER}/{METHOD})": _seconds(
                explain, args.repeats, root),
        }
    print(f"| command | median s | min s | max s |  ({args.repeats} runs each)")
    print("|---|---:|---:|---:|")
    for name, secs in rows.items():
        print(f"| {name} | {statistics.median(secs):.3f} | {min(secs):.3f} | {max(secs):.3f} |")


if __name__ == "__main__":
    main()
