"""The io500_* variables a submitter set in an io500.sh (or io-500-dev io500.cfg) script.

This is not a shell interpreter: it reads plain `io500_name=value` assignments (optionally with
`export`, quotes and a trailing `# comment`), which is how every real script sets its tunables.
Values that use shell expansions are kept as written, so a reviewer sees what the script said.
"""

from __future__ import annotations

import re

_ASSIGNMENT_RE = re.compile(r"^\s*(?:export\s+)?(io500_[A-Za-z0-9_]+)=(.*)$")
_UNQUOTED_RUN = re.compile(r"[^'\" \t]*")


def parse_shell_assignments(text: str) -> dict[str, str]:
    """io500_* variable -> value; a later assignment replaces an earlier one, as the shell would."""
    variables: dict[str, str] = {}
    for line in text.split("\n"):
        if "io500_" not in line:
            continue
        match = _ASSIGNMENT_RE.match(line)
        if match:
            variables[match.group(1)] = _shell_value(match.group(2))
    return variables


def _shell_value(raw: str) -> str:
    """The shell word after `=`: quotes removed; an unquoted blank ends it (`a=1 # note` is "1").

    Taken apart run by run (unquoted text up to a quote or blank, then a quoted part up to its
    closing quote), not character by character: a 1 MiB value costs a millisecond, not half a second.
    """
    text = raw.rstrip("\r")
    parts: list[str] = []
    at = 0
    while at < len(text):
        run = _UNQUOTED_RUN.match(text, at)
        assert run is not None  # the pattern matches the empty string
        parts.append(run.group())
        at = run.end()
        if at >= len(text) or text[at] in " \t":
            break
        closing = text.find(text[at], at + 1)
        if closing < 0:  # a quote never closed: the rest of the line is the value
            parts.append(text[at + 1 :])
            break
        parts.append(text[at + 1 : closing])
        at = closing + 1
    return "".join(parts)
