"""A job's numerical libraries: one kernel choice per kind of processor, and the thread limit
applied to libraries loaded before the command line parsed it (:mod:`imlbench.numerics`)."""

from __future__ import annotations

from imlbench.numerics import KERNEL, kernel_environment, limit_threads

AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"
NO_AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx\n"


def test_the_kernel_is_pinned_on_x86_with_avx2_only():
    assert kernel_environment(AVX2, "x86_64") == {"OPENBLAS_CORETYPE": KERNEL}
    assert kernel_environment(NO_AVX2, "x86_64") == {}
    assert kernel_environment(AVX2, "aarch64") == {}
    assert kernel_environment("", "x86_64") == {}


def test_a_job_runs_every_blas_library_on_its_threads(monkeypatch):
    """numpy's OpenBLAS is loaded (and has read its thread count) before ``--threads`` is
    parsed; the limit must reach it all the same."""
    import numpy  # noqa: F401  (loaded, as in a job before its arguments are parsed)
    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController()
    saved = controller.info()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "")
    try:
        limit_threads(1)
        assert {lib["num_threads"] for lib in ThreadpoolController().info()} == {1}
    finally:
        for lib in saved:
            controller.select(filepath=lib["filepath"]).limit(limits=lib["num_threads"])
