"""What the IO500 BoF slides say of a release whose lists are in no public file (fixtures/bof_facts.json).

The slides of ISC25 and SC25 (IO500/webpage webroot/files/) give the release's submission and entry
counts and the systems awarded on its ranked lists. Those lists are not public, so these are recorded
facts with their source (file, commit, page), shown as the slides word them and never as list entries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

BOF_FACTS_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "bof_facts.json"
WEBPAGE_REPOSITORY = "IO500/webpage"


@dataclass(frozen=True)
class BofAward:
    list_name: str  # the slide's name of the list: "10 Client Production", "Research", ...
    category: str  # "Bandwidth", "Metadata" or "Overall"
    institution: str
    system: str
    value: str  # as the slide prints it, separators included
    unit: str


@dataclass(frozen=True)
class BofLine:
    text: str
    level: int  # the slide's bullet level: 0 none, 1 a bullet, 2 a bullet under the one before


@dataclass(frozen=True)
class BofFacts:
    release: str
    file: str
    commit: str
    counts_page: int
    counts_title: str
    counts: tuple[BofLine, ...]
    awards_page: int
    awards_title: str
    awards: tuple[BofAward, ...]

    @property
    def repository(self) -> str:
        return WEBPAGE_REPOSITORY

    @property
    def short_commit(self) -> str:
        return self.commit[:12]

    @property
    def award_groups(self) -> list[tuple[str, list[BofAward]]]:
        """The awards by list, in the slide's order."""
        groups: dict[str, list[BofAward]] = {}
        for award in self.awards:
            groups.setdefault(award.list_name, []).append(award)
        return list(groups.items())


def _facts(release: str, entry: dict[str, Any]) -> BofFacts:
    counts, awards = entry["counts"], entry["awards"]
    return BofFacts(
        release=release,
        file=entry["source"]["file"],
        commit=entry["source"]["commit"],
        counts_page=counts["page"],
        counts_title=counts["title"],
        counts=tuple(BofLine(text=line["text"], level=line["level"]) for line in counts["lines"]),
        awards_page=awards["page"],
        awards_title=awards["title"],
        awards=tuple(
            BofAward(
                list_name=row["list"],
                category=row["category"],
                institution=row["institution"],
                system=row["system"],
                value=row["value"],
                unit=row["unit"],
            )
            for row in awards["rows"]
        ),
    )


@cache
def bof_facts() -> dict[str, BofFacts]:
    """Every release's recorded BoF facts, by release name (read once per process: a fixture file)."""
    with BOF_FACTS_FIXTURE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return {name: _facts(name, entry) for name, entry in data["releases"].items()}
