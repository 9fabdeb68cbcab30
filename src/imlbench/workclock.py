"""Seconds of numerical work inside a job, logged for the workflow's cost breakdown.

Every job logs one ``work`` line per piece of numerical work with the CPU and wall seconds
spent inside it: per scenario chunk, sampling its data (stage ``data``), fitting each learner
(``fit``, summed over the repetitions) and each (learner, method) pair (``explain``); per
scenario, its truths (``truth``); per study, its summaries and claims; per figure, the drawing.
At its end a job logs its process's whole CPU time (``process`` line, interpreter start-up
included). ``benchmarks/workflow_breakdown.py`` reads both: the difference is the job's
overhead (interpreter start, imports, Parquet I/O).
"""

from __future__ import annotations

import re
import resource
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: the logged line, ``work stage=fit item=main_rho0.9 chunk=c0 learner=rf method=- cpu_s=1.234
#: wall_s=1.301`` (``item``: the scenario, or the figure; ``-`` where there is none)
WORK_LINE = re.compile(
    r"work stage=(?P<stage>\S+) item=(?P<item>\S+) chunk=(?P<chunk>\S+) "
    r"learner=(?P<learner>\S+) method=(?P<method>\S+) "
    r"cpu_s=(?P<cpu_s>[0-9.]+) wall_s=(?P<wall_s>[0-9.]+)"
)
#: the line a job logs at its end: its process's CPU seconds since it started
PROCESS_LINE = re.compile(r"process cpu_s=(?P<cpu_s>[0-9.]+)")


@dataclass
class WorkClock:
    """Accumulates process CPU seconds and wall seconds over the ``with`` blocks it times."""

    cpu_s: float = 0.0
    wall_s: float = 0.0

    def __enter__(self) -> WorkClock:
        self._cpu, self._wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu_s += time.process_time() - self._cpu
        self.wall_s += time.perf_counter() - self._wall

    def record(self, stage: str, item: str, chunk: str, learner: str = "-",
               method: str = "-") -> str:
        """The log line of what was timed (parsed back by :data:`WORK_LINE`)."""
        return (f"work stage={stage} item={item} chunk={chunk} learner={learner} "
                f"method={method} cpu_s={self.cpu_s:.3f} wall_s={self.wall_s:.3f}")


def process_record() -> str:
    """The log line of this process's CPU seconds so far, user and system (parsed back by
    :data:`PROCESS_LINE`)."""
    return f"process cpu_s={time.process_time():.3f}"


#: the columns of the Snakemake process's own record (``results/benchmarks/snakemake.tsv``)
RUN_COLUMNS = ("finished", "wall_s", "snakemake_cpu_s", "jobs_cpu_s")


def append_run_record(path: Path, wall_s: float) -> None:
    """Append, for the Snakemake process that calls this at its end, its own CPU seconds
    (building the graph, selecting jobs, sampling benchmark records, all its threads) and those
    of every job process it ran and waited for (interpreter start-ups included), as one row
    of :data:`RUN_COLUMNS` in ``path`` (tab-separated, a header when new)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    jobs = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = [datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), f"{wall_s:.1f}",
           f"{own.ru_utime + own.ru_stime:.1f}", f"{jobs.ru_utime + jobs.ru_stime:.1f}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists()
    with open(path, "a") as out:
        if new:
            out.write("\t".join(RUN_COLUMNS) + "\n")
        out.write("\t".join(row) + "\n")
