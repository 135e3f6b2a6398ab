"""Reads for the site's information pages: the call for submissions and the about page. Each is a fixed
number of queries, whatever the number of releases and lists."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count
from django.utils import timezone

from registry.lists.selectors import release_list, releases_open, visible_snapshots
from registry.models import ListSnapshot, Release, kind_label


@dataclass(frozen=True)
class OpenCall:
    release: Release
    kinds: list[str]  # the names of the lists it publishes


@dataclass(frozen=True)
class CallState:
    """What the call-for-submissions page says: the open calls, else the next and the last one."""

    today: datetime.date
    open: list[OpenCall]
    # The next release still ahead whose call has closed already.
    upcoming: Release | None
    # The newest release whose lists are out.
    last_closed: Release | None


def call_state() -> CallState:
    today = timezone.localdate()
    open_calls = list(releases_open())
    open_pks = {release.pk for release in open_calls}
    upcoming = (
        Release.objects.filter(publication_date__gte=today)
        .exclude(pk__in=open_pks)
        .order_by("publication_date")
    ).first()
    # The newest release already out: an upcoming one whose call closed is `upcoming`, not this.
    closed = [r for r in release_list() if r.pk not in open_pks and r.publication_date < today]
    return CallState(
        today=today,
        open=[OpenCall(release=r, kinds=[kind_label(kind) for kind in r.list_kinds]) for r in open_calls],
        upcoming=upcoming,
        last_closed=closed[0] if closed else None,
    )


def provenance_counts() -> dict[str, int]:
    """How many visible lists (current versions and corrections) each provenance has."""
    rows = visible_snapshots().values("provenance").annotate(n=Count("pk"))
    counts = dict.fromkeys(ListSnapshot.Provenance.values, 0)
    for row in rows:
        counts[row["provenance"]] = row["n"]
    return counts
