"""The production rule in the list builder, publishing a release, corrections and duplicates."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from registry.core.generations import charts_generation
from registry.lists.publishing import release_drafts_build, release_publish, snapshot_publish
from registry.lists.services import ListPublishError
from registry.models import ListSnapshot, Release
from registry.signals import lists_changed
from submissions.models import ListCategory, Reproducibility, ReviewEvent, ReviewState, Submission
from tests.submissions.review.helpers import open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def due(release: Release) -> Release:
    """The release's call has closed and its date has come: its lists may be published at once."""
    today = timezone.localdate()
    release.submission_deadline = today - datetime.timedelta(days=2)
    release.publication_date = today
    release.save()
    return release


def listed(release: Any, kind: str) -> list[int]:
    snapshot = ListSnapshot.objects.get(release=release, kind=kind, status="draft")
    return list(snapshot.entries.order_by("rank").values_list("submission_id", flat=True))


class TestProductionRule:
    @pytest.mark.parametrize(
        ("level", "category", "production"),
        [
            (Reproducibility.FULLY, ListCategory.PRODUCTION, True),
            (Reproducibility.PROPRIETARY, ListCategory.PRODUCTION, False),
            (Reproducibility.LIMITED, ListCategory.PRODUCTION, False),
            (Reproducibility.UNDEFINED, ListCategory.PRODUCTION, False),
            (Reproducibility.FULLY, ListCategory.RESEARCH, False),
        ],
    )
    def test_only_fully_reproducible_production_systems_enter_the_production_lists(
        self, submitter: Any, committee_member: Any, level: str, category: str, production: bool
    ) -> None:
        release = open_release()
        entry = verified_upload(
            submitter, release, review_state=ReviewState.ACCEPTED, reproducibility=level, category=category
        )
        release_drafts_build(user=committee_member, release=release)
        on_production = entry.pk in listed(release, "production") + listed(release, "ten-node-production")
        on_research = entry.pk in listed(release, "research") + listed(release, "ten-node-research")
        assert on_production is production
        assert on_research is not production  # each submission is on exactly one of the two

    def test_submissions_not_accepted_stay_off_every_list(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        states = [s for s in ReviewState.values if s not in (ReviewState.ACCEPTED, ReviewState.PUBLISHED)]
        for index, state in enumerate(states):
            verified_upload(submitter, release, system=storage(f"S{index}"), review_state=state)
        accepted = verified_upload(
            submitter, release, system=storage("Good"), review_state=ReviewState.ACCEPTED
        )
        release_drafts_build(user=committee_member, release=release)
        assert listed(release, "historical") == [accepted.pk]
        assert listed(release, "research") == [accepted.pk]


class TestPublishing:
    def test_building_shows_the_duplicates_left_out(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        wolf = storage("Wolf")
        best = verified_upload(submitter, release, system=wolf, score=90.0, review_state=ReviewState.ACCEPTED)
        lower = verified_upload(
            submitter, release, system=wolf, score=40.0, review_state=ReviewState.ACCEPTED
        )
        release_drafts_build(user=committee_member, release=release)
        client = Client()
        client.force_login(committee_member)
        page = client.get(f"/review/releases/{release.slug}/lists/research/")
        assert page.status_code == 200
        duplicates = page.context["duplicates"]
        assert [(d["submission_id"], d["kept_submission_id"]) for d in duplicates] == [(lower.pk, best.pk)]
        assert listed(release, "research") == [best.pk]

    def test_publishing_freezes_publishes_the_submissions_and_drops_the_chart_cache(
        self, submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        # Each step commits on its own in production; here the test's transaction holds them all.
        with django_capture_on_commit_callbacks(execute=True):
            release = open_release()
            entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
            release_drafts_build(user=committee_member, release=due(release))
        generation = charts_generation()
        with django_capture_on_commit_callbacks(execute=True):
            published = release_publish(user=committee_member, release=release)
        assert {s.status for s in published} == {"published"}
        assert len(published) == len(release.list_kinds)
        assert charts_generation() > generation
        entry.refresh_from_db()
        assert entry.review_state == ReviewState.PUBLISHED
        assert ReviewEvent.objects.filter(submission=entry, action="publish").count() == 1

    def test_publishing_a_release_announces_every_list_in_one_signal(
        self, submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            release = open_release()
            verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
            release_drafts_build(user=committee_member, release=due(release))
        announced: list[frozenset[int]] = []

        def receiver(sender: Any, snapshot_ids: frozenset[int], **kwargs: Any) -> None:
            announced.append(snapshot_ids)

        lists_changed.connect(receiver, dispatch_uid="test-one-signal")
        try:
            with django_capture_on_commit_callbacks(execute=True):
                published = release_publish(user=committee_member, release=release)
        finally:
            lists_changed.disconnect(dispatch_uid="test-one-signal")
        assert len(published) > 1
        assert announced == [frozenset(snapshot.pk for snapshot in published)]

    def test_a_correction_is_a_new_snapshot_with_its_reason(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        first = verified_upload(submitter, release, system=storage("A"), review_state=ReviewState.ACCEPTED)
        (draft,) = release_drafts_build(user=committee_member, release=due(release), kinds=["research"])
        original = snapshot_publish(user=committee_member, snapshot=draft)
        late = verified_upload(submitter, release, system=storage("B"), review_state=ReviewState.ACCEPTED)
        (correction,) = release_drafts_build(user=committee_member, release=release, kinds=["research"])
        with pytest.raises(ListPublishError, match="say why"):
            snapshot_publish(user=committee_member, snapshot=correction)
        corrected = snapshot_publish(
            user=committee_member, snapshot=correction, reason="Late entry B accepted."
        )
        original.refresh_from_db()
        assert (original.status, corrected.status, corrected.version) == ("superseded", "published", 2)
        assert corrected.correction_reason == "Late entry B accepted."
        assert list(original.entries.values_list("submission_id", flat=True)) == [first.pk]
        assert sorted(corrected.entries.values_list("submission_id", flat=True)) == sorted(
            [first.pk, late.pk]
        )

    def test_submitters_cannot_build_or_publish(self, submitter: Any) -> None:
        release = open_release()
        with pytest.raises(PermissionDenied):
            release_drafts_build(user=submitter, release=release)
        with pytest.raises(PermissionDenied):
            release_publish(user=submitter, release=release)

    def test_the_list_row_carries_the_badge_and_the_chosen_publication_name(
        self, submitter: Any, other_submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        named = verified_upload(
            submitter, release, system=storage("Named"), review_state=ReviewState.ACCEPTED,
            reproducibility=Reproducibility.FULLY, category=ListCategory.PRODUCTION,
        )  # fmt: skip
        hidden = verified_upload(
            other_submitter,
            release,
            system=storage("Hidden"),
            review_state=ReviewState.ACCEPTED,
            anonymous=True,
        )
        release_drafts_build(user=committee_member, release=due(release), kinds=["historical"])
        release_publish(user=committee_member, release=release)
        rows = {
            row["id"]: row for row in Client().get(f"/lists/{release.slug}/historical.json").json()["rows"]
        }
        assert (rows[named.pk]["submitter"], rows[named.pk]["reproducibility"]) == (
            "alice",
            "fully_reproducible",
        )
        assert (rows[hidden.pk]["submitter"], rows[hidden.pk]["reproducibility"]) == (
            "anonymous",
            "undefined",
        )
        page = Client().get(f"/lists/{release.slug}/historical/").content.decode()
        assert "Fully Reproducible" in page and "anonymous" in page and "bob" not in page
        assert Submission.objects.get(pk=hidden.pk).review_state == ReviewState.PUBLISHED


def test_the_draft_page_names_the_runs_another_release_s_embargo_left_out(
    submitter: Any, committee_member: Any
) -> None:
    today = timezone.localdate()
    earlier = open_release(
        "ISC39",
        publication_date=today - datetime.timedelta(days=3),
        embargo_end=timezone.now() + datetime.timedelta(days=2),
    )
    later = open_release("SC39", rules_from=earlier)
    held = verified_upload(submitter, earlier, system=storage("Held"), review_state=ReviewState.ACCEPTED)
    release_drafts_build(user=committee_member, release=later, kinds=["historical"])
    client = Client()
    client.force_login(committee_member)
    page = client.get(f"/review/releases/{later.slug}/lists/historical/")
    assert [e["submission_id"] for e in page.context["embargoed"]] == [held.pk]
    assert 'data-role="embargoed"' in page.content.decode()
    assert "ISC39 is under embargo until" in page.content.decode()
