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
_SP = r"[ \t\n\r\f\v]"
_SECTION_RE = re.compile(rf"^{_SP}*\[{_SP}*([0-9a-zA-Z_-]+){_SP}*\]{_SP}*({_SP}[#;].*)?$", re.DOTALL)
_KEY_RE = re.compile(rf"^{_SP}*([0-9a-zA-Z_.-]+){_SP}*={_SP}*([^#;]*){_SP}*({_SP}[#;].*)?$", re.DOTALL)
_COMMENT_RE = re.compile(rf"^{_SP}*[#;]")
_BLANK_RE = re.compile(rf"^{_SP}*$")


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
        match = _SECTION_RE.match(line)
        if match:
            current = IniSection(match.group(1))
            sections.append(current)
            continue
        match = _KEY_RE.match(line)
        if match:
            current.items.append((match.group(1), match.group(2).rstrip(" \t\r")))
            continue
        if _COMMENT_RE.match(line):
            current.comments.append(line.strip()[1:].strip())
        elif not _BLANK_RE.match(line):
            unparsed.append((number, line))
    return IniDocument(sections, unparsed)
