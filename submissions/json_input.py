"""JSON typed or uploaded by a person (a system description), read within bounds: its size, its
nesting and its number of values.

Python's JSON reader recurses once per nesting level: a text of 100,000 `[` ends in RecursionError,
which no caller expects (a 500). A system description is a flat object of names and numbers, or a
community-schema document a few levels deep, so anything nested deeper than MAX_DEPTH is refused
with a sentence the uploader can act on.

Its size is checked before anything is parsed: a 6.7 MiB `system` field took 6.5 s, 560 MiB and
answered a 113 MiB list of its unknown names. The real descriptions of the shared corpus
(../shared/io500-data, 15 files) are at most 3,079 bytes and 235 values; io500.org's community
document for a whole site (tests/submissions/system/documents.py) is 2,181 bytes and 118 values.
MAX_BYTES and MAX_VALUES leave a margin of more than twenty and ten times that.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
MAX_BYTES = 64 * 1024
MAX_VALUES = 2_500
TOO_DEEP = f"The JSON is nested more than {MAX_DEPTH} levels deep; a system description is a flat object."
# What an error may repeat of a name or value the submitter sent.
MAX_ECHO = 80


class JsonRefused(ValueError):
    """The JSON is outside the bounds a system description keeps to; the message says which."""


class JsonTooDeep(JsonRefused):
    """The JSON nests arrays or objects deeper than MAX_DEPTH."""


class JsonTooLarge(JsonRefused):
    """The JSON text is longer than MAX_BYTES, or holds more than MAX_VALUES values."""


def too_large_message(size: int, *, at_least: bool = False) -> str:
    return (
        f"The system description is {'at least ' if at_least else ''}{size:,} bytes; it may be at most "
        f"{MAX_BYTES:,} bytes (the largest real one is about 3,000)."
    )


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """`text` as an answer may repeat it: at most `limit` characters, and how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def nesting_depth(value: Any, *, stop_above: int = MAX_DEPTH) -> int:
    """How deep arrays and objects nest in a parsed value (0 for a scalar), without recursion;
    counting stops once it passes `stop_above`."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending and deepest <= stop_above:
        item, level = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        pending.extend((child, level + 1) for child in children)
    return deepest


def value_count(value: Any, *, stop_above: int = MAX_VALUES) -> int:
    """How many members and items the objects and arrays of a parsed value hold, all levels
    together; counting stops once it passes `stop_above`."""
    count = 0
    pending = [value]
    while pending and count <= stop_above:
        item = pending.pop()
        if isinstance(item, dict):
            count += len(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            count += len(item)
            pending.extend(item)
    return count


def check_size(text: str | bytes) -> None:
    """JsonTooLarge when the text is longer than MAX_BYTES (in UTF-8), before anything reads it."""
    if len(text) > MAX_BYTES:
        # Every character is at least one byte: too long without encoding a copy of it.
        raise JsonTooLarge(too_large_message(len(text), at_least=isinstance(text, str)))
    # A character is at most four bytes: only a text that could be too long is encoded to count.
    if isinstance(text, str) and len(text) * 4 > MAX_BYTES:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_BYTES:
            raise JsonTooLarge(too_large_message(size))


def check_value(value: Any) -> None:
    """JsonTooDeep or JsonTooLarge for a parsed value (an API client may send one parsed)."""
    if nesting_depth(value) > MAX_DEPTH:
        raise JsonTooDeep(TOO_DEEP)
    if value_count(value) > MAX_VALUES:
        raise JsonTooLarge(
            f"The system description holds more than {MAX_VALUES:,} names and values; a real one holds "
            "a few hundred at most."
        )


def loads_bounded(text: str | bytes) -> Any:
    """json.loads of a text within MAX_BYTES, raising JsonTooLarge or JsonTooDeep (ValueErrors)
    instead of reading a text too long, RecursionError or a value nested too deeply or holding too
    many values; other errors are json.loads's own (json.JSONDecodeError, UnicodeDecodeError)."""
    check_size(text)
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise JsonTooDeep(TOO_DEEP) from error
    check_value(value)
    return value
