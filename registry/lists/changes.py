"""Changes since the previous list: which version a list is compared with, its entries as the diff
needs them, and why entries left (registry.lists.diff computes the changes, purely).

The previous list of a version is the version before it of the same list (a draft: the version
published now), else the latest published list of the same kind of an earlier release; the first
Research (10 Node Research) list is compared with the earlier releases' IO500 (10 Node) list, which
io500.org's Research list continues (docs/list-rules.md). Why an entry left is recorded when the list
is built (`left_out_reasons`, stored with the snapshot), so a published version keeps the reasons
that held when it was built; per-entry decisions are looked up for entries built before that."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from registry.lists.diff import DiffEntry, ListDiff, list_diff
from registry.lists.membership import Candidate
from registry.models import ListEntry, ListKind, ListSnapshot
from submissions.review.decisions import decision_reasons

# Lists that continue a list of another kind when a release has none of their own yet.
CONTINUES = {
    ListKind.RESEARCH.value: ListKind.IO500.value,
    ListKind.TEN_NODE_RESEARCH.value: ListKind.TEN_NODE.value,
}
DECISION_RULE = "decision"
EVIDENCE_RULE = "evidence"
FROZEN = (ListSnapshot.Status.PUBLISHED, ListSnapshot.Status.SUPERSEDED)


def previous_snapshot(snapshot: ListSnapshot) -> ListSnapshot | None:
    """The list version `snapshot` is compared with (None: the first list of its kind)."""
    earlier_version = (
        ListSnapshot.objects.filter(
            release=snapshot.release, kind=snapshot.kind, version__lt=snapshot.version, status__in=FROZEN
        )
        .select_related("release")
        .order_by("-version")
        .first()
    )
    if earlier_version is not None:
        return earlier_version
    for kind in (snapshot.kind, CONTINUES.get(snapshot.kind)):
        if kind is None:
            continue
        found = (
            ListSnapshot.objects.filter(
                kind=kind,
                status=ListSnapshot.Status.PUBLISHED,
                release__publication_date__lt=snapshot.release.publication_date,
            )
            .select_related("release")
            .order_by("-release__publication_date", "-version")
            .first()
        )
        if found is not None:
            return found
    return None


def snapshot_label(snapshot: ListSnapshot) -> str:
    name = snapshot.label or f"{snapshot.release.name} v{snapshot.version}"
    return f"{name} {ListKind(snapshot.kind).label}" if snapshot.kind in ListKind.values else name


def diff_entries(snapshot: ListSnapshot) -> list[DiffEntry]:
    rows = (
        ListEntry.objects.filter(snapshot=snapshot)
        .order_by("rank")
        .values(
            "submission_id",
            "rank",
            "score",
            "recorded",
            "submission__storage_system_id",
            "submission__storage_system__name",
            "submission__storage_system__institution__name",
            "submission__release__name",
        )
    )
    return [_entry(row) for row in rows]


def _entry(row: Mapping[str, Any]) -> DiffEntry:
    recorded = row["recorded"] or {}
    system = recorded.get("system") or row["submission__storage_system__name"] or ""
    institution = recorded.get("institution") or row["submission__storage_system__institution__name"] or ""
    return DiffEntry(
        submission_id=row["submission_id"],
        rank=row["rank"],
        score=row["score"],
        system_id=row["submission__storage_system_id"],
        name=" / ".join(part for part in (system, institution) if part),
        release=row["submission__release__name"] or "",
    )


def left_out_reasons(
    previous: ListSnapshot | None,
    *,
    decided: Iterable[int],
    evidence_gaps: Iterable[Candidate],
    listed: Iterable[int],
) -> list[dict[str, object]]:
    """The rows a build records (with the embargo's, in ListSnapshot.left_out) for entries of the
    previous list it leaves out by a per-entry decision or for missing raw outputs."""
    if previous is None:
        return []
    was_listed = set(ListEntry.objects.filter(snapshot=previous).values_list("submission_id", flat=True))
    gone = was_listed - set(listed)
    reasons = decision_reasons(sorted(gone & set(decided)))
    rows: list[dict[str, object]] = [
        {"submission_id": pk, "rule": DECISION_RULE, "reason": reason}
        for pk, reason in sorted(reasons.items())
    ]
    for candidate in evidence_gaps:
        if candidate.submission_id in gone and candidate.submission_id not in reasons:
            phases = ", ".join(candidate.summary_only)
            rows.append(
                {
                    "submission_id": candidate.submission_id,
                    "rule": EVIDENCE_RULE,
                    "score": candidate.score,
                    "reason": f"verified from summaries only: no raw output backs {phases}",
                }
            )
    return rows


def snapshot_changes(snapshot: ListSnapshot) -> ListDiff | None:
    """What changed since the previous list (None: the first list of its kind)."""
    previous = previous_snapshot(snapshot)
    if previous is None:
        return None
    before, after = diff_entries(previous), diff_entries(snapshot)
    current = {e.submission_id for e in after}
    gone = [e.submission_id for e in before if e.submission_id not in current]
    came = [e.submission_id for e in after if e.submission_id not in {b.submission_id for b in before}]
    # Decisions taken since, for lists built before decisions were recorded with them; the reasons the
    # build recorded win. A move explains an arrival too.
    removed: dict[int, str] = decision_reasons(gone)
    for row in snapshot.left_out or []:
        if row.get("submission_id") in gone and row.get("reason"):
            removed[int(row["submission_id"])] = str(row["reason"])
    added = {pk: reason for pk, reason in decision_reasons(came).items() if reason.startswith("moved")}
    return list_diff(
        before,
        after,
        previous_label=snapshot_label(previous),
        release=snapshot.release.name,
        removed_reasons=removed,
        added_reasons=added,
    )


def same_as_published(snapshot: ListSnapshot, published: ListSnapshot) -> bool:
    """The draft lists exactly what `published` lists: the same entries, ranks and scores."""
    return list_diff(diff_entries(published), diff_entries(snapshot)).unchanged
