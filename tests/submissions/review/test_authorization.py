"""The authorisation matrix of reads: every page and API endpoint x {anonymous, submitter, other
submitter, committee, admin} x {in review, published under embargo, published}, asserting exactly who
sees what. Nothing of an unreleased submission may leak: not its scores, files or system. Who may
change what: test_authorization_writes.py."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from registry.lists.services import list_build, list_publish
from registry.models import Release
from scoring.model import SCORED_PHASES
from submissions.models import (
    Archive,
    ListCategory,
    Reproducibility,
    ReviewComment,
    ReviewState,
    Submission,
)
from submissions.review.roles import committee_member_add
from tests.factories import add_phases, make_result, make_submission
from tests.submissions.review.helpers import PERSONAS, client_for, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db

SCENARIOS = ("in_review", "embargoed", "published")
SECRET_SYSTEM = "Zephyr-Secret"
ARCHIVE_BYTES = b"the raw result archive"


@dataclass
class World:
    release: Release
    submission: Submission
    archive: Archive
    public_other: Submission
    users: dict[str, User | None]


def _archive(submission: Submission) -> Archive:
    digest = hashlib.sha256(ARCHIVE_BYTES).hexdigest()
    name = default_storage.save(f"archives/{digest[:2]}/{digest}/r.tgz", ContentFile(ARCHIVE_BYTES))
    archive = Archive(submission=submission, sha256=digest, size=len(ARCHIVE_BYTES), original_name="r.tgz")
    archive.file.name = name
    archive.save()
    return archive


def build_world(scenario: str, submitter: User, other: User, committee: User, admin: User) -> World:
    release = open_release()
    submission = verified_upload(
        submitter,
        release,
        system=storage(SECRET_SYSTEM, "Secret Lab", "Lustre"),
        review_state=ReviewState.ACCEPTED,
        reproducibility=Reproducibility.FULLY,
        category=ListCategory.PRODUCTION,
    )
    add_phases(make_result(submission=submission), dict.fromkeys(SCORED_PHASES, 3.0))
    archive = _archive(submission)
    ReviewComment.objects.create(submission=submission, author=committee, body="Committee remark")
    if scenario != "in_review":
        snapshot = list_build(release=release, kind="production")
        list_publish(snapshot=snapshot, early=True)
        Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.PUBLISHED)
        end = timezone.now() + datetime.timedelta(days=(30 if scenario == "embargoed" else -1))
        Release.objects.filter(pk=release.pk).update(embargo_end=end)
    public_other = make_submission(storage_system=storage("Open", "Open Lab", "BeeGFS"))
    submission.refresh_from_db()
    users: dict[str, User | None] = {
        "anonymous": None,
        "submitter": submitter,
        "other_submitter": other,
        "committee": committee,
        "admin": admin,
    }
    return World(release, submission, archive, public_other, users)


def may_see(persona: str, scenario: str) -> bool:
    return persona in ("submitter", "committee", "admin") or scenario == "published"


# Each read endpoint: how to build its URL, and what answer shows the submission.
Reader = Callable[[World], str]
SUBMISSION_READS: dict[str, Reader] = {
    "submission page": lambda w: f"/submissions/{w.submission.pk}/",
    "status json": lambda w: f"/submissions/{w.submission.pk}/status.json",
    "archive download": lambda w: f"/submissions/{w.submission.pk}/files/{w.archive.pk}/",
    "api detail": lambda w: f"/api/v1/submissions/{w.submission.pk}/",
    "phase chart": lambda w: f"/charts/submissions/{w.submission.pk}/phases.json",
    "timeline chart": lambda w: f"/charts/submissions/{w.submission.pk}/timeline.json",
    "compare page": lambda w: f"/compare/?ids={w.submission.pk},{w.public_other.pk}",
    "compare json": lambda w: f"/charts/compare.json?ids={w.submission.pk},{w.public_other.pk}",
    "system page": lambda w: f"/systems/{w.submission.storage_system_id}/",
    "system balance json": lambda w: f"/charts/systems/{w.submission.storage_system_id}/balance.json",
    "system history json": lambda w: f"/charts/systems/{w.submission.storage_system_id}/history.json",
}
# Lists, downloads, search and charts show only published lists out of embargo, to everyone:
# during the embargo even the committee reads the list on its publishing pages, not here.
LIST_READS: dict[str, Reader] = {
    "list page": lambda w: f"/lists/{w.release.slug}/production/",
    "list search": lambda w: f"/lists/{w.release.slug}/production/?q=zephyr",
    "list csv": lambda w: f"/lists/{w.release.slug}/production.csv",
    "list json": lambda w: f"/lists/{w.release.slug}/production.json",
    "list api": lambda w: f"/api/v1/lists/{w.release.slug}/production/",
    "radar chart": lambda w: f"/charts/radar/{w.release.slug}/production.json",
    "history chart": lambda w: "/charts/history/points.json?kind=production",
    "history page": lambda w: "/history/?kind=production",
}
COMMITTEE_PAGES: dict[str, Reader] = {
    "review queue": lambda w: "/review/",
    "review page": lambda w: f"/review/{w.submission.pk}/",
    "releases": lambda w: "/review/releases/",
    "release lists": lambda w: f"/review/releases/{w.release.slug}/",
    "draft list": lambda w: f"/review/releases/{w.release.slug}/lists/production/",
    "reverify runs": lambda w: "/review/reverify/",
}


@pytest.fixture(scope="module", params=SCENARIOS)
def world(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any, media_root: Path
) -> Iterator[World]:
    """One world per scenario for every test of the module, which pytest groups by scenario: it is
    built in a transaction that stays open while they run (each test's own transaction is a savepoint
    in it, rolled back after the test) and is rolled back after the last of them."""
    with override_settings(MEDIA_ROOT=str(media_root)):
        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
            users = {
                role: User.objects.create_user(f"world-{role}", f"world-{role}@example.org")
                for role in ("submitter", "other", "committee")
            }
            committee_member_add(user=users["committee"])
            admin = User.objects.create_superuser("world-admin", "world-admin@example.org")
            built = build_world(request.param, users["submitter"], users["other"], users["committee"], admin)
        try:
            yield built
        finally:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)


def _scenario(world: World) -> str:
    if world.submission.review_state != ReviewState.PUBLISHED:
        return "in_review"
    assert world.release.pk is not None
    embargo_end = Release.objects.get(pk=world.release.pk).embargo_end
    return "embargoed" if embargo_end and embargo_end > timezone.now() else "published"


def _body(response: Any) -> bytes:
    if hasattr(response, "streaming_content"):
        return b"".join(response.streaming_content)
    return bytes(response.content)


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("endpoint", list(SUBMISSION_READS))
def test_submission_reads_show_it_exactly_to_those_allowed(world: World, persona: str, endpoint: str) -> None:
    scenario = _scenario(world)
    response = client_for(world.users[persona]).get(SUBMISSION_READS[endpoint](world))
    body = _body(response)
    if may_see(persona, scenario):
        assert response.status_code == 200, (endpoint, persona, scenario, body[:300])
        if endpoint == "archive download":
            assert body == ARCHIVE_BYTES
    else:
        assert response.status_code == 404, (endpoint, persona, scenario, response.status_code)
        assert SECRET_SYSTEM.encode() not in body
        assert ARCHIVE_BYTES not in body


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("endpoint", list(LIST_READS))
def test_lists_downloads_search_and_charts_show_it_only_once_published(
    world: World, persona: str, endpoint: str
) -> None:
    scenario = _scenario(world)
    response = client_for(world.users[persona]).get(LIST_READS[endpoint](world))
    body = _body(response)
    assert response.status_code in (200, 404), (endpoint, response.status_code)
    if scenario == "published":
        assert response.status_code == 200
        assert SECRET_SYSTEM.encode() in body, (endpoint, persona)
    else:
        assert SECRET_SYSTEM.encode() not in body, (endpoint, persona, scenario)


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("page", list(COMMITTEE_PAGES))
def test_committee_pages_open_only_for_the_committee_and_admins(
    world: World, persona: str, page: str
) -> None:
    response = client_for(world.users[persona]).get(COMMITTEE_PAGES[page](world))
    if persona == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif persona in ("committee", "admin"):
        assert response.status_code == 200
    else:
        assert response.status_code == 403


@pytest.mark.parametrize("persona", PERSONAS)
def test_comments_and_timeline_are_only_for_the_submitter_and_the_committee(
    world: World, persona: str
) -> None:
    response = client_for(world.users[persona]).get(f"/submissions/{world.submission.pk}/")
    if response.status_code == 404:
        return  # the submission itself is hidden (first test)
    shown = b"Committee remark" in response.content
    assert shown == (persona in ("submitter", "committee", "admin"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_api_list_of_submissions_holds_only_ones_own(world: World, persona: str) -> None:
    response = client_for(world.users[persona]).get("/api/v1/submissions/")
    if persona == "anonymous":
        assert response.status_code in (401, 403)
        return
    ids = [row["id"] for row in response.json()["results"]]
    assert (world.submission.pk in ids) == (persona == "submitter")
