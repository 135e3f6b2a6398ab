"""The review workflow by token (issue 25 item 6 and the committee's decisions): the submitter
submits, fixes the description and the questionnaire, replaces the tarball; the committee starts the
review, accepts, requests changes or rejects. Each through the service the pages use, refusals as
JSON saying why."""

from __future__ import annotations

import json
from typing import Any

import pytest

from submissions.models import ReviewState, Submission, SubmissionRevision
from submissions.review.services import questionnaire_record
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.submissions.review.helpers import answers, open_release, verified_upload

pytestmark = pytest.mark.django_db

CONFIRMED = {"reviewed": True, "followed_rules": True, "permission_to_publish": True}


def url(submission: Submission, step: str) -> str:
    return f"/api/v1/submissions/{submission.pk}/{step}/"


@pytest.fixture
def draft(submitter: Any) -> Submission:
    submission = verified_upload(submitter, open_release())
    questionnaire_record(user=submitter, submission=submission, answers=answers())
    return submission


def test_the_submitter_submits_by_token_and_the_committee_accepts(
    draft: Submission, submitter: Any, committee_member: Any, api_client_for: Any
) -> None:
    answer = api_client_for(submitter).post(url(draft, "submit"), CONFIRMED, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["review_state"] == ReviewState.SUBMITTED
    answer = api_client_for(committee_member).post(url(draft, "review"), {"action": "accept"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["review_state"] == ReviewState.ACCEPTED
    draft.refresh_from_db()
    assert draft.review_state == ReviewState.ACCEPTED


def test_a_submit_without_the_confirmations_is_refused_naming_them(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    answer = api_client_for(submitter).post(
        url(draft, "submit"), {**CONFIRMED, "permission_to_publish": False}, format="json"
    )
    assert answer.status_code == 400
    assert "permission to publish" in answer.json()["detail"]
    draft.refresh_from_db()
    assert draft.review_state == ReviewState.DRAFT


def test_a_submitter_cannot_accept_their_own_submission(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    client = api_client_for(submitter)
    client.post(url(draft, "submit"), CONFIRMED, format="json")
    answer = client.post(url(draft, "review"), {"action": "accept"}, format="json")
    assert answer.status_code == 403
    # The shape of every error under /api/ (registry.core.api_errors), refusals of a service too.
    assert answer.json() == {"detail": "Only the IO500 committee can take this decision.", "status": 403}


def test_requesting_changes_without_a_reason_is_refused(
    draft: Submission, submitter: Any, committee_member: Any, api_client_for: Any
) -> None:
    api_client_for(submitter).post(url(draft, "submit"), CONFIRMED, format="json")
    committee = api_client_for(committee_member)
    answer = committee.post(url(draft, "review"), {"action": "request_changes"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("Say why")
    answer = committee.post(
        url(draft, "review"), {"action": "reject", "reason": "not an IO500 run"}, format="json"
    )
    assert answer.json()["review_state"] == ReviewState.REJECTED


def test_the_submitter_fixes_the_description_by_token_and_the_version_names_the_change(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    client = api_client_for(submitter)
    answer = client.patch(url(draft, "system"), {"client_nodes": 12}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["number"] == 1 and body["author"] == "alice"
    assert body["changes"] == [
        {"field": "client_nodes", "label": "Number of client nodes", "before": 10, "after": 12}
    ]
    revisions = client.get(url(draft, "revisions")).json()
    assert [(row["kind"], row["number"]) for row in revisions] == [("questionnaire", 1), ("system", 1)]


def test_a_description_edit_after_acceptance_is_refused_with_the_reason(
    draft: Submission, submitter: Any, committee_member: Any, api_client_for: Any
) -> None:
    client = api_client_for(submitter)
    client.post(url(draft, "submit"), CONFIRMED, format="json")
    api_client_for(committee_member).post(url(draft, "review"), {"action": "accept"}, format="json")
    answer = client.patch(url(draft, "system"), {"client_nodes": 12}, format="json")
    assert answer.status_code == 400
    assert "accepted, so it can no longer be changed" in answer.json()["detail"]
    assert not SubmissionRevision.objects.filter(submission=draft, kind="system").exists()


def test_a_description_edit_naming_no_field_of_the_description_is_refused(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    answer = api_client_for(submitter).patch(url(draft, "system"), {"nodes": 12}, format="json")
    assert answer.status_code == 400
    assert answer.json()["unknown_fields"] == ["nodes"]


@pytest.mark.parametrize("body", ["null", "[]", "12", '"client_nodes"'])
@pytest.mark.parametrize(("step", "method"), [("system", "patch"), ("questionnaire", "put")])
def test_a_body_that_is_no_json_object_is_refused_with_the_fields_named(
    draft: Submission, submitter: Any, api_client_for: Any, step: str, method: str, body: str
) -> None:
    # Found by the API fuzz once its bodies reached the submitter's own draft: `null` was a 500.
    send = getattr(api_client_for(submitter), method)
    answer = send(url(draft, step), body, content_type="application/json")
    assert answer.status_code == 400
    assert "must be a JSON object of fields" in answer.json()["detail"]


def test_another_account_cannot_edit_the_description(
    draft: Submission, other_submitter: Any, api_client_for: Any
) -> None:
    answer = api_client_for(other_submitter).patch(url(draft, "system"), {"client_nodes": 12}, format="json")
    assert answer.status_code in (403, 404)
    assert not SubmissionRevision.objects.filter(submission=draft, kind="system").exists()


def test_a_changed_questionnaire_answer_is_a_new_version(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    given = {**answers(), "system_purpose": " ".join(["benchmark"] * 12)}
    answer = api_client_for(submitter).put(url(draft, "questionnaire"), given, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["system_purpose"] == given["system_purpose"]
    revision = SubmissionRevision.objects.get(submission=draft, kind="questionnaire", number=2)
    assert [change["field"] for change in revision.changes] == ["system_purpose"]


def test_a_short_questionnaire_answer_is_refused_by_field(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    answer = api_client_for(submitter).put(
        url(draft, "questionnaire"), {**answers(), "system_purpose": "a bench"}, format="json"
    )
    assert answer.status_code == 400
    assert "system_purpose" in answer.json()["fields"]


def test_a_replaced_tarball_is_the_next_version_and_the_review_carries_over(
    submitter: Any, api_client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = api_client_for(submitter)
    release = open_release()
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(
            "/api/v1/submissions/",
            {"archive": real_tarball(33), "system": json.dumps(SYSTEM), "release": release.slug},
            format="multipart",
        ).json()
    old = Submission.objects.get(pk=first["id"])
    questionnaire_record(user=submitter, submission=old, answers=answers())
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url(old, "replace"), {"archive": real_tarball(102)}, format="multipart")
    assert answer.status_code == 202, answer.content
    new = Submission.objects.get(pk=answer.json()["id"])
    old.refresh_from_db()
    assert new.supersedes_id == old.pk and old.review_state == ReviewState.SUPERSEDED
    assert new.release_id == release.pk and new.status == Submission.Status.VERIFIED
    again = client.post(url(old, "replace"), {"archive": real_tarball(111)}, format="multipart")
    assert again.status_code == 400
    assert "superseded" in again.json()["detail"]


def test_the_committee_accepts_a_named_evidence_gap_by_token_and_a_wrong_name_is_refused(
    submitter: Any,
    committee_member: Any,
    api_client_for: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # submission-102 of the corpus: some of its scored phases are backed by summaries only.
    release = open_release()
    client = api_client_for(submitter)
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            "/api/v1/submissions/",
            {"archive": real_tarball(102), "system": json.dumps(SYSTEM), "release": release.slug},
            format="multipart",
        ).json()
    row = Submission.objects.get(pk=created["id"])
    questionnaire_record(user=submitter, submission=row, answers=answers())
    client.post(url(row, "submit"), CONFIRMED, format="json")
    gap = client.get(f"/api/v1/submissions/{row.pk}/").json()["evidence_basis"]["summary_only_phases"]
    assert gap
    committee = api_client_for(committee_member)
    wrong = committee.post(
        url(row, "review"), {"action": "accept", "gap_phases": ["ior-hard-read"]}, format="json"
    )
    assert wrong.status_code == 400 and "The evidence changed" in wrong.json()["detail"]
    misplaced = committee.post(
        url(row, "review"), {"action": "reject", "reason": "x", "gap_phases": gap}, format="json"
    )
    assert misplaced.status_code == 400 and "accept only" in misplaced.json()["detail"]
    answer = committee.post(url(row, "review"), {"action": "accept", "gap_phases": gap}, format="json")
    assert answer.status_code == 200, answer.content
    detail = client.get(f"/api/v1/submissions/{row.pk}/").json()
    assert detail["review_state"] == ReviewState.ACCEPTED and detail["evidence_basis"]["gap_accepted"] is True


@pytest.mark.parametrize(
    "step", ["submit", "review", "system", "questionnaire", "revisions", "replace", "decisions"]
)
def test_asking_what_a_workflow_endpoint_accepts_never_fails_on_our_side(
    draft: Submission, submitter: Any, api_client_for: Any, step: str
) -> None:
    # The API fuzzer found OPTIONS on questionnaire/ answering 500 (no queryset to describe PUT with).
    for pk in (draft.pk, 0):
        answer = api_client_for(submitter).options(f"/api/v1/submissions/{pk}/{step}/")
        assert answer.status_code < 500, (step, pk, answer.content)
