"""System-description files as submitters wrote them: parsed, and recovered where they are broken.

Two kinds are in the IO500 corpus:

* `system-information.txt` of the IO500 info creator: shell assignments `io500_info_system="..."`
  with comments and blank lines;
* a community-schema JSON document (io500.org's editor, VI4IO's cdcl tools), sometimes saved with
  its long lines wrapped, which puts line breaks inside strings and makes it invalid JSON.

`read_system_text` never raises for bad content: it returns what it could read and a sentence for
each thing it could not, so an imported run keeps every value its folder holds.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import IO, Any

from submissions.json_input import (
    MAX_BYTES,
    MAX_VALUES,
    JsonRefused,
    check_size,
    clip,
    loads_bounded,
)

# Names under which a result folder carries its system description (the runner packs system.json;
# the cdcl tools write site.json; the IO500 info creator writes system-information.txt).
SYSTEM_FILE_NAMES = (
    "system.json",
    "site.json",
    "system-information.json",
    "system-information.txt",
    "system_information.json",
    "system_information.txt",
)
# One limit for a description however it comes (form, API, archive file): submissions.json_input.
MAX_SYSTEM_FILE_BYTES = MAX_BYTES
_ASSIGNMENT = re.compile(r"^(?:export\s+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(?P<value>.*)$")
_LINE_BREAK = re.compile(r"\r?\n")
_COMMENT_START = re.compile(r"\s#")


class SystemFileUnreadable(ValueError):
    """The text is neither JSON nor name="value" lines; the message says why."""


@dataclass
class SystemText:
    format: str  # "community-json", "flat-json" or "io500-info"
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)


def _unquote(raw: str, line_number: int, problems: list[str]) -> str:
    value = raw.strip()
    if value[:1] in ('"', "'"):
        quote = value[0]
        end = value.find(quote, 1)
        while end > 0 and quote == '"' and value[end - 1] == "\\":
            end = value.find(quote, end + 1)
        if end < 0:
            problems.append(
                f"Line {line_number}: the quote is never closed; the rest of the line is the value."
            )
            return value[1:].strip()
        inner = value[1:end]
        return inner.replace('\\"', '"') if quote == '"' else inner
    # Unquoted: a trailing shell comment (a `#` after a blank) is not part of the value. A search for one
    # blank and `#`, not `\s+#`: that tries every start in a long run of blanks (quadratic).
    comment = _COMMENT_START.search(value)
    return (value if comment is None else value[: comment.start()]).strip()


def parse_assignments(text: str) -> tuple[dict[str, str], list[str]]:
    """name -> value of the `name="value"` lines, and the lines that could not be read."""
    data: dict[str, str] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _ASSIGNMENT.match(stripped)
        if match is None:
            problems.append(f'Line {number} is not a name="value" line and was not read: {clip(stripped)}')
            continue
        name, value = match["name"], _unquote(match["value"], number, problems)
        if name in data and data[name] != value:
            problems.append(
                f'{clip(name)} is given twice ("{clip(data[name])}", then "{clip(value)}"); the last one '
                "is used."
            )
        data[name] = value
    return data, listed_problems(problems)


# How many problems of one description are listed; the rest are counted.
MAX_PROBLEMS_LISTED = 20


def listed_problems(problems: list[str]) -> list[str]:
    """The first MAX_PROBLEMS_LISTED problems and how many more there are: a file of 60 KiB of
    broken lines must not become 16,000 sentences on a page or in an answer."""
    if len(problems) <= MAX_PROBLEMS_LISTED:
        return problems
    more = len(problems) - MAX_PROBLEMS_LISTED
    return [*problems[:MAX_PROBLEMS_LISTED], f"... and {more:,} more problems like these, not listed."]


def _json_with_wrapped_lines(text: str) -> tuple[Any, list[str]]:
    """A JSON text whose lines were wrapped: line breaks inside strings stood for spaces."""
    try:
        return loads_bounded(text), []
    except json.JSONDecodeError as first_error:
        joined = _LINE_BREAK.sub(" ", text)
        try:
            value = loads_bounded(joined)
        except json.JSONDecodeError:
            raise first_error from None
        breaks = len(_LINE_BREAK.findall(text.strip()))
        return value, [
            f"The file is not valid JSON (line {first_error.lineno}: {first_error.msg}): its "
            f"{breaks} line breaks fall inside strings, as when long lines are wrapped. It was read "
            "after joining the lines with spaces."
        ]


def read_system_text(text: str) -> SystemText:
    """Parse a system description file's text; raises SystemFileUnreadable when nothing is readable."""
    try:
        check_size(text)
    except JsonRefused as error:
        raise SystemFileUnreadable(str(error)) from error
    text = text.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        try:
            value, problems = _json_with_wrapped_lines(text)
        except json.JSONDecodeError as error:
            raise SystemFileUnreadable(
                f"The file is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}), "
                "and joining wrapped lines does not repair it; nothing could be read."
            ) from error
        except JsonRefused as error:
            raise SystemFileUnreadable(str(error)) from error
        if not isinstance(value, dict):
            raise SystemFileUnreadable("The file holds JSON, but not an object of names and values.")
        kind = "community-json" if "DATA" in value else "flat-json"
        return SystemText(format=kind, data=value, problems=problems)
    data, problems = parse_assignments(text)
    if len(data) > MAX_VALUES:
        raise SystemFileUnreadable(
            f"The file gives {len(data):,} names; a system description holds at most {MAX_VALUES:,}."
        )
    if not data:
        raise SystemFileUnreadable(
            'The file is neither JSON nor name="value" lines (as written by the IO500 info creator).'
        )
    return SystemText(format="io500-info", data=data, problems=problems)


def decode_system_bytes(raw: bytes) -> tuple[str, list[str]]:
    """UTF-8 text of a file, with a problem noted when bytes had to be replaced."""
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        return text, [f"The file is not valid UTF-8; {text.count(chr(0xFFFD))} characters were replaced."]


def read_system_upload(upload: IO[bytes], size: int | None) -> dict[str, Any]:
    """The description in a file a submitter sends with an upload (form or API), read strictly:
    anything that needs recovering is refused with the reason, for the submitter to correct."""
    if size is not None and size > MAX_SYSTEM_FILE_BYTES:
        raise SystemFileUnreadable(
            f"The file is {size:,} bytes; a system description may be at most "
            f"{MAX_SYSTEM_FILE_BYTES:,} bytes."
        )
    raw = upload.read(MAX_SYSTEM_FILE_BYTES + 1)
    if len(raw) > MAX_SYSTEM_FILE_BYTES:
        raise SystemFileUnreadable(
            f"A system description file may be at most {MAX_SYSTEM_FILE_BYTES:,} bytes."
        )
    text, problems = decode_system_bytes(raw)
    read = read_system_text(text)
    problems.extend(read.problems)
    if problems:
        raise SystemFileUnreadable(" ".join(problems))
    return read.data
