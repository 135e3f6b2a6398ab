"""Which query a cached public answer may be kept for: the canonical query of a page.

The page, list-body and list-row caches keep one entry per query. Anyone can make up queries, so an
entry is kept only for a query in the form the site's own links and forms write: each parameter a
page reads at most once, each value in the one spelling the page accepts as is. Anything else (a
name no view reads, a parameter given twice, " bw" for "bw", 1e2 for 100) is answered as usual and
never stored, so a crawler or an attacker cannot fill the caches with copies of one page.

Free text (a search, a file system or vendor name) cannot be reduced to a few spellings; it is kept
when trimmed, printable and short, and what that still lets a client vary is bounded by the cache
server's memory limit with least-recently-used eviction (docker/compose.yaml).

A custom ranking (`formula`, `w_bw`, `w_md`) has no canonical spelling on purpose: every formula and
every pair of weights is a different answer anyone can ask for, and each kept answer cost about
0.9 MiB of cache. Those queries are answered from the cached rows of the list and never stored.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from re import Pattern

from django.core.exceptions import TooManyFieldsSent
from django.http import QueryDict

# Searches and names as a person types them; longer ones are answered but not kept.
FREE_TEXT_MAX = 64
_FREE_TEXT = re.compile(rf"(?=\S)[^\x00-\x1f\x7f]{{1,{FREE_TEXT_MAX}}}(?<=\S)")
_COUNT = re.compile(r"0|[1-9]\d{0,5}")

# The canonical spelling of every query parameter a public page reads. Parameters whose values are
# names the apps define (list columns, chart kinds) are added by them (query_shapes_register).
VALUE_SHAPES: dict[str, Pattern[str]] = {
    "q": _FREE_TEXT,
    "filesystem": _FREE_TEXT,
    "vendor": _FREE_TEXT,
    "institution_type": _FREE_TEXT,
    "nodes_min": _COUNT,
    "nodes_max": _COUNT,
    "year": re.compile(r"(?:19|20)\d\d"),
    "version": re.compile(r"[1-9]\d{0,5}"),
    "phase": re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"),
}

# Added by mail and social links; they never change a page, so a request carrying them is answered
# from (and stored as) the page without them.
_TRACKING_PREFIXES = ("utm_",)
_TRACKING_NAMES = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga"})

Query = tuple[tuple[str, str], ...]


def one_of(names: Collection[str], *, negatable: bool = False) -> Pattern[str]:
    """The shape of a parameter whose value is one of `names` (optionally with a leading "-")."""
    choice = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.compile(f"{'-?' if negatable else ''}(?:{choice})")


def query_shapes_register(shapes: Mapping[str, Pattern[str]]) -> None:
    """Add the canonical spelling of parameters an app's pages read (from its AppConfig.ready)."""
    for name, shape in shapes.items():
        known = VALUE_SHAPES.get(name)
        if known is not None and known.pattern != shape.pattern:
            raise ValueError(f'Two apps give the query parameter "{name}" different shapes.')
        VALUE_SHAPES[name] = shape


class QueryValueError(ValueError):
    """A query value no person types (free text too long or holding control characters)."""


def free_text(name: str, raw: str) -> str:
    """The trimmed value of a free-text parameter a page filters by, for views that cache what they
    build from it; QueryValueError with the reason when it is not text a person types."""
    value = raw.strip()
    if value and _FREE_TEXT.fullmatch(value) is None:
        raise QueryValueError(
            f"The {name} must be at most {FREE_TEXT_MAX} characters without control characters, "
            'e.g. "Lustre".'
        )
    return value


def is_tracking(name: str) -> bool:
    return name.startswith(_TRACKING_PREFIXES) or name in _TRACKING_NAMES


def canonical_value(name: str, value: str) -> bool:
    """An empty value is the same as no value; any other must be in the parameter's one spelling."""
    shape = VALUE_SHAPES.get(name)
    return value == "" or (shape is not None and shape.fullmatch(value) is not None)


def canonical_query(params: QueryDict, names: Collection[str]) -> Query | None:
    """The (name, value) pairs of a query that reads only `names`, sorted, without tracking tags and
    empty values; None when an answer to this query must not be kept.

    Pairs, not a string joined again: a value holding "&" or "=" must not read as two parameters.
    """
    try:
        given = list(params.lists())
    except TooManyFieldsSent:
        return None
    pairs: list[tuple[str, str]] = []
    for name, values in given:
        if is_tracking(name):
            continue
        # A repeated parameter: the views read the last value, other code may read all of them.
        if name not in names or len(values) != 1 or not canonical_value(name, values[0]):
            return None
        if values[0]:
            pairs.append((name, values[0]))
    return tuple(sorted(pairs))


def canonical_values(params: Mapping[str, str], names: Collection[str]) -> bool:
    """Whether each of `names` that `params` holds is spelled canonically (for caches that key on
    these names alone, ignoring the rest of the query)."""
    return all(canonical_value(name, str(params.get(name) or "")) for name in names)
