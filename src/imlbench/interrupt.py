"""Ctrl-C stops a workflow run whenever it comes, and the run then exits with status 1.

Snakemake stops a run when the KeyboardInterrupt that Python raises for SIGINT reaches its
scheduler loop. Python raises it in the main thread, wherever that thread is, and Snakemake
drops it in one place it often is: its console handler
(``snakemake.logging.ColorizingTextHandler.emit``) catches KeyboardInterrupt and returns as
if the line had been written. A SIGINT that arrives while Snakemake writes a line (a job's
message, "Select jobs to execute...", "N of M steps done", "Building DAG of jobs...") is lost.
When the terminal's SIGINT also reaches running jobs, their failure still stops the run; but
between jobs, when no job process lives, nothing notices the loss: the run goes on to its end
and exits 0.

:func:`watch` leaves Python's SIGINT handling as it is and adds a path no Python code can
drop: it asks Python's C-level signal handler to write the number of every signal it catches
to a pipe (:func:`signal.set_wakeup_fd`), and a thread reads the pipe. After a SIGINT the
thread asks the scheduler to stop, as Snakemake's own SIGTERM handler does (no job starts
any more; once the running jobs end, the run ends with status 1), also when the scheduler is
made after the signal, and sends SIGINT to every process the run has started, also to those
started after the signal, so that the run ends promptly even when the signal reached
Snakemake alone. The thread, not a signal handler, calls the scheduler: a handler runs in
the main thread, and would wait forever for a lock that thread holds.

Snakemake sets no wakeup fd of its own; code that sets one (asyncio's
``loop.add_signal_handler``) would replace the pipe.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import psutil

#: seconds between two looks for the scheduler and for job processes after a SIGINT
POLL = 0.1


def watch(workflow: Any) -> None:
    """Stop the run of ``workflow`` (Snakemake's ``workflow`` object of the main process) on
    SIGINT, whenever it comes. Call from the main thread, as the Snakefile is read."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)  # the C handler must never block
    # only the first SIGINT is read: later bytes may fill the pipe, without a warning
    signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    threading.Thread(target=_stop_after_sigint, args=(read_fd, workflow),
                     name="imlbench-sigint", daemon=True).start()


def _stop_after_sigint(read_fd: int, workflow: Any) -> None:
    while signal.SIGINT not in os.read(read_fd, 64):
        pass  # another signal Python handles (SIGTERM)
    stopped = None
    signalled: set[tuple[int, tuple[str, ...]]] = set()
    while True:
        scheduler = workflow.scheduler
        if scheduler is not None and scheduler is not stopped:
            scheduler.exit_gracefully()
            stopped = scheduler
        interrupt_jobs(signalled)
        time.sleep(POLL)


def interrupt_jobs(signalled: set[tuple[int, tuple[str, ...]]]) -> None:
    """Send SIGINT to every descendant of this process that is not in ``signalled`` (process
    id and command line), and add it. A process is signalled again once its command line
    changes: a signal that reaches a forked child before its ``exec`` is lost with the
    exec."""
    for proc in psutil.Process().children(recursive=True):
        try:
            key = (proc.pid, tuple(proc.cmdline()))
            if key not in signalled:
                proc.send_signal(signal.SIGINT)
                signalled.add(key)
        except psutil.Error:  # it ended meanwhile
            continue
