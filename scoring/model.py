"""The normalised result model shared by every reader and every rule.

Readers turn bytes into a `RunResult`; rules turn a `RunResult` into `Finding`s; `verify()` wraps
both into a `Verification`. Nothing in here reads files or parses text.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# Canonical phase names, in the official C-application execution order (standard mode).
BW_PHASES: tuple[str, ...] = ("ior-easy-write", "ior-hard-write", "ior-easy-read", "ior-hard-read")
MD_PHASES: tuple[str, ...] = (
    "mdtest-easy-write",
    "mdtest-hard-write",
    "find",
    "mdtest-easy-stat",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
)
SCORED_PHASES: tuple[str, ...] = BW_PHASES + MD_PHASES
WRITE_PHASES: tuple[str, ...] = (
    "ior-easy-write",
    "ior-hard-write",
    "mdtest-easy-write",
    "mdtest-hard-write",
)
PHASE_ORDER: tuple[str, ...] = (
    "ior-easy-write",
    "mdtest-easy-write",
    "timestamp",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
    "ior-rnd4K-easy-read",
)

CLOCK_FORMAT = "%Y-%m-%d %H:%M:%S"  # result.txt's t_start / t_end (local time, whole seconds)
GIB_PER_S = "GiB/s"
KIOPS = "kIOPS"


class Severity(StrEnum):
    ERROR = "error"  # makes the run invalid
    WARNING = "warning"  # needs committee attention
    INFO = "info"


class Era(StrEnum):
    """Output eras; the letters follow the format specification (io500-format.md section 1)."""

    DEV_SCRIPT = "io-500-dev"  # early io-500-dev output.txt with [IOR EASY WRITE] sections
    SHELL_SC17 = "shell-sc17"  # A0: TOTAL printed as BW * MD
    SHELL = "shell"  # A1/A2: "GB/s" labels (values are GiB/s)
    SHELL_GIB = "shell-gib"  # A3: "GiB/s" labels, ISC20 script half
    C_ISC20 = "c-isc20"  # B1
    C_SC20 = "c-sc20"  # B2
    C_ISC21 = "c-isc21"  # B3: [      ] lines, " [INVALID]" suffix, per-rank CSVs
    C_SC21 = "c-sc21"  # B4/B5: [run] header, zero phases skipped in the means
    C_ISC25 = "c-isc25"  # B6+: unscored ior-rnd4K-easy-read

    @property
    def is_shell(self) -> bool:
        return self in (Era.DEV_SCRIPT, Era.SHELL_SC17, Era.SHELL, Era.SHELL_GIB)

    @property
    def skips_zero_phases(self) -> bool:
        """From B4 on, phases with a value <= 0 are left out of the geometric means."""
        return self in (Era.C_SC21, Era.C_ISC25)


@dataclass(frozen=True)
class Score:
    bw: float | None  # GiB/s
    md: float | None  # kIOPS
    score: float | None
    invalid: bool = False  # an invalid marker was printed with this score
    hash: str | None = None  # "hash" of [SCORE] / [SCOREX] in result.txt, as printed


@dataclass(frozen=True)
class RankRow:
    """One row of a per-rank CSV (IOR saveRankPerformanceDetailsCSV / mdtest details / find.csv)."""

    rank: int
    time_s: float | None  # the phase runtime of this rank
    rate: float | None  # throughput (MiB/s for IOR) or items per second (mdtest, find)
    items: float | None = None  # items processed (mdtest, find: files scanned) when given
    found: float | None = None  # find: files matched by this rank


@dataclass(frozen=True)
class TimelineBin:
    """One row of our runner's `<phase>.timeline.csv`: work done by one rank in one second."""

    rank: int
    second: int
    amount: float  # bytes (IOR) or items (mdtest, find)


@dataclass(frozen=True)
class EchoedOption:
    """One option as the tool printed it back (readers/echo.py), under the tool's own parameter
    name (IOR: transferSize, blockSize, segmentCount, filePerProc, reorderTasks, ...). A number is
    the range its printed text allows (exact integers: low == high; switches: 0 or 1); a name such
    as the api has no range, only its text."""

    name: str
    text: str  # as printed, for messages
    source: str  # where it was printed: "Options", "Summary", "Summary of all tests", "mdtest"
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class IorVolume:
    """What one IOR output says about the data it moved: the facts the cross-phase physics compares.

    Every size is in bytes. A range (`bytes_low`..`bytes_high`) is what the printed figures allow:
    the exact `aggregate bytes moved` gives a point, the summary's `aggs(MiB)` (a C float printed
    with one decimal) a narrow range.
    """

    bytes_low: float | None = None  # bytes the first repetition moved
    bytes_high: float | None = None
    bytes_source: str | None = None  # which figure: "bytes moved", "aggsize", "aggs(MiB)", "geometry"
    pairs_min: int | None = None  # `stonewalling pairs accessed min: X max: Y` (wear-out runs only)
    pairs_max: int | None = None
    transfer_size: int | None = None  # -t, exact (summary xsize or the options' exact echo)
    block_size: int | None = None  # -b, exact
    block_high: float | None = None  # -b as large as the printed figures allow (exact or block(KiB))
    segments: int | None = None  # -s
    repetitions: int | None = None  # -i
    file_per_process: bool | None = None  # -F
    wear_out: bool | None = None  # stoneWallingWearOut=1
    nodes: int | None = None  # the `nodes :` line (IOR 3.3+); older IORs print only tasks per node
    api: str | None = None  # the `api :` line (IOR warns about moved bytes except for some APIs)


@dataclass(frozen=True)
class MdtestVolume:
    """What one mdtest output says about the items it processed, for the cross-phase physics.

    mdtest's rate is items / time over the ranks (each rank's time in mdtest 3.3, the slowest rank's
    from 3.4 on), so the items lie between the smallest and largest rate x time the two tables allow.
    """

    items_low: float | None = None  # items of the phase's operation, as rate x time allows
    items_high: float | None = None
    stonewall_min: int | None = None  # `Continue stonewall hit min: X max: Y avg: Z` (create phases)
    stonewall_max: int | None = None
    stonewall_avg: float | None = None
    nominal_files: int | None = None  # `N tasks, M files`: -n x tasks, what the phase would do unstopped
    iterations: int | None = None  # `SUMMARY rate: (of N iterations)`


@dataclass(frozen=True)
class RawOutput:
    """Facts read from a phase's raw IOR / mdtest / pfind output file."""

    tool: str  # "ior" | "mdtest" | "pfind"
    file: str
    command: str | None = None
    nodes: int | None = None
    tasks: int | None = None
    # mdtest's `Nodemap:` (3.3+): how many ranks it marks as sharing rank 0's host (a hostname test,
    # unlike the node count of the launch line).
    node_map_ones: int | None = None
    value: float | None = None  # the phase value recomputed from the raw output, in the phase unit
    time_s: float | None = None
    errors: int | None = None  # IOR data-verification / I/O errors
    stonewall_s: float | None = None  # stonewall time the tool reports (IOR "time: 300.3s", mdtest)
    items: float | None = None  # items (mdtest, find: scanned files), or bytes (IOR aggregate size)
    found: float | None = None  # find: matched files
    # The range of phase values the raw numbers allow, given how many digits the tool printed (and,
    # for mdtest, the spread between its fastest and slowest rank): `value` is one point inside it.
    value_low: float | None = None
    value_high: float | None = None
    # The range of the tool's own runtime for the phase (IOR total, mdtest time table, pfind runtime).
    time_low: float | None = None
    time_high: float | None = None
    # IOR: what io500.sh took from this output: the first result row's MiB/s / 1024 (with the row's
    # own rounding, e.g. "5439") and its 8th field as the phase time.
    script_value: float | None = None
    script_time_s: float | None = None
    started: dt.datetime | None = None  # local time the tool printed when it began, to the second
    finished: dt.datetime | None = None  # ... and when it ended
    # IOR: the longer of the first result row's open(s) and close(s) columns. IOR's total time runs
    # from the first rank's open to the last rank's close, so clock offsets between nodes show here.
    open_close_s: float | None = None
    # Pairs of the tool's own printed figures that cannot both be true (an edited file), in words.
    contradictions: tuple[str, ...] = ()
    ior_volume: IorVolume | None = None  # IOR: bytes, stonewall pairs, transfer geometry
    mdtest_volume: MdtestVolume | None = None  # mdtest: items of the phase's operation
    options: tuple[EchoedOption, ...] = ()  # what the tool echoed of the options it ran with


@dataclass(frozen=True)
class Recorded:
    """The clocks and counts one result.txt section records, read once by the reader
    (readers/phases.py) so that no rule parses text. A key the section lacks, or whose text is no
    clock or finite number, is None; the text as printed stays in `Phase.values` / `result_ini`."""

    t_start: dt.datetime | None = None  # "YYYY-MM-DD HH:MM:SS", local time of the phase's start
    t_end: dt.datetime | None = None
    t_delta: float | None = None  # the phase's runtime in seconds, as printed (negatives included)
    nproc: float | None = None  # find: the ranks pfind ran with
    found: float | None = None  # find: files matched
    total_files: float | None = None  # find: files scanned
    accessed_pairs: int | None = None  # IOR wear-out writes: the stonewall's pair count (a count >= 0)


@dataclass(frozen=True)
class Phase:
    name: str  # canonical, e.g. "ior-easy-write"
    value: float  # GiB/s for ior-*, kIOPS otherwise
    unit: str  # GIB_PER_S or KIOPS
    time_s: float | None  # wall time of the phase as printed
    scored: bool  # one of the 12 core phases
    invalid_marker: bool = False  # "-invalid" / " [INVALID]" printed on this phase's line
    command: str | None = None  # the exact command line (result.txt exe, [Exec] line, raw header)
    values: dict[str, str] = field(default_factory=dict)  # other result.txt keys of this section
    recorded: Recorded = field(default_factory=Recorded)  # `values`' clocks and counts, typed
    errors: tuple[str, ...] = ()  # "; ERROR INVALID ..." comments inside this phase's section
    raw: RawOutput | None = None
    ranks: tuple[RankRow, ...] = ()  # per-rank rows when the archive has them
    rank_total: RankRow | None = None  # the per-rank CSV's "all" row (mdtest, rank -1): the aggregate
    timeline: tuple[TimelineBin, ...] = ()  # per-second bins from our runner


@dataclass
class RunResult:
    """One IO500 run: everything the readers could learn from one result directory."""

    path: str  # the result directory, relative to what was given to the reader
    era: Era
    version: str | None  # None when the era prints none; "" when the C app printed an empty one
    mode: str | None = None  # "standard" / "extended" (B3+)
    procs: int | None = None  # MPI ranks (result.txt [run] procs, or raw outputs)
    nodes: int | None = None  # client nodes read from the raw outputs (None: no output prints them)
    # Which output printed `nodes` ("ior-easy-write.txt"), and where `procs` came from ("result.txt").
    nodes_source: str | None = None
    procs_source: str | None = None
    # When the run began by its own clocks: result.txt's `; START`, else the earliest clock a phase
    # or a tool printed (local time of the run, to the second). None when no file prints a clock.
    started: dt.datetime | None = None
    timestamp: str | None = None  # the run timestamp (result-dir basename), e.g. 2021.06.04-18.25.22
    phases: dict[str, Phase] = field(default_factory=dict)  # canonical name -> phase
    extra_phases: dict[str, Phase] = field(default_factory=dict)  # extended / unscored ones
    claimed: Score | None = None  # [SCORE] line / result.txt [SCORE]
    claimed_extended: Score | None = None  # [SCOREX]
    config: dict[str, dict[str, str]] = field(default_factory=dict)  # effective config.ini
    config_source: str | None = None  # which file `config` came from (config.ini, io500.sh, ...)
    config_hash: str | None = None  # result.txt config-hash as printed
    header_errors: tuple[str, ...] = ()  # "; ERROR INVALID ..." before the first phase section
    result_ini: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    # The clocks and counts of each section of `result_ini`, typed, in the same order.
    result_recorded: list[tuple[str, Recorded]] = field(default_factory=list)
    result_procs: int | None = None  # result.txt's header `procs` as printed (a count), unlike `procs`
    files: tuple[str, ...] = ()  # every file of the run, relative to `path`
    # Entries directly in the run directory that are not regular files: name -> "directory" / "link"
    # / "special". A result.txt that is a directory is not a missing file but not evidence either.
    irregular: dict[str, str] = field(default_factory=dict)
    read_notes: list[Finding] = field(default_factory=list)  # what the reader noticed on the way
    # The versions IOR and mdtest printed in their output ("ior" -> "3.4.0+dev"), C eras.
    tool_versions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    code: str  # stable, e.g. "stonewall-short"
    severity: Severity
    message: str  # what a submitter understands
    phase: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "phase": self.phase,
            "message": self.message,
        }


class BasisLevel(StrEnum):
    """What a verdict rests on, weakest first; a run's level is that of its weakest scored phase."""

    SUMMARIES = "summaries"  # some scored phase's value is backed by the summary files alone
    TOOL_OUTPUTS = "tool-outputs"  # every scored phase re-derived from its tool's own output
    PER_RANK = "per-rank"  # ... and every IOR / mdtest phase from its per-rank file as well
    # ... and the phases agree with one another (bytes, items, tasks, clocks), with every per-rank
    # file the version writes agreeing too (eras before io500-isc21 write none)
    CROSS_PHASE = "cross-phase"


@dataclass(frozen=True)
class EvidenceBasis:
    level: BasisLevel
    # Scored phases whose value no raw output backs (missing, unreadable or never written), in order.
    summary_only: tuple[str, ...] = ()
    tool_checked: int = 0  # scored phases whose value agreed with their tool's output
    rank_checked: int = 0  # scored phases whose per-rank file agreed
    cross_checked: int = 0  # cross-phase invariants that could be checked and held

    @property
    def label(self) -> str:
        return BASIS_LABELS[self.level]


BASIS_LABELS: dict[BasisLevel, str] = {
    BasisLevel.SUMMARIES: "checked from summaries only",
    BasisLevel.TOOL_OUTPUTS: "checked against the tools' own outputs",
    BasisLevel.PER_RANK: "checked against the tools' outputs and per-rank files",
    BasisLevel.CROSS_PHASE: "checked against the tools' outputs and across phases",
}


@dataclass
class Verification:
    result: RunResult
    computed: Score
    score_matches: bool
    findings: list[Finding]
    basis: EvidenceBasis = field(default_factory=lambda: EvidenceBasis(BasisLevel.SUMMARIES))

    @property
    def valid(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


class ReadError(Exception):
    """The input could not be read at all; the message says why, in words a submitter understands."""
