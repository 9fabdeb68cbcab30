"""The numerical libraries of a job, set to compute the same numbers on every machine.

Two settings change a job's numbers in their last bits, and a non-convex fit (the network's
L-BFGS) or a tie between ranks turns those bits into visible differences:

- the number of threads of the BLAS and OpenMP libraries: a job runs on ``--threads`` threads
  (1 in the workflow), whatever the machine's cores. numpy's OpenBLAS reads its thread count
  when it is loaded, which the command line does before it parses ``--threads``; so the limit
  is set at run time (:func:`limit_threads`, with threadpoolctl, which scikit-learn brings);
- OpenBLAS's kernels, chosen by the processor at load time: on x86-64 processors with AVX2
  the Haswell kernels are used everywhere (:func:`kernel_environment`, set by
  ``python -m imlbench`` before numpy loads), so that an AVX-512 machine computes what an
  AVX2 one does. Elsewhere (other processors, other BLAS libraries) the numbers may differ in
  their last bits; the verdict rule absorbs that (``benchmarks/results_verdicts.md``).

A variable the user set is kept. This module imports nothing of the scientific stack.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

#: the OpenBLAS kernels every x86-64 processor with AVX2 runs
KERNEL = "Haswell"


def kernel_environment(cpuinfo: str | None = None, machine: str | None = None
                       ) -> dict[str, str]:
    """``{"OPENBLAS_CORETYPE": KERNEL}`` on an x86-64 processor whose flags (``cpuinfo``,
    default ``/proc/cpuinfo``) include AVX2, else nothing."""
    machine = platform.machine() if machine is None else machine
    if machine.lower() not in ("x86_64", "amd64"):
        return {}
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text(errors="replace") if path.is_file() else ""
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo.splitlines()
                  if line.startswith("flags")), [])
    return {"OPENBLAS_CORETYPE": KERNEL} if "avx2" in flags else {}


def limit_threads(threads: int) -> None:
    """At most ``threads`` threads in every BLAS and OpenMP library loaded now, and (through
    the environment) in those loaded later."""
    from threadpoolctl import threadpool_limits

    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    threadpool_limits(limits=threads)
