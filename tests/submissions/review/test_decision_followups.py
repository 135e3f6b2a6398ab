"""What a user trying issue 25 found missing: a duplicate's own state, revoking a committee decision,
the public notice of a run taken off the lists after publication, the withdrawal mail, the description
checks re-run after an edit, and the committee's assess and comment actions by token."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from registry.lists.services import list_build
from scoring.model import Era
from submissions.models import (
    EntryDecision,
    Finding,
    PhaseResult,
    Result,
    ReviewComment,
    ReviewEvent,
    ReviewState,
    Submission,
)
from submissions.review.selectors import review_queue
from submissions.review.services import (
    entry_decision_revoke,
    submission_exclude,
    submission_mark_duplicate,
    submission_move,
    submission_withdraw,
    submission_withdraw_published,
    system_description_edit,
)
from tests.submissions.review.helpers import client_for, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def listed(release: Any, kind: str) -> list[int]:
    snapshot = list_build(release=release, kind=kind)
    return list(snapshot.entries.order_by("rank").values_list("submission_id", flat=True))


def with_run(submission: Submission, fingerprint: str, nodes: int | None = 10) -> Submission:
    result = Result.objects.create(
        submission=submission,
        path="run",
        is_primary=True,
        era=Era.C_SC21.value,
        fingerprint=fingerprint,
        nodes=nodes,
    )
    PhaseResult.objects.create(result=result, name="ior-easy-write", value=5.0, unit="GiB/s", scored=True)
    return submission


@pytest.fixture
def copies(submitter: Any, committee_member: Any) -> tuple[Submission, Submission]:
    release = open_release()
    first = with_run(verified_upload(submitter, release, review_state="submitted"), "d" * 64)
    second = with_run(
        verified_upload(submitter, release, system=storage("Copy"), review_state="submitted"), "d" * 64
    )
    submission_mark_duplicate(user=committee_member, submission=first, original=second, reason="same tarball")
    first.refresh_from_db()
    return first, second


class TestDuplicateState:
    def test_the_copy_that_does_not_count_leaves_the_queue_with_its_own_state(
        self, copies: tuple[Submission, Submission], committee_member: Any
    ) -> None:
        first, second = copies
        assert first.review_state == ReviewState.DUPLICATE
        assert list(review_queue().values_list("pk", flat=True)) == [second.pk]
        queue = client_for(committee_member).get(reverse("review:queue")).content.decode()
        assert f'href="/review/{first.pk}/"' not in queue

    def test_the_release_counts_and_every_page_show_the_duplicate_with_the_copy_that_counts(
        self, copies: tuple[Submission, Submission], submitter: Any, committee_member: Any
    ) -> None:
        first, second = copies
        release_page = client_for(committee_member).get(
            reverse("publishing:release", kwargs={"release": "isc40"})
        )
        assert "Submitted for review 1" in release_page.content.decode()
        assert "Duplicate of another copy 1" in release_page.content.decode()
        link = f'<a href="/submissions/{second.pk}/">submission {second.pk}</a>'
        mine = client_for(submitter).get(reverse("submissions:mine")).content.decode()
        assert "Duplicate of another copy" in mine and link in mine
        page = client_for(submitter).get(reverse("submissions:detail", args=[first.pk])).content.decode()
        assert "Go to the copy that counts" in page and link in page
        review = client_for(committee_member).get(reverse("review:detail", args=[first.pk])).content.decode()
        assert link in review.split('data-role="duplicate-of"')[1]

    def test_the_review_page_offers_no_assessment_of_the_duplicate_and_says_why(
        self, copies: tuple[Submission, Submission], committee_member: Any
    ) -> None:
        first, second = copies
        client = client_for(committee_member)
        review = client.get(reverse("review:detail", args=[first.pk])).content.decode()
        assert 'id="assess-form"' not in review
        reason = review.split('data-role="not-assessable"')[1].split("</p>")[0]
        assert (
            f"marked a duplicate of submission {second.pk}" in reason
            and "Revoke the duplicate mark" in reason
        )
        # The copy that counts is still assessed from its page.
        counted = client.get(reverse("review:detail", args=[second.pk])).content.decode()
        assert 'id="assess-form"' in counted and 'data-role="not-assessable"' not in counted


class TestRevoke:
    def test_a_revoked_exclusion_is_kept_on_record_and_the_next_list_takes_the_entry_back(
        self, submitter: Any, committee_member: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        decision = submission_exclude(
            user=committee_member,
            submission=entry,
            release=release,
            list_kind="research",
            reason="wrong list",
        )
        assert entry.pk not in listed(release, "research")
        revoked = entry_decision_revoke(
            user=committee_member, decision=decision, reason="it was the right list"
        )
        assert revoked.revoked_by == committee_member and revoked.revoke_reason == "it was the right list"
        assert EntryDecision.objects.filter(pk=decision.pk).exists()
        assert entry.pk in listed(release, "research")
        event = ReviewEvent.objects.get(submission=entry, action="revoke")
        assert "wrong list" in event.reason and "it was the right list" in event.reason
        with pytest.raises(Exception, match="already revoked"):
            entry_decision_revoke(user=committee_member, decision=revoked, reason="again")

    def test_revoking_needs_a_reason_and_the_committee(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.PUBLISHED)
        decision = submission_withdraw_published(user=committee_member, submission=entry, reason="bad")
        with pytest.raises(Exception, match="Say why"):
            entry_decision_revoke(user=committee_member, decision=decision, reason=" ")
        with pytest.raises(Exception, match="Only the IO500 committee"):
            entry_decision_revoke(user=submitter, decision=decision, reason="mine")
        own = verified_upload(submitter, release)
        withdrawal = submission_withdraw(user=submitter, submission=own, reason="oops")
        with pytest.raises(Exception, match="the submitter's decision"):
            entry_decision_revoke(user=committee_member, decision=withdrawal, reason="no")

    def test_revoking_a_move_files_it_back_and_revoking_a_duplicate_restores_its_state(
        self, copies: tuple[Submission, Submission], submitter: Any, committee_member: Any
    ) -> None:
        first, _second = copies
        mark = EntryDecision.objects.get(submission=first, kind="duplicate")
        entry_decision_revoke(user=committee_member, decision=mark, reason="they differ after all")
        first.refresh_from_db()
        assert first.review_state == ReviewState.SUBMITTED
        home = first.release
        later = open_release("SC40")
        entry = verified_upload(submitter, home, system=storage("Moved"), review_state="accepted")
        move = submission_move(user=committee_member, submission=entry, release=later, reason="late")
        entry_decision_revoke(user=committee_member, decision=move, reason="it was on time")
        entry.refresh_from_db()
        assert entry.release == home

    def test_the_review_page_api_and_command_revoke(
        self, submitter: Any, committee_member: Any, api_client_for: Any
    ) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
        exclude: dict[str, Any] = {"release": release, "list_kind": "research", "reason": "r"}
        decision = submission_exclude(user=committee_member, submission=entry, **exclude)
        page = client_for(committee_member)
        body = page.get(reverse("review:detail", args=[entry.pk])).content.decode()
        assert reverse("review:entry-revoke", args=[entry.pk, decision.pk]) in body
        page.post(reverse("review:entry-revoke", args=[entry.pk, decision.pk]), {"reason": "by page"})
        decision.refresh_from_db()
        assert decision.revoke_reason == "by page"
        body = page.get(reverse("review:detail", args=[entry.pk])).content.decode()
        assert 'data-role="revoked"' in body and "by page" in body

        second = submission_exclude(user=committee_member, submission=entry, **exclude)
        url = f"/api/v1/submissions/{entry.pk}/decisions/{second.pk}/revoke/"
        assert api_client_for(submitter).post(url, {"reason": "x"}, format="json").status_code == 403
        answer = api_client_for(committee_member).post(url, {"reason": "by token"}, format="json")
        assert answer.status_code == 200 and answer.json()["revoke_reason"] == "by token"
        assert answer.json()["revoked_by"] == committee_member.username

        third = submission_exclude(user=committee_member, submission=entry, **exclude)
        out = io.StringIO()
        call_command(
            "decide",
            str(entry.pk),
            "revoke",
            "--user",
            committee_member.username,
            "--reason",
            "by command",
            stdout=out,
        )
        third.refresh_from_db()
        assert third.revoke_reason == "by command" and f"revoked the decision {third.pk}" in out.getvalue()
        with pytest.raises(CommandError, match="Name the decision"):
            call_command(
                "decide", str(entry.pk), "revoke", "--user", committee_member.username, "--reason", "x"
            )


class TestPublicNotice:
    def test_the_public_page_of_a_run_withdrawn_after_publication_says_so_and_stays(
        self, submitter: Any, committee_member: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
        url = reverse("submissions:detail", args=[entry.pk])
        assert 'data-role="taken-off"' not in client_for(None).get(url).content.decode()
        submission_withdraw_published(user=committee_member, submission=entry, reason="the run broke a rule")
        page = client_for(None).get(url)
        body = page.content.decode()
        assert page.status_code == 200
        notice = body.split('data-role="taken-off"')[1].split("</div>")[0]
        assert "Withdrawn after publication" in notice and "IO500 committee" in notice
        assert "the run broke a rule" in notice and committee_member.username not in notice
        decision = EntryDecision.objects.get(submission=entry)
        entry_decision_revoke(user=committee_member, decision=decision, reason="rule misread")
        assert 'data-role="taken-off"' not in client_for(None).get(url).content.decode()

    def test_an_exclusion_after_publication_is_said_too(self, submitter: Any, committee_member: Any) -> None:
        release = open_release()
        entry = verified_upload(submitter, release, review_state=ReviewState.PUBLISHED)
        submission_exclude(
            user=committee_member,
            submission=entry,
            release=release,
            list_kind="production",
            reason="research",
        )
        body = client_for(None).get(reverse("submissions:detail", args=[entry.pk])).content.decode()
        notice = body.split('data-role="taken-off"')[1].split("</div>")[0]
        assert "Excluded from the production lists from ISC40 on" in notice and "research" in notice


class TestMail:
    def test_the_submitter_is_mailed_their_withdrawal_and_the_committee_s(
        self, submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        submitter.email = "s@example.org"
        submitter.save()
        release = open_release()
        own = verified_upload(submitter, release)
        with django_capture_on_commit_callbacks(execute=True):
            submission_withdraw(user=submitter, submission=own, reason="wrong tarball")
        [withdrawn] = mail.outbox
        assert withdrawn.subject == f"[IO500] Submission {own.pk} withdrawn"
        assert "You wrote:\nwrong tarball" in withdrawn.body
        published = verified_upload(submitter, release, review_state=ReviewState.PUBLISHED)
        with django_capture_on_commit_callbacks(execute=True):
            submission_withdraw_published(user=committee_member, submission=published, reason="a rule")
        assert mail.outbox[1].subject == f"[IO500] Submission {published.pk} withdrawn from the lists"
        assert "The committee wrote:" in mail.outbox[1].body


class TestDescriptionRecheck:
    def test_fixing_the_node_count_clears_the_finding_and_keeps_the_history(
        self, submitter: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        entry = with_run(
            verified_upload(submitter, open_release(), nodes=8, review_state="submitted"), "e" * 64
        )
        result = Result.objects.get(submission=entry)
        Finding.objects.create(
            submission=entry, result=result, code="nodes-mismatch", severity="warning", message="8 vs 10"
        )
        with django_capture_on_commit_callbacks(execute=True):
            system_description_edit(user=submitter, submission=entry, fields={"client_nodes": 10})
        assert not Finding.objects.filter(submission=entry, code="nodes-mismatch").exists()
        event = ReviewEvent.objects.get(submission=entry, action="recheck_system")
        assert "resolved nodes-mismatch" in event.reason
        with django_capture_on_commit_callbacks(execute=True):
            system_description_edit(user=submitter, submission=entry, fields={"client_nodes": 12})
        [again] = Finding.objects.filter(submission=entry, code="nodes-mismatch")
        assert "declares 12 client nodes" in again.message and "ran on 10" in again.message
        assert ReviewEvent.objects.filter(submission=entry, action="recheck_system").count() == 2
        assert entry.revisions.count() == 2

    def test_a_ten_node_error_fixed_in_the_description_makes_the_run_valid_again(
        self, submitter: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        entry = with_run(
            verified_upload(submitter, open_release(), nodes=8, ten_node=True, review_state="submitted"),
            "c" * 64,
        )
        with django_capture_on_commit_callbacks(execute=True):
            system_description_edit(user=submitter, submission=entry, fields={"client_nodes": 9})
        entry.refresh_from_db()
        assert entry.status == Submission.Status.INVALID and "declares 9" in entry.error
        with django_capture_on_commit_callbacks(execute=True):
            system_description_edit(user=submitter, submission=entry, fields={"client_nodes": 10})
        entry.refresh_from_db()
        assert (entry.status, entry.error, entry.valid) == (Submission.Status.VERIFIED, "", True)


class TestAssessAndCommentsApi:
    def test_the_committee_assesses_by_token_and_a_submitter_cannot(
        self, submitter: Any, committee_member: Any, api_client_for: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state="under_review")
        url = f"/api/v1/submissions/{entry.pk}/assess/"
        body = {"reproducibility": "fully_reproducible", "category": "production", "ten_node": False}
        assert api_client_for(submitter).post(url, body, format="json").status_code == 403
        answer = api_client_for(committee_member).post(url, body, format="json")
        assert answer.status_code == 200
        entry.refresh_from_db()
        assert (entry.reproducibility, entry.category, entry.ten_node) == (
            "fully_reproducible",
            "production",
            False,
        )
        assert api_client_for(committee_member).post(url, {"category": "x"}, format="json").status_code == 400
        entry.review_state = ReviewState.REJECTED
        entry.save()
        refused = api_client_for(committee_member).post(url, body, format="json")
        assert refused.status_code == 400 and "cannot be assessed" in refused.json()["detail"]

    def test_comments_by_token_between_the_submitter_and_the_committee_only(
        self, submitter: Any, other_submitter: Any, committee_member: Any, api_client_for: Any
    ) -> None:
        entry = verified_upload(submitter, open_release(), review_state="submitted")
        url = f"/api/v1/submissions/{entry.pk}/comments/"
        asked = api_client_for(committee_member).post(url, {"body": "Which Lustre version?"}, format="json")
        assert asked.status_code == 201 and asked.json()["author"] == committee_member.username
        reply = api_client_for(submitter).post(
            url, {"body": "2.15", "parent": asked.json()["id"]}, format="json"
        )
        assert reply.status_code == 201
        assert ReviewComment.objects.get(pk=reply.json()["id"]).parent_id == asked.json()["id"]
        listed_comments = api_client_for(submitter).get(url).json()
        assert [c["body"] for c in listed_comments] == ["Which Lustre version?", "2.15"]
        assert api_client_for(other_submitter).get(url).status_code in (403, 404)
        assert api_client_for(other_submitter).post(url, {"body": "hi"}, format="json").status_code in (
            403,
            404,
        )
        assert api_client_for(submitter).post(url, {"body": " "}, format="json").status_code == 400

    def test_the_schema_names_the_new_endpoints(self, committee_member: Any) -> None:
        schema = client_for(committee_member).get("/api/schema/").content.decode()
        for path in ("/assess/", "/comments/", "/decisions/{decision_pk}/revoke/"):
            assert path in schema
