"""The committee publishes a release: build the drafts of its lists from the accepted submissions,
review them, publish. Publishing freezes the snapshot (registry.lists.services.list_publish), moves
the listed submissions to `published`, tells the site the lists changed (registry.signals), and so
makes the release visible once its embargo (if any) has ended."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from registry.lists.services import ListPublishError, list_build, list_publish
from registry.models import ListKind, ListSnapshot, Release
from submissions.audits.selectors import snapshot_open_objections
from submissions.models import ReviewState, Submission
from submissions.review.roles import may_publish
from submissions.review.services import submission_publish


def _require_publisher(user: User) -> None:
    if not may_publish(user):
        raise PermissionDenied("Only the IO500 committee can build and publish lists.")


def release_drafts_build(
    *, user: User, release: Release, kinds: list[str] | None = None
) -> list[ListSnapshot]:
    """(Re)build the draft of every list the release publishes (or of `kinds`) from the current data."""
    _require_publisher(user)
    wanted = kinds if kinds is not None else list(release.list_kinds)
    with transaction.atomic():
        return [list_build(release=release, kind=kind, user=user) for kind in wanted]


def _list_title(snapshot: ListSnapshot) -> str:
    return f"{snapshot.label or snapshot.release.name} {ListKind(snapshot.kind).label}"


def snapshot_publish(
    *, user: User, snapshot: ListSnapshot, reason: str = "", early: bool = False
) -> ListSnapshot:
    """Publish one draft. A correction of an already published list needs `reason` and supersedes
    the earlier version, which stays readable. Before the release's date or deadline only with
    `early` (services.PublishTooEarly)."""
    _require_publisher(user)
    objections_refuse_publish(snapshot)
    with transaction.atomic():
        published = list_publish(snapshot=snapshot, user=user, reason=reason, early=early)
        listed_submissions_publish(snapshot=published, user=user)
    return published


def objections_refuse_publish(snapshot: ListSnapshot) -> None:
    """Every objection against the draft's entries needs the committee's answer first."""
    waiting = snapshot_open_objections(snapshot)
    if waiting:
        named = "; ".join(f"objection {row.pk} against submission {row.submission_id}" for row in waiting)
        raise ListPublishError(
            f"{_list_title(snapshot)} cannot be published while {len(waiting)} objection(s) against its "
            f"entries wait for the committee's answer: {named}."
        )


def listed_submissions_publish(*, snapshot: ListSnapshot, user: User | None) -> None:
    """Move the accepted submissions a just published list holds to `published` (`user` None: the
    `build_list --publish` command, which no account runs)."""
    title = _list_title(snapshot)
    listed = Submission.objects.filter(
        entries__snapshot=snapshot, review_state=ReviewState.ACCEPTED
    ).distinct()
    for submission in listed:
        submission_publish(user=user, submission=submission, list_title=title)


def release_publish(
    *, user: User, release: Release, reason: str = "", early: bool = False
) -> list[ListSnapshot]:
    """Publish every draft list of the release at once (the release goes public together)."""
    _require_publisher(user)
    drafts = list(
        ListSnapshot.objects.filter(release=release, status=ListSnapshot.Status.DRAFT).order_by("kind")
    )
    if not drafts:
        raise ListPublishError(f"{release.name} has no draft list to publish; build the lists first.")
    with transaction.atomic():
        return [snapshot_publish(user=user, snapshot=draft, reason=reason, early=early) for draft in drafts]
