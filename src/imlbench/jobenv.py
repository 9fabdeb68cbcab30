"""Where the workflow's jobs find their interpreter.

Each job runs ``python -m imlbench`` with the ``python`` on its PATH, never the absolute path
of the host that submits it, so that a rule's conda environment (``--sdm conda``), a
container or a cluster node runs the same command. A local run without such a deployment
needs that ``python`` to be the environment running Snakemake; the workflow checks it before
any job runs (:func:`same_interpreter`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys


def same_interpreter(command: str = "python") -> bool:
    """Whether ``command`` on PATH runs this process's Python environment (the same
    ``sys.prefix``)."""
    found = shutil.which(command)
    if found is None:
        return False
    prefix = subprocess.run([found, "-c", "import sys; print(sys.prefix)"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return prefix == sys.prefix
