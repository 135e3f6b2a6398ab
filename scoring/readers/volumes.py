"""How much work a phase's tool says it did: IOR's bytes and transfer geometry, mdtest's items.

These are the facts the cross-phase physics compares (rules/physics.py): a read phase moves the
bytes its write phase wrote, the stonewall's pairs times tasks times transfer size are those bytes,
every mdtest phase of a directory tree handles the items its create phase made. The parsers read the
same text as `parse_ior` / `parse_mdtest` (cached by `RunFiles`) and never raise; a fact the text
does not state stays None. Lines are classified by cheap prefix tests before any regex runs.
"""

from __future__ import annotations

import re

from scoring.model import IorVolume, MdtestVolume
from scoring.readers.numbers import half_unit, to_float, to_int

MIB = 1024 * 1024
# aggs(MiB) is a C float (IOR's summary): 24 bits of mantissa, so up to 2^-24 of its value is lost
# before printing, on top of the printed decimal.
FLOAT_RELATIVE = 2.0**-24

# --- IOR -------------------------------------------------------------------------------------
_PAIRS_RE = re.compile(r"^stonewalling pairs accessed min:\s*(\d+)\s+max:\s*(\d+)")
_MOVED_RE = re.compile(r"^WARNING: Using actual aggregate bytes moved\s*=\s*(\d+)")
# The option echo: "xfersize : 4 MiB" (IOR 3.2+) or "\txfersize = 4 MiB" (IOR 3.0/3.1).
# The value is the rest of the line, stripped: `\s*(.*?)\s*$` would backtrack quadratically on a
# long run of blanks (tests/scoring/test_bounded_parsing.py).
_OPTION_RE = re.compile(
    r"^\s*(xfersize|blocksize|segments|repetitions|access|stoneWallingWearOut|tasks|clients|nodes|api)"
    r"\s*[:=](.*)$"
)
_SIZE_RE = re.compile(r"^(\d+)\s+(bytes|KiB|MiB|GiB|TiB)$")
_CLIENTS_RE = re.compile(r"^(\d+)\s*\(")
_SIZE_UNITS = {"bytes": 1, "KiB": 1024, "MiB": MIB, "GiB": 1024 * MIB, "TiB": 1024 * 1024 * MIB}
_SILENT_APIS = ("HDF5", "NCMPI", "DAOS")
_SUMMARY_INTS = ("#Tasks", "reps", "fPP", "segcnt", "blksiz", "xsize", "aggsize")


def ior_volume(text: str) -> IorVolume:
    """Bytes moved, stonewall pairs and transfer geometry of one IOR output (IOR 3.0 to 4.x).

    The sizes come from the summary table's exact integer columns when IOR printed it, else from the
    option echo when IOR printed the size as a whole number of units (its `HumanReadable` prints
    decimals exactly when the size is not a whole number of that unit).
    """
    pairs: tuple[int, int] | None = None
    moved: int | None = None
    options: dict[str, str] = {}
    header: list[str] | None = None
    row: list[str] | None = None
    result_header: list[str] | None = None
    result_row: list[str] | None = None
    in_summary = False
    for line in text.split("\n"):
        first = line[:1]
        if result_header is not None and result_row is None and line.startswith(("write ", "read ")):
            result_row = line.split()
            continue
        if in_summary:
            if header is None and line.startswith("Operation"):
                header = line.split()
            elif header is not None and row is None and line.startswith(("write", "read")):
                row = line.split()
            continue
        if first == "s" and line.startswith("stonewalling pairs accessed min"):
            if pairs is None:
                match = _PAIRS_RE.match(line)
                least, most = (to_int(match.group(1)), to_int(match.group(2))) if match else (None, None)
                if least is not None and most is not None:
                    # to_int, not int(): int() raises on more than 4,300 digits, and a reader must not.
                    pairs = (least, most)
            continue
        if first == "W":
            if moved is None and line.startswith("WARNING: Using actual"):
                match = _MOVED_RE.match(line)
                if match:
                    moved = to_int(match.group(1))
            continue
        if first == "S" and line.startswith("Summary of all tests"):
            in_summary = True
            continue
        if first == "a" and result_header is None and line.startswith("access") and "block(KiB)" in line:
            result_header = line.split()
            continue
        if first in (" ", "\t", "x", "b", "r", "a", "t", "c", "s", "n"):
            match = _OPTION_RE.match(line)
            if match:
                options.setdefault(match.group(1), match.group(2).strip())
    summary = _summary_ints(header, row)
    tasks = summary.get("#Tasks") or _option_tasks(options)
    transfer = summary.get("xsize") or _exact_size(options.get("xfersize"))
    block = summary.get("blksiz") or _exact_size(options.get("blocksize"))
    segments = summary.get("segcnt") or to_int(options.get("segments"))
    repetitions = summary.get("reps") or to_int(options.get("repetitions"))
    fpp_flag = summary.get("fPP")
    access = options.get("access")
    file_per_process = (
        bool(fpp_flag)
        if fpp_flag is not None
        else (None if access is None else access.startswith("file-per-process"))
    )
    wear_text = options.get("stoneWallingWearOut")
    wear_out = (wear_text.strip() != "0") if wear_text is not None else (True if pairs else None)
    block_range = (float(block), float(block)) if block else _row_kib(result_header, result_row, "block(KiB)")
    api = options.get("api") or None
    if api is not None:
        api = api.split()[0]
    # IOR does not warn about the bytes it moved for these APIs, so the geometry may overstate them.
    geometry_ok = api is None or api.upper() not in _SILENT_APIS
    low, high, source = _ior_bytes(
        moved, summary, header, row, tasks if geometry_ok else None, block_range, segments
    )
    return IorVolume(
        bytes_low=low,
        bytes_high=high,
        bytes_source=source,
        pairs_min=pairs[0] if pairs else None,
        pairs_max=pairs[1] if pairs else None,
        transfer_size=transfer,
        block_size=block,
        block_high=block_range[1] if block_range else None,
        segments=segments,
        repetitions=repetitions,
        file_per_process=file_per_process,
        wear_out=wear_out,
        nodes=to_int(options.get("nodes")),
        api=api,
    )


def _summary_ints(header: list[str] | None, row: list[str] | None) -> dict[str, int]:
    if header is None or row is None or len(header) != len(row):
        return {}
    found: dict[str, int] = {}
    for name in _SUMMARY_INTS:
        if name in header:
            value = to_int(row[header.index(name)])
            if value is not None and value >= 0:
                found[name] = value
    return found


def _option_tasks(options: dict[str, str]) -> int | None:
    tasks = to_int(options.get("tasks"))
    if tasks is not None:
        return tasks
    clients = options.get("clients")  # IOR 3.0/3.1: "clients = 16 (1 per node)"
    match = _CLIENTS_RE.match(clients) if clients else None
    return to_int(match.group(1)) if match else None


def _exact_size(text: str | None) -> int | None:
    """A size IOR echoed as a whole number of a unit ("47008 bytes", "4 MiB"); None for "9.46 TiB"."""
    if not text:
        return None
    match = _SIZE_RE.match(text)
    if match is None:
        return None
    count = to_int(match.group(1))
    return None if count is None else count * _SIZE_UNITS[match.group(2)]


def _ior_bytes(
    moved: int | None,
    summary: dict[str, int],
    header: list[str] | None,
    row: list[str] | None,
    tasks: int | None,
    block: tuple[float, float] | None,
    segments: int | None,
) -> tuple[float | None, float | None, str | None]:
    """The bytes the first repetition moved, as a range, and the figure it came from.

    IOR warns with the exact byte count whenever it differs from the geometry (a stonewalled phase);
    without that warning the geometry's tasks x block x segments is what moved.
    """
    if moved is not None:
        return float(moved), float(moved), "bytes moved"
    if "aggsize" in summary:
        return float(summary["aggsize"]), float(summary["aggsize"]), "aggsize"
    if header is not None and row is not None and len(header) == len(row) and "aggs(MiB)" in header:
        text = row[header.index("aggs(MiB)")]
        mib = to_float(text)
        if mib is not None and mib >= 0:
            error = half_unit(text) + mib * FLOAT_RELATIVE
            return (mib - error) * MIB, (mib + error) * MIB, "aggs(MiB)"
    # io500-sc26's random read passes IOR -s=-1: no geometry to multiply.
    if tasks and block and segments and segments > 0:
        return tasks * segments * block[0], tasks * segments * block[1], "geometry"
    return None, None, None


def _row_kib(header: list[str] | None, row: list[str] | None, column: str) -> tuple[float, float] | None:
    """A size in bytes from the result row's KiB column ("6656000", "45.91"), as the range its
    printed digits allow."""
    if header is None or row is None or column not in header:
        return None
    index = header.index(column)
    if index >= len(row):
        return None
    text = row[index]
    kib = to_float(text)
    if kib is None or kib <= 0:
        return None
    error = half_unit(text)
    return (kib - error) * 1024, (kib + error) * 1024


# --- mdtest ----------------------------------------------------------------------------------
_CONTINUE_RE = re.compile(r"^Continue stonewall hit min:\s*(\d+)\s+max:\s*(\d+)\s+avg:\s*([0-9.]+)")
_NOMINAL_RE = re.compile(r"^(\d+) tasks, (\d+) files")
_ITERATIONS_RE = re.compile(r"\(of (\d+) iterations?\)")
# The optional colon as in raw.py: `\s*:?\s+` would try every split of a long run of blanks.
_ROW_RE = re.compile(
    r"^\s+(File creation|File stat|File read|File removal)(?:\s*:(?=\s)|(?=\s))\s+(\S+)\s+(\S+)"
)


def mdtest_volume(text: str, operation: str | None) -> MdtestVolume:
    """Items of one mdtest phase's operation (`File creation`, ...), from its rate and time tables."""
    stonewall: tuple[int, int, float | None] | None = None
    nominal: int | None = None
    iterations: int | None = None
    rate: tuple[str, str] | None = None
    time: tuple[str, str] | None = None
    table: str | None = None
    for line in text.split("\n"):
        if line.startswith("SUMMARY"):
            table = "time" if line.startswith("SUMMARY time") else "rate"
            if iterations is None:
                match = _ITERATIONS_RE.search(line)
                if match:
                    iterations = to_int(match.group(1))
            continue
        if line.startswith("   "):
            if table is None or operation is None or operation not in line:
                continue
            match = _ROW_RE.match(line)
            if match and match.group(1) == operation:
                columns = (match.group(2), match.group(3))
                if table == "rate" and rate is None:
                    rate = columns
                elif table == "time" and time is None:
                    time = columns
            continue
        if line.startswith("Continue stonewall hit") and stonewall is None:
            match = _CONTINUE_RE.match(line)
            least, most = (to_int(match.group(1)), to_int(match.group(2))) if match else (None, None)
            if match and least is not None and most is not None:
                stonewall = (least, most, to_float(match.group(3)))
        elif nominal is None and line[:1].isdigit() and " tasks, " in line:
            match = _NOMINAL_RE.match(line)
            if match:
                nominal = to_int(match.group(2))
    low, high = _items_range(rate, time)
    return MdtestVolume(
        items_low=low,
        items_high=high,
        stonewall_min=stonewall[0] if stonewall else None,
        stonewall_max=stonewall[1] if stonewall else None,
        stonewall_avg=stonewall[2] if stonewall else None,
        nominal_files=nominal,
        iterations=iterations,
    )


def _items_range(
    rate: tuple[str, str] | None, time: tuple[str, str] | None
) -> tuple[float | None, float | None]:
    """Items = rate x time, with each figure widened by half its last printed digit.

    mdtest divides the same item count by each rank's time (3.3) or by the slowest rank's (3.4 on),
    so the Max rate belongs with the Min time and the Min rate with the Max time, and both products
    are the item count; their intersection is the range. Should they not meet (a formula we have
    not seen), the items still lie between the smallest and the largest product.
    """
    if rate is None or time is None:
        return None, None
    rate_max, rate_min = (_widened(text) for text in rate)
    time_max, time_min = (_widened(text) for text in time)
    if rate_max is None or rate_min is None or time_max is None or time_min is None:
        return None, None
    if max(to_float(text) or 0.0 for text in rate) <= 0:
        # mdtest 3.4 printed a zero rate beside a real time for tens of billions of items (a DAOS
        # run of 144e9 files); a phase without items has nothing to compare either way.
        return None, None
    fastest = (rate_max[0] * time_min[0], rate_max[1] * time_min[1])
    slowest = (rate_min[0] * time_max[0], rate_min[1] * time_max[1])
    low, high = max(fastest[0], slowest[0]), min(fastest[1], slowest[1])
    if low > high:
        low = min(fastest[0], slowest[0], rate_min[0] * time_min[0])
        high = max(fastest[1], slowest[1], rate_max[1] * time_max[1])
    if high <= 0:
        return None, None
    return max(low, 0.0), high


def _widened(text: str) -> tuple[float, float] | None:
    value = to_float(text)
    if value is None or value < 0:
        return None
    error = half_unit(text)
    return max(value - error, 0.0), value + error
