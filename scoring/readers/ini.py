"""The one INI reader for `result.txt`, `config.ini` and `config-orig.ini`.

It follows the IO500 application's own parser (`src/ini-parse.c`) line by line, because the score
hash is recomputed from what that parser sees: lines are split on newlines (empty ones vanish),
a section is `[name]`, a key line is `key = value` where the value stops at the first `#` or `;`
and loses trailing blanks, tabs and CRs. Anything else is a comment (`;`/`#`) or is ignored by the
app; we keep both so the rules can look at `; ERROR INVALID` comments and reviewers at odd lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# POSIX [[:space:]] in the C locale, spelled out: Python's \s would also match Unicode spaces.
_SPACE = " \t\n\r\f\v"
_VALUE_END = " \t\r"  # what the app trims from the right of a value
# The app's regular expressions (POSIX, linear in glibc) would backtrack in Python's engine: the key
# line's `[[:space:]]*([^#;]*)[[:space:]]*([[:space:]][#;].*)?$` took 18 s on one line of 1,500
# blanks. So a line is taken apart with string operations that give the same result in one pass
# (tests/scoring/test_bounded_parsing.py compares both on every short line); only these two simple
# runs are left to the regex engine, which matches them without backtracking.
_SECTION_NAME_RE = re.compile(r"[0-9a-zA-Z_-]+")
_KEY_NAME_RE = re.compile(r"[0-9a-zA-Z_.-]+")


def _section_name(line: str) -> str | None:
    r"""The name of a `[name]` line (`[[:space:]]*\[[[:space:]]*name[[:space:]]*\]` followed by
    blanks only, or by at least one blank and a `#`/`;` comment), else None."""
    start = len(line) - len(line.lstrip(_SPACE))
    if line[start : start + 1] != "[":
        return None
    inner = line[start + 1 :]
    name_at = len(inner) - len(inner.lstrip(_SPACE))
    name = _SECTION_NAME_RE.match(inner, name_at)
    if name is None:
        return None
    after = inner[name.end() :]
    close_at = len(after) - len(after.lstrip(_SPACE))
    if after[close_at : close_at + 1] != "]":
        return None
    return name.group() if _blanks_then_comment(after[close_at + 1 :]) else None


def _blanks_then_comment(rest: str) -> bool:
    """`[[:space:]]*([[:space:]][#;].*)?$`: only blanks, or at least one blank and then # or ;."""
    blanks = len(rest) - len(rest.lstrip(_SPACE))
    return blanks == len(rest) or (blanks > 0 and rest[blanks] in "#;")


def _key_value(line: str) -> tuple[str, str] | None:
    """(key, value) of a `key = value` line as the app's r_str regex cuts it, value trimmed like the
    app trims it; None when the line is no key line.

    After the `=`, the value may not run into a `#`/`;`, and a `#`/`;` must follow a blank (the
    optional comment group is the only way past it): so the line is a key line when the first `#`/`;`
    after the `=` is preceded by a blank (or there is none), and the value is what lies between the
    blanks after the `=` and that blank.
    """
    start = len(line) - len(line.lstrip(_SPACE))
    key = _KEY_NAME_RE.match(line, start)
    if key is None:
        return None
    after_key = line[key.end() :]
    equals_at = len(after_key) - len(after_key.lstrip(_SPACE))
    if after_key[equals_at : equals_at + 1] != "=":
        return None
    rest = after_key[equals_at + 1 :]
    comment_at = _first_comment_char(rest)
    leading = len(rest) - len(rest.lstrip(_SPACE))
    if comment_at < 0:
        value = rest[leading:]
    elif comment_at == 0 or rest[comment_at - 1] not in _SPACE:
        return None
    else:
        value = rest[leading : comment_at - 1] if leading < comment_at else ""
    return key.group(), value.rstrip(_VALUE_END)


def _first_comment_char(text: str) -> int:
    hash_at, semicolon_at = text.find("#"), text.find(";")
    if hash_at < 0 or (0 <= semicolon_at < hash_at):
        return semicolon_at
    return hash_at


@dataclass
class IniSection:
    name: str  # "" for the keys before the first section header
    items: list[tuple[str, str]] = field(default_factory=list)  # in file order, empty values included
    comments: list[str] = field(default_factory=list)  # comment text without the leading ';'/'#'


@dataclass
class IniDocument:
    sections: list[IniSection]
    unparsed: list[tuple[int, str]]  # (line number, text) of lines that are neither key, section nor comment

    def section(self, name: str) -> IniSection | None:
        """The first section with this name (case-insensitive, as the app matches sections)."""
        wanted = name.lower()
        for section in self.sections:
            if section.name.lower() == wanted:
                return section
        return None

    def value(self, section: str, key: str) -> str | None:
        found = self.section(section)
        if found is None:
            return None
        wanted = key.lower()
        for item_key, item_value in found.items:
            if item_key.lower() == wanted:
                return item_value
        return None

    def as_app_sees_it(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Sections with their key/value pairs exactly as the app's parser reports them.

        The app skips keys whose value is empty, so they are left out here too.
        """
        return [
            (section.name, [(key, value) for key, value in section.items if value != ""])
            for section in self.sections
        ]

    def as_config(self) -> dict[str, dict[str, str]]:
        """Section -> key -> value, later duplicates winning, empty values kept as ""."""
        config: dict[str, dict[str, str]] = {}
        for section in self.sections:
            if section.name == "" and not section.items:
                continue
            target = config.setdefault(section.name, {})
            for key, value in section.items:
                target[key] = value
        return config


def parse_ini(text: str) -> IniDocument:
    header = IniSection("")
    sections = [header]
    current = header
    unparsed: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        name = _section_name(line)
        if name is not None:
            current = IniSection(name)
            sections.append(current)
            continue
        pair = _key_value(line)
        if pair is not None:
            current.items.append(pair)
            continue
        content = line.lstrip(_SPACE)
        if content[:1] in ("#", ";"):
            current.comments.append(line.strip()[1:].strip())
        elif content:
            unparsed.append((number, line))
    return IniDocument(sections, unparsed)
