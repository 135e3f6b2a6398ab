"""Strict number parsing shared by the readers: only finite decimal numbers count as values.

Per-rank CSVs hold tens of thousands of numbers, so these run on float()/int() directly and reject
afterwards what Python accepts but the benchmark never prints ("nan", "inf", "1_000").
"""

from __future__ import annotations

import math


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
