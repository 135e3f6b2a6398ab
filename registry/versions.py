"""Which IO500 versions a release accepted, and which phase values are not comparable across them.

The facts are data (fixtures/io500_versions.json, from the tags of IO500/io500 and the calls for
submissions of IO500/webpage, each with its source): a run's printed version (`git describe` of its
build, e.g. io500-sc24_v1-11-gc00ca177071b) is reduced to the tag it was built from, and checked
against its release; phase values the IO500 project declared not comparable between two versions
(the ISC25 ior-rnd4K-easy-read, IO500/io500 issue #109) are flagged wherever they stand side by side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from scoring.rules.params import version_match

VERSIONS_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "io500_versions.json"


@dataclass(frozen=True)
class ReleaseVersions:
    accepted: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class VersionBreak:
    """One change of what a phase measures: values of `before` and `after` versions differ in kind."""

    phase: str
    changed_in: str
    before: frozenset[str]
    after: frozenset[str]
    reason: str
    source: str

    def separates(self, first: str | None, second: str | None) -> bool:
        return (first in self.before and second in self.after) or (
            first in self.after and second in self.before
        )


@cache
def _fixture() -> dict[str, Any]:
    with VERSIONS_FIXTURE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def release_versions() -> dict[str, ReleaseVersions]:
    return {
        name: ReleaseVersions(accepted=tuple(entry["accepted"]), source=entry["source"])
        for name, entry in _fixture()["releases"].items()
    }


def declared_breaks() -> list[VersionBreak]:
    """The breaks the IO500 project declared (not those only read from the code)."""
    return [
        VersionBreak(
            phase=entry["phase"],
            changed_in=entry["changed_in"],
            before=frozenset(entry["before"]),
            after=frozenset(entry["after"]),
            reason=entry["reason"],
            source=entry["source"],
        )
        for entry in _fixture()["not_comparable"]
        if entry.get("declared")
    ]


def version_tag(version: str | None) -> str | None:
    """The release tag a printed version was built from, or None when it names none."""
    if not version:
        return None
    match = version_match(version.strip())
    return match["tag"] if match else None


def phase_breaks_between(versions: list[str | None], phases: set[str]) -> list[tuple[VersionBreak, str, str]]:
    """Declared breaks of these phases between any two of these versions: (break, tag, tag)."""
    tags = [version_tag(version) for version in versions]
    found: list[tuple[VersionBreak, str, str]] = []
    for rule in declared_breaks():
        if rule.phase not in phases:
            continue
        for index, first in enumerate(tags):
            for second in tags[index + 1 :]:
                if first and second and rule.separates(first, second):
                    found.append((rule, first, second))
    return found
