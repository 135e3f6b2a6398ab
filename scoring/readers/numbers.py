"""The one parser of printed numbers and clocks: the readers turn text into values here, once, and
hand the rules typed fields (tests/architecture/test_rules_read_no_text.py keeps the rules off it).

Only finite decimal numbers count as values. Per-rank CSVs hold tens of thousands of numbers, so these
run on float()/int() directly and reject afterwards what Python accepts but the benchmark never prints
("nan", "inf", "1_000").
"""

from __future__ import annotations

import datetime as dt
import math

from scoring.model import CLOCK_FORMAT


def to_float(text: str | None) -> float | None:
    """The float written in `text` (surrounding blanks allowed), or None when it is not a number."""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or "_" in text:
        return None
    return value


def to_int(text: str | None) -> int | None:
    """The integer written in `text` (decimal digits, optional sign), or None."""
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return None if "_" in text else value


def to_count(text: str | None) -> int | None:
    """A count: the integer written in `text` when it is zero or more, else None."""
    value = to_int(text)
    return value if value is not None and value >= 0 else None


MAX_DECIMAL_EXPONENT = 308  # 10.0 ** 309 overflows a double


def to_clock(text: str | None) -> dt.datetime | None:
    """The "YYYY-MM-DD HH:MM:SS" clock written in `text` (surrounding blanks allowed), or None."""
    if not text:
        return None
    try:
        return dt.datetime.strptime(text.strip(), CLOCK_FORMAT)
    except ValueError:
        return None


def half_unit(text: str) -> float:
    """Half a unit in the last printed digit of `text`: how far the true value may lie from it.

    "331445" -> 0.5, "383.87" -> 0.005, "3.3197706294e+02" -> 5e-9. The raw tools print with
    formats that change with the size of the number (IOR drops the decimals above 1000), so the
    precision is read from the text itself rather than assumed per tool.
    """
    mantissa, _, exponent = text.strip().lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    shift = (to_int(exponent.lstrip("+")) or 0) if exponent else 0
    # A finite value can carry an exponent no float reaches ("0e400"): its half unit is the largest
    # float rather than an OverflowError out of the reader.
    return 0.5 * 10.0 ** min(shift - decimals, MAX_DECIMAL_EXPONENT)
