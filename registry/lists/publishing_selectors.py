"""Reads behind the committee's publishing pages: the state of a release's lists and the draft of
one list with the duplicates the one-per-system rule left out and the runs the evidence rule left
out. Committee-only data: drafts and
unpublished submissions appear here, so only committee views may call these."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from registry.lists.membership import Candidate
from registry.lists.selectors import list_entries
from registry.lists.services import list_compute
from registry.models import KIND_ORDER, ListEntry, ListSnapshot, Release
from submissions.evidence_basis import with_basis
from submissions.models import ReviewState, Submission


@dataclass(frozen=True)
class KindState:
    kind: str
    label: str
    draft: ListSnapshot | None
    published: ListSnapshot | None
    draft_size: int
    published_size: int


def release_kind_states(*, release: Release) -> list[KindState]:
    """Per list kind of the release: its current draft and its current published version."""
    snapshots = list(
        ListSnapshot.objects.filter(release=release)
        .exclude(status=ListSnapshot.Status.SUPERSEDED)
        .annotate(size=Count("entries"))
        .order_by("version")
    )
    states = []
    for kind in KIND_ORDER:
        if kind.value not in release.list_kinds and not any(s.kind == kind.value for s in snapshots):
            continue
        draft = next(
            (s for s in snapshots if s.kind == kind.value and s.status == ListSnapshot.Status.DRAFT), None
        )
        published = next(
            (
                s
                for s in reversed(snapshots)
                if s.kind == kind.value and s.status == ListSnapshot.Status.PUBLISHED
            ),
            None,
        )
        states.append(
            KindState(
                kind=kind.value,
                label=str(kind.label),
                draft=draft,
                published=published,
                draft_size=getattr(draft, "size", 0),
                published_size=getattr(published, "size", 0),
            )
        )
    return states


def release_review_counts(*, release: Release) -> dict[str, int]:
    """How many of the release's submissions are in each review state."""
    rows = Submission.objects.filter(release=release).values_list("review_state").annotate(n=Count("id"))
    counts: Counter[str] = Counter(dict(rows))
    return {label: counts.get(value, 0) for value, label in ReviewState.choices}


def draft_get(*, release: Release, kind: str) -> ListSnapshot | None:
    return (
        ListSnapshot.objects.filter(release=release, kind=kind, status=ListSnapshot.Status.DRAFT)
        .select_related("release", "carried_from__release")
        .first()
    )


def draft_rows(*, snapshot: ListSnapshot) -> list[ListEntry]:
    return list(list_entries(snapshot=snapshot))


def _candidate_row(candidate: Candidate, names: dict[int, Any], kept: int | None = None) -> dict[str, Any]:
    return {
        "submission_id": candidate.submission_id,
        "score": candidate.score,
        "bw": candidate.bw,
        "md": candidate.md,
        "client_nodes": candidate.client_nodes,
        "kept_submission_id": kept,
        **dict(names.get(candidate.submission_id, {})),
    }


def draft_duplicates(*, snapshot: ListSnapshot) -> list[dict[str, Any]]:
    """The submissions that qualify for this list but lost to a better one of the same system."""
    ranked = list_compute(release=snapshot.release, kind=snapshot.kind)
    ids = [d.candidate.submission_id for d in ranked.duplicates]
    names = {
        row["pk"]: row
        for row in Submission.objects.filter(pk__in=ids).values(
            "pk", "storage_system__name", "storage_system__institution__name", "release__name"
        )
    }
    return [_candidate_row(d.candidate, names, d.kept_submission_id) for d in ranked.duplicates]


def list_evidence_gaps(*, release: Release, kind: str) -> list[dict[str, Any]]:
    """The runs a build of this list leaves out because scored phases lack their raw outputs and no
    committee decision names the gap: each with the phases, best score first."""
    ranked = list_compute(release=release, kind=kind)
    ids = [c.submission_id for c in ranked.evidence_gaps]
    names = {
        row["pk"]: row
        for row in Submission.objects.filter(pk__in=ids).values(
            "pk", "storage_system__name", "storage_system__institution__name", "release__name"
        )
    }
    return [
        {**_candidate_row(c, names), "summary_only": list(c.summary_only), "reason": evidence_gap_reason(c)}
        for c in ranked.evidence_gaps
    ]


def evidence_gap_reason(candidate: Candidate) -> str:
    phases = ", ".join(candidate.summary_only)
    return (
        f"checked from summaries only: no raw output backs {phases}, and no committee decision "
        "accepts that gap"
    )


def draft_evidence_gaps(*, snapshot: ListSnapshot) -> list[dict[str, Any]]:
    return list_evidence_gaps(release=snapshot.release, kind=snapshot.kind)


def accepted_unlisted(*, release: Release) -> list[Submission]:
    """Accepted submissions of the release on none of its drafts (e.g. invalid ones or lost duplicates)."""
    listed = ListEntry.objects.filter(
        snapshot__release=release, snapshot__status=ListSnapshot.Status.DRAFT
    ).values("submission_id")
    rows = (
        Submission.objects.filter(release=release, review_state=ReviewState.ACCEPTED)
        .exclude(pk__in=listed)
        .select_related("storage_system")
    )
    return list(with_basis(rows))
