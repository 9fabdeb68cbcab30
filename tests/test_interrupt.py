"""Ctrl-C stops a run whenever it comes (imlbench.interrupt).

The watcher changes the signal state of the process that calls it, so each check runs in a
process of its own: a Python script for the mechanism, a Snakemake run of a four-job workflow
for the moment Snakemake drops the interrupt (while it writes a job's line to the console).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from workflow_runs import VENV_BIN, default_sigint, environment

from imlbench.interrupt import interrupt_jobs

pytestmark = pytest.mark.workflow  # every test starts a process (Python, bash or Snakemake)

#: a SIGINT whose KeyboardInterrupt is dropped (as Snakemake's console handler drops it),
#: before the scheduler exists; the scheduler made afterwards must still be asked to stop
DROPPED_INTERRUPT = """
import os, signal, threading, time
from types import SimpleNamespace
from imlbench import interrupt

stopped = threading.Event()
workflow = SimpleNamespace(scheduler=None)
interrupt.watch(workflow)
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except KeyboardInterrupt:
    pass
workflow.scheduler = SimpleNamespace(exit_gracefully=stopped.set)
print("stopped" if stopped.wait(10) else "running")
"""

#: four jobs one after the other; the console sends SIGINT to Snakemake while it writes the
#: line of the job of step 1, which has not started yet (no job process lives to notice it)
SNAKEFILE = """
import logging, os, signal
from imlbench import interrupt


class SigintOnWrite:
    def __init__(self, stream):
        self.stream, self.sent = stream, False

    def write(self, text):
        if "step 1" in text and not self.sent:
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


for handler in logging.getLogger("snakemake.logging").handlers:
    if handler.name == "DefaultStreamHandler":  # the console, not the log file
        handler.stream = SigintOnWrite(handler.stream)
if config["watch"]:
    interrupt.watch(workflow)

rule all:
    input: expand("out/{i}.txt", i=range(4))

rule step:
    output: "out/{i}.txt"
    message: "step {wildcards.i}"
    benchmark: "bench/{i}.tsv"
    shell: "sleep 1; touch {output}"
"""


def test_a_dropped_keyboard_interrupt_still_stops_the_scheduler():
    res = subprocess.run([sys.executable, "-c", DROPPED_INTERRUPT], capture_output=True,
                         text=True, timeout=60, preexec_fn=default_sigint)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "stopped"


def test_every_process_of_a_job_gets_sigint():
    # bash acts on a SIGINT only once its child ends: the child must get one too
    job = subprocess.Popen(["bash", "-c", "sleep 60; true"], preexec_fn=default_sigint)
    signalled: set[tuple[int, tuple[str, ...]]] = set()
    try:
        deadline = time.monotonic() + 10
        while not psutil.Process(job.pid).children() and time.monotonic() < deadline:
            time.sleep(0.05)
        interrupt_jobs(signalled)
        assert job.wait(timeout=10) == -signal.SIGINT
    finally:
        job.kill()
    assert {cmd for _, cmd in signalled} == {("bash", "-c", "sleep 60; true"), ("sleep", "60")}


@pytest.mark.parametrize("watch", [False, True])
def test_a_sigint_while_snakemake_writes_a_job_line(tmp_path: Path, watch: bool):
    (tmp_path / "Snakefile").write_text(textwrap.dedent(SNAKEFILE))
    res = subprocess.run(
        [str(VENV_BIN / "snakemake"), "--cores", "1", "--config", f"watch={watch}"],
        cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=300,
        preexec_fn=default_sigint,
    )
    done = len(list((tmp_path / "out").glob("*.txt")))
    if watch:
        assert res.returncode != 0 and done < 4, res.stderr[-3000:]
    else:
        # Snakemake alone loses this SIGINT: it runs every job and exits 0. Should a later
        # Snakemake stop here by itself, this case fails and the watcher may be unneeded.
        assert res.returncode == 0 and done == 4, res.stderr[-3000:]
