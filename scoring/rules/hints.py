"""Warnings for reviewers: reads served from a cache, and single ranks far slower than the rest.

Thresholds, measured on the 118 runs of the shared corpus, and why:
- ior-easy-read > READ_WRITE_RATIO = 5 times ior-easy-write. Storage reads faster than it
  writes, but honest runs stay below 5 (the highest is 4.8, then 4.4 and 3.2); the two runs
  above it read at 8.3 and 10 times their write rate, typical of client page caches answering
  reads when the rank shift (-C -Q 1) did not move each read to another node.
- ior-hard-read > HARD_OVER_EASY_READ = 2 times ior-easy-read. ior-hard's writes are slow for
  locking reasons (read/write ratios up to 400 are honest), so the hard read is compared with the
  streaming easy read instead: 47008-byte interleaved reads cannot beat it by much from storage
  (the corpus maximum is 1.54).
- More than NODE_GIB_PER_S = 200 GiB/s read per client node. The fastest client nodes carry
  eight 200 Gb/s links, about 186 GiB/s; more cannot come over the network (the corpus has one
  run at 244 GiB/s per node; the next is 130).
- Stragglers: with stonewall wear-out every rank should finish together, and in the other phases
  ranks share the work evenly. A rank taking STRAGGLER_FACTOR = 2 times the median rank time,
  and at least STRAGGLER_MIN_SECONDS = 30 s longer (so that short phases with a few seconds of
  jitter stay quiet), points at a sick node or unbalanced placement. Four corpus runs show one.
"""

from __future__ import annotations

import statistics

from scoring.codes import finding
from scoring.model import Finding, Phase, RunResult

# (read phase, the phase it is compared with, the ratio above which the read looks cached)
READ_COMPARISONS: tuple[tuple[str, str, float], ...] = (
    ("ior-easy-read", "ior-easy-write", 5.0),
    ("ior-hard-read", "ior-easy-read", 2.0),
)
NODE_GIB_PER_S = 200.0
STRAGGLER_FACTOR = 2.0
STRAGGLER_MIN_SECONDS = 30.0
MIN_RANKS_FOR_MEDIAN = 4  # fewer ranks give no meaningful median


def _node_count(run: RunResult, phase: Phase) -> int | None:
    if phase.raw is not None and phase.raw.nodes:
        return phase.raw.nodes
    return run.nodes or None


def cache_hints(run: RunResult) -> list[Finding]:
    findings = []
    for read_name, write_name, limit in READ_COMPARISONS:
        read, write = run.phases.get(read_name), run.phases.get(write_name)
        if read is None or not read.value > 0:
            continue
        if write is not None and write.value > 0 and read.value > limit * write.value:
            findings.append(
                finding(
                    "read-after-write-cached",
                    phase=read_name,
                    read=read.value,
                    write=write.value,
                    ratio=read.value / write.value,
                    write_phase=write_name,
                )
            )
            continue
        nodes = _node_count(run, read)
        if nodes and read.value / nodes > NODE_GIB_PER_S:
            findings.append(
                finding(
                    "read-beyond-nodes",
                    phase=read_name,
                    per_node=read.value / nodes,
                    value=read.value,
                    nodes=nodes,
                )
            )
    return findings


def straggler_hints(run: RunResult) -> list[Finding]:
    findings = []
    for phase in run.phases.values():
        timed = [(row.rank, row.time_s) for row in phase.ranks if row.time_s is not None and row.time_s >= 0]
        if len(timed) < MIN_RANKS_FOR_MEDIAN:
            continue
        median = statistics.median(time for _, time in timed)
        limit = max(STRAGGLER_FACTOR * median, median + STRAGGLER_MIN_SECONDS)
        slow = [(rank, time) for rank, time in timed if time > limit]
        if not slow:
            continue
        rank, worst = max(slow, key=lambda item: item[1])
        findings.append(
            finding(
                "rank-straggler",
                phase=phase.name,
                count=len(slow),
                ranks=len(timed),
                factor=STRAGGLER_FACTOR,
                median=median,
                rank=rank,
                worst=worst,
            )
        )
    return findings


def hint_rules(run: RunResult) -> list[Finding]:
    return [*cache_hints(run), *straggler_hints(run)]
