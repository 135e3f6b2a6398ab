"""JSON typed or uploaded by a person (a system description), read with a bound on its nesting.

Python's JSON reader recurses once per nesting level: a text of 100,000 `[` ends in RecursionError,
which no caller expects (a 500). A system description is a flat object of names and numbers, so
anything nested deeper than MAX_DEPTH is refused with a sentence the uploader can act on.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
TOO_DEEP = f"The JSON is nested more than {MAX_DEPTH} levels deep; a system description is a flat object."


class JsonTooDeep(ValueError):
    """The JSON nests arrays or objects deeper than MAX_DEPTH."""


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


def loads_bounded(text: str | bytes) -> Any:
    """json.loads, raising JsonTooDeep (a ValueError) instead of RecursionError or a value nested too
    deeply; other errors are json.loads's own (json.JSONDecodeError, UnicodeDecodeError)."""
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise JsonTooDeep(TOO_DEEP) from error
    if nesting_depth(value) > MAX_DEPTH:
        raise JsonTooDeep(TOO_DEEP)
    return value
