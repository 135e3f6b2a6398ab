"""The authorisation matrix of writes: who may edit, submit, decide, assess, publish and comment,
for {anonymous, submitter, other submitter, committee, admin}. The writes run against a fresh draft
(submitter side) or a submitted one. Who sees what: test_authorization.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from submissions.models import ReviewComment, ReviewState, Submission
from tests.submissions.review.helpers import PERSONAS, answers, client_for, open_release, verified_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def personas(
    submitter: User, other_submitter: User, committee_member: User, admin_user: User
) -> dict[str, Any]:
    return {
        "anonymous": None,
        "submitter": submitter,
        "other_submitter": other_submitter,
        "committee": committee_member,
        "admin": admin_user,
    }


def _expect_login(response: Any) -> None:
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_submitter_edits_the_questionnaire_of_a_draft(
    personas: dict[str, Any], persona: str
) -> None:
    draft = verified_upload(personas["submitter"], open_release())
    response = client_for(personas[persona]).post(f"/submissions/{draft.pk}/questionnaire/", answers())
    if persona == "anonymous":
        _expect_login(response)
    elif persona == "submitter":
        assert response.status_code == 302
    elif persona == "other_submitter":
        assert response.status_code == 404  # a draft of someone else does not exist for them
    else:
        assert response.status_code == 403
    assert hasattr(Submission.objects.get(pk=draft.pk), "questionnaire") == (persona == "submitter")


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_submitter_submits_a_draft(personas: dict[str, Any], persona: str) -> None:
    from submissions.review.services import questionnaire_record

    draft = verified_upload(personas["submitter"], open_release())
    questionnaire_record(user=personas["submitter"], submission=draft, answers=answers())
    confirmations = {"reviewed": "on", "followed_rules": "on", "permission_to_publish": "on"}
    response = client_for(personas[persona]).post(f"/submissions/{draft.pk}/submit/", confirmations)
    if persona == "anonymous":
        _expect_login(response)
    expected = ReviewState.SUBMITTED if persona == "submitter" else ReviewState.DRAFT
    assert Submission.objects.get(pk=draft.pk).review_state == expected


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_committee_decides_and_assesses(personas: dict[str, Any], persona: str) -> None:
    waiting = verified_upload(personas["submitter"], open_release(), review_state=ReviewState.SUBMITTED)
    client = client_for(personas[persona])
    decided = client.post(f"/review/{waiting.pk}/decide/", {"action": "accept"})
    assessed = client.post(
        f"/review/{waiting.pk}/assess/", {"reproducibility": "fully_reproducible", "category": "production"}
    )
    row = Submission.objects.get(pk=waiting.pk)
    if persona in ("committee", "admin"):
        assert (row.review_state, row.reproducibility, row.category) == (
            ReviewState.ACCEPTED,
            "fully_reproducible",
            "production",
        )
    else:
        for response in (decided, assessed):
            if persona == "anonymous":
                _expect_login(response)
            else:
                assert response.status_code == 403
        assert (row.review_state, row.reproducibility) == (ReviewState.SUBMITTED, "undefined")


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_committee_builds_and_publishes_lists(personas: dict[str, Any], persona: str) -> None:
    release = open_release()
    verified_upload(personas["submitter"], release, review_state=ReviewState.ACCEPTED)
    client = client_for(personas[persona])
    client.post(f"/review/releases/{release.slug}/build/", {"kind": "research"})
    # The release is still open: the committee confirms the early publish (tests/registry/lists/
    # test_publish_guards.py covers the confirm step).
    client.post(f"/review/releases/{release.slug}/lists/research/publish/", {"confirm_early": "yes"})
    published = release.snapshots.filter(kind="research", status="published").exists()
    assert published == (persona in ("committee", "admin"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_submitter_and_the_committee_comment(personas: dict[str, Any], persona: str) -> None:
    draft = verified_upload(personas["submitter"], open_release(), review_state=ReviewState.SUBMITTED)
    response = client_for(personas[persona]).post(
        f"/submissions/{draft.pk}/comments/", {"body": "Hello there"}
    )
    posted = ReviewComment.objects.filter(submission=draft).exists()
    assert posted == (persona in ("submitter", "committee", "admin"))
    if persona == "anonymous":
        _expect_login(response)
    elif persona == "other_submitter":
        assert response.status_code == 404
