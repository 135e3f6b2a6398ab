"""Peak memory of processes, read from /proc: how a worker's footprint is measured without psutil."""

from __future__ import annotations

from pathlib import Path


def peak_rss_kib(pid: int) -> int:
    """VmHWM: the highest resident set size the process ever had, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise LookupError(f"process {pid} reports no VmHWM")


def children(pid: int) -> list[int]:
    """Direct children of a process (the Celery pool processes of a worker)."""
    found: list[int] = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)
