"""A pytest plugin for scripts/pytest_groups.sh: the CPU each test cost its group's cgroup.

`--durations` gives wall time, which seven groups on two cores stretch by whatever else runs; the
cgroup's counter also holds the chromium, workers and daemons a test started, wherever they were
re-parented. With PYTEST_CPU_USAGE=PATH (a cgroup v1 `cpuacct.usage`, in nanoseconds) and
PYTEST_CPU_REPORT=FILE, writes FILE: one line per test, its setup, call and teardown together,
most CPU first (a module's or the session's fixture counts in the first test that uses it).
PostgreSQL's backends and Redis are not in the cgroup: scripts/service_cpu.py counts them.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

_USAGE = os.environ.get("PYTEST_CPU_USAGE", "")
_REPORT = os.environ.get("PYTEST_CPU_REPORT", "")
_cpu_seconds: dict[str, float] = {}


def _usage_seconds() -> float:
    return int(Path(_USAGE).read_text()) / 1e9


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    if not (_USAGE and _REPORT):
        yield
        return
    before = _usage_seconds()
    yield
    # Generated tests (schemathesis' operations) can share one node id: their costs add up.
    _cpu_seconds[item.nodeid] = _cpu_seconds.get(item.nodeid, 0.0) + _usage_seconds() - before


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not (_USAGE and _REPORT and _cpu_seconds):
        return
    ranked = sorted(_cpu_seconds.items(), key=lambda pair: pair[1], reverse=True)
    lines = [f"{seconds:8.2f} s  {nodeid}" for nodeid, seconds in ranked]
    total = sum(_cpu_seconds.values())
    Path(_REPORT).write_text(f"{total:8.2f} s  (all {len(ranked)} tests)\n" + "\n".join(lines) + "\n")
