"""Reads for the list index (/lists/): every release and list kind, in a fixed number of queries."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count

from registry.lists.selectors import release_list, visible_snapshots
from registry.models import KIND_ORDER, ListSnapshot, Release, kind_label


@dataclass(frozen=True)
class IndexedList:
    kind: str
    label: str
    published: bool
    entries: int = 0
    provenance: str = ""
    provenance_label: str = ""
    version: int = 0
    published_at: datetime.datetime | None = None


@dataclass(frozen=True)
class IndexedRelease:
    release: Release
    lists: list[IndexedList] = field(default_factory=list)

    @property
    def published_count(self) -> int:
        return sum(1 for item in self.lists if item.published)


def list_index() -> list[IndexedRelease]:
    """Every release, newest first, with each list kind it publishes: for a visible list its current
    version, entry count and provenance; for the others that nothing is published (yet)."""
    snapshots = (
        visible_snapshots()
        .filter(status=ListSnapshot.Status.PUBLISHED)
        .annotate(entry_count=Count("entries"))
        .order_by("release_id", "kind", "-version")
    )
    current: dict[tuple[int, str], tuple[ListSnapshot, int]] = {}
    for snapshot in snapshots:
        # A correction is a newer published version: the highest one is the list in force.
        current.setdefault((snapshot.release_id, snapshot.kind), (snapshot, snapshot.entry_count))
    labels = dict(ListSnapshot.Provenance.choices)
    index = []
    for release in release_list():
        kinds = set(release.list_kinds) | {kind for release_id, kind in current if release_id == release.pk}
        lists = []
        for kind in [value.value for value in KIND_ORDER if value.value in kinds]:
            found = current.get((release.pk, kind))
            if found is None:
                lists.append(IndexedList(kind=kind, label=kind_label(kind), published=False))
                continue
            shown, entries = found
            lists.append(
                IndexedList(
                    kind=kind,
                    label=kind_label(kind),
                    published=True,
                    entries=entries,
                    provenance=shown.provenance,
                    provenance_label=labels[shown.provenance],
                    version=shown.version,
                    published_at=shown.published_at,
                )
            )
        index.append(IndexedRelease(release=release, lists=lists))
    return index
