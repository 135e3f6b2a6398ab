"""Peak memory of processes, read from /proc: how a worker's footprint is measured without psutil."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
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


def rss_kib(pid: int) -> int:
    """VmRSS: the resident set size right now, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError(f"process {pid} reports no VmRSS")


def reset_peak_rss(pid: int) -> None:
    """Set VmHWM back to the current RSS, so a later peak_rss_kib() is the peak since this call.

    Without it, a test process that once held more (an earlier test, the fixtures) would hide any
    growth below that old mark.
    """
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def release_freed_memory() -> None:
    """Return memory freed by earlier work to the system before a measurement in this process.

    malloc keeps freed memory for reuse; a new peak that fits in it never shows in RSS, so without
    this a measurement depends on what the earlier tests happened to free.
    """
    gc.collect()
    libc = ctypes.util.find_library("c")
    trim = getattr(ctypes.CDLL(libc), "malloc_trim", None) if libc else None
    if trim is not None:  # glibc only
        trim(0)
