"""A sentence that quotes an IO500 result, read into what it claims: a rank, a release (the BoF), a
list kind, a metric, the numbers it quotes and the Messaging Policy term it uses.

Tolerant on purpose: people write "#1", "1st", "ranked 3rd", "number one", "SC25", "SC'25", "SC 2025",
"10 Node Research", "ten-node", "32,165" or "1,234.5". Whatever is not found stays None and the
checker says so; no input raises. Pure (no Django): the checker (registry.lists.claim_check) reads
the lists.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

MAX_CLAIM_CHARS = 500

SCORE, BANDWIDTH, METADATA = "score", "bw", "md"

_ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "one": 1,
    "two": 2,
    "three": 3,
}
# "top" is left out: "the top IBM Storage Scale entry" (the policy's own example) is the first of a
# file system type, not #1 of the list.
_RELEASE = re.compile(r"\b(isc|sc)\s*['\u2019]?\s*(20\d{2}|\d{2})(\*)?(?![\d.,]*\d)", re.IGNORECASE)
_RANKS = (
    re.compile(r"#\s*(\d{1,4})\b"),
    re.compile(r"\b(?:no\.|number|rank(?:ed)?|place[d]?|position)\s*#?\s*(\d{1,4})\b", re.IGNORECASE),
    re.compile(r"\b(\d{1,4})\s*(?:st|nd|rd|th)\b", re.IGNORECASE),
)
_RANK_WORDS = re.compile(
    r"\b(?:(?:ranked|rank|number|no\.|placed)\s+)?(" + "|".join(_ORDINAL_WORDS) + r")\b"
    r"(?=\s*(?:place|position|spot|rank|entry|on|in|overall|bandwidth|metadata|score|verified|unverified|io500|$))",
    re.IGNORECASE,
)
# Longest first: "10 Node Production" before "Production".
_KINDS = (
    ("ten-node-production", r"\b(?:10|ten)[\s-]*(?:client[\s-]*)?nodes?\s+production\b"),
    ("ten-node-research", r"\b(?:10|ten)[\s-]*(?:client[\s-]*)?nodes?\s+research\b"),
    ("ten-node", r"\b(?:10|ten)[\s-]*(?:client[\s-]*)?nodes?(?:\s+challenge)?\b"),
    ("production", r"\bproduction\b"),
    ("research", r"\bresearch\b"),
    ("scc", r"\bstudent\s+cluster(?:\s+competition)?\b|\bscc\b"),
    ("historical", r"\bhistorical\b"),
    ("full", r"\bfull\s+list\b"),
    ("io500", r"\bio[\s-]?500\s+list\b"),
)
_METRICS = (
    (BANDWIDTH, re.compile(r"\bbandwidth\b|\bbw\b|\bgib/s\b|\bgb/s\b", re.IGNORECASE)),
    (METADATA, re.compile(r"\bmetadata\b|\bmd\b|\bkiops\b|\biops\b", re.IGNORECASE)),
)
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w])")
_UNVERIFIED = re.compile(r"\bunverified\b|\bnot\s+verified\b", re.IGNORECASE)
_VERIFIED = re.compile(r"\bverified\b", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    """A number as quoted: its value and how many decimals it was given with (its precision)."""

    value: float
    decimals: int
    text: str

    def matches(self, actual: float) -> bool:
        """Whether `actual`, rounded or cut to the quoted precision, is the quoted number."""
        step = 10.0 ** (-self.decimals)
        slack = step * 1e-9 + abs(actual) * 1e-12
        rounded = abs(actual - self.value) <= step / 2 + slack
        cut = -slack <= actual - self.value < step
        return rounded or cut


@dataclass(frozen=True)
class Claim:
    text: str
    rank: int | None = None
    release: str | None = None  # a release slug: "sc25", "isc24", "sc18" (a starred label: "sc18*")
    kind: str | None = None  # a ListKind value
    metric: str = SCORE
    metric_named: bool = False
    numbers: tuple[Number, ...] = field(default_factory=tuple)
    term: str | None = None  # "verified", "unverified", or None when the sentence uses neither

    @property
    def release_label(self) -> str:
        return self.release.upper() if self.release else ""


def _release(text: str) -> tuple[str | None, list[tuple[int, int]]]:
    found = _RELEASE.search(text)
    if found is None:
        return None, []
    year = found.group(2)
    slug = f"{found.group(1).lower()}{year[-2:]}{found.group(3) or ''}"
    return slug, [found.span()]


def _kind(text: str) -> tuple[str | None, list[tuple[int, int]]]:
    for value, pattern in _KINDS:
        found = re.search(pattern, text, re.IGNORECASE)
        if found is not None:
            return value, [found.span()]
    return None, []


def _rank(text: str) -> tuple[int | None, list[tuple[int, int]]]:
    for pattern in _RANKS:
        found = pattern.search(text)
        if found is not None and int(found.group(1)) > 0:
            return int(found.group(1)), [found.span()]
    word = _RANK_WORDS.search(text)
    if word is not None:
        return _ORDINAL_WORDS[word.group(1).lower()], [word.span()]
    return None, []


def _outside(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return all(span[1] <= start or span[0] >= end for start, end in taken)


def _numbers(text: str, taken: list[tuple[int, int]]) -> tuple[Number, ...]:
    found = []
    for match in _NUMBER.finditer(text):
        if not _outside(match.span(), taken):
            continue
        raw = match.group(1)
        plain = raw.replace(",", "")
        decimals = len(plain.split(".")[1]) if "." in plain else 0
        try:
            value = float(plain)
        except ValueError:  # pragma: no cover - the pattern admits digits only
            continue
        found.append(Number(value=value, decimals=min(decimals, 12), text=raw))
    return tuple(found)


def parse_claim(text: str) -> Claim:
    """What a sentence claims; never raises."""
    text = unicodedata.normalize("NFKC", text or "")[:MAX_CLAIM_CHARS]
    text = " ".join(text.split())
    release, release_spans = _release(text)
    kind, kind_spans = _kind(text)
    rank, rank_spans = _rank(text)
    metric, named = SCORE, False
    for value, pattern in _METRICS:
        if pattern.search(text):
            metric, named = value, True
            break
    if re.search(r"\boverall\b|\bio500 score\b", text, re.IGNORECASE):
        metric, named = SCORE, True
    term = "unverified" if _UNVERIFIED.search(text) else ("verified" if _VERIFIED.search(text) else None)
    numbers = _numbers(text, [*release_spans, *kind_spans, *rank_spans])
    return Claim(
        text=text,
        rank=rank,
        release=release,
        kind=kind,
        metric=metric,
        metric_named=named,
        numbers=numbers,
        term=term,
    )
