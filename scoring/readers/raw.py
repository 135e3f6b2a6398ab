"""Raw per-phase tool output: IOR and mdtest stdout, pfind statistics, per-rank CSVs, timelines.

Every parser takes the text of one file and returns what it could read; a parser never raises on
bad input, it leaves the fact it could not read as None. The files can hold thousands of lines
(per-rank CSVs, stonewall chatter), so lines are classified with cheap prefix tests first and a
regex only runs on the few lines that can match.
"""

from __future__ import annotations

import re
from math import isfinite

from scoring.model import RankRow, RawOutput, TimelineBin
from scoring.readers.numbers import to_float, to_int

MIB = 1024 * 1024

# --- IOR -------------------------------------------------------------------------------------
_IOR_COMMAND_RE = re.compile(r"^Command line(?: used)?\s*:\s*(.*?)\s*$")
_IOR_OPTION_RE = re.compile(r"^\s*(nodes|tasks|clients per node)\s*:\s*(\d+)\s*$")
_IOR_CLIENTS_RE = re.compile(r"^\s*clients\s*=\s*(\d+)\s*\((\d+) per node\)")
_IOR_MAX_RE = re.compile(r"^Max (Write|Read):\s+(\S+)\s+MiB/sec")
_IOR_STONEWALL_RE = re.compile(r"^stonewalling pairs accessed .*time:\s*([0-9.eE+-]+)s")
_IOR_ERRORS_FOUND_RE = re.compile(r"\((\d+) errors found\)")


def parse_ior(text: str, file: str) -> RawOutput:
    """IOR stdout of one phase (IOR 3.1 to 4.x): command, nodes, tasks, bandwidth, time, errors."""
    command: str | None = None
    nodes: int | None = None
    tasks: int | None = None
    per_node: int | None = None
    row: list[str] | None = None
    max_mib: float | None = None
    stonewall: float | None = None
    errors = 0
    summary_header: list[str] | None = None
    summary_row: list[str] | None = None
    in_summary = False
    for line in text.split("\n"):
        if in_summary:
            if summary_header is None and line.startswith("Operation"):
                summary_header = line.split()
            elif summary_header is not None and summary_row is None and line.startswith(("write", "read")):
                summary_row = line.split()
            continue
        first = line[:1]
        if first == "w" or first == "r":
            if line.startswith(("write ", "read ")):
                fields = line.split()
                if len(fields) >= 9:
                    row = fields
            continue
        if first == "C" and command is None:
            match = _IOR_COMMAND_RE.match(line)
            if match:
                command = match.group(1)
        elif first == "M":
            match = _IOR_MAX_RE.match(line)
            if match:
                max_mib = to_float(match.group(2))
        elif first == "s" and line.startswith("stonewalling pairs"):
            match = _IOR_STONEWALL_RE.match(line)
            if match:
                stonewall = to_float(match.group(1))
        elif first == "S" and line.startswith("Summary of all tests"):
            in_summary = True
        elif "errors found" in line:
            match = _IOR_ERRORS_FOUND_RE.search(line)
            if match:
                errors += int(match.group(1))
        elif "ior ERROR" in line:
            errors += 1
        else:
            match = _IOR_OPTION_RE.match(line)
            if match:
                number = int(match.group(2))
                if match.group(1) == "nodes":
                    nodes = number
                elif match.group(1) == "tasks":
                    tasks = number
                else:
                    per_node = number
                continue
            match = _IOR_CLIENTS_RE.match(line)
            if match:
                tasks, per_node = int(match.group(1)), int(match.group(2))
    if nodes is None and tasks is not None and per_node:
        # IOR before 3.3 prints no node count, only tasks and tasks per node.
        nodes = -(-tasks // per_node)
    bw_mib = max_mib if max_mib is not None else (to_float(row[1]) if row else None)
    time_s = to_float(row[-2]) if row else None
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
        items=_ior_moved_bytes(summary_header, summary_row),
    )


def _ior_moved_bytes(header: list[str] | None, row: list[str] | None) -> float | None:
    """Bytes moved, from the "Summary of all tests" table (aggs(MiB) in IOR 3.2+, aggsize before)."""
    if header is None or row is None or len(row) != len(header):
        return None
    for column, scale in (("aggs(MiB)", MIB), ("aggsize", 1)):
        if column in header:
            value = to_float(row[header.index(column)])
            return None if value is None else value * scale
    return None


# --- mdtest ----------------------------------------------------------------------------------
_MDTEST_LAUNCH_RE = re.compile(r"was launched with (\d+) total task\(s\) on (\d+) node\(s\)")
_MDTEST_COMMAND_RE = re.compile(r"^Command line used:\s*(.*?)\s*$")
_MDTEST_ROW_RE = re.compile(
    r"^\s+(File creation|File stat|File read|File removal|Tree creation|Tree removal)\s*:?\s+(\S+)"
)

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
    """mdtest stdout (1.9.3 colon tables and the 3.x/4.x rate + time tables)."""
    command: str | None = None
    nodes: int | None = None
    tasks: int | None = None
    rates: dict[str, float | None] = {}
    times: dict[str, float | None] = {}
    table: dict[str, float | None] | None = None
    for line in text.split("\n"):
        if line.startswith("SUMMARY"):
            table = times if line.startswith("SUMMARY time") else rates
            continue
        if table is not None and line.startswith("   "):
            match = _MDTEST_ROW_RE.match(line)
            if match:
                # The Max column: with one iteration max = min = mean, and io500.sh read this one.
                table.setdefault(match.group(1), to_float(match.group(2)))
            continue
        if "was launched with" in line:
            match = _MDTEST_LAUNCH_RE.search(line)
            if match:
                tasks, nodes = int(match.group(1)), int(match.group(2))
        elif line.startswith("Command line used") and command is None:
            match = _MDTEST_COMMAND_RE.match(line)
            if match:
                command = match.group(1)
    rate = rates.get(operation) if operation else None
    return RawOutput(
        tool="mdtest",
        file=file,
        command=command,
        nodes=nodes,
        tasks=tasks,
        value=None if rate is None else rate / 1000,
        # mdtest 4 labels this table "ms/op" or "ops/sec", but it holds the operation time in seconds.
        time_s=times.get(operation) if operation else None,
    )


# --- pfind -----------------------------------------------------------------------------------
_PFIND_HEAD_RE = re.compile(r"^runtime:\s*(\S+)\s+rate:\s*(\S+)")
_MATCHED_RE = re.compile(r"MATCHED\s+(\d+)/(\d+)")


def parse_pfind_csv(text: str, file: str) -> tuple[RawOutput, tuple[RankRow, ...]]:
    """pfind's find.csv: `runtime: T rate: R`, then one row per rank with found and total counts."""
    lines = text.split("\n")
    runtime: float | None = None
    rate: float | None = None
    if lines:
        match = _PFIND_HEAD_RE.match(lines[0])
        if match:
            runtime, rate = to_float(match.group(1)), to_float(match.group(2))
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
    )
    return raw, tuple(ranks)


def parse_find_stdout(text: str, file: str) -> RawOutput | None:
    """The stdout of pfind or a find script: its last `MATCHED found/total` line."""
    matches = _MATCHED_RE.findall(text)
    if not matches:
        return None
    found, total = matches[-1]
    return RawOutput(tool="pfind", file=file, found=float(found), items=float(total))


def _column(fields: list[str], columns: dict[str, int], name: str) -> float | None:
    index = columns.get(name)
    if index is None or index >= len(fields):
        return None
    return to_float(fields[index])


# --- per-rank CSVs (C app ISC21+) and our runner's timelines -------------------------------------
def parse_rank_csv(text: str, phase: str) -> tuple[RankRow, ...]:
    """IOR `saveRankPerformanceDetailsCSV` or mdtest `--saveRankPerformanceDetails` rows."""
    lines = text.split("\n")
    if not lines:
        return ()
    header = lines[0].strip().split(",")
    if header[:2] == ["access", "rank"]:
        return _ior_rank_rows(lines[1:], header)
    if header[:2] == ["rank", "items"]:
        return _mdtest_rank_rows(lines[1:], header, mdtest_operation(phase))
    return ()


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
        try:
            rank, time_s, rate = int(fields[1]), float(fields[time_col]), float(fields[rate_col]) / MIB
            if not (isfinite(time_s) and isfinite(rate)):
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
        try:
            rank, time_s, rate = int(fields[0]), float(fields[time_col]), float(fields[rate_col])
            if not (isfinite(time_s) and isfinite(rate)):
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
