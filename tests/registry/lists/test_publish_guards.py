"""Publishing a release's lists early (before its date, or while its call is open) needs the
committee's explicit confirmation, in the service, the publishing pages and build_list; the
embargo holds either way."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from registry.lists.publishing import release_drafts_build
from registry.lists.selectors import visible_snapshots
from registry.lists.services import PublishTooEarly, list_build, list_publish, publish_too_early
from registry.models import ListSnapshot, Release
from submissions.models import ReviewState
from tests.submissions.review.helpers import open_release, verified_upload

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def days(n: int) -> datetime.date:
    return TODAY + datetime.timedelta(days=n)


def test_each_date_not_yet_passed_is_a_reason_and_a_closed_past_release_has_none():
    release = Release(name="ISC40", publication_date=days(60), submission_deadline=days(30))
    assert publish_too_early(release) == [
        f"its lists are due on {days(60):%Y-%m-%d}, in 60 day(s)",
        f"its call for submissions is open until {days(30):%Y-%m-%d}",
    ]
    # The deadline day itself is still open (Release.is_open_for_submissions).
    release.submission_deadline, release.publication_date = TODAY, days(10)
    assert len(publish_too_early(release)) == 2
    release.submission_deadline, release.publication_date = days(-1), days(10)
    assert publish_too_early(release) == [f"its lists are due on {days(10):%Y-%m-%d}, in 10 day(s)"]
    release.submission_deadline, release.publication_date = days(-10), TODAY
    assert publish_too_early(release) == []


def test_an_early_publish_is_refused_without_confirmation_and_done_with_it(submitter: Any) -> None:
    release = open_release()
    verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
    draft = list_build(release=release, kind="research")
    with pytest.raises(PublishTooEarly, match=f"ISC40: its lists are due on {days(60):%Y-%m-%d}") as refused:
        list_publish(snapshot=draft)
    assert len(refused.value.dates) == 2
    draft.refresh_from_db()
    assert draft.status == ListSnapshot.Status.DRAFT
    assert list_publish(snapshot=draft, early=True).status == ListSnapshot.Status.PUBLISHED


def test_a_release_that_is_due_publishes_without_confirmation(submitter: Any) -> None:
    release = open_release(submission_deadline=days(-3), publication_date=TODAY)
    verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
    assert list_publish(snapshot=list_build(release=release, kind="research")).status == "published"


def test_an_early_publish_of_a_release_under_embargo_stays_hidden(submitter: Any, client: Client) -> None:
    release = open_release(embargo_end=timezone.now() + datetime.timedelta(days=90))
    run = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
    published = list_publish(snapshot=list_build(release=release, kind="research"), early=True)
    assert published.status == ListSnapshot.Status.PUBLISHED
    assert not visible_snapshots().filter(pk=published.pk).exists()
    page = client.get(f"/lists/{release.slug}/research/")
    assert f"/submissions/{run.pk}/" not in page.content.decode()
    assert client.get(f"/lists/{release.slug}/research.json").status_code == 404
    # Once the embargo has ended the same list is public, the entry with it.
    Release.objects.filter(pk=release.pk).update(embargo_end=timezone.now() - datetime.timedelta(seconds=1))
    cache.clear()
    assert f"/submissions/{run.pk}/" in client.get(f"/lists/{release.slug}/research/").content.decode()


class TestPublishingPages:
    def test_publishing_early_shows_a_confirm_step_with_the_dates_then_publishes_on_confirmation(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        release_drafts_build(user=committee_member, release=release, kinds=["research"])
        client = Client()
        client.force_login(committee_member)
        url = f"/review/releases/{release.slug}/lists/research/publish/"

        asked = client.post(url, {"reason": ""})

        assert asked.status_code == 200
        body = asked.content.decode()
        assert f"Its lists are due on {days(60):%Y-%m-%d}, in 60 day(s)." in body
        assert f"Its call for submissions is open until {days(30):%Y-%m-%d}." in body
        assert 'name="confirm_early" value="yes"' in body and f'action="{url}"' in body
        assert not ListSnapshot.objects.filter(release=release, status="published").exists()

        done = client.post(url, {"reason": "", "confirm_early": "yes"})

        assert done.status_code == 302
        assert ListSnapshot.objects.get(release=release, kind="research").status == "published"

    def test_publishing_every_list_early_asks_too(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        release_drafts_build(user=committee_member, release=release)
        client = Client()
        client.force_login(committee_member)
        url = f"/review/releases/{release.slug}/publish/"
        asked = client.post(url)
        assert 'data-role="confirm-early"' in asked.content.decode()
        assert not ListSnapshot.objects.filter(release=release, status="published").exists()
        assert client.post(url, {"confirm_early": "yes"}).status_code == 302
        assert set(ListSnapshot.objects.filter(release=release).values_list("status", flat=True)) == {
            "published"
        }

    def test_the_draft_page_states_the_dates_before_publishing(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        release_drafts_build(user=committee_member, release=release, kinds=["research"])
        client = Client()
        client.force_login(committee_member)
        page = client.get(f"/review/releases/{release.slug}/lists/research/").content.decode()
        assert 'data-role="early-dates"' in page and f"due on {days(60):%Y-%m-%d}" in page


class TestBuildListCommand:
    def test_publish_before_the_release_date_exits_with_the_reason_and_publishes_nothing(
        self, submitter: Any
    ) -> None:
        release = open_release()
        verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        with pytest.raises(CommandError, match="add --before-release-date to confirm") as refused:
            call_command("build_list", release.slug, "research", "--publish")
        assert f"its lists are due on {days(60):%Y-%m-%d}" in str(refused.value)
        assert ListSnapshot.objects.get(release=release, kind="research").status == "draft"

    def test_the_flag_confirms_an_early_publish(self, submitter: Any) -> None:
        release = open_release()
        verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        call_command("build_list", release.slug, "research", "--publish", "--before-release-date")
        assert ListSnapshot.objects.get(release=release, kind="research").status == "published"
