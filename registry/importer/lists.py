"""The published lists of the history, as frozen snapshots with the ranks listings_submissions.csv records."""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from typing import Any, cast

from registry.importer.history import history_rows, parse_float
from registry.importer.source import TYPE_URL_TO_KIND, IO500Data, ListingRow, ListMemberRow, read_calendar
from registry.models import ListEntry, ListSnapshot, Release
from submissions.models import Submission

SQL_SOURCE = (
    "io500.org's list tables as its public SQL files write them (IO500/webpage sql/, replayed into "
    "lists/listings_submissions.csv of the shared IO500 data), with io500.org's submission ids."
)

# io500.org's own list paths in its list descriptions ("/list/isc20/ten", "/list/sc18*/ten").
_IO500_LIST_LINK = re.compile(r'href="/list/(?P<release>[a-z]+\d{2})\*?/(?P<type>[a-z0-9]+)/?"')


def local_list_links(html: str) -> str:
    """The description with io500.org's list links pointing at the same list here (a correction such as
    SC18* is the newest version of its release's list); other links stay as they are."""

    def local(match: re.Match[str]) -> str:
        kind = TYPE_URL_TO_KIND.get(match["type"])
        if kind is None:
            return match[0]
        return f'href="/lists/{match["release"]}/{kind}/"'

    return _IO500_LIST_LINK.sub(local, html)


def published_at(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(12, 0), tzinfo=datetime.UTC)


def import_lists(data: IO500Data, releases: dict[str, Release]) -> tuple[int, int]:
    """Create every published list that is missing; returns (snapshots created, entries created)."""
    corrections = cast(dict[str, dict[str, Any]], read_calendar()["corrections"])
    correction_dates = {
        row["acronym"]: datetime.date.fromisoformat(row["release_date"])
        for row in data.releases()
        if row["acronym"] in corrections
    }
    # (release, kind) of every list a correction re-issued: their first version is superseded.
    corrected = {
        (corrections[listing.release_acronym]["release"], listing.kind)
        for listing in data.listings()
        if listing.release_acronym in corrections
    }
    members: dict[int, list[ListMemberRow]] = defaultdict(list)
    for member in data.list_members():
        members[member.listing_id].append(member)
    records = {int(row["id"]): row for row in history_rows(data)}
    submission_ids = dict(
        Submission.objects.filter(io500_id__in=records.keys()).values_list("io500_id", "pk")
    )
    existing = set(ListSnapshot.objects.values_list("release__name", "kind", "version"))

    snapshots_created = entries_created = 0
    for listing in sorted(data.listings(), key=lambda item: item.listing_id):
        correction = corrections.get(listing.release_acronym)
        release = releases[correction["release"] if correction else listing.release_acronym]
        version = 2 if correction else 1
        if (release.name, listing.kind, version) in existing:
            continue
        snapshot = ListSnapshot.objects.create(
            release=release,
            kind=listing.kind,
            version=version,
            label=listing.release_acronym,
            status=snapshot_status(listing, release, corrected, correction is not None),
            description=local_list_links(listing.description),
            correction_reason=correction["reason"] if correction else "",
            provenance=ListSnapshot.Provenance.RECORDED,
            source=SQL_SOURCE,
            published_at=published_at(
                correction_dates[listing.release_acronym] if correction else release.publication_date
            ),
        )
        rows = sorted(members[listing.listing_id], key=lambda member: member.rank)
        ListEntry.objects.bulk_create(
            [
                ListEntry(
                    snapshot=snapshot,
                    rank=member.rank,
                    submission_id=submission_ids[member.submission_id],
                    score=member.score,
                    bw=parse_float(records[member.submission_id]["io500_bw"]),
                    md=parse_float(records[member.submission_id]["io500_md"]),
                )
                for member in rows
            ]
        )
        snapshots_created += 1
        entries_created += len(rows)
    return snapshots_created, entries_created


def snapshot_status(
    listing: ListingRow, release: Release, corrected: set[tuple[str, str]], is_correction: bool
) -> str:
    if not is_correction and (release.name, listing.kind) in corrected:
        return ListSnapshot.Status.SUPERSEDED
    return ListSnapshot.Status.PUBLISHED
