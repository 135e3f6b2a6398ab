"""Changes since the previous list: which version a list is compared with, its entries as the diff
needs them, and why entries left (registry.lists.diff computes the changes, purely).

Two comparisons, each labelled by what it compares with: a correction (a second or later version)
with the version of the same list it corrects (what the correction changed), and every version with
the previous release's list: the latest published list of the same kind of an earlier release (what
is new on this list; the first Research (10 Node Research) list is compared with the earlier
releases' IO500 (10 Node) list, which io500.org's Research list continues, docs/list-rules.md).
Why an entry left is recorded when the list
is built (`left_out_reasons`, stored with the snapshot), so a published version keeps the reasons
that held when it was built; a draft also looks the per-entry decisions up, as they are now."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Q

from registry.lists.diff import (
    NO_LONGER_QUALIFIES,
    NOT_EXPLAINED_BY_IO500,
    RELEASE,
    VERSION,
    DiffEntry,
    ListDiff,
    list_diff,
)
from registry.lists.membership import DECIDED_RULE, REPLACED_RULE, Candidate
from registry.models import ListEntry, ListKind, ListSnapshot
from submissions.review.decisions import decision_reasons, revocation_reasons
from submissions.selectors import release_out_of_embargo_q

# Lists that continue a list of another kind when a release has none of their own yet.
CONTINUES = {
    ListKind.RESEARCH.value: ListKind.IO500.value,
    ListKind.TEN_NODE_RESEARCH.value: ListKind.TEN_NODE.value,
}
DECISION_RULE = DECIDED_RULE
EVIDENCE_RULE = "evidence"
FROZEN = (ListSnapshot.Status.PUBLISHED, ListSnapshot.Status.SUPERSEDED)


def previous_version(snapshot: ListSnapshot) -> ListSnapshot | None:
    """The version of the same list (release and kind) that `snapshot` corrects: the latest published
    or superseded one before it (a draft: the version published now). None for a first version."""
    return (
        ListSnapshot.objects.filter(
            release=snapshot.release, kind=snapshot.kind, version__lt=snapshot.version, status__in=FROZEN
        )
        .select_related("release")
        .order_by("-version")
        .first()
    )


def previous_release_snapshot(snapshot: ListSnapshot) -> ListSnapshot | None:
    """The previous release's list `snapshot` is compared with for what is new on it: the latest
    published list of the same kind of an earlier release, else of the kind it continues (None: the
    first list of its kind). Every version of a release's list compares with the same one."""
    continues = CONTINUES.get(snapshot.kind)
    kinds = [snapshot.kind, continues] if continues else [snapshot.kind]
    # A list still under its release's embargo is shown nowhere, so nothing is compared with it: its
    # entries would show as "removed" on a public page.
    found = list(
        ListSnapshot.objects.filter(
            Q(
                kind__in=kinds,
                status=ListSnapshot.Status.PUBLISHED,
                release__publication_date__lt=snapshot.release.publication_date,
            )
            & release_out_of_embargo_q()
        )
        .select_related("release")
        .order_by("-release__publication_date", "-version")
    )
    # The latest earlier list of the same kind, then of the kind it continues.
    for group in ([s for s in found if s.kind == snapshot.kind], [s for s in found if s.kind == continues]):
        if group:
            return group[0]
    return None


def previous_snapshot(snapshot: ListSnapshot) -> ListSnapshot | None:
    """The list a build of `snapshot` follows (its left-out reasons are relative to it): the version
    it corrects, else the previous release's list."""
    return previous_version(snapshot) or previous_release_snapshot(snapshot)


def snapshot_label(snapshot: ListSnapshot) -> str:
    name = snapshot.label or f"{snapshot.release.name} v{snapshot.version}"
    return f"{name} {ListKind(snapshot.kind).label}" if snapshot.kind in ListKind.values else name


ENTRY_FIELDS = (
    "snapshot_id",
    "submission_id",
    "rank",
    "score",
    "recorded",
    "submission__storage_system_id",
    "submission__storage_system__name",
    "submission__storage_system__institution__name",
    "submission__release__name",
)


def diff_entries(snapshot: ListSnapshot) -> list[DiffEntry]:
    rows = ListEntry.objects.filter(snapshot=snapshot).order_by("rank").values(*ENTRY_FIELDS)
    return [_entry(row) for row in rows]


def _both_entries(previous: ListSnapshot, snapshot: ListSnapshot) -> tuple[list[DiffEntry], list[DiffEntry]]:
    """The entries of both lists in one query."""
    rows = (
        ListEntry.objects.filter(snapshot_id__in=[previous.pk, snapshot.pk])
        .order_by("snapshot_id", "rank")
        .values(*ENTRY_FIELDS)
    )
    before: list[DiffEntry] = []
    after: list[DiffEntry] = []
    for row in rows:
        (after if row["snapshot_id"] == snapshot.pk else before).append(_entry(row))
    return before, after


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
    # The same keys as the build's other left_out rows (registry.lists.services), which the draft page
    # and build_list print alike.
    was_listed = {
        pk: (score, release or "")
        for pk, score, release in ListEntry.objects.filter(snapshot=previous).values_list(
            "submission_id", "score", "submission__release__name"
        )
    }
    gone = set(was_listed) - set(listed)
    reasons = decision_reasons(sorted(gone & set(decided)))
    rows: list[dict[str, object]] = [
        {
            "submission_id": pk,
            "release": was_listed[pk][1],
            "rule": DECISION_RULE,
            "until": None,
            "score": was_listed[pk][0],
            "reason": reason,
        }
        for pk, reason in sorted(reasons.items())
    ]
    for candidate in evidence_gaps:
        if candidate.submission_id in gone and candidate.submission_id not in reasons:
            phases = ", ".join(candidate.summary_only)
            rows.append(
                {
                    "submission_id": candidate.submission_id,
                    "release": was_listed[candidate.submission_id][1],
                    "rule": EVIDENCE_RULE,
                    "until": None,
                    "score": candidate.score,
                    "reason": f"checked from summaries only: no raw output backs {phases}",
                }
            )
    return rows


def _recorded_reasons(snapshot: ListSnapshot) -> list[dict[str, Any]]:
    """Why entries left, as the builds of this list recorded it: this version's and, for a correction,
    its earlier versions' (an entry the correction removed left relative to the version it corrects,
    one v1 left out relative to the previous release's list)."""
    if snapshot.version <= 1:
        return list(snapshot.left_out or [])
    rows = ListSnapshot.objects.filter(
        release=snapshot.release, kind=snapshot.kind, version__lte=snapshot.version
    ).order_by("version")
    return [row for left_out in rows.values_list("left_out", flat=True) for row in left_out or []]


def _revoked_arrivals(
    snapshot: ListSnapshot, previous: ListSnapshot, compared_with: str, came: list[int]
) -> dict[int, str]:
    """Entries back because a decision in force when `previous` was built has been revoked since: a
    draft says so as the decisions are now; a published correction as they were when it was built.
    The previous release's list never held this release's decisions, so only a version compares."""
    if not came or (snapshot.is_frozen and compared_with != VERSION):
        return {}
    in_force_at = previous.published_at or previous.created_at
    until = snapshot.created_at if snapshot.is_frozen else None
    return revocation_reasons(came, in_force_at=in_force_at, until=until)


def _changes(snapshot: ListSnapshot, previous: ListSnapshot, compared_with: str) -> ListDiff:
    before, after = _both_entries(previous, snapshot)
    current = {e.submission_id for e in after}
    earlier = {e.submission_id for e in before}
    gone = [pk for pk in earlier if pk not in current]
    came = [pk for pk in current if pk not in earlier]
    # Decisions taken since, for lists built before decisions were recorded with them; the reasons the
    # build recorded win. A move explains an arrival too.
    # A published version explains itself by what its build recorded (left_out); only a draft, which
    # the committee reads, also looks the decisions up (a published page then costs two queries).
    decided = decision_reasons([*gone, *came]) if (gone or came) and not snapshot.is_frozen else {}
    removed = {pk: reason for pk, reason in decided.items() if pk in earlier}
    recorded = _recorded_reasons(snapshot) if compared_with == RELEASE else list(snapshot.left_out or [])
    for row in recorded:
        # An entry a better run of its system replaced: the diff names that run itself, with its score.
        if row.get("rule") == REPLACED_RULE:
            continue
        if row.get("submission_id") in earlier and row.get("reason"):
            removed[int(row["submission_id"])] = str(row["reason"])
    added = {pk: reason for pk, reason in decided.items() if pk in current and reason.startswith("moved")}
    added.update(_revoked_arrivals(snapshot, previous, compared_with, [pk for pk in came if pk not in added]))
    return list_diff(
        before,
        after,
        previous_label=(
            f"version {previous.version} of this list ({snapshot_label(previous)})"
            if compared_with == VERSION
            else snapshot_label(previous)
        ),
        # No committee accepted the runs of a reconstructed list: its new runs are only "a run of" it.
        release="" if snapshot.provenance == ListSnapshot.Provenance.RECONSTRUCTED else snapshot.release.name,
        removed_reasons=removed,
        added_reasons=added,
        unexplained=NOT_EXPLAINED_BY_IO500
        if snapshot.provenance == ListSnapshot.Provenance.RECORDED
        else NO_LONGER_QUALIFIES,
        compared_with=compared_with,
    )


def correction_changes(snapshot: ListSnapshot) -> ListDiff | None:
    """What a correction changes: the diff with the version of the same list it corrects (None: a
    first version)."""
    previous = previous_version(snapshot)
    return _changes(snapshot, previous, VERSION) if previous is not None else None


def release_changes(snapshot: ListSnapshot) -> ListDiff | None:
    """What is new on this list: the diff with the previous release's list (None: the first list of
    its kind). Its `added_ids` are the entries marked "new"."""
    previous = previous_release_snapshot(snapshot)
    return _changes(snapshot, previous, RELEASE) if previous is not None else None


def snapshot_changes(snapshot: ListSnapshot) -> ListDiff | None:
    """The diff a build is judged by: a correction's with the version it corrects, a first version's
    with the previous release's list (None: the first list of its kind)."""
    return correction_changes(snapshot) or release_changes(snapshot)


def same_as_published(snapshot: ListSnapshot, published: ListSnapshot) -> bool:
    """The draft lists exactly what `published` lists: the same entries, ranks and scores."""
    return list_diff(diff_entries(published), diff_entries(snapshot)).unchanged
