"""Per-entry decisions at any time, with a reason (issue 25 item 2), and the same run that cannot be
accepted twice (item 4): the services, the list build that applies them, the pages and the API."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from registry.lists.publishing import release_drafts_build, snapshot_publish
from registry.lists.services import list_build
from registry.models import ListSnapshot
from submissions.models import EntryDecision, Result, ReviewEvent, ReviewState, Submission
from submissions.review.decisions import decided_exclusions
from submissions.review.services import (
    submission_accept,
    submission_exclude,
    submission_mark_duplicate,
    submission_move,
    submission_withdraw,
    submission_withdraw_published,
)
from tests.submissions.review.helpers import client_for, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def listed(release: Any, kind: str) -> list[int]:
    snapshot = list_build(release=release, kind=kind)
    return list(snapshot.entries.order_by("rank").values_list("submission_id", flat=True))


def with_run(submission: Submission, fingerprint: str) -> Submission:
    Result.objects.create(
        submission=submission, path="run", is_primary=True, era="c-sc21", fingerprint=fingerprint
    )
    return submission


class TestWithdraw:
    def test_the_submitter_withdraws_before_publication_and_leaves_every_list(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        assert entry.pk in listed(release, "research")
        submission_withdraw(user=submitter, submission=entry, reason="uploaded the wrong run")
        entry.refresh_from_db()
        assert entry.review_state == ReviewState.WITHDRAWN
        assert entry.pk not in listed(release, "research")
        assert entry.pk not in listed(release, "historical")
        event = ReviewEvent.objects.get(submission=entry, action="withdraw")
        assert event.actor == submitter and "uploaded the wrong run" in event.reason

    def test_a_withdrawal_needs_a_reason(self, submitter: Any) -> None:
        entry = verified_upload(submitter, open_release())
        with pytest.raises(ValidationError, match="Say why"):
            submission_withdraw(user=submitter, submission=entry, reason="  ")
        assert not EntryDecision.objects.exists()

    def test_another_user_cannot_withdraw_a_submission(self, submitter: Any, other_submitter: Any) -> None:
        entry = verified_upload(submitter, open_release())
        with pytest.raises(PermissionDenied):
            submission_withdraw(user=other_submitter, submission=entry, reason="not mine")

    def test_the_submitter_cannot_withdraw_once_published(self, submitter: Any) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        with pytest.raises(ValidationError, match="only a submission not yet published"):
            submission_withdraw(user=submitter, submission=entry, reason="too late")

    def test_the_committee_withdraws_a_published_submission_and_the_next_version_leaves_it_out(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        other = verified_upload(
            submitter, release, system=storage("Other"), score=50.0, review_state="accepted"
        )
        [draft] = release_drafts_build(user=committee_member, release=release, kinds=["research"])
        snapshot_publish(user=committee_member, snapshot=draft, early=True)
        entry.refresh_from_db()
        assert entry.review_state == ReviewState.PUBLISHED

        submission_withdraw_published(
            user=committee_member, submission=entry, reason="the run broke the rules"
        )
        [correction] = release_drafts_build(user=committee_member, release=release, kinds=["research"])
        assert list(correction.entries.values_list("submission_id", flat=True)) == [other.pk]
        # Still published: the version already out lists it, and its page stays public.
        entry.refresh_from_db()
        assert entry.review_state == ReviewState.PUBLISHED
        assert client_for(None).get(reverse("submissions:detail", args=[entry.pk])).status_code == 200
        with pytest.raises(ValidationError, match="already withdrawn"):
            submission_withdraw_published(user=committee_member, submission=entry, reason="again")

    def test_only_the_committee_withdraws_after_publication(self, submitter: Any) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        with pytest.raises(PermissionDenied):
            submission_withdraw_published(user=submitter, submission=entry, reason="mine")


class TestExcludeAndMove:
    def test_an_exclusion_leaves_that_kind_of_list_only(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        submission_exclude(
            user=committee_member,
            submission=entry,
            release=release,
            list_kind="research",
            reason="not research",
        )
        assert entry.pk not in listed(release, "research")
        assert entry.pk in listed(release, "historical")
        assert decided_exclusions(release, "research") == {
            entry.pk: "excluded from the research lists from ISC40 on: not research"
        }

    def test_an_exclusion_holds_for_later_releases_but_not_earlier_ones(
        self, submitter: Any, committee_member: Any
    ) -> None:
        earlier = open_release("SC39", publication_date=datetime.date(2030, 1, 1))
        release = open_release("ISC40", publication_date=datetime.date(2030, 6, 1))
        later = open_release("SC40", publication_date=datetime.date(2030, 11, 1))
        entry = verified_upload(submitter, release, review_state=ReviewState.PUBLISHED)
        submission_exclude(
            user=committee_member, submission=entry, release=release, list_kind="research", reason="a mistake"
        )
        assert entry.pk in decided_exclusions(later, "research")
        assert entry.pk not in decided_exclusions(earlier, "research")

    def test_an_exclusion_names_a_list_the_release_publishes(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release(list_kinds=["research", "historical"])
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        with pytest.raises(ValidationError, match="publishes no"):
            submission_exclude(
                user=committee_member, submission=entry, release=release, list_kind="io500", reason="x"
            )

    def test_a_submitter_cannot_exclude_their_own_entry(self, submitter: Any) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        with pytest.raises(PermissionDenied):
            submission_exclude(
                user=submitter, submission=entry, release=release, list_kind="research", reason="x"
            )

    def test_a_run_filed_under_the_wrong_release_moves_and_the_lists_follow(
        self, submitter: Any, committee_member: Any
    ) -> None:
        wrong = open_release("ISC40", publication_date=datetime.date(2030, 6, 1))
        right = open_release("SC40", publication_date=datetime.date(2030, 11, 1))
        entry = verified_upload(submitter, wrong, review_state=ReviewState.PUBLISHED)
        assert entry.pk in listed(wrong, "research")
        decision = submission_move(
            user=committee_member, submission=entry, release=right, reason="late upload"
        )
        assert decision.summary == "moved from ISC40 to SC40: late upload"
        entry.refresh_from_db()
        assert entry.release == right
        assert entry.pk not in listed(wrong, "research")
        assert entry.pk in listed(right, "research")

    def test_a_move_to_the_same_release_is_refused(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        with pytest.raises(ValidationError, match="already filed"):
            submission_move(user=committee_member, submission=entry, release=release, reason="x")


class TestDuplicates:
    def test_the_same_run_cannot_be_accepted_twice_and_the_refusal_names_the_other_copy(
        self, submitter: Any, other_submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        first = with_run(verified_upload(submitter, release, review_state=ReviewState.ACCEPTED), "f" * 64)
        second = with_run(
            verified_upload(other_submitter, release, system=storage("Copy"), review_state="under_review"),
            "f" * 64,
        )
        with pytest.raises(ValidationError, match=f"submission {first.pk} \\(accepted\\)"):
            submission_accept(user=committee_member, submission=second)
        second.refresh_from_db()
        assert second.review_state == ReviewState.UNDER_REVIEW

    def test_once_the_committee_says_which_copy_counts_that_copy_is_accepted_and_the_other_is_listed_nowhere(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        first = with_run(verified_upload(submitter, release, review_state="under_review"), "f" * 64)
        second = with_run(
            verified_upload(submitter, release, system=storage("Copy"), review_state="under_review"), "f" * 64
        )
        submission_mark_duplicate(
            user=committee_member, submission=first, original=second, reason="the second upload is complete"
        )
        submission_accept(user=committee_member, submission=second)
        with pytest.raises(ValidationError, match=f"marked a duplicate of submission {second.pk}"):
            submission_accept(user=committee_member, submission=first)
        assert first.pk in decided_exclusions(release, "historical")
        assert listed(release, "historical") == [second.pk]

    def test_a_duplicate_mark_is_only_for_copies_of_one_run(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        first = with_run(verified_upload(submitter, release), "a" * 64)
        second = with_run(verified_upload(submitter, release, system=storage("Other")), "b" * 64)
        with pytest.raises(ValidationError, match="do not hold the same run"):
            submission_mark_duplicate(user=committee_member, submission=first, original=second, reason="x")

    def test_a_rejected_copy_does_not_hold_the_other_back(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        with_run(verified_upload(submitter, release, review_state=ReviewState.REJECTED), "f" * 64)
        second = with_run(
            verified_upload(submitter, release, system=storage("Copy"), review_state="under_review"), "f" * 64
        )
        assert (
            submission_accept(user=committee_member, submission=second).review_state == ReviewState.ACCEPTED
        )


class TestPages:
    def test_a_published_submission_offers_the_per_entry_decisions(
        self, submitter: Any, committee_member: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        open_release("SC40")  # somewhere to move it to
        page = client_for(committee_member).get(reverse("review:detail", args=[entry.pk])).content.decode()
        assert 'data-action="withdraw_published"' in page
        assert 'data-action="exclude"' in page and 'data-action="move"' in page
        assert "decision--destructive" in page
        assert "No decision is open in this state." not in page

    def test_a_destructive_decision_is_taken_only_after_its_confirm_step(
        self, submitter: Any, committee_member: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        client = client_for(committee_member)
        url = reverse("review:entry-decide", args=[entry.pk])
        confirm = client.post(url, {"kind": "withdraw_published"})
        assert confirm.status_code == 200
        page = confirm.content.decode()
        assert 'name="confirmed"' in page and "decision--destructive" in page
        assert not EntryDecision.objects.exists()
        empty = client.post(url, {"kind": "withdraw_published", "confirmed": "on", "reason": ""})
        assert empty.status_code == 400 and not EntryDecision.objects.exists()
        done = client.post(url, {"kind": "withdraw_published", "confirmed": "on", "reason": "broke a rule"})
        assert done.status_code == 302
        assert EntryDecision.objects.get().reason == "broke a rule"

    def test_the_submission_page_offers_its_submitter_a_withdrawal_until_publication(
        self, submitter: Any
    ) -> None:
        release = open_release()
        draft = verified_upload(submitter, release)
        published = verified_upload(submitter, release, system=storage("Other"), review_state="published")
        client = client_for(submitter)
        assert (
            'data-role="withdraw-link"'
            in client.get(reverse("submissions:detail", args=[draft.pk])).content.decode()
        )
        page = client.get(reverse("submissions:detail", args=[published.pk])).content.decode()
        assert 'data-role="withdraw-link"' not in page

    def test_the_submitter_withdraws_through_a_confirm_page(self, submitter: Any) -> None:
        entry = verified_upload(submitter, open_release())
        client = client_for(submitter)
        url = reverse("submissions:withdraw", args=[entry.pk])
        assert 'name="confirmed"' in client.get(url).content.decode()
        client.post(url, {"kind": "withdraw", "confirmed": "on", "reason": "wrong archive"})
        entry.refresh_from_db()
        assert entry.review_state == ReviewState.WITHDRAWN

    def test_a_submitter_cannot_take_a_committee_decision_through_the_withdraw_page(
        self, submitter: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        answer = client_for(submitter).post(
            reverse("submissions:withdraw", args=[entry.pk]),
            {"kind": "withdraw_published", "confirmed": "on", "reason": "mine"},
        )
        assert answer.status_code == 400
        assert not EntryDecision.objects.exists()

    def test_excluding_an_entry_from_the_draft_page_rebuilds_the_draft_without_it(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        release_drafts_build(user=committee_member, release=release, kinds=["research"])
        client = client_for(committee_member)
        draft_url = reverse("publishing:draft", kwargs={"release": release.slug, "kind": "research"})
        assert 'data-action="exclude"' in client.get(draft_url).content.decode()
        fields = {
            "kind": "exclude",
            "list_kind": "research",
            "release": release.slug,
            "submission": entry.pk,
            "next": draft_url,
        }
        url = reverse("publishing:exclude", kwargs={"release": release.slug, "kind": "research"})
        assert client.post(url, fields).status_code == 200  # the confirm step
        answer = client.post(url, {**fields, "confirmed": "on", "reason": "filed under the wrong list"})
        assert answer.status_code == 302 and answer["Location"] == draft_url
        draft = ListSnapshot.objects.get(release=release, kind="research", status="draft")
        assert not draft.entries.exists()


class TestDuplicatePages:
    def test_the_review_page_names_the_other_copy_and_refuses_accept_until_one_is_chosen(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        first = with_run(verified_upload(submitter, release, review_state="accepted"), "f" * 64)
        second = with_run(
            verified_upload(submitter, release, system=storage("Copy"), review_state="under_review"), "f" * 64
        )
        client = client_for(committee_member)
        page = client.get(reverse("review:detail", args=[second.pk])).content.decode()
        same_run = page.split('data-role="same-run"')[1].split("</div>")[0]
        assert f'data-submission="{first.pk}"' in same_run
        assert 'data-action="duplicate-this"' in same_run and 'data-action="duplicate-other"' in same_run

        refused = client.post(reverse("review:decide", args=[second.pk]), {"action": "accept"}, follow=True)
        assert f"submission {first.pk} (accepted)" in refused.content.decode()
        second.refresh_from_db()
        assert second.review_state == ReviewState.UNDER_REVIEW

        client.post(
            reverse("review:entry-decide", args=[first.pk]),
            {
                "kind": "duplicate",
                "duplicate_of": second.pk,
                "confirmed": "on",
                "reason": "second is complete",
            },
        )
        client.post(reverse("review:decide", args=[second.pk]), {"action": "accept"})
        second.refresh_from_db()
        assert second.review_state == ReviewState.ACCEPTED


class TestApi:
    def test_the_committee_takes_a_decision_through_the_api(
        self, submitter: Any, committee_member: Any, api_client_for: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.PUBLISHED)
        url = reverse("submissions-api:submission-decisions", args=[entry.pk])
        answer = api_client_for(committee_member).post(
            url, {"kind": "exclude", "list_kind": "research", "release": release.slug, "reason": "wrong list"}
        )
        assert answer.status_code == 201, answer.content
        assert answer.json()["summary"] == "excluded from the research lists from ISC40 on: wrong list"
        listing = api_client_for(submitter).get(url)
        assert [row["kind"] for row in listing.json()] == ["exclude"]

    def test_the_api_refuses_a_decision_that_does_not_fit_with_its_reason(
        self, submitter: Any, committee_member: Any, api_client_for: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.ACCEPTED)
        url = reverse("submissions-api:submission-decisions", args=[entry.pk])
        answer = api_client_for(committee_member).post(url, {"kind": "withdraw_published", "reason": "x"})
        assert answer.status_code == 400
        assert "only a published one" in answer.json()["detail"]
        elsewhere = open_release("SC40")
        moved = api_client_for(submitter).post(
            url, {"kind": "move", "release": elsewhere.slug, "reason": "x"}
        )
        assert moved.status_code == 403
        assert not EntryDecision.objects.exists()
