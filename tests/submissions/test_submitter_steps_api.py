"""The submitter's whole journey by token (issue 28, item 4): the API root names every step, the
questionnaire is read back (GET) before it is answered, and the submitter withdraws by its own
address; only the submitter may do either."""

from __future__ import annotations

from typing import Any

import pytest

from submissions.models import EntryDecision, ReviewState, Submission
from tests.submissions.review.helpers import answers, open_release, verified_upload

pytestmark = pytest.mark.django_db


def url(submission: Submission, step: str) -> str:
    return f"/api/v1/submissions/{submission.pk}/{step}/"


@pytest.fixture
def draft(submitter: Any) -> Submission:
    return verified_upload(submitter, open_release())


def test_the_root_links_every_endpoint_and_each_answers(
    client: Any, api_client_for: Any, submitter: Any, draft: Submission
) -> None:
    root = client.get("/api/v1/")
    assert root.status_code == 200 and root["Content-Type"].startswith("application/json")
    body = root.json()
    assert body["token_page"].endswith("/accounts/token/") and body["docs"].endswith("/api/docs/")
    assert body["schema"].endswith("/api/schema/") and body["site"].endswith("/")
    endpoints = body["endpoints"]
    for step in (
        "system",
        "questionnaire",
        "submit",
        "withdraw",
        "revisions",
        "replace",
        "decisions",
        "review",
    ):
        assert endpoints[f"submission_{step}"]["href"].endswith(f"/api/v1/submissions/{{id}}/{step}/")
    # Every address the root names answers something other than 404 (templates filled in).
    token_client = api_client_for(submitter)
    filled = {"{id}": str(draft.pk), "{release}": "isc40", "{kind}": "io500", "{fmt}": "csv"}
    for name, link in endpoints.items():
        href = link["href"].replace("http://testserver", "")
        for key, value in filled.items():
            href = href.replace(key, value)
        method = link["methods"].split(",")[0].strip().lower()
        response = getattr(token_client, method)(href, {}, format="json")
        if name in ("list", "system"):
            continue  # no such list or system in this database: 404 is the right answer there
        assert response.status_code != 404, (name, href, response.content[:200])
        assert response.status_code < 500, (name, href, response.content[:200])


def test_the_submitter_reads_the_questionnaire_then_answers_it(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    client = api_client_for(submitter)
    blank = client.get(url(draft, "questionnaire"))
    assert blank.status_code == 200 and set(blank.json()) == set(answers())
    assert all(value == "" for value in blank.json().values())
    assert client.put(url(draft, "questionnaire"), answers(), format="json").status_code == 200
    assert client.get(url(draft, "questionnaire")).json() == answers()


def test_no_one_else_reads_the_questionnaire(
    draft: Submission, other_submitter: Any, committee_member: Any, api_client_for: Any, client: Any
) -> None:
    assert client.get(url(draft, "questionnaire")).status_code == 401
    assert api_client_for(other_submitter).get(url(draft, "questionnaire")).status_code == 404
    assert api_client_for(committee_member).get(url(draft, "questionnaire")).status_code == 200


def test_the_submitter_withdraws_with_a_reason(
    draft: Submission, submitter: Any, api_client_for: Any
) -> None:
    client = api_client_for(submitter)
    refused = client.post(url(draft, "withdraw"), {"reason": ""}, format="json")
    assert refused.status_code == 400 and "reason" in refused.json()
    answer = client.post(url(draft, "withdraw"), {"reason": "A misconfigured run."}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["kind"] == EntryDecision.Kind.WITHDRAW
    draft.refresh_from_db()
    assert draft.review_state == ReviewState.WITHDRAWN
    again = client.post(url(draft, "withdraw"), {"reason": "Again."}, format="json")
    assert again.status_code == 400 and again.json()["detail"]


def test_the_committee_does_not_withdraw_a_submitters_draft(
    draft: Submission, committee_member: Any, api_client_for: Any
) -> None:
    answer = api_client_for(committee_member).post(url(draft, "withdraw"), {"reason": "No."}, format="json")
    assert answer.status_code == 403 and answer.json()["detail"]
    draft.refresh_from_db()
    assert draft.review_state == ReviewState.DRAFT
