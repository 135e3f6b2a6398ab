"""Evidence: every phase value of the summary re-derived from that phase's own raw output.

The summary files (result_summary.txt, result.txt) can be rewritten consistently by anyone, and
their score hash with them: it is a public 32-bit checksum. What a forger must rewrite as well is
what the tools themselves wrote for each phase: IOR's result row, `Max` line, summary table and
byte count, mdtest's rate and time tables, pfind's find.csv, the per-rank CSVs, the command lines
and the tools' clocks. Each of them is compared with the summary here, within the precision the
tool printed, so an honest run always agrees and an edited number shows.

The facts behind each check (io500-format.md sections 2, 6.2 and 10, and where the real files of
the shared corpus disagreed with the spec, the real files):
- C eras: `result.txt` and `config.ini` are written into every result directory; without them the
  benchmark's own verdicts (`; ERROR INVALID ...`, `[INVALID]`, valid=NO in the hash) and the
  configuration are gone, so a C-era run is not valid without both, as regular, readable files.
- Values: the C application scores IOR's bytes / time / 2^30 and mdtest's and pfind's rates, so
  the printed value must lie in the range the raw digits allow (for mdtest between its Min and Max
  columns: the application scores rank 0's rate). io500.sh took IOR's first result row (with the
  row's own rounding, e.g. "5439" MiB/s) and the first mdtest row, then printed `%.3f` of awk's
  six significant digits; its find value is checked by rules/find.py from the `[FIND]` line.
- Per-rank CSVs (C eras from io500-isc21): IOR's ranks' bytes over IOR's time give the bandwidth;
  mdtest's `all` row is the rate it scored; pfind's rows add up to the found and scanned counts.
- Clocks: a tool starts after its phase's t_start and ends before its t_end (result.txt, whole
  seconds, so 1 s of slack); t_delta is timed between the printing of t_start and t_end, so it is
  no longer than they are apart (it may be shorter: the console can stall after the timer stopped,
  a warning); the tool's clocks span no more than t_delta, and its own time no more than its clocks
  or t_delta, where IOR's time may exceed the wall by the clock offsets between nodes that its open
  and close columns show (345 s on a real DAOS run); every phase starts after the one before it
  ended, and the tools' outputs follow one another, in the order result.txt records the phases.
  Timers drift against the wall clock (3.98 s over 1,701 s on a real run), so every clock tolerance
  is 1 s plus 0.5 % of the duration. The result directory's name is not compared (it may be in
  another zone). A clock that is present but unreadable is rules/structure.py's error.
- A tool contradicting itself (figures of one measurement that cannot all be true) is an error of
  its own (`evidence-tool-contradiction`), never a wider range to compare the summary with.
- 300 s: the application judges an IOR write phase by IOR's own time; io500.sh printed IOR's
  8th result field as the phase time and mdtest's time-table entry (except mdtest-hard-delete,
  which the script timed itself), so those printed times must be the raw ones. The stonewall
  options (-D 300, -W 300) are checked on the commands (rules/params.py), and each tool's printed
  command line must be the recorded one. IOR's `stonewalling pairs ... time: Xs` is no bound: it
  reads 266.3 s and even 2.2 s on honest -D 300 runs (submission-183, -198); nor is mdtest's own
  create time (297.7 s on an honest run whose phase lasted 307.8 s, submission-663).
A raw file or per-rank CSV that is not in the archive, or is cut to its header, is a warning and
lowers the verdict's basis, never an error by itself: real submissions lost files to size limits and
hand-packing. io-500-dev runs are read from their raw output in the first place.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from scoring.codes import finding
from scoring.means import phase_error, significant_error
from scoring.model import (
    CLOCK_FORMAT,
    PHASE_ORDER,
    BasisLevel,
    Era,
    EvidenceBasis,
    Finding,
    Phase,
    RawOutput,
    RunResult,
)
from scoring.rules.find import rate_agrees

REQUIRED_FILES: tuple[tuple[str, str], ...] = (
    (
        "result.txt",
        "the phase scores and runtimes, the benchmark's own invalid verdicts and the score hash",
    ),
    ("config.ini", "every option the run used, under the config hash"),
)
RANK_CSV_ERAS = (Era.C_ISC21, Era.C_SC21, Era.C_ISC25)  # saveRankPerformanceDetails from io500-isc21
IOR_WRITES = ("ior-easy-write", "ior-hard-write")
MIN_WRITE_SECONDS = 300.0
CLOCK_SLACK_S = 1.0  # t_start / t_end and the tools' clocks print whole seconds
# Timers against the wall clock: 3.98 s over a 1,701 s phase on a real run (0.23 %); NTP alone
# slews at most 0.05 %. Twice the worst seen, in proportion to the duration.
CLOCK_DRIFT = 0.005
RELATIVE_SLACK = 1e-9  # double arithmetic against printed decimals, far below any printed digit
CSV_RELATIVE = 1e-6  # per-rank CSVs print 11 significant digits; sums of thousands of them
SCRIPT_TIMED = ("mdtest-hard-delete",)  # io500.sh printed its own duration for this phase
GIB = 1024**3
MIB = 1024**2
# A quoted or bare command-line token; the group that matched is the token without its quotes.
_TOKEN_RE = re.compile(r"'([^']*)'|\"([^\"]*)\"|(\S+)")

# Status of one comparison, as counted in docs/evidence.md.
AGREES = "agrees"
DISAGREES = "disagrees"
MISSING = "missing"
UNREADABLE = "unreadable"
NOT_RECORDED = "not-recorded"  # the era or tool writes no raw output for it (external find script)
OWN_OUTPUT = "own-output"  # io-500-dev: the value is read from the raw output itself
UNSUPPORTED = "unsupported"  # md-workbench: no reader
# A value some output of the tool itself backs: its raw file agreed, the era's raw record is the
# output (io-500-dev), or the application recorded an external find script's own last line.
BACKED = (AGREES, OWN_OUTPUT, NOT_RECORDED)


@dataclass(frozen=True)
class PhaseEvidence:
    phase: str
    kind: str  # "ior", "mdtest", "find" or "other"
    scored: bool
    value: str  # one of the statuses above
    ranks: str | None = None  # AGREES / DISAGREES / MISSING; None where the era writes no CSV
    clock: str | None = None  # AGREES / DISAGREES; None where nothing could be compared


@dataclass
class EvidenceReport:
    files: dict[str, str] = field(default_factory=dict)  # required file -> status (C eras only)
    phases: list[PhaseEvidence] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # Invariants between phases (clocks in order, bytes and items carried over): name -> status.
    cross: dict[str, str] = field(default_factory=dict)

    def basis(self) -> EvidenceBasis:
        """What the verdict rests on: the weakest scored phase decides the level."""
        scored = [p for p in self.phases if p.scored]
        summary_only = tuple(p.phase for p in scored if p.value not in BACKED)
        tool_checked = sum(p.value in BACKED for p in scored)
        rank_phases = [p for p in scored if p.kind in ("ior", "mdtest")]
        rank_checked = sum(p.ranks == AGREES for p in scored)
        cross_checked = sum(status == AGREES for status in self.cross.values())
        # Eras that write no per-rank files (ranks None) lack nothing by it; a missing or
        # disagreeing file keeps the run below the levels that rest on them.
        ranks_hold = all(p.ranks in (AGREES, None) for p in rank_phases)
        cross_hold = cross_checked > 0 and DISAGREES not in self.cross.values()
        if summary_only or not scored:
            level = BasisLevel.SUMMARIES
        elif ranks_hold and cross_hold:
            level = BasisLevel.CROSS_PHASE
        elif ranks_hold and rank_checked:
            level = BasisLevel.PER_RANK
        else:
            level = BasisLevel.TOOL_OUTPUTS
        return EvidenceBasis(level, summary_only, tool_checked, rank_checked, cross_checked)


def kind_of(phase: str) -> str:
    for kind in ("ior", "mdtest", "find"):
        if phase.startswith(kind):
            return kind
    return "other"


def _number(value: float) -> str:
    return f"{value:.6f}" if abs(value) < 1e6 else f"{value:.1f}"


def _shown(clock: dt.datetime | None) -> str:
    """A tool's clock in messages, in result.txt's form."""
    return clock.strftime(CLOCK_FORMAT) if clock is not None else "?"


# --- required files (C eras) --------------------------------------------------------------------
def _required_files(run: RunResult, report: EvidenceReport) -> None:
    direct = {name for name in run.files if "/" not in name}
    for name, what in REQUIRED_FILES:
        kind = run.irregular.get(name)
        if kind is not None:
            report.files[name] = "not-regular"
            report.findings.append(finding("evidence-file-not-regular", file=name, kind=kind, what=what))
        elif name not in direct:
            report.files[name] = MISSING
            report.findings.append(finding("evidence-file-missing", file=name, what=what))
        else:
            reason = _unusable(run, name)
            report.files[name] = "unusable" if reason else "present"
            if reason:
                report.findings.append(finding("evidence-file-unusable", file=name, reason=reason))


def _unusable(run: RunResult, name: str) -> str | None:
    """Why a present result.txt / config.ini is not the file the application writes, if it is not."""
    if name == "result.txt":
        sections = {section for section, _ in run.result_ini}
        if not run.result_ini:
            return "could not be read as text"
        if "SCORE" not in sections:
            return "holds no [SCORE] section with the score hash"
        return None
    if run.config_source != "config.ini":
        return "could not be read as text"
    if not run.config:
        return "holds no configuration section"
    return None


# --- one phase --------------------------------------------------------------------------------
def _source(run: RunResult, phase: Phase) -> str:
    """Where the phase value was read: result.txt's score wins over result_summary.txt's line."""
    if run.era.is_shell:
        return "result_summary.txt"
    for name, items in run.result_ini:
        if name == phase.name:
            return "result.txt" if any(key == "score" for key, _ in items) else "result_summary.txt"
    return "result_summary.txt"


def _summary_error(run: RunResult, value: float) -> float:
    """How far a printed summary value may lie from the raw one by printing alone."""
    error = phase_error(run.era) + RELATIVE_SLACK * abs(value)
    if run.era.is_shell:
        error += significant_error(value)  # awk's %.6g before the script's %.3f
    return error


def _value_range(run: RunResult, raw: RawOutput) -> tuple[float, float] | None:
    if run.era.is_shell and raw.tool == "ior":
        if raw.script_value is None:
            return None
        return raw.script_value, raw.script_value
    if raw.value_low is None or raw.value_high is None:
        return None
    return raw.value_low, raw.value_high


def _expected_files(run: RunResult, phase: Phase) -> str:
    if run.era.is_shell:
        if phase.name == "find":
            return "the console log's [FIND] line"
        return phase.name.replace("-", "_") + ".txt"
    return f"{phase.name}.csv" if phase.name.startswith("find") else f"{phase.name}.txt"


def _emit(report: EvidenceReport, phase: Phase, code: str, **values: object) -> None:
    """A disagreement: an error on a scored phase, a warning on an unscored one."""
    if phase.scored:
        report.findings.append(finding(code, phase=phase.name, **values))
    else:
        detail = finding(code, phase=phase.name, **values).message
        report.findings.append(finding("evidence-unscored-mismatch", phase=phase.name, detail=detail))


@dataclass
class _Collected:
    missing: list[tuple[str, str]] = field(default_factory=list)  # (phase, expected file)
    ranks_missing: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)


def _check_value(run: RunResult, phase: Phase, raw: RawOutput, report: EvidenceReport) -> str:
    if run.era.is_shell and raw.tool == "pfind":
        # The [FIND] line is the find's raw record; rules/find.py judges the value against it.
        agrees = rate_agrees(run, phase)
        if agrees is None:
            report.findings.append(
                finding("evidence-raw-unreadable", phase=phase.name, raw_file=raw.file, tool=raw.tool)
            )
            return UNREADABLE
        return AGREES if agrees else DISAGREES
    bounds = _value_range(run, raw)
    if bounds is None:
        report.findings.append(
            finding("evidence-raw-unreadable", phase=phase.name, raw_file=raw.file, tool=raw.tool)
        )
        return UNREADABLE
    low, high = bounds
    error = _summary_error(run, phase.value)
    if low - error <= phase.value <= high + error:
        return AGREES
    raw_value = raw.script_value if run.era.is_shell and raw.tool == "ior" else raw.value
    _emit(
        report,
        phase,
        "evidence-value-mismatch",
        value=_number(phase.value),
        unit=phase.unit,
        source=_source(run, phase),
        tool=raw.tool,
        raw_file=raw.file,
        raw_value=_number(raw_value if raw_value is not None else (low + high) / 2),
        low=_number(low),
        high=_number(high),
    )
    return DISAGREES


def _tool_arguments(command: str) -> list[str]:
    """The tool's own arguments: what follows the ior/mdtest program (io500.sh's [Exec] line also
    holds the mpirun part, which the tool does not print). mdtest prints every argument in single
    quotes; both sides go through this one tokenizer, so only the quoting has to be undone."""
    if "'" in command or '"' in command:
        tokens = [match.group(match.lastindex or 0) for match in _TOKEN_RE.finditer(command)]
    else:
        tokens = command.split()
    for index, token in enumerate(tokens):
        if token.rsplit("/", 1)[-1] in ("ior", "mdtest"):
            return tokens[index + 1 :]
    return tokens


def _check_command(run: RunResult, phase: Phase, raw: RawOutput, report: EvidenceReport) -> None:
    if raw.command is None or phase.command is None or raw.command == phase.command:
        return
    recorded, printed = _tool_arguments(phase.command), _tool_arguments(raw.command)
    if recorded == printed:
        return
    index = next(
        (i for i, (a, b) in enumerate(zip(printed, recorded, strict=False)) if a != b),
        min(len(printed), len(recorded)),
    )
    _emit(
        report,
        phase,
        "evidence-command-mismatch",
        raw_file=raw.file,
        source="the console log" if run.era.is_shell else "result.txt",
        raw_token=printed[index] if index < len(printed) else "(end)",
        recorded_token=recorded[index] if index < len(recorded) else "(end)",
    )


def _check_ranks(run: RunResult, phase: Phase, raw: RawOutput | None, report: EvidenceReport) -> str | None:
    kind = kind_of(phase.name)
    if kind == "find":
        return _check_find_counts(run, phase, raw, report)
    if not phase.ranks and phase.rank_total is None:
        return MISSING if run.era in RANK_CSV_ERAS and kind in ("ior", "mdtest") else None
    error = _summary_error(run, phase.value)
    rank_file = f"{phase.name}.csv"
    if kind == "ior":
        rows = [row for row in phase.ranks if row.rate is not None and row.time_s is not None]
        if not rows or raw is None or raw.time_low is None or raw.time_high is None or raw.time_low <= 0:
            return None
        moved = sum(row.rate * MIB * row.time_s for row in rows if row.rate and row.time_s)
        low = moved / raw.time_high / GIB * (1 - CSV_RELATIVE)
        high = moved / raw.time_low / GIB * (1 + CSV_RELATIVE)
        if low - error <= phase.value <= high + error:
            return AGREES
        how = f"the bytes of its {len(rows)} ranks over IOR's {raw.time_s} s"
        _emit(
            report,
            phase,
            "evidence-rank-mismatch",
            value=_number(phase.value),
            unit=phase.unit,
            source=_source(run, phase),
            rank_file=rank_file,
            rank_value=_number(moved / (raw.time_s or raw.time_high) / GIB),
            how=how,
        )
        return DISAGREES
    total = phase.rank_total
    if total is None or total.rate is None:
        return None
    rate = total.rate / 1000
    agrees = abs(phase.value - rate) <= error + CSV_RELATIVE * rate
    if agrees and total.time_s is not None:
        items = sum(row.rate * row.time_s for row in phase.ranks if row.rate and row.time_s)
        expected = total.rate * total.time_s
        if phase.ranks and abs(items - expected) > CSV_RELATIVE * max(expected, 1.0) + 1.0:
            _emit(
                report,
                phase,
                "evidence-rank-mismatch",
                value=_number(phase.value),
                unit=phase.unit,
                source=_source(run, phase),
                rank_file=rank_file,
                rank_value=_number(items / total.time_s / 1000) if total.time_s else "?",
                how=f"its ranks' items over the 'all' row's {total.time_s} s; the 'all' row says "
                f"{_number(rate)}",
            )
            return DISAGREES
    if agrees:
        return AGREES
    _emit(
        report,
        phase,
        "evidence-rank-mismatch",
        value=_number(phase.value),
        unit=phase.unit,
        source=_source(run, phase),
        rank_file=rank_file,
        rank_value=_number(rate),
        how="the rate of its 'all' row, the aggregate mdtest computed",
    )
    return DISAGREES


def _check_find_counts(
    run: RunResult, phase: Phase, raw: RawOutput | None, report: EvidenceReport
) -> str | None:
    """find.csv's per-rank found and scanned counts against result.txt's found and total-files.

    Builds that leave `nproc` unset write only rank 0's own counts (the row loop runs to nproc),
    so the sums are compared only when find.csv has a row for each of the `nproc` ranks. A DAOS
    build of io500-sc20 (submission-453) printed the aggregate counts on every rank's row; such a
    file agrees when every row carries result.txt's counts.
    """
    recorded = phase.recorded
    if run.era.is_shell or raw is None or not phase.ranks or recorded.nproc is None:
        return None
    found, total = raw.found, raw.items
    rows = {(row.found, row.items) for row in phase.ranks}
    if len(rows) == 1 and len(phase.ranks) > 1:
        found, total = next(iter(rows))
    checks = [
        ("nproc", recorded.nproc, float(len(phase.ranks))),
        ("total-files", recorded.total_files, total),
        ("found", recorded.found, found),
    ]
    status = AGREES
    for key, claimed, counted in checks:
        if claimed is None or counted is None:
            continue
        if claimed != counted:
            status = DISAGREES
            if key == "nproc":
                # The sums of a file with the wrong number of ranks say nothing more.
                counted_file = f"{raw.file} rows"
                _emit(
                    report,
                    phase,
                    "evidence-count-mismatch",
                    source="result.txt",
                    key=key,
                    claimed=claimed,
                    raw_file=counted_file,
                    counted=counted,
                )
                break
            _emit(
                report,
                phase,
                "evidence-count-mismatch",
                source="result.txt",
                key=key,
                claimed=claimed,
                raw_file=raw.file,
                counted=counted,
            )
    return status


def _drift_slack(seconds: float) -> float:
    """How far two clocks of one run may disagree over `seconds`: whole-second stamps plus drift."""
    return CLOCK_SLACK_S + CLOCK_DRIFT * abs(seconds)


def _phase_clocks(phase: Phase) -> tuple[dt.datetime | None, dt.datetime | None, float | None]:
    """t_start, t_end and t_delta (one that is there but unreadable: rules/structure.py)."""
    return phase.recorded.t_start, phase.recorded.t_end, phase.recorded.t_delta


def _check_clock(run: RunResult, phase: Phase, raw: RawOutput | None, report: EvidenceReport) -> str | None:
    if run.era.is_shell:
        return _check_script_time(run, phase, raw, report)
    start, end, t_delta = _phase_clocks(phase)
    status: str | None = None
    if start is not None and end is not None and t_delta is not None:
        status = _check_wall(phase, start, end, t_delta, report)
    if raw is None:
        return status
    status = _check_tool_times(phase, raw, t_delta, report) or status
    if start is None or end is None:
        return status
    started, finished = raw.started, raw.finished
    if started is None and finished is None:
        return status
    slack = dt.timedelta(seconds=CLOCK_SLACK_S)
    inside = (started is None or started >= start - slack) and (finished is None or finished <= end + slack)
    if inside:
        return status or AGREES
    _emit(
        report,
        phase,
        "evidence-clock-mismatch",
        raw_file=raw.file,
        tool=raw.tool,
        started=_shown(raw.started),
        finished=_shown(raw.finished),
        start=phase.values.get("t_start"),
        end=phase.values.get("t_end"),
    )
    return DISAGREES


def _check_wall(
    phase: Phase, start: dt.datetime, end: dt.datetime, t_delta: float, report: EvidenceReport
) -> str:
    """t_delta is timed between the printing of t_start and t_end, so it cannot be longer than
    their distance; it can be shorter by whatever stalls the printing after the timer stopped."""
    wall = (end - start).total_seconds()
    slack = _drift_slack(t_delta) + 0.001
    if t_delta > wall + slack:
        _emit(
            report,
            phase,
            "evidence-runtime-mismatch",
            claimed=f"{t_delta:.4f}",
            source="t_delta in result.txt",
            other=f"its t_start {phase.values.get('t_start')} and t_end {phase.values.get('t_end')}",
            actual=f"{wall:.0f}",
        )
        return DISAGREES
    if wall > t_delta + slack:
        report.findings.append(
            finding("evidence-runtime-gap", phase=phase.name, wall=wall, t_delta=t_delta, gap=wall - t_delta)
        )
    return AGREES


def _check_tool_times(
    phase: Phase, raw: RawOutput, t_delta: float | None, report: EvidenceReport
) -> str | None:
    """The tool runs inside the phase, and its own timer inside its own clocks.

    IOR's total time runs from the first rank's open to the last rank's close, each rank on its own
    clock: offsets between nodes lengthen it (by 345 s on one real DAOS run) and show in its open
    and close columns, so IOR's time may exceed the wall clocks by that much and no more.
    """
    started, finished = raw.started, raw.finished
    span = (finished - started).total_seconds() if started and finished else None
    skew = (raw.open_close_s or 0.0) if raw.tool == "ior" else 0.0
    tool_time = raw.time_low
    checks: list[tuple[str, float, str, float, str]] = []
    if span is not None and t_delta is not None:
        checks.append(("from its start to its end", span, f"{t_delta:.4f}", t_delta, "phase's t_delta"))
    if tool_time is not None and span is not None and raw.tool in ("ior", "mdtest"):
        checks.append(
            (f"for {tool_time:.2f}", tool_time - skew, f"{span:.0f}", span, "tool's own start and end clocks")
        )
    if tool_time is not None and t_delta is not None and raw.tool in ("ior", "mdtest"):
        checks.append(
            (f"for {tool_time:.2f}", tool_time - skew, f"{t_delta:.4f}", t_delta, "phase's t_delta")
        )
    for what, seconds, shown, limit, bound in checks:
        slack = _drift_slack(limit)
        if seconds > limit + slack:
            _emit(
                report,
                phase,
                "evidence-tool-outlasts-phase",
                raw_file=raw.file,
                tool=raw.tool,
                what=what,
                limit=shown,
                bound=bound + (f" (less {skew:.1f} s of open and close)" if skew else ""),
                slack=slack,
            )
            return DISAGREES
    return None


def _check_script_time(
    run: RunResult, phase: Phase, raw: RawOutput | None, report: EvidenceReport
) -> str | None:
    """io500.sh printed IOR's 8th result field and mdtest's time-table entry as the phase time."""
    if raw is None or phase.time_s is None or run.era is Era.DEV_SCRIPT:
        return None
    if raw.tool == "ior" and raw.script_time_s is not None:
        low = high = raw.script_time_s
    elif raw.tool == "mdtest" and phase.name not in SCRIPT_TIMED and raw.time_low is not None:
        low, high = raw.time_low, raw.time_high or raw.time_low
    else:
        return None
    error = 0.005 + significant_error(high) + RELATIVE_SLACK * high  # %6.2f of awk's %.6g
    if low - error <= phase.time_s <= high + error:
        return AGREES
    _emit(
        report,
        phase,
        "evidence-runtime-mismatch",
        claimed=f"{phase.time_s:.2f}",
        source="result_summary.txt",
        other=f"its own {raw.tool} output {raw.file}",
        actual=f"{raw.script_time_s if raw.tool == 'ior' else raw.time_s}",
    )
    return DISAGREES


def _check_stonewall(run: RunResult, phase: Phase, raw: RawOutput | None, report: EvidenceReport) -> None:
    if run.era.is_shell or phase.name not in IOR_WRITES or raw is None or raw.time_high is None:
        return
    if raw.time_high < MIN_WRITE_SECONDS:
        report.findings.append(
            finding("evidence-stonewall-short", phase=phase.name, raw_file=raw.file, time_s=raw.time_s or 0.0)
        )


def _check_phase(run: RunResult, phase: Phase, report: EvidenceReport, collected: _Collected) -> None:
    kind = kind_of(phase.name)
    raw = phase.raw
    if kind == "other":
        collected.unsupported.append(phase.name)
        report.phases.append(PhaseEvidence(phase.name, kind, phase.scored, UNSUPPORTED))
        return
    if raw is None:
        script = _find_script(run, phase)
        if script is not None:
            report.findings.append(
                finding(
                    "evidence-find-script",
                    phase=phase.name,
                    script=script,
                    last_output=phase.values.get("last-output", "none"),
                )
            )
            value = NOT_RECORDED
        else:
            collected.missing.append((phase.name, _expected_files(run, phase)))
            value = MISSING
    else:
        for detail in raw.contradictions:
            _emit(
                report, phase, "evidence-tool-contradiction", raw_file=raw.file, tool=raw.tool, detail=detail
            )
        value = DISAGREES if raw.contradictions else _check_value(run, phase, raw, report)
        if kind in ("ior", "mdtest"):
            _check_command(run, phase, raw, report)
        _check_stonewall(run, phase, raw, report)
    ranks = _check_ranks(run, phase, raw, report)
    if ranks == MISSING:
        collected.ranks_missing.append(phase.name)
    clock = _check_clock(run, phase, raw, report)
    report.phases.append(PhaseEvidence(phase.name, kind, phase.scored, value, ranks, clock))


def _find_script(run: RunResult, phase: Phase) -> str | None:
    """The external script a C-era find ran instead of pfind (the application then writes no
    find.csv); None for pfind and for the shell era."""
    if run.era.is_shell or not phase.name.startswith("find"):
        return None
    command = (phase.command or "").split()
    program = command[0].rsplit("/", 1)[-1] if command else ""
    if "last-output" in phase.values or (program and program != "pfind"):
        return " ".join(command[:1]) or "unknown"
    return None


# --- across phases ------------------------------------------------------------------------------
def _run_order(run: RunResult) -> list[Phase]:
    """The phases in the order they ran: result.txt's section order where there is one (it is
    written as the phases run, in either mode), else the standard order."""
    pool = {**run.phases, **run.extra_phases}
    names = [name for name, _ in run.result_ini if name in pool] or list(PHASE_ORDER)
    seen: set[str] = set()
    ordered = []
    for name in names:
        if name in pool and name not in seen:
            seen.add(name)
            ordered.append(pool[name])
    return ordered


def _check_order(order: list[Phase], report: EvidenceReport) -> None:
    """The tools' outputs must follow one another in the order the phases ran."""
    previous: tuple[Phase, RawOutput, dt.datetime] | None = None
    status = None
    for phase in order:
        raw = phase.raw
        if raw is None:
            continue
        started, finished = raw.started, raw.finished
        if started is not None and previous is not None:
            before, before_raw, ended = previous
            status = status or AGREES
            if started < ended - dt.timedelta(seconds=CLOCK_SLACK_S):
                status = DISAGREES
                _emit(
                    report,
                    phase,
                    "evidence-clock-order",
                    raw_file=raw.file,
                    started=_shown(started),
                    previous=before.name,
                    finished=_shown(ended),
                    previous_file=before_raw.file,
                )
        if finished is not None:
            previous = (phase, raw, finished)
    if status is not None:
        report.cross["tool clocks in phase order"] = status


def _check_phase_chain(order: list[Phase], report: EvidenceReport) -> None:
    """Each phase starts after the one before it ended (result.txt's clocks, whole seconds)."""
    previous: tuple[Phase, dt.datetime] | None = None
    status = None
    for phase in order:
        start, end = phase.recorded.t_start, phase.recorded.t_end
        if start is not None and previous is not None:
            before, ended = previous
            status = status or AGREES
            if start < ended - dt.timedelta(seconds=CLOCK_SLACK_S):
                status = DISAGREES
                _emit(
                    report,
                    phase,
                    "evidence-phase-overlap",
                    start=phase.values.get("t_start"),
                    previous=before.name,
                    end=before.values.get("t_end"),
                )
        if end is not None:
            previous = (phase, end)
    if status is not None:
        report.cross["phases one after the other"] = status


def _summary_findings(run: RunResult, report: EvidenceReport, collected: _Collected) -> None:
    if collected.missing:
        phases = [name for name, _ in collected.missing]
        report.findings.append(
            finding(
                "evidence-raw-missing",
                phases=", ".join(phases),
                files=", ".join(sorted({file for _, file in collected.missing})),
                these=len(phases),
            )
        )
    present = set(run.files)
    emptied = [name for name in collected.ranks_missing if f"{name}.csv" in present]
    absent = [name for name in collected.ranks_missing if name not in emptied]
    if absent:
        report.findings.append(finding("evidence-ranks-missing", phases=", ".join(absent)))
    if emptied:
        files = ", ".join(f"{name}.csv" for name in emptied)
        report.findings.append(finding("evidence-ranks-empty", files=files, phases=", ".join(emptied)))
    if collected.unsupported:
        report.findings.append(finding("evidence-raw-unsupported", phases=", ".join(collected.unsupported)))
    if not run.era.is_shell and run.result_ini:
        clocked = [p for p in report.phases if "t_start" in _phase_values(run, p.phase)]
        if not clocked:
            report.findings.append(finding("evidence-clock-missing"))
    checked = [p for p in report.phases if p.value in (AGREES, DISAGREES)]
    if checked:
        extra = ""
        ranks = [p for p in report.phases if p.ranks in (AGREES, DISAGREES)]
        if ranks:
            extra += f"; {sum(p.ranks == AGREES for p in ranks)} of {len(ranks)} per-rank files add up to it"
        clocks = [p for p in report.phases if p.clock in (AGREES, DISAGREES)]
        if clocks:
            extra += f"; the times of {sum(p.clock == AGREES for p in clocks)} of {len(clocks)} phases fit"
        report.findings.append(
            finding(
                "evidence-checked",
                agree=sum(p.value == AGREES for p in checked),
                total=len(checked),
                extra=extra,
            )
        )


def _phase_values(run: RunResult, name: str) -> dict[str, str]:
    phase = run.phases.get(name) or run.extra_phases.get(name)
    return phase.values if phase is not None else {}


def evidence_report(run: RunResult) -> EvidenceReport:
    """Which evidence the run carries and whether it agrees with the summary, with the findings."""
    report = EvidenceReport()
    if not run.era.is_shell:
        _required_files(run, report)
    phases = [p for p in (*run.phases.values(), *run.extra_phases.values()) if p.name != "timestamp"]
    if run.era is Era.DEV_SCRIPT:
        report.phases = [PhaseEvidence(p.name, kind_of(p.name), p.scored, OWN_OUTPUT) for p in phases]
        return report
    collected = _Collected()
    for phase in phases:
        _check_phase(run, phase, report, collected)
    order = _run_order(run)
    _check_order(order, report)
    if not run.era.is_shell:
        _check_phase_chain(order, report)
    _summary_findings(run, report, collected)
    return report


def evidence_rules(run: RunResult) -> list[Finding]:
    return evidence_report(run).findings
