"""Text people typed, shown on pages with its bidirectional controls neutralised.

A system name, an institution or a user name may carry Unicode's bidi controls (U+202E RIGHT-TO-LEFT
OVERRIDE and its kin): escaped HTML still shows them raw, and they turn the text around them, so that
"abc\u202efdp.exe" reads as "abcexe.pdf" and a name can seem to stand in another column. The
template filters below are built in (TEMPLATES' `builtins`), for every template without a load:

* `isolate` for text in an element: the controls removed and the value in a <bdi>, so that text in
  a right-to-left script stays readable and cannot reorder what follows it;
* `no_bidi` for an attribute or the page title, where no element may go: the controls removed.

The list table, rendered in Python (frontend.lists.table), calls `without_bidi_controls` itself.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

# The explicit bidi formatting characters of Unicode (UAX #9): embeddings, overrides, isolates and
# their ends, and the implicit marks.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_REMOVED = dict.fromkeys(map(ord, BIDI_CONTROLS))

register = template.Library()


def without_bidi_controls(text: str) -> str:
    return text.translate(_REMOVED)


def username_key(name: str) -> str:
    """One spelling of a user name for everything that compares names (the log-in lock, the log-in
    look-up, sign-up): NFKC folds fullwidth and compatibility forms, casefold the case."""
    return unicodedata.normalize("NFKC", name).casefold()


@register.filter
def isolate(value: Any) -> SafeString | str:
    if value is None or value == "":
        return ""
    return format_html("<bdi>{}</bdi>", without_bidi_controls(str(value)))


@register.filter
def no_bidi(value: Any) -> Any:
    return without_bidi_controls(value) if isinstance(value, str) else value
