"""Print the CPU seconds the machine's PostgreSQL and Redis servers have used so far, for
scripts/pytest_groups.sh (the groups' cgroups hold only the processes the tests started).

A PostgreSQL backend that ended is counted in its postmaster's children's times (it reaps them):
the sum of every live server process's own time and each one's reaped children stays comparable
between two readings.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SERVERS = {"postgres": "postgres", "redis-server": "redis"}


def cpu_seconds_by_server() -> dict[str, float]:
    tick = os.sysconf("SC_CLK_TCK")
    totals = dict.fromkeys(SERVERS.values(), 0.0)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        server = SERVERS.get(name)
        if server is None:
            continue
        # Fields after the name: state is the first; utime, stime, cutime, cstime are 12..15.
        fields = stat[stat.rindex(")") + 2 :].split()
        totals[server] += sum(int(value) for value in fields[11:15]) / tick
    return totals


if __name__ == "__main__":
    if len(sys.argv) == 1:
        print(" ".join(f"{server}={seconds:.2f}" for server, seconds in cpu_seconds_by_server().items()))
    else:  # two readings: print what was used between them
        start, end = ({k: float(v) for k, v in (p.split("=") for p in arg.split())} for arg in sys.argv[1:3])
        print(", ".join(f"{server} {end[server] - start[server]:.0f} s" for server in end))
