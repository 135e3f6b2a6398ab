"""What IOR and mdtest print back of the options they ran with, as typed values.

IOR echoes its parameters twice: the `Options:` block (IOR 3.2 on; the `Summary:` block with
`key = value` lines before) and the "Summary of all tests" table. The block prints sizes the way
IOR's HumanReadable does ("2 MiB", "9.46 TiB", "47008 bytes"), so a size becomes the range of byte
counts its text allows; the table prints the exact integers. mdtest prints the rank shift of -N
("Shifting ranks by 10 for each phase.") and the file count of -n ("100 tasks, 100000000 files").

Every name is the tool's own parameter name (IOR: `transferSize`, `blockSize`, `segmentCount`,
`filePerProc`, ...; mdtest: the shift and the items), so a rule compares like with like. Nothing
here raises on odd text: what cannot be read is left out.
"""

from __future__ import annotations

import math
import re

from scoring.model import EchoedOption
from scoring.readers.numbers import half_unit, to_float, to_int

# HumanReadable(BASE_TWO): "%d <unit>" when the value is a whole number of units, else "%.2f <unit>";
# below 1 MiB it prints the bytes ("47008 bytes"); IOR before 3.2 has no TiB step.
_UNITS = {"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50}
_SIZE_RE = re.compile(r"^(\d+(?:\.\d+)?)\s+(bytes|KiB|MiB|GiB|TiB|PiB)$")
_BLOCK_LINE_RE = re.compile(r"^\s*([A-Za-z][A-Za-z /]*?)\s*[:=]\s*(.*?)\s*$")
_SEGMENTS_RE = re.compile(r"\((\d+) segments?\)")
_TASK_OFFSET_RE = re.compile(r"offsets?\s*(?:=|>=)\s*(\d+)")
_SHIFT_RE = re.compile(r"Shifting ranks by (\d+) for each phase")
_FILES_RE = re.compile(r"^(\d+) tasks, (\d+) files[ \t]*$", re.MULTILINE)

# The "Summary of all tests" columns that are parameters, under IOR's names.
_TABLE_COLUMNS: dict[str, str] = {
    "reps": "repetitions",
    "fPP": "filePerProc",
    "reord": "reorderTasks",
    "reordoff": "taskPerNodeOffset",
    "reordrand": "reorderTasksRandom",
    "segcnt": "segmentCount",
    "blksiz": "blockSize",
    "xsize": "transferSize",
}
# The block is short; bounds keep a forged endless block or line from costing anything.
_BLOCK_LINES = 40
_BLOCK_CHARS = 8000
_LINE_CHARS = 200


def _exact(name: str, text: str, source: str, value: float) -> EchoedOption:
    return EchoedOption(name=name, text=text, source=source, low=value, high=value)


def _switch(name: str, text: str, source: str, on: bool) -> EchoedOption:
    """A switch the block prints as on or off: IOR counts repeated switches, so on is 1 or more."""
    if on:
        return EchoedOption(name=name, text=text, source=source, low=1.0, high=math.inf)
    return _exact(name, text, source, 0.0)


def size_range(text: str) -> tuple[float, float] | None:
    """The byte counts HumanReadable prints as `text`: "2 MiB" is exactly 2 MiB, "9.46 TiB" any
    count from 9.455 to 9.465 TiB (its `%.2f`)."""
    match = _SIZE_RE.match(text.strip())
    if match is None:
        return None
    number, unit = match.group(1), _UNITS[match.group(2)]
    value = to_float(number)
    if value is None:
        return None
    if "." not in number:
        return value * unit, value * unit
    return (value - 0.005) * unit, (value + 0.005) * unit


def _block_option(key: str, value: str, source: str) -> list[EchoedOption]:
    """One `key : value` (Options) or `key = value` (Summary) line as IOR parameters."""
    key = key.strip().lower()
    found: list[EchoedOption] = []
    if key == "api":
        word = value.split(" ", 1)[0]  # "MPIIO (version=3, subversion=0)"
        if word:
            found.append(EchoedOption(name="api", text=word, source=source))
    elif key == "access":
        parts = [part.strip() for part in value.split(",")]
        if parts[0] in ("file-per-process", "single-shared-file"):
            found.append(_switch("filePerProc", parts[0], source, parts[0] == "file-per-process"))
        if len(parts) > 1 and parts[1] in ("independent", "collective"):
            found.append(_switch("collective", parts[1], source, parts[1] == "collective"))
    elif key == "type" and value in ("independent", "collective"):
        found.append(_switch("collective", value, source, value == "collective"))
    elif key == "segments":
        number = to_int(value)
        if number is not None:
            found.append(_exact("segmentCount", value, source, number))
    elif key == "pattern":
        match = _SEGMENTS_RE.search(value)
        segments = to_int(match.group(1)) if match else None
        if segments is not None:
            found.append(_exact("segmentCount", value, source, segments))
    elif key == "ordering in a file":
        if value.startswith(("sequential", "random")):
            found.append(_switch("randomOffset", value, source, value.startswith("random")))
    elif key == "ordering inter file":
        found.extend(_inter_file(value, source))
    elif key == "task offset":
        number = to_int(value)
        if number is not None:
            found.append(_exact("taskPerNodeOffset", value, source, number))
    elif key == "repetitions":
        number = to_int(value)
        if number is not None:
            found.append(_exact("repetitions", value, source, number))
    elif key in ("xfersize", "blocksize"):
        bounds = size_range(value)
        if bounds is not None:
            name = "transferSize" if key == "xfersize" else "blockSize"
            found.append(EchoedOption(name=name, text=value, source=source, low=bounds[0], high=bounds[1]))
    elif key in ("stonewallingtime", "stonewallingwearout"):
        number = to_int(value)
        if number is not None:
            name = "deadlineForStonewalling" if key == "stonewallingtime" else "stoneWallingWearOut"
            found.append(_exact(name, value, source, number))
    return found


def _inter_file(value: str, source: str) -> list[EchoedOption]:
    """ "constant task offset" (-C), "random task offsets >= 1, seed=..." (-Z), "no tasks offsets";
    IOR 3.x adds the offset itself ("constant task offsets = 1")."""
    found: list[EchoedOption] = []
    if value.startswith("no task"):
        found.append(_switch("reorderTasks", value, source, False))
        found.append(_switch("reorderTasksRandom", value, source, False))
    elif value.startswith("constant task offset"):
        found.append(_switch("reorderTasks", value, source, True))
    elif value.startswith("random task offset"):
        found.append(_switch("reorderTasksRandom", value, source, True))
    match = _TASK_OFFSET_RE.search(value)
    offset = to_int(match.group(1)) if match else None
    if offset is not None:
        found.append(_exact("taskPerNodeOffset", value, source, offset))
    return found


def _echo_block(text: str) -> list[EchoedOption]:
    """The `Options:` block of IOR 3.2+, or else the `Summary:` block of IOR 3.0/3.1."""
    start = text.find("\nOptions:")
    source = "Options"
    if start < 0:
        start = text.find("\nSummary:\n")
        source = "Summary"
    if start < 0:
        return []
    found: list[EchoedOption] = []
    lines = text[start + 1 : start + 1 + _BLOCK_CHARS].split("\n", _BLOCK_LINES + 1)[1 : _BLOCK_LINES + 1]
    for full_line in lines:
        line = full_line[:_LINE_CHARS]
        if not line.strip():
            if found:
                break  # the blank line after the block (IOR 4 prints "Options: " then the lines)
            continue
        match = _BLOCK_LINE_RE.match(line)
        if match is None:
            break
        found.extend(_block_option(match.group(1), match.group(2), source))
    return found


def _echo_table(header: list[str] | None, row: list[str] | None) -> list[EchoedOption]:
    """The parameters of "Summary of all tests" (exact integers, and the API)."""
    if header is None or row is None or len(header) != len(row):
        return []
    found: list[EchoedOption] = []
    source = "Summary of all tests"
    for column, name in _TABLE_COLUMNS.items():
        if column in header:
            text = row[header.index(column)]
            number = to_float(text)
            if number is not None:
                found.append(_exact(name, text, source, number))
    if "API" in header:
        found.append(EchoedOption(name="api", text=row[header.index("API")], source=source))
    return found


def _echo_result_row(text: str, row: list[str] | None) -> list[EchoedOption]:
    """block(KiB) and xfer(KiB) of the first result row, printed by PPDouble (two decimals below
    3600, none above): the sizes to a KiB or better where the Options block rounds to 0.01 TiB."""
    at = text.find(" bw(MiB/s)") if row is not None else -1
    if row is None or at < 0:
        return []
    start = text.rfind("\n", max(0, at - _LINE_CHARS), at) + 1
    header = text[start : start + _LINE_CHARS].split("\n", 1)[0].split()
    if len(header) != len(row):
        return []
    found: list[EchoedOption] = []
    for column, name in (("block(KiB)", "blockSize"), ("xfer(KiB)", "transferSize")):
        if column in header:
            printed = row[header.index(column)]
            value = to_float(printed)
            if value is not None and value >= 0:
                error = half_unit(printed)
                low, high = (value - error) * 1024, (value + error) * 1024
                found.append(
                    EchoedOption(name=name, text=f"{printed} KiB", source="result row", low=low, high=high)
                )
    return found


def ior_options(
    text: str, header: list[str] | None, row: list[str] | None, result_row: list[str] | None = None
) -> tuple[EchoedOption, ...]:
    """IOR's echo of its options: the Options/Summary block, the first result row's sizes and the
    summary table's parameters (`header`/`row`: "Summary of all tests"; `result_row`: the first
    `write`/`read` row, split on blanks)."""
    return (*_echo_block(text), *_echo_result_row(text, result_row), *_echo_table(header, row))


def mdtest_options(text: str, tasks: int | None) -> tuple[EchoedOption, ...]:
    """mdtest's rank shift (`nstride`: -N times the tasks per node when tasks are placed by node,
    else -N) and its items per rank (`items`, -n: the files it announces over its tasks)."""
    found: list[EchoedOption] = []
    # to_float / to_int, not float() / int(): the whole output is read here, and int() raises on more
    # than 4,300 digits, float arithmetic on a larger int overflows.
    shift = _SHIFT_RE.search(text)
    stride = to_float(shift.group(1)) if shift else None
    if shift and stride is not None:
        found.append(_exact("rankShift", shift.group(1), "mdtest", stride))
    files = _FILES_RE.search(text)
    count, total = (to_int(files.group(1)), to_int(files.group(2))) if files else (None, None)
    finite = files is not None and to_float(files.group(2)) is not None
    if count is not None and total is not None and finite and count > 0 and (tasks is None or tasks == count):
        found.append(_exact("items", f"{count} tasks, {total} files", "mdtest", total / count))
    return tuple(found)
