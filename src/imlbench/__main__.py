"""``python -m imlbench``: the command line (:mod:`imlbench.cli`), with OpenBLAS's kernels
chosen as on every machine of the same kind (:mod:`imlbench.numerics`).

A finished command ends the process at once (``os._exit``) once its streams are flushed: the
interpreter's teardown frees every module of the scientific stack one by one, 0.25-0.5 CPU
seconds a workflow job, and a job's outputs are closed and renamed into place before
:func:`imlbench.cli.main` returns.
"""

import logging
import os
import sys

from imlbench.numerics import kernel_environment

# before numpy loads OpenBLAS, which picks its kernels then (imlbench.numerics)
for _var, _value in kernel_environment().items():
    os.environ.setdefault(_var, _value)

from imlbench.cli import main  # noqa: E402

code = main()
logging.shutdown()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
