"""Processes forked after the parent scored get a working engine (issue 37's P0).

rayon's global pool does not survive fork: a child forked after its parent scored used to
wait forever on its first parallel call. Each scenario of forkjobs.py runs in a process of
its own (its own session, so a hung pool is killed with it): the parent scores, forks
workers the way pipelines do, and the workers' numbers must be the parent's. Nothing here
measures speed: HANG is only reached by a hang (each run takes about a second).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import green_gec as green

JOBS = Path(__file__).resolve().parent / "forkjobs.py"
HANG = 600


def run(scenario: str) -> dict:
    proc = subprocess.Popen(
        [sys.executable, str(JOBS), scenario],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the {scenario} workers hung: a forked child could not score")
    assert proc.returncode == 0, err
    return json.loads(out)


def test_fork_pool_after_scoring_with_every_metric_class():
    import forkjobs

    # Every metric class (and the paired tests, the bootstrap, MAEGE, the readers) has a job.
    covered = {"Scorer": "green_scores", "Gleu": "gleu", "MaxMatch": "maxmatch", "ErrantCompare": "errant", "Cleme": "cleme"}
    assert set(covered.values()) <= set(forkjobs.JOBS)
    assert {name for name in green.__all__ if isinstance(getattr(green, name), type) and name in covered} == set(covered)
    got = run("pool")
    assert set(got["child"]) == set(forkjobs.JOBS)
    for name in forkjobs.JOBS:
        assert got["child"][name] == got["parent"][name], name


def test_process_pool_executor_after_scoring():
    got = run("executor")
    assert got["child"] == got["parent"]


def test_dataloader_style_workers_after_scoring():
    got = run("dataloader")
    assert len(got["child"]) == 300 and got["child"] == got["parent"]


def test_datasets_map_with_two_processes_after_scoring():
    got = run("datasets")
    assert len(got["child"]) == 300 and got["child"] == got["parent"]


def test_torch_dataloader_workers_after_scoring():
    pytest.importorskip("torch", reason="torch is optional; the plain worker test covers the pattern")
    got = run("torch")
    assert got["child"] == got["parent"]
