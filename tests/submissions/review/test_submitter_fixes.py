"""What a submitter can fix before acceptance (the system description and the questionnaire, as
versions the committee sees; the tarball, by a new upload that becomes the next version), withdrawing,
the "next step" a submitter is shown, where a login lands, and how decisions are styled and confirmed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.urls import reverse

from submissions.models import (
    Finding,
    ReviewEvent,
    ReviewState,
    Submission,
    SubmissionRevision,
)
from submissions.review.selectors import next_step, review_queue, submission_with_next_step_facts
from submissions.review.services import (
    questionnaire_record,
    submission_accept,
    submission_publish,
    submission_replace,
    submission_request_changes,
    submission_submit,
    submission_withdraw,
    system_description_edit,
)
from submissions.services import submission_create
from tests.conftest import PASSWORD
from tests.submissions.archives import pack_folder
from tests.submissions.helpers import SYSTEM
from tests.submissions.review.helpers import answers, client_for, open_release, verified_upload
from tests.support.data import submission_folder

pytestmark = pytest.mark.django_db

CONFIRMED: dict[str, Any] = {"reviewed": True, "followed_rules": True, "permission_to_publish": True}


@pytest.fixture
def draft(submitter: Any) -> Submission:
    submission = verified_upload(submitter, open_release())
    questionnaire_record(user=submitter, submission=submission, answers=answers())
    return submission


def submitted(submitter: Any, draft: Submission) -> Submission:
    return submission_submit(user=submitter, submission=draft, **CONFIRMED)


def step_of(submission: Submission) -> Any:
    return next_step(submission_with_next_step_facts(submission=submission))


class TestSystemDescriptionEdits:
    def test_each_edit_is_a_version_naming_who_and_the_fields_that_changed(
        self, submitter: Any, draft: Submission
    ) -> None:
        first = system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 12})
        second = system_description_edit(
            user=submitter, submission=draft, fields={"client_nodes": 10, "client_os": "RHEL 9"}
        )
        assert (first.number, second.number) == (1, 2)
        assert first.author == submitter and first.created_at is not None
        assert first.changes == [
            {"field": "client_nodes", "label": "Number of client nodes", "before": 10, "after": 12}
        ]
        assert [c["field"] for c in second.changes] == ["client_os", "client_nodes"]
        draft.system.refresh_from_db()
        assert (draft.system.client_nodes, draft.system.client_os) == (10, "RHEL 9")

    @pytest.mark.parametrize("nodes", [0, "many"])
    def test_a_value_is_checked_as_at_upload(self, submitter: Any, draft: Submission, nodes: object) -> None:
        with pytest.raises(ValidationError) as refused:
            system_description_edit(user=submitter, submission=draft, fields={"client_nodes": nodes})
        assert "client_nodes" in refused.value.message_dict
        assert not SubmissionRevision.objects.filter(kind="system").exists()

    def test_an_edit_that_changes_nothing_is_refused(self, submitter: Any, draft: Submission) -> None:
        with pytest.raises(ValidationError, match="Nothing changed"):
            system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 10})

    def test_a_new_system_name_moves_the_submission_to_that_storage_system(
        self, submitter: Any, draft: Submission
    ) -> None:
        before = draft.storage_system_id
        system_description_edit(
            user=submitter,
            submission=draft,
            fields={"system_name": "Wolf II", "institution_name": "Intel", "filesystem_type": "DAOS"},
        )
        draft.refresh_from_db()
        assert draft.storage_system_id != before
        assert draft.storage_system is not None and draft.storage_system.name == "Wolf II"

    def test_it_can_be_fixed_under_review_but_not_once_accepted(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 11})
        submission_accept(user=committee_member, submission=draft)
        with pytest.raises(ValidationError, match="can no longer be changed"):
            system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 12})

    def test_nobody_but_the_submitter_edits_it(
        self, other_submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        for user in (other_submitter, committee_member):
            with pytest.raises(PermissionDenied):
                system_description_edit(user=user, submission=draft, fields={"client_nodes": 12})

    def test_the_committee_sees_the_fix_of_the_node_count_it_asked_for(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submission_request_changes(
            user=committee_member, submission=submitted(submitter, draft), reason="Please fix the node count."
        )
        response = client_for(submitter).post(
            f"/submissions/{draft.pk}/system/", {"system_name": "Wolf", "client_nodes": "12"}
        )
        assert response.status_code == 302
        page = client_for(committee_member).get(f"/review/{draft.pk}/").content.decode()
        assert 'data-role="revision" data-kind="system"' in page
        assert 'data-field="client_nodes"' in page and "System description edited" in page


def test_the_queue_counts_the_edits_made_since_submission(
    submitter: Any, committee_member: Any, draft: Submission
) -> None:
    Finding.objects.create(submission=draft, code="c", severity="warning", message="Look at this.")
    Finding.objects.create(submission=draft, code="d", severity="warning", message="And at this.")
    system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 11})  # before
    submitted(submitter, draft)
    system_description_edit(user=submitter, submission=draft, fields={"client_nodes": 12})
    system_description_edit(user=submitter, submission=draft, fields={"client_os": "RHEL 9"})
    (row,) = review_queue()
    assert (getattr(row, "edits_since_submitted"), getattr(row, "warning_count")) == (2, 2)  # noqa: B009
    page = client_for(committee_member).get("/review/").content.decode()
    assert "2 edits since submitted" in page


class TestQuestionnaireVersions:
    def test_an_edit_after_submission_is_a_version_on_the_timeline(
        self, submitter: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        new = {**answers(), "trust": "We repeated the run three times and every one of them agreed closely."}
        questionnaire_record(user=submitter, submission=draft, answers=new)
        revision = SubmissionRevision.objects.get(submission=draft, kind="questionnaire", number=2)
        assert [c["field"] for c in revision.changes] == ["trust"]
        assert ReviewEvent.objects.filter(submission=draft, action="edit_questionnaire").exists()


class TestWithdraw:
    def test_the_submitter_withdraws_before_publication_with_a_reason(
        self, submitter: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        submission_withdraw(user=submitter, submission=draft, reason="We found a misconfigured client.")
        event = ReviewEvent.objects.get(submission=draft, action="withdraw")
        assert (event.to_state, event.reason) == (ReviewState.WITHDRAWN, "We found a misconfigured client.")

    def test_a_withdrawal_needs_a_reason(self, submitter: Any, draft: Submission) -> None:
        with pytest.raises(ValidationError, match="Say why"):
            submission_withdraw(user=submitter, submission=draft, reason="  ")

    def test_a_published_result_cannot_be_withdrawn_by_its_submitter(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submission_accept(user=committee_member, submission=submitted(submitter, draft))
        submission_publish(user=None, submission=draft, list_title="ISC40 Research")
        with pytest.raises(ValidationError, match="only a submission not yet published"):
            submission_withdraw(user=submitter, submission=draft, reason="Too late for this.")

    def test_only_the_submitter_withdraws(self, other_submitter: Any, draft: Submission) -> None:
        with pytest.raises(PermissionDenied):
            submission_withdraw(user=other_submitter, submission=draft, reason="Not mine to take.")

    def test_the_page_asks_for_confirmation_before_it_withdraws(
        self, submitter: Any, draft: Submission
    ) -> None:
        client = client_for(submitter)
        asked = client.post(f"/submissions/{draft.pk}/withdraw/", {"reason": "Wrong release."})
        assert asked.status_code == 200 and 'data-role="confirm"' in asked.content.decode()
        assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.DRAFT
        done = client.post(
            f"/submissions/{draft.pk}/withdraw/", {"reason": "Wrong release.", "confirmed": "on"}
        )
        assert done.status_code == 302
        assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.WITHDRAWN


class TestReplaceTarball:
    def test_a_new_upload_becomes_the_next_version_and_the_review_carries_over(
        self, submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any, tmp_path: Path
    ) -> None:
        release = open_release()
        folder = tmp_path / "submission-33"
        shutil.copytree(submission_folder(33), folder)
        with django_capture_on_commit_callbacks(execute=True):
            old, _ = submission_create(
                submitter=submitter,
                archive=ContentFile(pack_folder(folder), name="run.tgz"),
                original_name="run.tgz",
                system=SYSTEM,
                release=release,
            )
        questionnaire_record(user=submitter, submission=old, answers=answers())
        submission_request_changes(
            user=committee_member, submission=submitted(submitter, old), reason="Please fix the job script."
        )
        with django_capture_on_commit_callbacks(execute=True):
            new = submission_replace(
                user=submitter,
                submission=old,
                archive=ContentFile(pack_folder(folder, "bz2"), name="run-fixed.tar.bz2"),
                original_name="run-fixed.tar.bz2",
            )
        old.refresh_from_db()
        new.refresh_from_db()
        assert old.review_state == ReviewState.SUPERSEDED
        assert new.supersedes_id == old.pk and new.review_state == ReviewState.CHANGES_REQUESTED
        assert new.release_id == release.pk and new.status == Submission.Status.VERIFIED
        assert new.questionnaire.trust == old.questionnaire.trust
        assert (new.system.system_name, new.system.client_nodes) == ("Wolf", 10)
        assert old.archives.count() == 1  # the replaced upload is kept
        page = client_for(committee_member).get(f"/submissions/{new.pk}/").content.decode()
        assert "Please fix the job script." in page  # the old version's request, on the new timeline
        submission_submit(user=submitter, submission=new, **CONFIRMED)

    def test_the_replace_page_uploads_the_next_version_and_the_old_page_leads_to_it(
        self, submitter: Any, django_capture_on_commit_callbacks: Any, tmp_path: Path
    ) -> None:
        folder = tmp_path / "submission-33"
        shutil.copytree(submission_folder(33), folder)
        with django_capture_on_commit_callbacks(execute=True):
            old, _ = submission_create(
                submitter=submitter,
                archive=ContentFile(pack_folder(folder), name="run.tgz"),
                original_name="run.tgz",
                system=SYSTEM,
                release=open_release(),
            )
        client = client_for(submitter)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/submissions/{old.pk}/replace/",
                {"archive": ContentFile(pack_folder(folder, "xz"), name="run.tar.xz")},
            )
        new = Submission.objects.get(supersedes=old)
        assert response.status_code == 302 and response["Location"] == f"/submissions/{new.pk}/"
        old_page = client.get(f"/submissions/{old.pk}/").content.decode()
        assert "a new upload replaced this one" in old_page
        assert f'href="/submissions/{new.pk}/"' in old_page
        again = client.post(
            f"/submissions/{old.pk}/replace/", {"archive": ContentFile(b"other bytes", name="x.tgz")}
        )
        assert again.status_code == 400 and "can no longer be changed" in again.content.decode()

    def test_an_accepted_submission_keeps_its_tarball(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submission_accept(user=committee_member, submission=submitted(submitter, draft))
        with pytest.raises(ValidationError, match="can no longer be changed"):
            submission_replace(
                user=submitter,
                submission=draft,
                archive=ContentFile(b"x", name="x.tgz"),
                original_name="x.tgz",
            )


class TestNextStep:
    def test_a_run_being_verified_waits(self, submitter: Any) -> None:
        row = verified_upload(submitter, open_release())
        Submission.objects.filter(pk=row.pk).update(status=Submission.Status.PROCESSING)
        assert step_of(row).kind == "wait" and "verifying" in step_of(row).title

    def test_a_verified_draft_asks_for_the_questionnaire_then_for_submission(self, submitter: Any) -> None:
        row = verified_upload(submitter, open_release())
        assert "questionnaire" in step_of(row).title
        questionnaire_record(user=submitter, submission=row, answers=answers())
        step = step_of(row)
        assert step.title == "Submit for review." and step.actions[0].label == "Submit for review"

    def test_an_error_finding_is_named_as_what_to_fix(self, submitter: Any, draft: Submission) -> None:
        Finding.objects.create(
            submission=draft, code="system-nodes", severity="error", message="The run used 12 client nodes."
        )
        step = step_of(draft)
        assert step.kind == "act" and step.detail == "The run used 12 client nodes."

    def test_a_request_for_changes_is_quoted(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submission_request_changes(
            user=committee_member, submission=submitted(submitter, draft), reason="Please fix the node count."
        )
        step = step_of(draft)
        assert "Please fix the node count." in step.detail and "request" in step.title

    def test_under_review_waits_and_accepted_has_nothing_to_do(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        assert step_of(draft).kind == "wait"
        submission_accept(user=committee_member, submission=draft)
        assert step_of(draft).kind == "done" and step_of(draft).title.startswith("Nothing to do")

    def test_the_box_opens_the_submission_page_before_the_score(
        self, submitter: Any, draft: Submission
    ) -> None:
        page = client_for(submitter).get(f"/submissions/{draft.pk}/").content.decode()
        assert page.index('data-role="next-step"') < page.index("<h2>Score</h2>")
        assert page.index('data-role="submit-link"') < page.index("<h2>Score</h2>")

    def test_others_see_no_next_step(self, other_submitter: Any, draft: Submission) -> None:
        page = client_for(other_submitter).get(f"/submissions/{draft.pk}/").content.decode()
        assert 'data-role="next-step"' not in page


def test_my_submissions_shows_review_state_findings_and_next_step(submitter: Any, draft: Submission) -> None:
    Finding.objects.create(submission=draft, code="c", severity="warning", message="Look at this.")
    page = client_for(submitter).get("/submissions/mine/").content.decode()
    row = page[page.index(f'data-submission="{draft.pk}"') :]
    assert "Draft" in row and "1 warning" in row and "Submit for review." in row


class TestLanding:
    def test_the_committee_lands_on_the_review_queue(self, client: Any, committee_member: Any) -> None:
        response = client.post(
            reverse("login"), {"username": committee_member.username, "password": PASSWORD}, follow=True
        )
        assert response.redirect_chain[-1][0] == reverse("review:queue")
        assert 'data-nav="review"' in response.content.decode()

    def test_a_submitter_lands_on_their_submissions(self, client: Any, submitter: Any) -> None:
        response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True)
        assert response.redirect_chain[-1][0] == reverse("submissions:mine")


class TestDecisionButtons:
    def test_decisions_are_styled_by_consequence(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        page = client_for(committee_member).get(f"/review/{draft.pk}/").content.decode()
        assert 'data-action="accept" class="primary"' in page
        assert 'data-action="request_changes" class="neutral"' in page
        assert 'data-action="reject" class="destructive"' in page

    def test_a_rejection_is_taken_only_once_confirmed(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        client = client_for(committee_member)
        decision = {"action": "reject", "reason": "Not an IO500 run."}
        asked = client.post(f"/review/{draft.pk}/decide/", decision)
        assert asked.status_code == 200 and "Yes, reject" in asked.content.decode()
        assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.SUBMITTED
        client.post(f"/review/{draft.pk}/decide/", {**decision, "confirmed": "on"})
        assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.REJECTED

    def test_an_acceptance_needs_no_confirmation(
        self, submitter: Any, committee_member: Any, draft: Submission
    ) -> None:
        submitted(submitter, draft)
        client_for(committee_member).post(f"/review/{draft.pk}/decide/", {"action": "accept"})
        assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.ACCEPTED
