"""The audit and objection API: the same services as the pages, and who reads what."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from submissions.audits.models import AuditRequest
from submissions.audits.services import audit_draw
from submissions.models import ReviewState, Submission
from tests.factories import add_phases, make_release, make_result, make_submission

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _draft_with_an_objectable_entry(submitter: Any, other_submitter: Any, year: int) -> tuple[Any, Any]:
    """ISC<year> with a production draft ranking one accepted run of `submitter`, and a run of
    `other_submitter` handed in for it (what entitles them to object): (the entry's run, the draft)."""
    from registry.models import ListEntry, ListSnapshot

    release = make_release(name=f"ISC{year}", slug=f"isc{year}", publication_date=dt.date(2000 + year, 6, 20),
                           list_kinds=["production"])  # fmt: skip
    entry = make_submission(source=Submission.Source.UPLOAD, submitter=submitter, release=release,
                            review_state=ReviewState.ACCEPTED)  # fmt: skip
    make_submission(source=Submission.Source.UPLOAD, submitter=other_submitter, release=release,
                    review_state=ReviewState.SUBMITTED)  # fmt: skip
    draft = ListSnapshot.objects.create(release=release, kind="production")
    ListEntry.objects.create(snapshot=draft, rank=1, submission=entry, score=1.0)
    return entry, draft


def test_objections_by_api_hold_the_publish_until_answered_and_stay_off_the_submission_record(
    submitter: Any, other_submitter: Any, committee_member: Any
) -> None:
    entry, _draft = _draft_with_an_objectable_entry(submitter, other_submitter, 41)
    filed = _client(other_submitter).post(
        "/api/v1/releases/isc41/objections/",
        {"kind": "production", "submission": entry.pk, "reason": "Faster than its network."},
        format="json",
    )
    assert filed.status_code == 201, filed.json()
    refused = _client(submitter).post(
        f"/api/v1/objections/{filed.json()['id']}/answer/", {"outcome": "upheld", "text": "x"}
    )
    assert refused.status_code == 403
    answered = _client(committee_member).post(
        f"/api/v1/objections/{filed.json()['id']}/answer/",
        {"outcome": "dismissed", "text": "The NICs are 400G."},
    )
    assert answered.status_code == 201
    seen = _client(submitter).get("/api/v1/releases/isc41/objections/").json()
    assert [row["answers"][0]["text"] for row in seen] == ["The NICs are 400G."]


def test_the_audit_record_is_in_the_submission_api_and_its_token_only_for_the_submitter(
    submitter: Any, other_submitter: Any
) -> None:
    release = make_release(name="ISC42", slug="isc42", publication_date=dt.date(2042, 6, 20),
                           submission_deadline=dt.date(2042, 6, 1))  # fmt: skip
    run = make_submission(source=Submission.Source.UPLOAD, submitter=submitter, release=release,
                          review_state=ReviewState.PUBLISHED)  # fmt: skip
    add_phases(make_result(submission=run, is_primary=True), {"ior-easy-write": 5.0})
    audit_draw(release=release, now=dt.datetime(2042, 6, 3, tzinfo=dt.UTC))
    audit = AuditRequest.objects.get()
    own = _client(submitter).get(f"/api/v1/submissions/{run.pk}/").json()["audits"]
    assert own[0]["phase"] == "ior-easy-write" and own[0]["run_token"] == audit.run_token.token
    public = APIClient().get(f"/api/v1/submissions/{run.pk}/").json()["audits"]
    assert public[0]["outcome"] == "pending" and public[0]["run_token"] is None
    assert _client(other_submitter).get("/api/v1/audits/").json() == []


def test_answering_and_revoking_by_api_refuse_a_missing_object_a_bad_form_and_a_stranger(
    submitter: Any, other_submitter: Any, committee_member: Any
) -> None:
    from submissions.audits.objections import objection_file

    entry, draft = _draft_with_an_objectable_entry(submitter, other_submitter, 43)
    objection = objection_file(
        user=other_submitter, snapshot=draft, submission_id=entry.pk, reason="Too fast."
    )
    committee = _client(committee_member)

    missing = committee.post("/api/v1/objections/999999/answer/", {"outcome": "upheld", "text": "x"})
    assert missing.json() == {"detail": "There is no objection 999999.", "status": 404}
    bad = committee.post(f"/api/v1/objections/{objection.pk}/answer/", {"outcome": "maybe", "text": "x"})
    # A serializer's refusal names its fields (DRF's shape, as in every /api/ form).
    assert bad.status_code == 400 and "outcome" in bad.json()
    answered = committee.post(
        f"/api/v1/objections/{objection.pk}/answer/", {"outcome": "upheld", "text": "Yes."}
    )
    assert answered.status_code == 201

    answer_id = answered.json()["id"]
    missing = committee.post("/api/v1/objection-answers/999999/revoke/", {"reason": "x"})
    assert missing.json() == {"detail": "There is no objection answer 999999.", "status": 404}
    stranger = _client(submitter).post(f"/api/v1/objection-answers/{answer_id}/revoke/", {"reason": "No."})
    assert stranger.status_code == 403 and stranger.json()["status"] == 403
    revoked = committee.post(f"/api/v1/objection-answers/{answer_id}/revoke/", {"reason": "Wrong list."})
    assert revoked.status_code == 200 and revoked.json()["id"] == answer_id
