"""Seconds of numerical work inside a job, logged for the workflow's cost breakdown.

A fit or explain job logs one ``work`` line per learner (fit) or (learner, method) pair
(explain) with the CPU and wall seconds spent inside the estimator or the method, summed over
the repetitions of the chunk. ``benchmarks/workflow_breakdown.py`` reads these lines beside
Snakemake's benchmark record of the whole job: the difference is the job's overhead
(interpreter start, imports, validation, Parquet and model I/O).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

#: the logged line, ``work stage=fit learner=rf method=- cpu_s=1.234 wall_s=1.301``
WORK_LINE = re.compile(
    r"work stage=(?P<stage>\S+) learner=(?P<learner>\S+) method=(?P<method>\S+) "
    r"cpu_s=(?P<cpu_s>[0-9.]+) wall_s=(?P<wall_s>[0-9.]+)"
)


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

    def record(self, stage: str, learner: str, method: str) -> str:
        """The log line of what was timed (parsed back by :data:`WORK_LINE`)."""
        return (f"work stage={stage} learner={learner} method={method} "
                f"cpu_s={self.cpu_s:.3f} wall_s={self.wall_s:.3f}")
