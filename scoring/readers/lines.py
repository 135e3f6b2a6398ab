"""The length bound on the lines the summary readers match with regular expressions.

Every pattern of the readers is linear in the line it reads (tests/scoring/test_bounded_parsing.py),
but a summary line is tried against several patterns whose `\\s+` and `\\S+` runs still walk a long
line back and forth: a 1 MiB line costs a tenth of a second per pattern, and a 16 MiB file of such
lines seconds. The application and the script print summary lines of at most 97 characters, and the
console log's longest `[Exec]` line in both real corpora has 5,067 (a long mpirun command), so a
line above MAX_LINE_CHARS is no line they wrote: it is counted in a read note and not matched.
"""

from __future__ import annotations

from scoring.codes import note
from scoring.model import Finding

MAX_LINE_CHARS = 64 * 1024


def shown(text: str, limit: int = 120) -> str:
    """`text` as a message may quote it: cut after `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def too_long(line: str) -> bool:
    return len(line) > MAX_LINE_CHARS


def too_long_note(file: str, count: int, first_number: int) -> Finding:
    """The read note for `count` lines of `file` that were too long to be read, the first at a line."""
    return note(
        "read-line-too-long",
        f"{count} line(s) of {file} are longer than {MAX_LINE_CHARS:,} characters, the first at line "
        f"{first_number}; no line the benchmark prints is that long, so they were not read.",
    )
