"""``python -m imlbench``: the command line (:mod:`imlbench.cli`).

A finished command ends the process at once (``os._exit``) once its streams are flushed: the
interpreter's teardown frees every module of the scientific stack one by one, 0.25-0.5 CPU
seconds a workflow job, and a job's outputs are closed and renamed into place before
:func:`imlbench.cli.main` returns.
"""

import logging
import os
import sys

from imlbench.cli import main

code = main()
logging.shutdown()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
