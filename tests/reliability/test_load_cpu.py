"""benchmarks/load.py counts the CPU of its own stack only: other stacks and test runs on the same
machine run gunicorn, Celery and PostgreSQL too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from benchmarks.load import cpu_seconds_by_group
from tests.reliability.stack import Service, Stack

BURN_S = 0.4


def _burner(done: Path, seconds: float = BURN_S) -> str:
    """Python code that uses `seconds` of CPU, says so in `done`, then stays alive (an exited process
    leaves /proc, and its CPU with it)."""
    return (
        "import time\n"
        f"end = time.process_time() + {seconds}\n"
        "while time.process_time() < end:\n"
        "    pass\n"
        f"open({str(done)!r}, 'w').close()\n"
        "time.sleep(60)\n"
    )


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        # A session of its own (the stack's web service) is killed whole: its burning child too,
        # which would otherwise sleep on for a minute after the test.
        if os.getpgid(process.pid) == process.pid:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        process.wait(timeout=10)


def test_only_the_stacks_own_processes_are_counted(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    web_done, stranger_done = tmp_path / "web-done", tmp_path / "stranger-done"
    # The stack's web service, in its own session as Stack starts it; its worker is a child that burns.
    parent = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', {_burner(web_done)!r}, 'gunicorn'])\n"
        "time.sleep(60)\n"
    )
    web = subprocess.Popen([sys.executable, "-c", parent, "gunicorn"], start_new_session=True)
    # Another test run's gunicorn on the same machine: the same program name, not this stack.
    stranger = subprocess.Popen([sys.executable, "-c", _burner(stranger_done, 3 * BURN_S), "gunicorn"])
    processes += [web, stranger]
    stack = cast(
        Stack,
        SimpleNamespace(
            services=[Service("web", web, tmp_path / "web.log")],
            postgres=SimpleNamespace(data=tmp_path / "no-postgres"),
            redis=SimpleNamespace(process=None),
            objects=None,
        ),
    )
    before = cpu_seconds_by_group(stack)
    deadline = time.monotonic() + 30
    while not (web_done.exists() and stranger_done.exists()):
        assert time.monotonic() < deadline, "the burners did not finish"
        time.sleep(0.05)
    after = cpu_seconds_by_group(stack)

    web_cpu = after["web (gunicorn)"] - before.get("web (gunicorn)", 0.0)
    # The child's burn and the start-up of two interpreters, but not the stranger's burn as well.
    assert BURN_S - 0.05 <= web_cpu < 2 * BURN_S
    assert set(after) == {"web (gunicorn)", "load driver", "machine"}
    assert after["machine"] - before["machine"] >= web_cpu
