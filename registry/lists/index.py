"""The index of every list: one row per release and list kind anyone may read, with its entry count
and provenance (the reads of the list index API; one query, whatever the number of lists)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count

from registry.lists.selectors import visible_snapshots
from registry.models import KIND_ORDER, ListSnapshot


@dataclass(frozen=True)
class ListIndexRow:
    release: str
    release_name: str
    publication_date: date
    kind: str
    kind_label: str
    title: str
    version: int
    versions: int
    status: str
    published_at: datetime | None
    entries: int
    provenance: str
    provenance_label: str
    official: bool


def list_index() -> list[ListIndexRow]:
    """The current version of each visible list (the newest published one, else the newest
    superseded one, as the list page shows), newest release first, kinds in tab order."""
    snapshots = (
        visible_snapshots()
        .select_related("release")
        .annotate(entry_count=Count("entries"))
        .order_by("-release__publication_date", "release__name", "kind", "-version")
    )
    by_list: dict[tuple[int, str], list[ListSnapshot]] = {}
    for snapshot in snapshots:
        by_list.setdefault((snapshot.release_id, snapshot.kind), []).append(snapshot)
    position = {kind.value: index for index, kind in enumerate(KIND_ORDER)}
    rows: list[tuple[tuple[object, ...], ListIndexRow]] = []
    for versions in by_list.values():
        published = [s for s in versions if s.status == ListSnapshot.Status.PUBLISHED]
        current = (published or versions)[0]
        release = current.release
        row = ListIndexRow(
            release=release.slug,
            release_name=release.name,
            publication_date=release.publication_date,
            kind=current.kind,
            kind_label=current.get_kind_display(),
            title=current.label or release.name,
            version=current.version,
            versions=len(versions),
            status=current.status,
            published_at=current.published_at,
            entries=current.entry_count,  # type: ignore[attr-defined]  # the annotation above
            provenance=current.provenance,
            provenance_label=current.get_provenance_display(),
            official=current.provenance != ListSnapshot.Provenance.RECONSTRUCTED,
        )
        order = (
            -release.publication_date.toordinal(),
            release.name,
            position.get(current.kind, len(position)),
        )
        rows.append((order, row))
    return [row for _order, row in sorted(rows, key=lambda pair: pair[0])]
