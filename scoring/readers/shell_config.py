"""The io500_* variables a submitter set in an io500.sh (or io-500-dev io500.cfg) script.

This is not a shell interpreter: it reads plain `io500_name=value` assignments (optionally with
`export`, quotes and a trailing `# comment`), which is how every real script sets its tunables.
Values that use shell expansions are kept as written, so a reviewer sees what the script said.
"""

from __future__ import annotations

import re

_ASSIGNMENT_RE = re.compile(r"^\s*(?:export\s+)?(io500_[A-Za-z0-9_]+)=(.*)$")


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
    """The shell word after `=`: quotes removed; an unquoted blank ends it (`a=1 # note` is "1")."""
    value: list[str] = []
    quote: str | None = None
    for char in raw.rstrip("\r"):
        if quote is not None:
            if char == quote:
                quote = None
            else:
                value.append(char)
        elif char in "'\"":
            quote = char
        elif char in " \t":
            break
        else:
            value.append(char)
    return "".join(value)
