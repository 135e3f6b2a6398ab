"""Raw per-phase tool output: IOR and mdtest stdout, pfind statistics, per-rank CSVs, timelines.

Every parser takes the text of one file and returns what it could read; a parser never raises on
bad input, it leaves the fact it could not read as None. The files can hold thousands of lines
(per-rank CSVs, stonewall chatter), so lines are classified with cheap prefix tests first and a
regex only runs on the few lines that can match.
"""

from __future__ import annotations

import datetime as dt
import re
from math import isfinite

from scoring.model import RankRow, RawOutput, TimelineBin
from scoring.readers.echo import ior_options, mdtest_options
from scoring.readers.numbers import half_unit, to_float, to_int

MIB = 1024 * 1024

# --- IOR -------------------------------------------------------------------------------------
# `(.*)` and a strip, never `\s*(.*?)\s*$`: the lazy group before trailing blanks backtracks
# quadratically on a long run of blanks (tests/scoring/test_bounded_parsing.py).
_IOR_COMMAND_RE = re.compile(r"^Command line(?: used)?\s*:(.*)$")
_IOR_OPTION_RE = re.compile(r"^\s*(nodes|tasks|clients per node)\s*:\s*(\d+)\s*$")
_IOR_CLIENTS_RE = re.compile(r"^\s*clients\s*=\s*(\d+)\s*\((\d+) per node\)")
_IOR_MAX_RE = re.compile(r"^Max (Write|Read):\s+(\S+)\s+MiB/sec")
_IOR_STONEWALL_RE = re.compile(r"^stonewalling pairs accessed .*time:\s*([0-9.eE+-]+)s")
_IOR_ERRORS_FOUND_RE = re.compile(r"\((\d+) errors found\)")
_IOR_MOVED_RE = re.compile(r"^WARNING: Using actual aggregate bytes moved\s*=\s*(\d+)")
_IOR_CLOCK_RE = re.compile(r"^(Began|Finished)\s*:(.*)$")


def parse_ior(text: str, file: str) -> RawOutput:
    """IOR stdout of one phase (IOR 3.1 to 4.x): command, nodes, tasks, bandwidth, time, errors.

    The phase value is IOR's bandwidth: bytes moved / time / 2^30 (the C application's
    `aggFileSizeForBW / time / GIBIBYTE`, io500.sh's MiB/s column / 1024). IOR prints it several
    times with different precision (result row, `Max Write:`, the summary table) and prints the
    bytes and the time it divided; every one of them narrows the range the value can lie in.
    """
    command: str | None = None
    nodes: int | None = None
    tasks: int | None = None
    per_node: int | None = None
    rows: list[list[str]] = []
    max_text: str | None = None
    stonewall: float | None = None
    moved: float | None = None
    clock: dict[str, dt.datetime] = {}
    errors = 0
    summary_header: list[str] | None = None
    summary_row: list[str] | None = None
    in_summary = False
    for line in text.split("\n"):
        first = line[:1]
        if in_summary:
            if summary_header is None and line.startswith("Operation"):
                summary_header = line.split()
            elif summary_header is not None and summary_row is None and line.startswith(("write", "read")):
                summary_row = line.split()
            elif first == "F":
                _clock(line, clock)
            continue
        if first == "w" or first == "r":
            # One result row per repetition; io500.sh read the first (`grep '^write' | head -1`).
            if line.startswith(("write ", "read ")):
                fields = line.split()
                if len(fields) >= 9 and to_float(fields[1]) is not None:
                    rows.append(fields)
            continue
        if first == "C" and command is None:
            match = _IOR_COMMAND_RE.match(line)
            if match:
                command = match.group(1).strip()
        elif first == "M":
            match = _IOR_MAX_RE.match(line)
            if match:
                max_text = match.group(2)
        elif first == "B" or first == "F":
            _clock(line, clock)
        elif first == "s" and line.startswith("stonewalling pairs"):
            match = _IOR_STONEWALL_RE.match(line)
            if match:
                stonewall = to_float(match.group(1))
        elif first == "S" and line.startswith("Summary of all tests"):
            in_summary = True
        elif first == "W" and line.startswith("WARNING: Using actual"):
            match = _IOR_MOVED_RE.match(line)
            if match:
                moved = to_float(match.group(1))
        elif "errors found" in line:
            match = _IOR_ERRORS_FOUND_RE.search(line)
            if match:
                errors += to_int(match.group(1)) or 0
        elif "ior ERROR" in line:
            errors += 1
        else:
            match = _IOR_OPTION_RE.match(line)
            number = to_int(match.group(2)) if match else None
            if match and number is not None:
                # to_int, not int(): int() raises on more than 4,300 digits, and the reader must not.
                if match.group(1) == "nodes":
                    nodes = number
                elif match.group(1) == "tasks":
                    tasks = number
                else:
                    per_node = number
                continue
            match = _IOR_CLIENTS_RE.match(line)
            if match:
                tasks, per_node = to_int(match.group(1)), to_int(match.group(2))
    if nodes is None and tasks is not None and per_node:
        # IOR before 3.3 prints no node count, only tasks and tasks per node.
        nodes = -(-tasks // per_node)
    row = rows[0] if rows else None
    summary = _summary(summary_header, summary_row)
    figures = _IorFigures(rows, max_text, summary, moved if len(rows) <= 1 else None)
    row_bw = to_float(row[1]) if row else None
    max_mib = to_float(max_text)
    bw_mib = max_mib if max_mib is not None and len(rows) <= 1 else row_bw
    time_text = row[-2] if row else None
    time_s = to_float(time_text)
    low, high = figures.value_range()
    time_low, time_high = (
        _around(time_s, half_unit(time_text)) if time_s is not None and time_text else (None, None)
    )
    return RawOutput(
        tool="ior",
        file=file,
        command=command,
        nodes=nodes,
        tasks=tasks,
        value=None if bw_mib is None else bw_mib / 1024,
        time_s=time_s,
        errors=errors,
        stonewall_s=stonewall,
        items=moved if moved is not None else _ior_moved_bytes(summary),
        value_low=None if low is None else low / 1024,
        value_high=None if high is None else high / 1024,
        time_low=time_low,
        time_high=time_high,
        script_value=None if row_bw is None else row_bw / 1024,
        script_time_s=to_float(row[7]) if row else None,
        started=clock.get("Began"),
        finished=clock.get("Finished"),
        contradictions=figures.contradictions() + _row_time_contradictions(rows),
        open_close_s=_open_close(row),
        options=ior_options(text, summary_header, summary_row, row),
    )


def _row_time_contradictions(rows: list[list[str]]) -> tuple[str, ...]:
    """A result row's open(s), wr/rd(s) and close(s) are each the longest rank's, and its total(s)
    the longest rank's whole: no part can be longer than the whole (1,863 real rows agree)."""
    found: list[str] = []
    for index, row in enumerate(rows):
        total = _printed(row[-2])
        if total is None:
            continue
        for name, text in (("open(s)", row[-5]), ("wr/rd(s)", row[-4]), ("close(s)", row[-3])):
            part = _printed(text)
            if part is not None and part[0] > total[1]:
                found.append(f"result row {index + 1}'s {name} {text} is longer than its total(s) {row[-2]}")
                break
    return tuple(found)


def _open_close(row: list[str] | None) -> float | None:
    """The longer of open(s) and close(s): the 5th and 3rd columns from the end in every IOR layout."""
    if row is None or len(row) < 9:
        return None
    times = [value for text in (row[-5], row[-3]) if (value := to_float(text)) is not None]
    return max(times) if times else None


# IOR prints the summary's aggs(MiB) from a C float: 24 bits of mantissa, whatever digits it shows.
FLOAT_RELATIVE = 2.0**-24
Range = tuple[float, float]


def _summary(header: list[str] | None, row: list[str] | None) -> dict[str, str]:
    """The "Summary of all tests" row by column name; empty when the row does not fit the header."""
    if header is None or row is None or len(row) != len(header):
        return {}
    return dict(zip(header, row, strict=True))


def _printed(text: str | None) -> Range | None:
    value = to_float(text)
    return None if value is None or text is None else _around(value, half_unit(text))


def _overlap(a: Range, b: Range) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


class _IorFigures:
    """Every bandwidth IOR printed for one operation, as the ranges their digits allow (MiB/s).

    One repetition: the result row, the `Max` line, the summary's Max, Min and Mean columns,
    aggs(MiB) over Mean(s) and the exact bytes moved over the row's time all describe the same
    number, so the value lies in their intersection, and figures that cannot all be true mean the
    file was edited. Several repetitions: the `Max` line and Max column are the fastest row, the
    Min column the slowest, and the value is the first row (what io500.sh read).
    """

    def __init__(
        self, rows: list[list[str]], max_text: str | None, summary: dict[str, str], moved: float | None
    ) -> None:
        self.rows = [
            (f"result row {index + 1}", bw) for index, row in enumerate(rows) if (bw := _printed(row[1]))
        ]
        self.maximum = [
            (name, bound)
            for name, bound in (
                ("the Max line", _printed(max_text)),
                ("the summary's Max(MiB)", _printed(summary.get("Max(MiB)"))),
            )
            if bound is not None
        ]
        minimum = _printed(summary.get("Min(MiB)"))
        self.minimum = [("the summary's Min(MiB)", minimum)] if minimum is not None else []
        self.single: list[tuple[str, Range]] = []
        mean = _printed(summary.get("Mean(MiB)"))
        if mean is not None:
            self.single.append(("the summary's Mean(MiB)", mean))
        seconds, size = _printed(summary.get("Mean(s)")), _printed(summary.get("aggs(MiB)"))
        if size is not None:
            size = (size[0] * (1 - FLOAT_RELATIVE), size[1] * (1 + FLOAT_RELATIVE))
        if seconds is not None and size is not None and seconds[0] > 0:
            self.single.append(("aggs(MiB) over Mean(s)", (size[0] / seconds[1], size[1] / seconds[0])))
        time = _printed(rows[0][-2]) if rows else None
        if moved is not None and time is not None and time[0] > 0:
            self.single.append(
                ("the bytes moved over the row's time", (moved / time[1] / MIB, moved / time[0] / MIB))
            )
        # The row's total(s) and the summary's Mean(s) are one measurement printed twice.
        self.seconds = [
            (name, bound)
            for name, bound in (("the row's total(s)", time), ("the summary's Mean(s)", seconds))
            if bound is not None
        ]
        if size is not None and time is not None and time[0] > 0:
            self.single.append(("aggs(MiB) over the row's total(s)", (size[0] / time[1], size[1] / time[0])))

    def _one_repetition(self) -> bool:
        return len(self.rows) <= 1

    def _groups(self) -> list[list[tuple[str, Range]]]:
        """Figures that must describe one and the same number."""
        if self._one_repetition():
            return [self.rows + self.maximum + self.minimum + self.single]
        fastest = max(self.rows, key=lambda item: item[1][0])
        slowest = min(self.rows, key=lambda item: item[1][1])
        return [[fastest, *self.maximum], [slowest, *self.minimum]]

    def value_range(self) -> tuple[float | None, float | None]:
        figures = self._groups()[0] if self._one_repetition() else self.rows[:1]
        if not figures:
            return None, None
        low = max(bound[0] for _, bound in figures)
        high = min(bound[1] for _, bound in figures)
        if low > high:  # contradicting figures: contradictions() names them; keep every one in play
            return min(bound[0] for _, bound in figures), max(bound[1] for _, bound in figures)
        return low, high

    def contradictions(self) -> tuple[str, ...]:
        found: list[str] = []
        if self._one_repetition() and len(self.seconds) == 2 and not _overlap(*(b for _, b in self.seconds)):
            (first, a), (second, b) = self.seconds
            found.append(f"{first} allows {_span(a)} s but {second} allows {_span(b)} s")
        for group in self._groups():
            for index, (name, bound) in enumerate(group):
                clash = next((other for other in group[:index] if not _overlap(other[1], bound)), None)
                if clash is not None:
                    found.append(
                        f"{clash[0]} allows {_span(clash[1])} MiB/s but {name} allows {_span(bound)} MiB/s"
                    )
                    break
        return tuple(found)


def _span(bound: Range) -> str:
    return f"{bound[0]:.10g} to {bound[1]:.10g}" if bound[1] - bound[0] > 0 else f"{bound[0]:.10g}"


def _around(value: float, error: float) -> tuple[float, float]:
    return value - error, value + error


def _clock(line: str, clock: dict[str, dt.datetime]) -> None:
    """IOR's `Began : Tue Jun  2 10:30:58 2020` / `Finished : ...` (ctime, local time)."""
    match = _IOR_CLOCK_RE.match(line)
    if match is None or match.group(1) in clock:
        return
    parts = match.group(2).split()
    if len(parts) == 5 and parts[1] in _MONTHS:
        stamp = _stamp(parts[4], _MONTHS[parts[1]], parts[2], parts[3])
        if stamp is not None:
            clock[match.group(1)] = stamp


# ctime's month names (always English: C locale); strptime would cost more than the rest of the file.
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), start=1
    )
}
_TIME_RE = re.compile(r"^\d\d:\d\d:\d\d$")
_MAX_CLOCK_PART = 9999  # no year, day or time field of a valid clock is larger


def _stamp(year: str, month: int, day: str, time: str) -> dt.datetime | None:
    """The clock the parts give (to the second), or None when they are no valid date and time."""
    if not (year.isdigit() and day.isdigit() and _TIME_RE.match(time)):
        return None
    # to_int, not int(): int() refuses digits isdigit() accepts ("²") and more than 4,300 digits.
    numbers = [to_int(part) for part in (year, day, *time.split(":"))]
    if any(number is None or number > _MAX_CLOCK_PART for number in numbers):
        return None  # datetime() raises OverflowError, not ValueError, past a C long
    whole = [number for number in numbers if number is not None]
    try:
        return dt.datetime(whole[0], month, whole[1], whole[2], whole[3], whole[4])
    except ValueError:
        return None


def _ior_moved_bytes(summary: dict[str, str]) -> float | None:
    """Bytes moved, from the "Summary of all tests" table (aggs(MiB) in IOR 3.2+, aggsize before)."""
    for column, scale in (("aggs(MiB)", MIB), ("aggsize", 1)):
        if column in summary:
            value = to_float(summary[column])
            return None if value is None else value * scale
    return None


# --- mdtest ----------------------------------------------------------------------------------
_MDTEST_LAUNCH_RE = re.compile(r"was launched with (\d+) total task\(s\) on (\d+) node\(s\)")
_MDTEST_COMMAND_RE = re.compile(r"^Command line used:(.*)$")
# The colon after the operation is optional: `\s*:?\s+` would try every split of a long run of blanks,
# so the colon form must be followed by a blank (lookahead) and otherwise only `\s+` is left.
_MDTEST_ROW_RE = re.compile(
    r"^\s+(File creation|File stat|File read|File removal|Tree creation|Tree removal)(?:\s*:(?=\s)|(?=\s))"
    r"\s+(\S+)(?:\s+(\S+)\s+(\S+))?"
)
_MDTEST_CLOCK_RE = re.compile(r"^-- (started|finished) at (\d\d/\d\d/\d{4} \d\d:\d\d:\d\d) --")

# The mdtest operation whose rate is the phase score, by the last word of the phase name.
MDTEST_OPERATION: dict[str, str] = {
    "write": "File creation",
    "stat": "File stat",
    "read": "File read",
    "delete": "File removal",
}


def mdtest_operation(phase: str) -> str | None:
    return MDTEST_OPERATION.get(phase.rsplit("-", 1)[-1])


def parse_mdtest(text: str, file: str, operation: str | None) -> RawOutput:
    """mdtest stdout (1.9.3 colon tables and the 3.x/4.x rate + time tables).

    The C application scores rank 0's rate and io500.sh the Max (or, with mdtest 3.4's tables
    without a colon, the Min) column, so the value may lie anywhere between the Min and Max columns.
    """
    command: str | None = None
    nodes: int | None = None
    tasks: int | None = None
    node_map_ones: int | None = None
    rates: dict[str, tuple[str, ...]] = {}
    times: dict[str, tuple[str, ...]] = {}
    table: dict[str, tuple[str, ...]] | None = None
    clock: dict[str, dt.datetime] = {}
    for line in text.split("\n"):
        if line.startswith("SUMMARY"):
            table = times if line.startswith("SUMMARY time") else rates
            continue
        if table is not None and line.startswith("   "):
            match = _MDTEST_ROW_RE.match(line)
            if match:
                # Max, Min, Mean; with one iteration they differ only by the spread between ranks.
                columns = tuple(text for text in match.groups()[1:] if text is not None)
                table.setdefault(match.group(1), columns)
            continue
        if line.startswith("-- "):
            match = _MDTEST_CLOCK_RE.match(line)
            if match and match.group(1) not in clock:
                date, time = match.group(2).split()
                month, day, year = date.split("/")
                stamp = _stamp(year, int(month), day, time)
                if stamp is not None:
                    clock[match.group(1)] = stamp
        elif line.startswith("Nodemap:") and node_map_ones is None:
            node_map = line[len("Nodemap:") :].strip()
            if node_map and not node_map.strip("01"):
                node_map_ones = node_map.count("1")
        elif "was launched with" in line:
            match = _MDTEST_LAUNCH_RE.search(line)
            if match:
                tasks, nodes = to_int(match.group(1)), to_int(match.group(2))
        elif line.startswith("Command line used") and command is None:
            match = _MDTEST_COMMAND_RE.match(line)
            if match:
                command = match.group(1).strip()
    rate_columns = rates.get(operation, ()) if operation else ()
    time_columns = times.get(operation, ()) if operation else ()
    rate = to_float(rate_columns[0]) if rate_columns else None
    rate_low, rate_high = _column_range(rate_columns)
    time_low, time_high = _column_range(time_columns)
    return RawOutput(
        tool="mdtest",
        file=file,
        command=command,
        nodes=nodes,
        tasks=tasks,
        node_map_ones=node_map_ones,
        value=None if rate is None else rate / 1000,
        # mdtest 4 labels this table "ms/op" or "ops/sec", but it holds the operation time in seconds.
        time_s=to_float(time_columns[0]) if time_columns else None,
        value_low=None if rate_low is None else rate_low / 1000,
        value_high=None if rate_high is None else rate_high / 1000,
        time_low=time_low,
        time_high=time_high,
        started=clock.get("started"),
        finished=clock.get("finished"),
        options=mdtest_options(text, tasks),
    )


def _column_range(columns: tuple[str, ...]) -> tuple[float | None, float | None]:
    """The Max and Min columns of an mdtest summary row as a range widened by their printing."""
    bounds = [
        _around(value, half_unit(text)) for text in columns[:2] if (value := to_float(text)) is not None
    ]
    if not bounds:
        return None, None
    return min(bound[0] for bound in bounds), max(bound[1] for bound in bounds)


# --- pfind -----------------------------------------------------------------------------------
_PFIND_HEAD_RE = re.compile(r"^runtime:\s*(\S+)\s+rate:\s*(\S+)")
_MATCHED_RE = re.compile(r"MATCHED\s+(\d+)/(\d+)")


def parse_pfind_csv(text: str, file: str) -> tuple[RawOutput, tuple[RankRow, ...]]:
    """pfind's find.csv: `runtime: T rate: R`, then one row per rank with found and total counts."""
    lines = text.split("\n")
    runtime: float | None = None
    rate: float | None = None
    rate_range: tuple[float | None, float | None] = (None, None)
    time_range: tuple[float | None, float | None] = (None, None)
    if lines:
        match = _PFIND_HEAD_RE.match(lines[0])
        if match:
            runtime, rate = to_float(match.group(1)), to_float(match.group(2))
            if runtime is not None:
                time_range = _around(runtime, half_unit(match.group(1)))
            if rate is not None:
                low, high = _around(rate, half_unit(match.group(2)))
                rate_range = (low / 1000, high / 1000)
    columns: dict[str, int] = {}
    ranks: list[RankRow] = []
    found_sum = 0.0
    total_sum = 0.0
    errors = 0
    complete = True
    for line in lines[1:]:
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if not columns:
            if fields and fields[0] == "rank":
                columns = {name: index for index, name in enumerate(fields)}
            continue
        rank = to_int(fields[0])
        found = _column(fields, columns, "found")
        total = _column(fields, columns, "total")
        error_count = _column(fields, columns, "errors")
        if rank is None or found is None or total is None:
            complete = False
            continue
        ranks.append(RankRow(rank=rank, time_s=None, rate=None, items=total, found=found))
        found_sum += found
        total_sum += total
        errors += int(error_count or 0)
    raw = RawOutput(
        tool="pfind",
        file=file,
        value=None if rate is None else rate / 1000,
        time_s=runtime,
        errors=errors if ranks else None,
        items=total_sum if ranks and complete else None,
        found=found_sum if ranks and complete else None,
        value_low=rate_range[0],
        value_high=rate_range[1],
        time_low=time_range[0],
        time_high=time_range[1],
    )
    return raw, tuple(ranks)


def parse_find_stdout(text: str, file: str) -> RawOutput | None:
    """The stdout of pfind or a find script: its last `MATCHED found/total` line."""
    matches = _MATCHED_RE.findall(text)
    if not matches:
        return None
    found, total = (to_float(count) for count in matches[-1])
    if found is None or total is None:
        return None
    return RawOutput(tool="pfind", file=file, found=found, items=total)


def _column(fields: list[str], columns: dict[str, int], name: str) -> float | None:
    index = columns.get(name)
    if index is None or index >= len(fields):
        return None
    return to_float(fields[index])


# --- per-rank CSVs (C app ISC21+) and our runner's timelines -------------------------------------
def parse_rank_csv(text: str, phase: str) -> tuple[RankRow, ...]:
    """IOR `saveRankPerformanceDetailsCSV` or mdtest `--saveRankPerformanceDetails` rows."""
    return parse_rank_csv_with_total(text, phase)[0]


def parse_rank_csv_with_total(text: str, phase: str) -> tuple[tuple[RankRow, ...], RankRow | None]:
    """The per-rank rows and, for mdtest, its first row `all`: the aggregate rate and time mdtest
    computed over every rank (returned with rank -1), printed with 11 significant digits."""
    lines = text.split("\n")
    if not lines:
        return (), None
    header = lines[0].strip().split(",")
    if header[:2] == ["access", "rank"]:
        return _ior_rank_rows(lines[1:], header), None
    if header[:2] == ["rank", "items"]:
        operation = mdtest_operation(phase)
        return _mdtest_rank_rows(lines[1:], header, operation), _mdtest_total_row(
            lines[1:], header, operation
        )
    return (), None


def _mdtest_total_row(lines: list[str], header: list[str], operation: str | None) -> RankRow | None:
    if operation is None or f"rate-{operation}" not in header or f"time-{operation}" not in header:
        return None
    rate_col, time_col = header.index(f"rate-{operation}"), header.index(f"time-{operation}")
    for line in lines[:3]:
        fields = line.split(",")
        if fields[0] == "all" and len(fields) > max(rate_col, time_col):
            # Its items column is mdtest's items per rank (`o.items`), for the cross-phase physics.
            return RankRow(
                rank=-1,
                time_s=to_float(fields[time_col]),
                rate=to_float(fields[rate_col]),
                items=to_float(fields[1]),
            )
    return None


def _ior_rank_rows(lines: list[str], header: list[str]) -> tuple[RankRow, ...]:
    try:
        time_col = header.index("runtime-with-openclose")
        rate_col = header.index("throughput-withopenclose")
    except ValueError:
        return ()
    width = max(time_col, rate_col) + 1
    rows: list[RankRow] = []
    for line in lines:
        fields = line.split(",")
        if len(fields) < width:
            continue
        # Fast path for the usual well-formed row; anything odd goes through the strict helpers.
        # It accepts exactly what to_int/to_float accept: finite numbers without "_" separators.
        try:
            rank, time_s, rate = int(fields[1]), float(fields[time_col]), float(fields[rate_col]) / MIB
            if not (isfinite(time_s) and isfinite(rate)) or "_" in line:
                raise ValueError
        except ValueError:
            checked_rank = to_int(fields[1])
            if checked_rank is None:
                continue
            checked_rate = to_float(fields[rate_col])
            rows.append(
                RankRow(
                    checked_rank,
                    to_float(fields[time_col]),
                    None if checked_rate is None else checked_rate / MIB,
                )
            )
            continue
        rows.append(RankRow(rank, time_s, rate))
    return tuple(rows)


def _mdtest_rank_rows(lines: list[str], header: list[str], operation: str | None) -> tuple[RankRow, ...]:
    if operation is None:
        return ()
    try:
        rate_col = header.index(f"rate-{operation}")
        time_col = header.index(f"time-{operation}")
    except ValueError:
        return ()
    width = max(rate_col, time_col) + 1
    rows: list[RankRow] = []
    for line in lines:
        fields = line.split(",")
        if len(fields) < width:
            continue
        # The first data row ("all") aggregates every rank; it is not a rank of its own.
        try:  # the fast path of _ior_rank_rows, with the same strictness
            rank, time_s, rate = int(fields[0]), float(fields[time_col]), float(fields[rate_col])
            if not (isfinite(time_s) and isfinite(rate)) or "_" in line:
                raise ValueError
        except ValueError:
            checked_rank = to_int(fields[0])
            if checked_rank is None:
                continue
            rows.append(
                RankRow(
                    checked_rank,
                    to_float(fields[time_col]),
                    to_float(fields[rate_col]),
                    to_float(fields[1]),
                )
            )
            continue
        rows.append(RankRow(rank, time_s, rate, to_float(fields[1])))
    return tuple(rows)


def parse_timeline(text: str) -> tuple[TimelineBin, ...]:
    """Our runner's `<phase>.timeline.csv`: header `rank,second,amount`, one row per rank and second."""
    lines = text.split("\n")
    if not lines or lines[0].strip().replace(" ", "") != "rank,second,amount":
        return ()
    bins: list[TimelineBin] = []
    for line in lines[1:]:
        fields = line.split(",")
        if len(fields) != 3:
            continue
        rank, second, amount = to_int(fields[0]), to_int(fields[1]), to_float(fields[2])
        if rank is None or second is None or amount is None:
            continue
        bins.append(TimelineBin(rank=rank, second=second, amount=amount))
    return tuple(bins)
