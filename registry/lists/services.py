"""Writes for releases and lists: build a draft list from the data, publish (freeze) it."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from registry.lists.changes import left_out_reasons, previous_snapshot, same_as_published
from registry.lists.membership import (
    NODES_RULE,
    NODES_UNKNOWN_RULE,
    REPLACED_RULE,
    Candidate,
    LeftOut,
    ListWindow,
    RankedCandidate,
    RankedList,
    rank_with_duplicates,
)
from registry.lists.selectors import base_list, list_candidates
from registry.models import ListEntry, ListKind, ListSnapshot, Release, kind_label
from registry.signals import lists_changed_on_commit
from submissions.review.decisions import decided_exclusions
from submissions.selectors import release_out_of_embargo_q

if TYPE_CHECKING:
    from django.contrib.auth.models import User


REPLACES_RECONSTRUCTED = (
    "Published by the committee in place of the list the registry had reconstructed from the public data."
)


class ListBuildError(Exception):
    """The list cannot be built, e.g. the release does not publish that kind of list."""


class ListPublishError(Exception):
    """The snapshot cannot be published as asked."""


class PublishTooEarly(ListPublishError):
    """The release's date or its submission deadline has not passed: publishing now needs the
    committee's explicit confirmation (`early=True`). `dates` states them for a confirm step."""

    def __init__(self, release: Release, dates: list[str]) -> None:
        self.release = release
        self.dates = dates
        super().__init__(
            f"{release.name}: {'; '.join(dates)}. Publishing its lists now needs explicit confirmation."
        )


def publish_too_early(release: Release, today: datetime.date | None = None) -> list[str]:
    """Why publishing the release's lists today would be early, one sentence per date not yet
    passed (empty: the release date has come and the call for submissions is closed). io500.org's
    lists are public from their release date (docs/list-rules.md R9), and a list published while the
    call is open would miss the runs still coming in."""
    today = today or timezone.localdate()
    reasons = []
    if today < release.publication_date:
        days = (release.publication_date - today).days
        reasons.append(f"its lists are due on {release.publication_date:%Y-%m-%d}, in {days} day(s)")
    if release.closes_on >= today:
        reasons.append(f"its call for submissions is open until {release.closes_on:%Y-%m-%d}")
    return reasons


def list_window(release: Release, kind: str | None = None) -> ListWindow:
    """The release a list is built for; with `kind`, also the submissions per-entry decisions keep
    off that list (membership.admit applies them, to carried entries as to new runs)."""
    rules_from = release.rules_from or release
    decided = frozenset(decided_exclusions(release, kind)) if kind is not None else frozenset()
    return ListWindow(
        release_date=release.publication_date,
        rules_from_date=rules_from.publication_date,
        bundled_runner_kinds=frozenset(release.bundled_runner_kinds),
        release_id=release.pk,
        built_at=timezone.now(),
        decided_out=decided,
    )


EMBARGO_RULE = "embargo"


def embargo_left_out(candidates: list[Candidate]) -> list[dict[str, object]]:
    """What a snapshot records of the runs the embargo rule held back (best score first)."""
    found = Release.objects.filter(pk__in={c.release_id for c in candidates}).values_list("pk", "name")
    names: dict[int | None, str] = dict(found)
    rows: list[dict[str, object]] = []
    for c in candidates:
        release = names.get(c.release_id, "its release")
        until = c.embargo_end.astimezone(datetime.UTC) if c.embargo_end else None
        reason = (
            f"{release} is under embargo until {until:%Y-%m-%d %H:%M} UTC; its runs enter other "
            "releases' lists only after that"
            if until
            else f"{release} is under embargo"
        )
        rows.append(
            {
                "submission_id": c.submission_id,
                "release": names.get(c.release_id, ""),
                "rule": EMBARGO_RULE,
                "until": until.isoformat() if until else None,
                "score": c.score,
                "reason": reason,
            }
        )
    return rows


def _left_out_row(item: LeftOut, names: dict[int | None, str]) -> dict[str, object]:
    c = item.candidate
    if item.rule == NODES_UNKNOWN_RULE:
        declared = f" (declared: {c.declared_nodes})" if c.declared_nodes is not None else ""
        reason = (
            "asked for the 10-node lists, but its outputs show no client node count"
            f"{declared}; a 10-node list takes exactly 10 client nodes as the outputs show them"
        )
    elif item.rule == NODES_RULE:
        declared = f", declared {c.declared_nodes}" if c.declared_nodes is not None else ""
        reason = (
            f"asked for the 10-node lists, but its outputs show {c.client_nodes} client nodes{declared}; "
            "a 10-node list takes exactly 10"
        )
    else:
        reason = (
            f"carried over from the previous list (rank {c.carried_rank}), replaced by submission "
            f"{item.other}, a better run of the same storage system"
        )
    return {
        "submission_id": c.submission_id,
        "release": names.get(c.release_id, ""),
        "rule": item.rule,
        "until": None,
        "score": c.score,
        "reason": reason,
    }


def build_left_out(built: RankedList) -> list[dict[str, object]]:
    """ListSnapshot.left_out of a build: the embargoed runs (best first), then the others by rule."""
    others = [item for item in built.left_out if item.rule in (NODES_UNKNOWN_RULE, NODES_RULE, REPLACED_RULE)]
    ids = {item.candidate.release_id for item in others if item.candidate.release_id is not None}
    names: dict[int | None, str] = dict(Release.objects.filter(pk__in=ids).values_list("pk", "name"))
    return embargo_left_out(built.embargoed) + [_left_out_row(item, names) for item in others]


def list_compute(*, release: Release, kind: str) -> RankedList:
    """What a build of this list holds now: the previous list of its lineage carried over (when
    there is one) plus the runs accepted since, by the membership rules."""
    return rank_with_duplicates(
        kind,
        list_candidates(release=release),
        list_window(release, kind),
        base_list(release=release, kind=kind),
    )


@transaction.atomic
def list_build(*, release: Release, kind: str, user: User | None = None) -> ListSnapshot:
    """Build (or rebuild) the draft of one list from the current data; published versions stay as they are."""
    if kind not in ListKind.values:
        raise ListBuildError(f'"{kind}" is not a list kind; the kinds are {", ".join(ListKind.values)}.')
    if kind not in release.list_kinds:
        offered = ", ".join(kind_label(k) for k in release.list_kinds) or "none"
        raise ListBuildError(f"{release.name} publishes no {kind_label(kind)} list (its lists: {offered}).")

    window = list_window(release, kind)
    built = rank_with_duplicates(
        kind, list_candidates(release=release), window, base_list(release=release, kind=kind)
    )
    versions = ListSnapshot.objects.select_for_update().filter(release=release, kind=kind)
    snapshot = versions.filter(status=ListSnapshot.Status.DRAFT).first()
    if snapshot is None:
        latest = versions.aggregate(latest=Max("version"))["latest"] or 0
        snapshot = ListSnapshot.objects.create(
            release=release, kind=kind, version=latest + 1, created_by=user, status=ListSnapshot.Status.DRAFT
        )
    else:
        snapshot.entries.all().delete()
    # Why entries of the previous list are gone: the embargo's runs and the rules of the build (10
    # nodes, replaced by a better run of the system), then those a per-entry decision or the evidence
    # rule left out.
    snapshot.left_out = build_left_out(built) + left_out_reasons(
        previous_snapshot(snapshot),
        decided=window.decided_out,
        evidence_gaps=built.evidence_gaps,
        listed=[item.candidate.submission_id for item in built.entries],
    )
    snapshot.carried_from_id = built.base.snapshot_id if built.base is not None else None
    snapshot.save(update_fields=["left_out", "carried_from"])
    recorded: dict[int, dict[str, object]] = {}
    if built.base is not None:
        # A carried entry keeps what its list printed (io500.org's names of a recorded list).
        recorded = dict(
            ListEntry.objects.filter(snapshot_id=built.base.snapshot_id).values_list(
                "submission_id", "recorded"
            )
        )
    ListEntry.objects.bulk_create(ranked_entries(snapshot, built.entries, recorded))
    # A release's first draft changes what the page of its unpublished list says (frontend.lists.context
    # empty_message), and that page is cached.
    lists_changed_on_commit(snapshot_ids=[snapshot.pk])
    return snapshot


def ranked_entries(
    snapshot: ListSnapshot,
    ranked: list[RankedCandidate],
    recorded: dict[int, dict[str, object]] | None = None,
) -> list[ListEntry]:
    """The rows of a list built by the membership rules, each with the values it is ranked by; a
    carried entry with those it was listed with, and what its list recorded of it."""
    recorded = recorded or {}
    rows = []
    for item in ranked:
        carried = item.candidate.carried_rank is not None
        rows.append(
            ListEntry(
                snapshot=snapshot,
                rank=item.rank,
                submission_id=item.candidate.submission_id,
                score=item.candidate.score or 0.0,
                bw=item.candidate.bw,
                md=item.candidate.md,
                carried=carried,
                recorded=recorded.get(item.candidate.submission_id, {}) if carried else {},
            )
        )
    return rows


@transaction.atomic
def list_publish(
    *, snapshot: ListSnapshot, user: User | None = None, reason: str = "", early: bool = False
) -> ListSnapshot:
    """Freeze a draft. Publishing over an already published list is a correction and needs a reason;
    the earlier version stays readable, marked superseded. Before the release's date or while its
    call is open, only with `early` (the committee confirmed); the embargo holds either way."""
    snapshot = ListSnapshot.objects.select_for_update().get(pk=snapshot.pk)
    if snapshot.is_frozen:
        raise ListPublishError(f"{snapshot} is already published; build a new draft to correct it.")
    too_early = publish_too_early(snapshot.release)
    if too_early and not early:
        raise PublishTooEarly(snapshot.release, too_early)
    earlier = list(
        ListSnapshot.objects.select_for_update().filter(
            release=snapshot.release, kind=snapshot.kind, status=ListSnapshot.Status.PUBLISHED
        )
    )
    reason = reason.strip() or snapshot.correction_reason
    if (
        earlier
        and not reason
        and all(previous.provenance == ListSnapshot.Provenance.RECONSTRUCTED for previous in earlier)
    ):
        reason = REPLACES_RECONSTRUCTED
    if earlier and not reason:
        raise ListPublishError(
            f"{snapshot.release.name} already has a published {kind_label(snapshot.kind)} list; "
            "say why it is being corrected."
        )
    # A correction must correct something: one listing what the published version lists would only
    # add a version (and a public correction note) that changes nothing.
    current = max(earlier, key=lambda previous: previous.version, default=None)
    if (
        current is not None
        and current.provenance != ListSnapshot.Provenance.RECONSTRUCTED
        and same_as_published(snapshot, current)
    ):
        raise ListPublishError(
            f"This draft lists exactly what the published {current} lists (the same entries, ranks and "
            "scores): there is nothing to correct. Take the decision that changes the list first "
            "(exclude, move or withdraw an entry), then build the draft again."
        )
    # The draft may predate an embargo set (or moved later) since its build: publishing is the moment
    # that cannot be undone, so the rule is checked again against the clock now.
    held = list(
        ListEntry.objects.filter(snapshot=snapshot)
        .exclude(submission__release=snapshot.release)
        .exclude(release_out_of_embargo_q("submission__"))
        .values_list("submission_id", flat=True)
        .order_by("submission_id")
    )
    if held:
        raise ListPublishError(
            f"{snapshot} holds submission(s) {', '.join(map(str, held))} of a release still under embargo; "
            "build the draft again, which leaves them out."
        )
    for previous in earlier:
        previous.status = ListSnapshot.Status.SUPERSEDED
        previous.save(update_fields=["status"])
    snapshot.status = ListSnapshot.Status.PUBLISHED
    snapshot.published_at = timezone.now()
    snapshot.correction_reason = reason if earlier else ""
    snapshot.label = snapshot.label or snapshot.release.name + "*" * (snapshot.version - 1)
    if user is not None and snapshot.created_by_id is None:
        snapshot.created_by = user
    snapshot.save()
    lists_changed_on_commit(snapshot_ids=[snapshot.pk])
    return snapshot
