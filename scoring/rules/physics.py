"""Physics across the phases of one run: what every phase's own output must share with the others.

A forger can rewrite one phase consistently (summary, result.txt, the tool's output and its per-rank
CSV together), or splice in the outputs of another run of the same system. What such an edit cannot
keep is the physics that ties the phases of one run together:

- a read phase moves exactly the bytes its write phase wrote (it reads the stonewalled write's
  pairs from the stonewall file, or the same geometry);
- with IOR's wear-out every rank ends at the largest pair count, so a write moves the stonewall's
  pairs x tasks x transfer size;
- every mdtest phase of a tree (stat, read, delete) handles the items its create phase made, and the
  create phase made its stonewall's items per rank x tasks;
- pfind cannot scan more files than the run's data directory holds;
- every phase ran on the same client ranks and nodes, which result.txt's `procs` and the per-rank
  CSVs' rows count too.

Each comparison is of two ranges that hold everything the tools' printing allows (readers/volumes.py
builds them), so an honest run always agrees; `physics_measurements` returns every comparison that
could be made, for the rule and for benchmarks/invariant_margins.py, which measures the margins on
the real corpora.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.codes import finding
from scoring.model import Finding, Phase, RunResult

BANDWIDTH = "physics-bandwidth-volume-mismatch"
BYTES_READ = "physics-bytes-read-mismatch"
PAIRS = "physics-pairs-mismatch"
GEOMETRY = "physics-pairs-beyond-geometry"
RECORDED_PAIRS = "physics-accessed-pairs-mismatch"
ITEMS = "physics-items-mismatch"
NOMINAL = "physics-items-beyond-nominal"
FIND = "physics-find-excess"
TASKS = "physics-tasks-mismatch"
NODES = "physics-nodes-mismatch"
CHECKED = "physics-checked"
GIB = 1024**3

INVARIANTS: tuple[str, ...] = (
    BANDWIDTH,
    BYTES_READ,
    PAIRS,
    GEOMETRY,
    RECORDED_PAIRS,
    ITEMS,
    NOMINAL,
    FIND,
    TASKS,
    NODES,
)

# Entries of a data directory besides the mdtest files that a find may count: per task one ior-easy
# file (-F) and, for finds that count directories, mdtest-easy's unique directory and its tree root;
# then ior-hard's file, the directories of the four tests and the stonewall and timestamp files.
ENTRIES_PER_TASK = 3
ENTRIES_FIXED = 16

_MDTEST_TREES: dict[str, tuple[str, ...]] = {
    "easy": ("mdtest-easy-stat", "mdtest-easy-delete"),
    "hard": ("mdtest-hard-stat", "mdtest-hard-read", "mdtest-hard-delete"),
}


@dataclass(frozen=True)
class Measurement:
    """One cross-phase comparison: what a phase shows against what the other phases require."""

    invariant: str  # the finding code when it does not hold
    phase: str | None  # None: the run as a whole (result.txt's procs)
    observed: tuple[float, float]  # the range the phase's own figures allow
    expected: tuple[float, float]  # the range the other phases allow (one-sided: low = 0)
    values: dict[str, Any] = field(default_factory=dict)  # the finding's template values
    upper_only: bool = False  # a bound, not an equality: observed must not exceed expected's top

    @property
    def holds(self) -> bool:
        return self.observed[0] <= self.expected[1] and self.expected[0] <= self.observed[1]

    @property
    def deviation(self) -> float:
        """The relative difference of the two ranges' midpoints (for one-sided bounds: how far the
        observed value lies above the bound, 0 below it)."""
        observed = (self.observed[0] + self.observed[1]) / 2
        if self.upper_only:
            return max(observed - self.expected[1], 0.0) / max(self.expected[1], 1.0)
        expected = (self.expected[0] + self.expected[1]) / 2
        return abs(observed - expected) / max(abs(expected), 1.0)

    @property
    def tolerance(self) -> float:
        """How much relative difference printing explains here: the two ranges' half-widths (for
        find, the entries besides the mdtest files that the bound admits)."""
        if self.invariant == FIND:
            others: float = self.values["others"]  # a count the rule computed, not text
            return others / max(self.expected[1], 1.0)
        if self.upper_only:
            return 0.0
        expected = (self.expected[0] + self.expected[1]) / 2
        width = (self.observed[1] - self.observed[0] + self.expected[1] - self.expected[0]) / 2
        return width / max(abs(expected), 1.0)


def physics_rules(run: RunResult) -> list[Finding]:
    return physics_findings(physics_measurements(run))


def physics_findings(measurements: list[Measurement]) -> list[Finding]:
    findings = [
        finding(item.invariant, phase=item.phase, **item.values) for item in measurements if not item.holds
    ]
    if measurements and not findings:
        kinds = sorted({_KIND_NAMES[item.invariant] for item in measurements})
        findings.append(finding(CHECKED, count=len(measurements), kinds=", ".join(kinds)))
    return findings


_KIND_NAMES = {
    BANDWIDTH: "IOR bandwidth x time = its bytes",
    BYTES_READ: "bytes read = bytes written",
    PAIRS: "bytes = stonewall pairs x tasks x transfer",
    GEOMETRY: "stonewall pairs within the blocks",
    RECORDED_PAIRS: "result.txt accessed-pairs = IOR's pairs",
    ITEMS: "mdtest items of every phase = items created",
    NOMINAL: "mdtest items created <= -n x tasks",
    FIND: "files found <= files created",
    TASKS: "same tasks in every phase",
    NODES: "same nodes in every phase",
}


def physics_measurements(run: RunResult) -> list[Measurement]:
    """Every cross-phase comparison the run's outputs allow."""
    return [
        *_bandwidth_volume(run),
        *_bytes_read(run),
        *_pairs(run),
        *_mdtest_items(run),
        *_find_files(run),
        *_tasks(run),
        *_nodes(run),
    ]


# --- IOR bytes -------------------------------------------------------------------------------
def _bytes_range(phase: Phase | None) -> tuple[float, float, str, str] | None:
    if phase is None or phase.raw is None or phase.raw.ior_volume is None:
        return None
    volume = phase.raw.ior_volume
    if volume.bytes_low is None or volume.bytes_high is None or volume.bytes_source is None:
        return None
    return volume.bytes_low, volume.bytes_high, volume.bytes_source, phase.raw.file


def _bandwidth_volume(run: RunResult) -> Iterator[Measurement]:
    """IOR's bandwidth is its bytes over its time: with only the geometry to give the bytes (IOR
    prints no byte count when it wrote what it was told), the row's figures must still multiply out."""
    for name in ("ior-easy-write", "ior-hard-write", "ior-easy-read", "ior-hard-read"):
        phase = run.phases.get(name)
        volume = _bytes_range(phase)
        raw = phase.raw if phase is not None else None
        if volume is None or raw is None or raw.value_low is None or raw.value_high is None:
            continue
        if raw.time_low is None or raw.time_high is None or raw.time_low <= 0:
            continue
        yield Measurement(
            BANDWIDTH,
            name,
            observed=(raw.value_low * GIB * raw.time_low, raw.value_high * GIB * raw.time_high),
            expected=(volume[0], volume[1]),
            values={
                "bandwidth": (raw.value_low + raw.value_high) / 2,
                "time_s": raw.time_s,
                "raw_file": raw.file,
                "bytes": (volume[0] + volume[1]) / 2,
                "source": volume[2],
            },
        )


def _bytes_read(run: RunResult) -> Iterator[Measurement]:
    for kind in ("easy", "hard"):
        write = _bytes_range(run.phases.get(f"ior-{kind}-write"))
        read = _bytes_range(run.phases.get(f"ior-{kind}-read"))
        if write is None or read is None:
            continue
        yield Measurement(
            BYTES_READ,
            f"ior-{kind}-read",
            observed=(read[0], read[1]),
            expected=(write[0], write[1]),
            values={
                "read": (read[0] + read[1]) / 2,
                "read_source": read[2],
                "read_file": read[3],
                "write_phase": f"ior-{kind}-write",
                "written": (write[0] + write[1]) / 2,
                "write_source": write[2],
                "write_file": write[3],
            },
        )


def _pairs(run: RunResult) -> Iterator[Measurement]:
    for kind in ("easy", "hard"):
        phase = run.phases.get(f"ior-{kind}-write")
        moved = _bytes_range(phase)
        if phase is None or phase.raw is None or phase.raw.ior_volume is None or moved is None:
            continue
        volume = phase.raw.ior_volume
        tasks = phase.raw.tasks
        if not (volume.wear_out and volume.pairs_max and volume.transfer_size and tasks):
            continue
        if volume.block_high and volume.segments:
            # No rank can access more pairs than its blocks hold (IOR wraps only with -T, unused).
            capacity = volume.block_high * volume.segments
            accessed = float(volume.pairs_max * volume.transfer_size)
            yield Measurement(
                GEOMETRY,
                phase.name,
                observed=(accessed, accessed),
                expected=(0.0, capacity),
                upper_only=True,
                values={
                    "pairs": volume.pairs_max,
                    "transfer": volume.transfer_size,
                    "accessed": accessed,
                    "block": round(volume.block_high),
                    "segments": volume.segments,
                    "capacity": capacity,
                    "raw_file": phase.raw.file,
                },
            )
        recorded = phase.recorded.accessed_pairs
        if recorded is not None:
            # The application records IOR's pair count in result.txt (io500-isc22 on, verbose).
            yield Measurement(
                RECORDED_PAIRS,
                phase.name,
                observed=(float(recorded), float(recorded)),
                expected=(float(volume.pairs_max), float(volume.pairs_max)),
                values={"recorded": recorded, "pairs": volume.pairs_max, "raw_file": phase.raw.file},
            )
        expected = float(volume.pairs_max * tasks * volume.transfer_size)
        yield Measurement(
            PAIRS,
            phase.name,
            observed=(moved[0], moved[1]),
            expected=(expected, expected),
            values={
                "moved": (moved[0] + moved[1]) / 2,
                "source": moved[2],
                "raw_file": moved[3],
                "pairs": volume.pairs_max,
                "tasks": tasks,
                "transfer": volume.transfer_size,
                "expected": expected,
            },
        )


# --- mdtest items ----------------------------------------------------------------------------
def _items(phase: Phase | None) -> tuple[float, float, str] | None:
    """The items a phase handled: rate x time of its own output, else of its per-rank CSV's `all`."""
    if phase is None:
        return None
    raw = phase.raw
    if raw is not None and raw.mdtest_volume is not None:
        volume = raw.mdtest_volume
        if volume.items_low is not None and volume.items_high is not None:
            return volume.items_low, volume.items_high, f"rate x time in {raw.file}"
    total = phase.rank_total
    if total is not None and total.rate and total.time_s:
        # `all` row: "%.10e" of rate and time, 11 significant digits each.
        items = total.rate * total.time_s
        error = items * 1e-10
        return items - error, items + error, "rate x time of the per-rank CSV's 'all' row"
    return None


def _created(phase: Phase | None) -> tuple[float, float, str] | None:
    """What a create phase made: with wear-out every rank ends at the stonewall's largest count."""
    if phase is None or phase.raw is None or not phase.raw.tasks:
        return None
    tasks = phase.raw.tasks
    volume = phase.raw.mdtest_volume
    if volume is not None and volume.stonewall_max:
        count = float(volume.stonewall_max * tasks)
        return count, count, f"the stonewall's {volume.stonewall_max} items per rank x {tasks} tasks"
    return _items(phase)


def _mdtest_items(run: RunResult) -> Iterator[Measurement]:
    for kind, followers in _MDTEST_TREES.items():
        create = run.phases.get(f"mdtest-{kind}-write")
        created = _created(create)
        if create is None or created is None:
            continue
        own = _items(create)
        nominal = create.raw.mdtest_volume.nominal_files if create.raw and create.raw.mdtest_volume else None
        for count in {own, created} if nominal else ():
            if count is None:
                continue
            # No rank creates more than its -n: the stonewall can only stop a rank early.
            yield Measurement(
                NOMINAL,
                create.name,
                observed=(count[0], count[1]),
                expected=(0.0, float(nominal or 0)),
                values={"items": (count[0] + count[1]) / 2, "how": count[2], "nominal": nominal},
                upper_only=True,
            )
        if own is not None and own[2] != created[2]:
            # The create phase itself: its rate x time against its stonewall's count.
            yield _items_measurement(create.name, own, created, create.name)
        for name in followers:
            handled = _items(run.phases.get(name))
            if handled is not None:
                yield _items_measurement(name, handled, created, create.name)


def _items_measurement(
    phase: str, handled: tuple[float, float, str], created: tuple[float, float, str], create_phase: str
) -> Measurement:
    return Measurement(
        ITEMS,
        phase,
        observed=(handled[0], handled[1]),
        expected=(created[0], created[1]),
        values={
            "items": (handled[0] + handled[1]) / 2,
            "how": handled[2],
            "create_phase": create_phase,
            "created": (created[0] + created[1]) / 2,
            "create_how": created[2],
        },
    )


# --- find ------------------------------------------------------------------------------------
def _find_files(run: RunResult) -> Iterator[Measurement]:
    """pfind of the C application cannot scan more files than the run's data directory holds.

    Only where that is known: the application's own pfind (external find scripts count in their own
    ways, some count directories or chunks), the standard mode (extended phases add files before
    find runs) and the C application (io500.sh's pfind of 2019 counted some mdtest-easy rank
    directories twice, adding whole multiples of the items per rank). A find that scans fewer files
    than were created is not a contradiction: stonewalled and sampling finds do.
    """
    if (
        run.era.is_shell
        or (run.mode or "").lower() == "extended"
        or run.extra_phases.keys()
        - {
            "ior-rnd4K-easy-read",
            "timestamp",
        }
    ):
        return
    phase = run.phases.get("find")
    if phase is None or not _is_internal_pfind(phase.command):
        return
    total = _find_total(phase)
    easy = _created(run.phases.get("mdtest-easy-write"))
    hard = _created(run.phases.get("mdtest-hard-write"))
    tasks = _run_tasks(run)
    if total is None or easy is None or hard is None or tasks is None:
        return
    others = ENTRIES_PER_TASK * tasks + ENTRIES_FIXED
    bound = easy[1] + hard[1] + others
    yield Measurement(
        FIND,
        "find",
        observed=(total, total),
        expected=(0.0, bound),
        upper_only=True,
        values={
            "total": total,
            "easy": (easy[0] + easy[1]) / 2,
            "hard": (hard[0] + hard[1]) / 2,
            "others": others,
            "tasks": tasks,
            "bound": bound,
        },
    )


# shlex reads a character per Python step (about 1 s per MiB). A command without quotes or escapes
# splits exactly as shlex splits it, on shlex's own blanks; a quoted one longer than any real command
# (the longest of both corpora has 5,067 characters) is split on blanks alone, as an unreadable one is.
_SHLEX_BLANKS = re.compile(r"[ \t\r\n]*([^ \t\r\n]*)")
MAX_SHLEX_CHARS = 64 * 1024


def _first_word(command: str) -> str | None:
    if not any(char in command for char in "'\"\\"):
        first = _SHLEX_BLANKS.match(command)
        return first.group(1) if first is not None and first.group(1) else None
    if len(command) > MAX_SHLEX_CHARS:
        words = command.split(maxsplit=1)
    else:
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
    return words[0] if words else None


def _is_internal_pfind(command: str | None) -> bool:
    if not command:
        return False
    first = _first_word(command)
    return first is not None and first.rsplit("/", 1)[-1] == "pfind"


def _find_total(phase: Phase) -> float | None:
    """The files pfind scanned as the application recorded them (result.txt's `total-files`, which
    the score divides), else find.csv's sum when it has every rank."""
    if "total-files" in phase.values:  # recorded but unreadable: no figure, not find.csv's
        return phase.recorded.total_files
    return phase.raw.items if phase.raw is not None else None


# --- tasks and nodes -------------------------------------------------------------------------
def _run_tasks(run: RunResult) -> int | None:
    for phase in run.phases.values():
        if phase.name != "find" and phase.raw is not None and phase.raw.tasks:
            return phase.raw.tasks
    return None


def _task_counts(run: RunResult) -> Iterator[tuple[str, int, str]]:
    """(phase, tasks, where it is written) for every count of the run's ranks."""
    procs = run.result_procs
    if procs is not None:
        yield "run", procs, "result.txt procs"
    for name, phase in run.phases.items():
        if name == "find":  # pfind runs with its own nproc
            continue
        if phase.raw is not None and phase.raw.tasks:
            what = "tasks" if phase.raw.tool == "ior" else "launched tasks"
            yield name, phase.raw.tasks, f"{what} in {phase.raw.file}"
        if phase.ranks:
            ranks = len({row.rank for row in phase.ranks})
            yield name, ranks, f"rows of {name}.csv"


def _majority(counts: list[tuple[str, int, str]]) -> tuple[str, int, str]:
    """The count most sources agree on (the first of them names it): one edited or spliced source
    is then the one named, not every other phase."""
    tally = Counter(count for _, count, _ in counts)
    best = max(tally.values())
    return next(entry for entry in counts if tally[entry[1]] == best)


def _tasks(run: RunResult) -> Iterator[Measurement]:
    counts = list(_task_counts(run))
    if len(counts) < 2:
        return
    _, base, base_source = _majority(counts)
    for phase, tasks, source in counts:
        if source == base_source:
            continue
        yield Measurement(
            TASKS,
            None if phase == "run" else phase,
            observed=(float(tasks), float(tasks)),
            expected=(float(base), float(base)),
            values={
                "where": "result.txt's procs" if phase == "run" else phase,
                "tasks": tasks,
                "source": source,
                "other_tasks": base,
                "other_source": base_source,
            },
        )


def _nodes(run: RunResult) -> Iterator[Measurement]:
    """Printed node counts only (mdtest's launch line, IOR 3.3+'s `nodes`): IOR before 3.3 derives
    nodes from the tasks on rank 0's node, which is wrong when nodes carry different task counts."""
    counts: list[tuple[str, int, str]] = []
    for name, phase in run.phases.items():
        raw = phase.raw
        if name == "find" or raw is None:
            continue
        if raw.tool == "mdtest" and raw.nodes:
            counts.append((name, raw.nodes, f"launch line of {raw.file}"))
        elif raw.ior_volume is not None and raw.ior_volume.nodes:
            counts.append((name, raw.ior_volume.nodes, f"nodes in {raw.file}"))
    if len(counts) < 2:
        return
    _, base, base_source = _majority(counts)
    for name, nodes, source in counts:
        if source == base_source:
            continue
        yield Measurement(
            NODES,
            name,
            observed=(float(nodes), float(nodes)),
            expected=(float(base), float(base)),
            values={
                "nodes": nodes,
                "source": source,
                "other_nodes": base,
                "other_source": base_source,
            },
        )
