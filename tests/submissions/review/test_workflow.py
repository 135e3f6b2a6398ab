"""Every transition of the review workflow, who may take it, what it records and whom it tells."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from submissions.models import ListCategory, Reproducibility, ReviewEvent, ReviewState, Submission
from submissions.review.services import (
    comment_add,
    questionnaire_record,
    submission_accept,
    submission_assess,
    submission_publication_name_set,
    submission_publish,
    submission_reject,
    submission_request_changes,
    submission_review_start,
    submission_submit,
)
from tests.submissions.review.helpers import answers, open_release, verified_upload

pytestmark = pytest.mark.django_db

CONFIRMED: dict[str, Any] = {"reviewed": True, "followed_rules": True, "permission_to_publish": True}


@pytest.fixture
def draft(submitter: Any) -> Submission:
    submission = verified_upload(submitter, open_release())
    questionnaire_record(user=submitter, submission=submission, answers=answers())
    return submission


def submitted(submitter: Any, draft: Submission) -> Submission:
    return submission_submit(user=submitter, submission=draft, **CONFIRMED)


def state(submission: Submission) -> str:
    return Submission.objects.get(pk=submission.pk).review_state


class TestSubmit:
    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_the_submitter_submits_a_complete_draft_with_the_three_confirmations(
        self, submitter: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        result = submitted(submitter, draft)
        assert result.review_state == ReviewState.SUBMITTED
        assert result.submitted_at is not None
        event = ReviewEvent.objects.get(submission=draft)
        assert (event.actor, event.action, event.from_state, event.to_state) == (
            submitter,
            "submit",
            "draft",
            "submitted",
        )
        assert [m.to for m in mailoutbox] == [["alice@example.org"]]
        assert "submitted for review" in mailoutbox[0].subject

    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_the_committee_hears_of_a_new_submission(
        self, submitter: Any, committee_member: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        submitted(submitter, draft)
        committee_mail = [m for m in mailoutbox if m.to == ["carol@example.org"]]
        assert len(committee_mail) == 1
        assert f"/review/{draft.pk}/" in committee_mail[0].body

    @pytest.mark.parametrize("missing", ["reviewed", "followed_rules", "permission_to_publish"])
    def test_it_refuses_a_submission_without_each_confirmation(
        self, submitter: Any, draft: Submission, missing: str
    ) -> None:
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=draft, **{**CONFIRMED, missing: False})
        assert "Confirm" in refused.value.messages[0]
        assert state(draft) == ReviewState.DRAFT

    def test_it_refuses_a_submission_without_the_questionnaire(self, submitter: Any) -> None:
        bare = verified_upload(submitter, open_release())
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=bare, **CONFIRMED)
        assert "Fill in the reproducibility questionnaire." in refused.value.messages
        assert state(bare) == ReviewState.DRAFT

    @pytest.mark.parametrize(
        ("status", "words"),
        [
            (Submission.Status.PROCESSING, "still being checked"),
            (Submission.Status.INVALID, "not valid under the IO500 rules"),
            (Submission.Status.REJECTED, "could not be verified"),
        ],
    )
    def test_it_refuses_a_result_that_is_not_verified(
        self, submitter: Any, draft: Submission, status: str, words: str
    ) -> None:
        Submission.objects.filter(pk=draft.pk).update(status=status)
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=draft, **CONFIRMED)
        assert any(words in message for message in refused.value.messages)

    def test_it_refuses_a_submission_without_a_release_or_a_system(self, submitter: Any) -> None:
        bare = verified_upload(submitter, None)
        Submission.objects.filter(pk=bare.pk).update(storage_system=None)
        questionnaire_record(user=submitter, submission=bare, answers=answers())
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=bare, **CONFIRMED)
        text = " ".join(refused.value.messages)
        assert "Choose the list release" in text and "Describe the system first" in text

    def test_it_refuses_a_release_whose_deadline_passed(self, submitter: Any, draft: Submission) -> None:
        closed = open_release("ISC39", submission_deadline=draft.created_at.date().replace(year=2020))
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=draft, release=closed, **CONFIRMED)
        assert "closed on 2020-" in refused.value.messages[0]

    def test_another_submitter_cannot_submit_it(self, other_submitter: Any, draft: Submission) -> None:
        with pytest.raises(PermissionDenied):
            submission_submit(user=other_submitter, submission=draft, **CONFIRMED)
        assert state(draft) == ReviewState.DRAFT

    def test_the_committee_cannot_submit_on_the_submitters_behalf(
        self, committee_member: Any, draft: Submission
    ) -> None:
        with pytest.raises(PermissionDenied):
            submission_submit(user=committee_member, submission=draft, **CONFIRMED)

    def test_it_cannot_be_submitted_twice(self, submitter: Any, draft: Submission) -> None:
        submitted(submitter, draft)
        with pytest.raises(ValidationError) as refused:
            submission_submit(user=submitter, submission=draft, **CONFIRMED)
        assert "only a draft or a submission with changes requested" in refused.value.messages[0]


class TestSubmitterEdits:
    def test_the_submitter_edits_the_questionnaire_and_name_choice_of_a_draft(
        self, submitter: Any, draft: Submission
    ) -> None:
        questionnaire_record(user=submitter, submission=draft, answers=answers(words=20))
        submission_publication_name_set(user=submitter, submission=draft, anonymous=True)
        draft.refresh_from_db()
        assert draft.anonymous is True
        assert draft.questionnaire.system_purpose.count("-word") == 20

    def test_an_accepted_submission_can_no_longer_be_edited(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submission_accept(user=committee_member, submission=submitted(submitter, draft))
        with pytest.raises(ValidationError) as refused:
            questionnaire_record(user=submitter, submission=draft, answers=answers(words=30))
        assert "can no longer be changed" in refused.value.messages[0]

    def test_a_submitted_submission_keeps_its_publication_name(
        self, submitter: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        with pytest.raises(ValidationError):
            submission_publication_name_set(user=submitter, submission=draft, anonymous=True)

    def test_nobody_else_edits_a_draft(
        self, other_submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        for user in (other_submitter, committee_member):
            with pytest.raises(PermissionDenied):
                questionnaire_record(user=user, submission=draft, answers=answers())


class TestCommitteeDecisions:
    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_start_review_then_accept(
        self, submitter: Any, committee_member: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        submitted(submitter, draft)
        submission_review_start(user=committee_member, submission=draft)
        accepted = submission_accept(user=committee_member, submission=draft, reason="All good.")
        assert accepted.review_state == ReviewState.ACCEPTED
        actions = list(ReviewEvent.objects.filter(submission=draft).values_list("action", "actor__username"))
        assert actions == [("submit", "alice"), ("start_review", "carol"), ("accept", "carol")]
        accept_mail = [m for m in mailoutbox if "accepted" in m.subject]
        assert accept_mail and accept_mail[0].to == ["alice@example.org"]
        assert "All good." in accept_mail[0].body

    def test_the_audit_trail_is_also_on_the_history_rows(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        submission_reject(user=committee_member, submission=draft, reason="Dry run, not a benchmark.")
        newest = draft.history.order_by("-history_date", "-history_id").first()
        assert newest is not None
        assert newest.history_change_reason == "reject: Dry run, not a benchmark."
        assert newest.history_user == committee_member
        assert newest.review_state == ReviewState.REJECTED

    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_requesting_changes_needs_a_reason_and_reopens_the_submission_for_the_submitter(
        self, submitter: Any, committee_member: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        submitted(submitter, draft)
        with pytest.raises(ValidationError) as refused:
            submission_request_changes(user=committee_member, submission=draft, reason="  ")
        assert refused.value.messages[0].startswith("Say why")
        submission_request_changes(user=committee_member, submission=draft, reason="Describe the caching.")
        assert state(draft) == ReviewState.CHANGES_REQUESTED
        assert "Describe the caching." in mailoutbox[-1].body
        questionnaire_record(user=submitter, submission=draft, answers=answers(words=15))
        again = submitted(submitter, draft)
        assert again.review_state == ReviewState.SUBMITTED

    def test_rejecting_needs_a_reason_and_is_final(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        with pytest.raises(ValidationError):
            submission_reject(user=committee_member, submission=draft, reason="")
        submission_reject(user=committee_member, submission=draft, reason="Runs were edited.")
        for decide in (submission_accept, submission_review_start):
            with pytest.raises(ValidationError):
                decide(user=committee_member, submission=draft)
        with pytest.raises(ValidationError):
            submission_submit(user=submitter, submission=draft, **CONFIRMED)
        assert state(draft) == ReviewState.REJECTED

    def test_a_draft_cannot_be_decided_on(self, committee_member: Any, draft: Submission) -> None:
        with pytest.raises(ValidationError) as refused:
            submission_accept(user=committee_member, submission=draft)
        assert "draft" in refused.value.messages[0]
        with pytest.raises(ValidationError):
            submission_review_start(user=committee_member, submission=draft)

    def test_submitters_cannot_decide(self, submitter: Any, other_submitter: Any, draft: Submission) -> None:
        submitted(submitter, draft)
        for user in (submitter, other_submitter):
            for decide in (submission_review_start, submission_accept):
                with pytest.raises(PermissionDenied):
                    decide(user=user, submission=draft)
            with pytest.raises(PermissionDenied):
                submission_reject(user=user, submission=draft, reason="mine")
            with pytest.raises(PermissionDenied):
                submission_assess(
                    user=user,
                    submission=draft,
                    reproducibility=Reproducibility.FULLY,
                    category=ListCategory.PRODUCTION,
                )
        assert state(draft) == ReviewState.SUBMITTED

    def test_an_admin_may_decide(self, submitter: Any, admin_user: Any, draft: Submission) -> None:
        submitted(submitter, draft)
        assert submission_accept(user=admin_user, submission=draft).review_state == ReviewState.ACCEPTED

    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_the_committee_assesses_level_and_category_and_the_submitter_is_told(
        self, submitter: Any, committee_member: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        submitted(submitter, draft)
        assessed = submission_assess(
            user=committee_member,
            submission=draft,
            reproducibility=Reproducibility.FULLY,
            category=ListCategory.PRODUCTION,
            reason="Open-source Lustre, redundant servers.",
        )
        assert (assessed.reproducibility, assessed.category) == ("fully_reproducible", "production")
        event = ReviewEvent.objects.filter(action="assess").get()
        assert event.reason == "Fully Reproducible, Production. Open-source Lustre, redundant servers."
        assert "Reproducibility: Fully Reproducible" in mailoutbox[-1].body

    def test_a_draft_cannot_be_assessed_and_unknown_levels_are_refused(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        with pytest.raises(ValidationError):
            submission_assess(
                user=committee_member,
                submission=draft,
                reproducibility="fully_reproducible",
                category="production",
            )
        submitted(submitter, draft)
        with pytest.raises(ValidationError) as refused:
            submission_assess(
                user=committee_member, submission=draft, reproducibility="great", category="research"
            )
        assert '"great" is not a reproducibility level.' in refused.value.messages

    def test_only_an_accepted_submission_is_published(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        with pytest.raises(ValidationError):
            submission_publish(user=committee_member, submission=draft, list_title="ISC40 Production")
        submission_accept(user=committee_member, submission=draft)
        published = submission_publish(user=committee_member, submission=draft, list_title="ISC40 Production")
        assert published.review_state == ReviewState.PUBLISHED
        assert ReviewEvent.objects.get(action="publish").reason == "Published on the ISC40 Production list."


class TestComments:
    @pytest.mark.django_db(transaction=True)  # e-mails leave when the decision commits
    def test_submitter_and_committee_discuss_in_threads(
        self, submitter: Any, committee_member: Any, draft: Submission, mailoutbox: list[Any]
    ) -> None:
        question = comment_add(user=committee_member, submission=draft, body="Which Lustre version?")
        reply = comment_add(user=submitter, submission=draft, body="2.15.3", parent_id=question.pk)
        assert reply.parent == question
        assert mailoutbox[-1].to == ["alice@example.org"] and "Which Lustre version?" in mailoutbox[-1].body

    def test_other_submitters_cannot_comment_and_empty_comments_are_refused(
        self, submitter: Any, other_submitter: Any, draft: Submission
    ) -> None:
        with pytest.raises(PermissionDenied):
            comment_add(user=other_submitter, submission=draft, body="Nice run")
        with pytest.raises(ValidationError):
            comment_add(user=submitter, submission=draft, body="   ")

    def test_a_reply_must_answer_a_comment_of_the_same_submission(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        elsewhere = verified_upload(submitter, None)
        foreign = comment_add(user=committee_member, submission=elsewhere, body="Elsewhere")
        with pytest.raises(ValidationError):
            comment_add(user=submitter, submission=draft, body="Answer", parent_id=foreign.pk)
