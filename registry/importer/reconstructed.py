"""Lists io500.org published but never made public, rebuilt where the registry's rules decide alone.

After ISC21 the only public list is the plotted `io500` / Research list (registry.importer.plotted).
For the others of SC21 and later, the Historical and Full lists follow from the data and the rules
(membership.qualifies: everything received; everything valid under the release's rules), so they
are rebuilt here and marked *reconstructed*. The ranked lists are not: Production needs the
committee's Production classification and a Fully Reproducible rating, Research is what remains
after that decision, and a 10-node list needs the client-node count that io500.org's list data
does not hold for most entries. Those stay unpublished, and the list page says why
(`unpublished_reason`).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from registry.importer.source import IO500Data
from registry.lists.membership import rank_candidates
from registry.lists.public_record import release_has_public_runs
from registry.lists.selectors import list_candidates
from registry.lists.services import list_window, ranked_entries
from registry.models import ListEntry, ListKind, ListSnapshot, RecordedListChange, Release

RECONSTRUCTED_KINDS = (ListKind.FULL.value, ListKind.HISTORICAL.value)
CHANGES_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "io500_list_changes.json"
RECONSTRUCTED_SOURCE = (
    "Reconstructed by this registry from the public IO500 data with its own list rules, not published "
    "by io500.org: the runs of IO500/submission-data re-verified here, the rows of io500.org's SQL "
    "tables and the entries of io500.org's plotted lists, up to {release}. The public data holds no "
    "{kind} list of io500.org's for {release}; runs it received but never made public are missing "
    "here, and a raw run counts as valid by this registry's verdict, not the committee's."
)


@dataclass(frozen=True)
class ReconstructedList:
    release: str
    kind: str
    # 0 with `skipped`: no public run belongs to the release, so no list carries its name.
    entries: int
    skipped: bool = False


def reconstructable_releases(
    data: IO500Data, releases: dict[str, Release], today: datetime.date
) -> list[Release]:
    """Past releases newer than every public list table (the SQL tables end with ISC21)."""
    tabled = {listing.release_acronym for listing in data.listings()}
    newest_table = max(
        (release.publication_date for release in releases.values() if release.name in tabled), default=None
    )
    return sorted(
        (
            release
            for release in releases.values()
            if release.publication_date <= today
            and (newest_table is None or release.publication_date > newest_table)
        ),
        key=lambda release: release.publication_date,
    )


def import_reconstructed(data: IO500Data, releases: dict[str, Release]) -> list[ReconstructedList]:
    """Build the Full and Historical lists of every past release that lacks them and has public runs
    of its own. A release without one gets no list: its Full list would be the previous release's,
    rank for rank, under its name, and be cited as its data."""
    existing = set(ListSnapshot.objects.values_list("release__name", "kind"))
    built: list[ReconstructedList] = []
    for release in reconstructable_releases(data, releases, timezone.localdate()):
        if not release_has_public_runs(release):
            built.extend(
                ReconstructedList(release=release.name, kind=kind, entries=0, skipped=True)
                for kind in RECONSTRUCTED_KINDS
                if kind in release.list_kinds and (release.name, kind) not in existing
            )
            continue
        candidates = list_candidates(release=release)
        for kind in RECONSTRUCTED_KINDS:
            if kind not in release.list_kinds or (release.name, kind) in existing:
                continue
            ranked = rank_candidates(kind, candidates, list_window(release, kind))
            snapshot = ListSnapshot.objects.create(
                release=release,
                kind=kind,
                version=1,
                label=release.name,
                status=ListSnapshot.Status.PUBLISHED,
                provenance=ListSnapshot.Provenance.RECONSTRUCTED,
                source=RECONSTRUCTED_SOURCE.format(release=release.name, kind=ListKind(kind).label),
                published_at=timezone.now(),
            )
            ListEntry.objects.bulk_create(ranked_entries(snapshot, ranked))
            built.append(ReconstructedList(release=release.name, kind=kind, entries=len(ranked)))
    return built


def import_recorded_changes(releases: dict[str, Release]) -> int:
    """The changes public SQL patches made to lists after ISC21 (fixtures/io500_list_changes.json)."""
    with CHANGES_FIXTURE.open(encoding="utf-8") as handle:
        changes: list[dict[str, Any]] = json.load(handle)["changes"]
    created = 0
    for change in changes:
        release = releases.get(change["release"])
        if release is None:
            continue
        _, was_created = RecordedListChange.objects.get_or_create(
            source_file=change["file"],
            statement=change["statement"],
            defaults={
                "release": release,
                "kind": change["kind"],
                "action": change["action"],
                "io500_table": change["table"],
                "io500_submission_id": change["submission_id"],
                "io500_row_id": change["row_id"],
                "score": change["score"],
                "source_commit": change["commit"],
                "committed_on": datetime.date.fromisoformat(change["committed_on"]),
                "effect": change["effect"],
            },
        )
        created += was_created
    return created
