"""What the charts need from a published list, derived once from its frozen entries.

A published snapshot never changes, so its balance-chart points (as JSON text in the shape the chart
reads) and a small summary with its phase medians are computed when it is published, or on the first
read of an older snapshot, and stored on the snapshot (ListSnapshot.chart_points, .chart_digest).
The history charts then read one row per list instead of joining five tables over every entry, and
the balance chart's JSON is spliced together from the stored text without parsing it. The points
are text, not JSON in the database, because handing over megabytes of jsonb as text costs the
database more than the whole request may take.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q, QuerySet

from frontend.charts.selectors import ENTRY_FIELDS, phase_values
from frontend.charts.shapes import (
    SHARE_LIMIT,
    entry_point,
    phase_medians,
    release_shares_of_counts,
    release_trends_of_parts,
    score_isolines_between,
    share_name,
    trend_part,
)
from registry.lists.facet_names import canonical
from registry.models import MAIN_KINDS, ListEntry, ListKind, ListSnapshot
from submissions.selectors import release_out_of_embargo_q

# Bump when the stored shape changes: digests of another version are recomputed on their next read.
DIGEST_VERSION = 4
# Each list's leaders are stored for the history page's table, which shows them without the chart.
LEADERS_TOP = 10
POINT_UNITS = {"bw": "GiB/s", "md": "kIOPS"}
MAIN_KIND_VALUES = frozenset(kind.value for kind in MAIN_KINDS)
SHARE_DIMENSIONS = ("filesystem", "vendor")


def _plottable(point: dict[str, Any]) -> bool:
    # Log axes: a point needs a finite, positive bandwidth and metadata rate.
    return all(
        isinstance(point[key], int | float) and math.isfinite(point[key]) and point[key] > 0
        for key in ("bw", "md")
    )


@dataclass(frozen=True)
class Digest:
    points_text: str
    summary: dict[str, Any]


def digest_of(rows: list[dict[str, Any]], medians: dict[str, float | None]) -> Digest:
    """The digest of one list from its entry rows (selector rows, in rank order)."""
    points: list[dict[str, Any]] = []
    unplotted: list[dict[str, Any]] = []
    filesystems: set[str] = set()
    for row in rows:
        point = entry_point(row)
        (points if _plottable(point) else unplotted).append(point)
        if point["filesystem"]:
            filesystems.add(point["filesystem"])
    scores = [math.sqrt(point["bw"] * point["md"]) for point in points]
    summary = {
        "version": DIGEST_VERSION,
        "unplotted": unplotted,
        "filesystems": sorted(filesystems),
        "score_range": [min(scores), max(scores)] if scores else None,
        "point_count": len(points),
        "leaders": [point for point in points if point["rank"] is not None and point["rank"] <= LEADERS_TOP],
        "phase_medians": medians,
        "trend": trend_part(rows),
        "names": {by: dict(Counter(share_name(row, by) for row in rows)) for by in SHARE_DIMENSIONS},
    }
    return Digest(points_text=json.dumps(points, separators=(",", ":"), allow_nan=False), summary=summary)


RECONSTRUCTED_SUFFIX = " (reconstructed)"


def chart_release_label(name: str, provenance: str) -> str:
    """How a chart names a release: a reconstructed one says so in its legend, axis and tooltip."""
    return name + RECONSTRUCTED_SUFFIX if provenance == ListSnapshot.Provenance.RECONSTRUCTED else name


def best_per_system(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A reconstructed Full list as the charts draw it: each storage system's best run, re-ranked,
    every point marked reconstructed (no IO500 committee ranked these runs)."""
    seen: set[int] = set()
    kept: list[dict[str, Any]] = []
    for row in rows:
        if row["system_id"] is not None and row["system_id"] in seen:
            continue
        seen.add(row["system_id"])
        kept.append(
            {
                **row,
                "rank": len(kept) + 1,
                "reconstructed": True,
                "release": chart_release_label(row["release"], ListSnapshot.Provenance.RECONSTRUCTED),
            }
        )
    return kept


def digests_compute(snapshot_ids: list[int]) -> dict[int, Digest]:
    """The digests of these snapshots from their entries (four queries whatever their number)."""
    rows: dict[int, list[dict[str, Any]]] = defaultdict(list)
    reconstructed = set(
        ListSnapshot.objects.filter(
            pk__in=snapshot_ids, provenance=ListSnapshot.Provenance.RECONSTRUCTED
        ).values_list("pk", flat=True)
    )
    entries = (
        ListEntry.objects.filter(snapshot_id__in=snapshot_ids)
        .order_by("snapshot_id", "rank")
        .annotate(**ENTRY_FIELDS)
        .values(
            "snapshot_id",
            "rank",
            "score",
            "bw",
            "md",
            "submission_id",
            *ENTRY_FIELDS.keys(),
            new_here=Q(submission__release_id=F("snapshot__release_id")),
        )
    )
    for entry in entries:
        rows[entry["snapshot_id"]].append(entry)
    compared: dict[int, list[dict[str, Any]]] = defaultdict(list, rows)
    for pk in reconstructed:
        # Medians compare a run with the whole rebuilt list; the charts draw only the runs new in
        # this release, since the rebuilt lists of later releases repeat every earlier run.
        compared[pk] = best_per_system(rows[pk])
        rows[pk] = [row for row in compared[pk] if row["new_here"]]
    values = phase_values(
        submission_ids={row["submission_id"] for group in compared.values() for row in group}
    )
    digests = {}
    for pk in snapshot_ids:
        members = {row["submission_id"] for row in compared[pk]}
        digests[pk] = digest_of(rows[pk], phase_medians({sid: values[sid] for sid in members}))
    return digests


def digests_store(snapshot_ids: list[int]) -> dict[int, Digest]:
    digests = digests_compute(snapshot_ids)
    # Not save(): the digest is derived data, outside what a frozen snapshot protects.
    changed = [
        ListSnapshot(pk=pk, chart_points=digest.points_text, chart_digest=digest.summary)
        for pk, digest in digests.items()
    ]
    ListSnapshot.objects.bulk_update(changed, ["chart_points", "chart_digest"], batch_size=50)
    return digests


def digests_refresh(*, kinds: Iterable[str]) -> int:
    """Recompute the digests of every frozen list of these kinds (after an import changed the data)."""
    ids = list(
        ListSnapshot.objects.exclude(status=ListSnapshot.Status.DRAFT)
        .filter(kind__in=list(kinds))
        .values_list("pk", flat=True)
    )
    digests_store(ids)
    return len(ids)


def _charted_snapshots(kinds: Iterable[str]) -> QuerySet[ListSnapshot]:
    """The published lists of these kinds; for the main lists, releases that have none (io500.org's
    lists after SC24 are not public) are drawn from their reconstructed Full list, marked so."""
    kinds = list(kinds)
    published = ListSnapshot.objects.filter(release_out_of_embargo_q(), status=ListSnapshot.Status.PUBLISHED)
    chosen = Q(kind__in=kinds)
    if set(kinds) & MAIN_KIND_VALUES:
        with_main = published.filter(kind__in=MAIN_KIND_VALUES).values("release_id")
        chosen |= Q(kind=ListKind.FULL, provenance=ListSnapshot.Provenance.RECONSTRUCTED) & ~Q(
            release_id__in=with_main
        )
    return published.filter(chosen).order_by("release__publication_date", "kind")


def _digested_snapshots(kinds: Iterable[str]) -> QuerySet[ListSnapshot]:
    """The charted snapshots of these kinds, each with a digest of the current version (missing or
    older ones are computed and stored first)."""
    kinds = list(kinds)
    versions = _charted_snapshots(kinds).values_list("pk", "chart_digest__version")
    stale = [pk for pk, version in versions if version != DIGEST_VERSION]
    if stale:
        digests_store(stale)
    return _charted_snapshots(kinds)


def digest_rows(*, kinds: Iterable[str]) -> list[dict[str, Any]]:
    """Every entry of every published list of these kinds as chart rows (points and unplottable
    entries alike, with the selector's `submission_id` and `release_date`), oldest release first."""
    rows: list[dict[str, Any]] = []
    snapshots = _digested_snapshots(kinds).values_list(
        "release__publication_date", "chart_points", "chart_digest__unplotted"
    )
    for date, points_text, unplotted in snapshots:
        for point in (*json.loads(points_text or "[]"), *(unplotted or [])):
            point["release_date"] = date
            point["submission_id"] = point["id"]
            rows.append(point)
    return rows


def points_json(*, kinds: Iterable[str], name: str) -> bytes:
    """The balance chart's JSON for every entry of these kinds, spliced from the stored points.

    Equal to json.dumps(history_points(digest_rows(...)) + identity) but without parsing or
    encoding thousands of points: the database hands each list's points over as JSON text.
    """
    snapshots = _digested_snapshots(kinds).values(
        "chart_digest__unplotted",
        "chart_digest__filesystems",
        "chart_digest__score_range",
        "provenance",
        release_name=F("release__name"),
        points_text=F("chart_points"),
    )
    fragments: list[str] = []
    releases: list[str] = []
    filesystems: set[str] = set()
    left_out = 0
    low, high = math.inf, 0.0
    for snapshot in snapshots:
        text = (snapshot["points_text"] or "[]").strip()
        unplotted = snapshot["chart_digest__unplotted"] or []
        if text != "[]":
            fragments.append(text[1:-1])
        label = chart_release_label(snapshot["release_name"], snapshot["provenance"])
        if (text != "[]" or unplotted) and label not in releases:
            releases.append(label)
        left_out += len(unplotted)
        filesystems.update(
            canonical("filesystem", name) for name in snapshot["chart_digest__filesystems"] or []
        )
        if snapshot["chart_digest__score_range"]:
            low = min(low, snapshot["chart_digest__score_range"][0])
            high = max(high, snapshot["chart_digest__score_range"][1])
    rest = {
        "releases": releases,
        "left_out": left_out,
        "filesystems": sorted(filesystems, key=str.lower),
        "isolines": score_isolines_between(low, high) if high > 0 else [],
        "kind": name,
        "filesystem": "",
        "units": POINT_UNITS,
    }
    tail = json.dumps(rest, separators=(",", ":"), allow_nan=False)
    return ('{"points":[' + ",".join(fragments) + "]," + tail[1:]).encode()


def digest_overview(*, kinds: Iterable[str]) -> dict[str, Any]:
    """What the history page tells of the balance chart without reading its points: the number of
    entries placed and left out, the file systems, and each list's leaders (rank <= LEADERS_TOP),
    as history_points() of every row would give them."""
    summaries = _digested_snapshots(kinds).values_list(
        "chart_digest__point_count",
        "chart_digest__unplotted",
        "chart_digest__filesystems",
        "chart_digest__leaders",
    )
    count, left_out = 0, 0
    filesystems: set[str] = set()
    leaders: list[dict[str, Any]] = []
    for point_count, unplotted, names, top in summaries:
        count += point_count or 0
        left_out += len(unplotted or [])
        filesystems.update(canonical("filesystem", name) for name in names or [])
        leaders.extend(top or [])
    return {
        "count": count,
        "left_out": left_out,
        "filesystems": sorted(filesystems, key=str.lower),
        "leaders": leaders,
    }


def digest_trends(*, kinds: Iterable[str], reconstructed: bool = False) -> list[dict[str, Any]]:
    """release_trends() of every entry of these kinds, merged from each list's stored trend part.

    The official lists (io500.org's, the committee's) and the reconstructed ones are two series: a
    reconstructed list is drawn from the runs new in its release (a handful), an official ranked
    list holds every system up to it (over a hundred), so one line through both would show the best
    score falling a hundredfold where nothing fell. `reconstructed` picks the series."""
    summaries = _digested_snapshots(kinds).values_list(
        "release__name", "provenance", "release__publication_date", "chart_digest__trend"
    )
    return release_trends_of_parts(
        (name, date.isoformat(), part)
        for name, provenance, date, part in summaries
        if (provenance == ListSnapshot.Provenance.RECONSTRUCTED) == reconstructed
    )


def digest_shares(*, kinds: Iterable[str], by: str, limit: int | None = SHARE_LIMIT) -> dict[str, Any]:
    """release_shares() of every entry of these kinds, from each list's stored name counts; `limit`
    None keeps every name (no "Other")."""
    summaries = _digested_snapshots(kinds).values_list(
        "release__name", "provenance", "release__publication_date", f"chart_digest__names__{by}"
    )
    return release_shares_of_counts(
        (
            (chart_release_label(name, provenance), date.isoformat(), label, count)
            for name, provenance, date, counts in summaries
            for label, count in (counts or {}).items()
        ),
        by=by,
        limit=limit,
    )


def country_shares(*, kinds: Iterable[str], limit: int | None = SHARE_LIMIT) -> dict[str, Any]:
    """Shares of each release's entries by the country of their site, counting only the entries
    whose site record names a country (io500.org's lists have no country column, so no imported
    entry does); `entries` and `counted` say how many entries there were and how many named one."""
    snapshots = _charted_snapshots(kinds)
    recorded = (
        ListEntry.objects.filter(snapshot__in=snapshots)
        .values_list(
            "snapshot__release__name",
            "snapshot__provenance",
            "snapshot__release__publication_date",
            "submission__storage_system__institution__country",
        )
        .order_by()
    )
    counts: Counter[tuple[str, str, str]] = Counter()
    entries = 0
    for name, provenance, date, country in recorded:
        entries += 1
        if country and country.strip():
            counts[(chart_release_label(name, provenance), date.isoformat(), country)] += 1
    table = release_shares_of_counts(
        ((release, date, country, n) for (release, date, country), n in counts.items()),
        by="country",
        limit=limit,
    )
    return {"entries": entries, "counted": sum(counts.values()), **table}


def list_phase_medians(snapshot_id: int) -> dict[str, float | None]:
    """The phase medians of one published list, from its digest (computed if missing)."""
    stored = (
        ListSnapshot.objects.filter(pk=snapshot_id, chart_digest__version=DIGEST_VERSION)
        .values_list("chart_digest__phase_medians", flat=True)
        .first()
    )
    if stored is None:
        stored = digests_store([snapshot_id])[snapshot_id].summary["phase_medians"]
    return dict(stored)
