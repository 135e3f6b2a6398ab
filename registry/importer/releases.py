"""Releases: SC17..ISC21 from lists/releases.csv, later ones from fixtures/release_calendar.json."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, cast

from registry.importer.source import IO500Data, read_calendar
from registry.models import KIND_ORDER, Release
from registry.versions import release_versions

# releases.csv enable_* flag -> the list kind it switches on.
FLAG_KINDS = {
    "enable_ranked_list": "io500",
    "enable_10_node_list": "ten-node",
    "enable_full_list": "full",
    "enable_historical_list": "historical",
}


@dataclass(frozen=True)
class ReleaseSpec:
    name: str
    date: datetime.date
    kinds: tuple[str, ...]
    rules_from: str
    deadline: datetime.date | None = None


def release_slug(name: str) -> str:
    return name.lower()


def ordered_kinds(kinds: set[str]) -> tuple[str, ...]:
    return tuple(kind.value for kind in KIND_ORDER if kind.value in kinds)


def release_specs(data: IO500Data) -> list[ReleaseSpec]:
    """Every release the history knows, oldest first; corrections (SC18*) are not releases."""
    calendar = read_calendar()
    corrections = cast(dict[str, Any], calendar["corrections"])
    rules_from = cast(dict[str, str], calendar["rules_from"])
    listed_kinds: dict[str, set[str]] = {}
    for listing in data.listings():
        listed_kinds.setdefault(listing.release_acronym, set()).add(listing.kind)

    specs = []
    for row in data.releases():
        name = row["acronym"]
        if name in corrections:
            continue
        kinds = {kind for flag, kind in FLAG_KINDS.items() if row[flag] == "1"} | listed_kinds.get(
            name, set()
        )
        specs.append(
            ReleaseSpec(
                name=name,
                date=datetime.date.fromisoformat(row["release_date"]),
                kinds=ordered_kinds(kinds),
                rules_from=rules_from[name],
            )
        )
    known = {spec.name for spec in specs}
    for entry in cast(list[dict[str, Any]], calendar["later_releases"]):
        if entry["name"] in known:
            continue
        specs.append(
            ReleaseSpec(
                name=entry["name"],
                date=datetime.date.fromisoformat(entry["date"]),
                kinds=ordered_kinds(set(entry["kinds"])),
                rules_from=entry["rules_from"],
                deadline=(
                    datetime.date.fromisoformat(entry["submission_deadline"])
                    if entry.get("submission_deadline")
                    else None
                ),
            )
        )
    return sorted(specs, key=lambda spec: spec.date)


def import_releases(data: IO500Data) -> tuple[dict[str, Release], int]:
    """Create the releases that are missing; existing rows are left exactly as they are."""
    specs = release_specs(data)
    existing = {release.name: release for release in Release.objects.all()}
    created = 0
    for spec in specs:
        if spec.name in existing:
            continue
        existing[spec.name] = Release.objects.create(
            name=spec.name,
            slug=release_slug(spec.name),
            publication_date=spec.date,
            submission_deadline=spec.deadline,
            list_kinds=list(spec.kinds),
        )
        created += 1
    versions = release_versions()
    for spec in specs:
        release = existing[spec.name]
        if release.rules_from_id is None:
            release.rules_from = existing[spec.rules_from]
            release.save(update_fields=["rules_from"])
        known = versions.get(spec.name)
        if known is not None and not release.accepted_versions and known.accepted:
            # The committee may have set them already; the fixture only fills what is empty.
            release.accepted_versions = list(known.accepted)
            release.versions_source = known.source
            release.save(update_fields=["accepted_versions", "versions_source"])
    return existing, created
