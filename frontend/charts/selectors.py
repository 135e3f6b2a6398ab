"""Reads behind the charts and the system, compare and history pages.

Every function runs a fixed number of queries (values() rows, no per-row lazy loads), so a page costs
the same number of queries for ten entries as for ten thousand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Case, Count, F, IntegerField, Max, Q, Sum, Value, When
from django.db.models.functions import Coalesce, NullIf

from registry.core.messaging import messaging_status
from registry.lists.selectors import recorded_or
from registry.models import MAIN_KINDS, TEN_NODE_KINDS, ListEntry, ListKind, ListSnapshot
from submissions.evidence_basis import with_basis
from submissions.models import PhaseResult, Result, StorageSystem, Submission
from submissions.selectors import on_official_list, release_out_of_embargo_q, submission_visible_queryset
from submissions.selectors import phase_values as phase_values

ENTRY_FIELDS = {
    "release": F("snapshot__release__name"),
    "release_slug": F("snapshot__release__slug"),
    "release_date": F("snapshot__release__publication_date"),
    "kind": F("snapshot__kind"),
    "system": recorded_or("system", "submission__storage_system__name"),
    "system_id": F("submission__storage_system_id"),
    "institution": recorded_or("institution", "submission__storage_system__institution__name"),
    "filesystem": recorded_or("filesystem", "submission__storage_system__filesystem_type"),
    # The vendor this submission declared, else the one first recorded for its system (as the lists do).
    "vendor": Coalesce(
        NullIf("submission__system__storage_vendor", Value("")), "submission__storage_system__vendor"
    ),
    "client_nodes": F("submission__system__client_nodes"),
    "total_procs": F("submission__system__client_nodes") * F("submission__system__procs_per_node"),
}


def _entry_rows(entries: Any) -> list[dict[str, Any]]:
    return list(
        entries.annotate(**ENTRY_FIELDS).values(
            "rank", "score", "bw", "md", "submission_id", *ENTRY_FIELDS.keys()
        )
    )


def ranked_entries(*, kinds: Iterable[str]) -> list[dict[str, Any]]:
    """Every entry of every published list of these kinds, oldest release first (one query)."""
    entries = ListEntry.objects.filter(
        release_out_of_embargo_q("snapshot__"),
        snapshot__status=ListSnapshot.Status.PUBLISHED,
        snapshot__kind__in=list(kinds),
    ).order_by("snapshot__release__publication_date", "snapshot__kind", "rank")
    return _entry_rows(entries)


def published_snapshot(*, release_slug: str, kind: str) -> ListSnapshot | None:
    """The current published version of one list (one query)."""
    return (
        ListSnapshot.objects.filter(
            release_out_of_embargo_q(),
            release__slug=release_slug.lower(),
            kind=kind,
            status=ListSnapshot.Status.PUBLISHED,
        )
        .select_related("release")
        .order_by("-version")
        .first()
    )


def snapshot_top(*, snapshot: ListSnapshot, count: int) -> list[dict[str, Any]]:
    return _entry_rows(ListEntry.objects.filter(snapshot=snapshot, rank__lte=count).order_by("rank"))


@dataclass(frozen=True)
class SubmissionHead:
    """What a chart needs to label a submission and to know whether its cached data is current."""

    pk: int
    updated_at: str
    release_id: int | None
    label: str
    system: str
    institution: str
    filesystem: str
    release: str
    score: float | None
    bw: float | None
    md: float | None


# What a SubmissionHead is made of (one row per submission, see _head).
_HEAD_FIELDS = ("pk", "updated_at", "release_id", "score", "bw", "md")
_HEAD_NAMES = {
    "release_name": F("release__name"),
    "system_name": F("storage_system__name"),
    "institution_name": F("storage_system__institution__name"),
    "filesystem": F("storage_system__filesystem_type"),
}


def visible_heads(*, user: User | AnonymousUser, ids: Iterable[int]) -> dict[int, SubmissionHead]:
    """The submissions among `ids` this user may see, keyed by id (one query)."""
    rows = (
        submission_visible_queryset(user=user).filter(pk__in=list(ids)).values(*_HEAD_FIELDS, **_HEAD_NAMES)
    )
    return {row["pk"]: _head(dict(row)) for row in rows}


COMPARE_CANDIDATES_MAX = 20


def compare_candidates(*, user: User | AnonymousUser, search: str) -> list[SubmissionHead]:
    """The submissions this user may see whose system or institution name contains `search`, best
    score first: how a reader finds what to compare without knowing submission numbers."""
    if not search:
        return []
    rows = (
        submission_visible_queryset(user=user)
        .filter(
            Q(storage_system__name__icontains=search) | Q(storage_system__institution__name__icontains=search)
        )
        .order_by(F("score").desc(nulls_last=True), "-pk")
        .values(*_HEAD_FIELDS, **_HEAD_NAMES)[:COMPARE_CANDIDATES_MAX]
    )
    return [_head(dict(row)) for row in rows]


def _head(row: dict[str, Any]) -> SubmissionHead:
    system = row["system_name"] or ""
    release = row["release_name"] or ""
    label = " · ".join(part for part in (f"#{row['pk']}", system, release) if part)
    return SubmissionHead(
        pk=row["pk"],
        updated_at=row["updated_at"].isoformat(),
        release_id=row["release_id"],
        label=label,
        system=system,
        institution=row["institution_name"] or "",
        filesystem=row["filesystem"] or "",
        release=release,
        score=row["score"],
        bw=row["bw"],
        md=row["md"],
    )


def primary_phase_rows(
    *, submission_id: int, fields: tuple[str, ...], name: str | None = None
) -> list[dict[str, Any]]:
    """The phases of a submission's primary run (or its phase `name`) with the requested columns,
    in run order."""
    rows = PhaseResult.objects.filter(result__submission_id=submission_id, result__is_primary=True)
    if name is not None:
        rows = rows.filter(name=name)
    return list(
        rows.order_by("order", "name").values("name", "unit", "order", "value", "time_s", "scored", *fields)
    )


def primary_configs(*, submission_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    rows = Result.objects.filter(submission_id__in=list(submission_ids), is_primary=True).values(
        "submission_id", "config", "era", "version", "nodes", "procs"
    )
    return {
        row["submission_id"]: {key: value for key, value in row.items() if key != "submission_id"}
        for row in rows
    }


def context_snapshot_for(*, submission_id: int, release_id: int | None) -> dict[str, Any] | None:
    """The list a submission's phases are compared with, its own release's first: a ranked list of
    its release holding it, else its release's main list, else its release's reconstructed Full list
    (marked so); failing those, the newest ranked list holding it, else the newest main list. Two
    queries at most: each step picks the first of its choices by a preference order."""
    ranked = [kind.value for kind in MAIN_KINDS + TEN_NODE_KINDS]
    main = [kind.value for kind in MAIN_KINDS]
    holding = Q(kind__in=ranked, entries__submission_id=submission_id)
    reconstructed = Q(kind=ListKind.FULL, provenance=ListSnapshot.Provenance.RECONSTRUCTED)
    preference = Case(
        When(holding, then=Value(0)),
        When(kind__in=main, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    published = ListSnapshot.objects.filter(release_out_of_embargo_q(), status=ListSnapshot.Status.PUBLISHED)
    fields = ("id", "kind", "release__name", "provenance")
    steps = [published.filter(holding | Q(kind__in=main)).order_by(preference, "-release__publication_date")]
    if release_id:
        own = published.filter(Q(release_id=release_id) & (holding | Q(kind__in=main) | reconstructed))
        steps.insert(0, own.order_by(preference, "kind"))
    for query in steps:
        found = query.values(*fields).first()
        if found is not None:
            return _snapshot_ref(found)
    return None


def _snapshot_ref(row: dict[str, Any]) -> dict[str, Any]:
    kind = row["kind"]
    reconstructed = row["provenance"] == ListSnapshot.Provenance.RECONSTRUCTED
    return {
        "id": row["id"],
        "kind": kind,
        "title": f"{row['release__name']} {ListKind(kind).label}"
        + (" (reconstructed)" if reconstructed else ""),
        "reconstructed": reconstructed,
    }


def storage_system_get(*, pk: int, user: User | AnonymousUser) -> StorageSystem | None:
    """The system, if this user may see at least one of its submissions (an embargoed system's
    name and institution are as secret as its scores)."""
    visible = submission_visible_queryset(user=user).filter(storage_system_id=pk)
    return StorageSystem.objects.select_related("institution").filter(pk=pk, submissions__in=visible).first()


def system_public_fingerprint(*, pk: int) -> tuple[object, ...] | None:
    """What decides the anonymous page of a storage system, or None when no submission
    of it is visible to everyone (then its name and institution are not public either)."""
    # Two small queries against the ~15 the page itself runs.
    visible = submission_visible_queryset(user=AnonymousUser()).filter(storage_system_id=pk)
    row = (
        StorageSystem.objects.filter(pk=pk)
        .values_list("pk", "name", "filesystem_type", "vendor", "institution__name")
        .first()
    )
    if row is None:
        return None
    # Which submissions are visible and their latest change: a new, changed, published or hidden
    # submission changes one of the three.
    summary = visible.aggregate(count=Count("pk"), ids=Sum("pk"), latest=Max("updated_at"))
    if not summary["count"]:
        return None
    return (*row, summary["count"], summary["ids"], summary["latest"])


def system_submissions(*, user: User | AnonymousUser, system_id: int) -> list[dict[str, Any]]:
    """The submissions of one storage system this user may see, oldest release first (one query)."""
    rows = (
        with_basis(submission_visible_queryset(user=user).filter(storage_system_id=system_id))
        .order_by(F("release__publication_date").asc(nulls_last=True), "created_at", "pk")
        .values(
            "pk",
            "updated_at",
            "score",
            "bw",
            "md",
            "valid",
            "status",
            "io500_id",
            "ten_node",
            "basis_level",
            "basis_label",
            "summary_only",
            release_name=F("release__name"),
            release_date=F("release__publication_date"),
            client_nodes=F("system__client_nodes"),
            procs_per_node=F("system__procs_per_node"),
            on_official_list=on_official_list(),
        )
    )
    return [{**row, "messaging": messaging_status(on_official_list=row["on_official_list"])} for row in rows]


def system_rank_history(*, system_id: int) -> list[dict[str, Any]]:
    """Every published ranked-list entry of the system, with the size of its list (two queries)."""
    ranked = [kind.value for kind in MAIN_KINDS + TEN_NODE_KINDS]
    rows = (
        ListEntry.objects.filter(
            release_out_of_embargo_q("snapshot__"),
            submission__storage_system_id=system_id,
            snapshot__status=ListSnapshot.Status.PUBLISHED,
            snapshot__kind__in=ranked,
        )
        .order_by("snapshot__release__publication_date", "snapshot__kind")
        .values(
            "rank",
            "score",
            "submission_id",
            "snapshot_id",
            kind=F("snapshot__kind"),
            release=F("snapshot__release__name"),
            release_slug=F("snapshot__release__slug"),
            release_date=F("snapshot__release__publication_date"),
        )
    )
    entries: list[dict[str, Any]] = [dict(row) for row in rows]
    sizes = dict(
        ListSnapshot.objects.filter(pk__in={entry["snapshot_id"] for entry in entries})
        .annotate(size=Count("entries"))
        .values_list("pk", "size")
    )
    for entry in entries:
        entry["list_size"] = sizes.get(entry["snapshot_id"], 0)
    return entries


def head_for(submission: Submission) -> SubmissionHead:
    """The head of a submission already loaded with its release and storage system (no query)."""
    system = submission.storage_system
    return _head(
        {
            "pk": submission.pk,
            "updated_at": submission.updated_at,
            "release_id": submission.release_id,
            "score": submission.score,
            "bw": submission.bw,
            "md": submission.md,
            "release_name": submission.release.name if submission.release else "",
            "system_name": system.name if system else "",
            "institution_name": system.institution.name if system else "",
            "filesystem": system.filesystem_type if system else "",
        }
    )
