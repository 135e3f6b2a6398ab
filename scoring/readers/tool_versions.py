"""The versions IOR and mdtest print at the top of their output, as typed values for the rules.

IOR's first line is `IOR-3.4.0+dev: MPI Coordinated Test of Parallel I/O`; mdtest prints
`mdtest-3.4.0+dev was launched with N total task(s) on M node(s)` a few lines down. The C
application links the IOR its prepare.sh pins, so the printed version tells which release built
the run (rules/structure.py). Only the first lines are looked at, each cut to a bounded length,
so a hostile file costs no more than a normal one.
"""

from __future__ import annotations

import re

from scoring.readers.files import RunFiles

# (tool, the output file read, how many of its first lines, the version pattern on one line)
_SOURCES: tuple[tuple[str, tuple[str, ...], int, re.Pattern[str]], ...] = (
    (
        "ior",
        ("ior-easy-write.txt", "ior-hard-write.txt"),
        1,
        re.compile(r"^IOR-([0-9][0-9A-Za-z.+_-]{0,40}):"),
    ),
    (
        "mdtest",
        ("mdtest-easy-write.txt", "mdtest-hard-write.txt"),
        40,
        re.compile(r"^mdtest-([0-9][\w.+-]{0,40}) was launched"),
    ),
)
_LINE_LIMIT = 200


def tool_versions(files: RunFiles) -> dict[str, str]:
    """tool -> the version it printed (e.g. "ior" -> "3.4.0+dev"), for the tools whose output is there."""
    found: dict[str, str] = {}
    for tool, names, lines, pattern in _SOURCES:
        for name in names:
            text = files.text(name)
            if text is None:
                continue
            for line in text.split("\n", lines)[:lines]:
                match = pattern.match(line[:_LINE_LIMIT])
                if match:
                    found[tool] = match.group(1)
                    break
            if tool in found:
                break
    return found
