"""The token API: upload, duplicates, visibility, the OpenAPI schema, the token command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse

from submissions.accounts.tokens import token_digest
from submissions.models import ApiToken, Submission
from tests.submissions.helpers import SYSTEM, published_score, real_tarball

pytestmark = pytest.mark.django_db

LIST_URL = "/api/v1/submissions/"


def _upload(client: Any, number: int = 33, **fields: Any) -> Any:
    return client.post(LIST_URL, {"archive": real_tarball(number), **fields}, format="multipart")


@pytest.fixture
def alice(api_client_for: Any, submitter: Any) -> Any:
    return api_client_for(submitter)


def test_an_upload_needs_an_account(api_client_for: Any) -> None:
    response = _upload(api_client_for(None))
    assert response.status_code == 401
    assert not Submission.objects.exists()


def test_an_upload_answers_202_with_id_status_and_url(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(alice, system=json.dumps(SYSTEM), ten_node="true")
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) == {"id", "status", "url", "page"}
    assert body["status"] == "received"
    assert body["url"] == f"http://testserver/api/v1/submissions/{body['id']}/"

    detail = alice.get(body["url"]).json()
    for key in (
        "id",
        "status",
        "progress",
        "score",
        "bw",
        "md",
        "valid",
        "findings",
        "error",
        "phases",
        "results",
    ):
        assert key in detail
    assert detail["status"] == "verified"
    assert detail["score"] == pytest.approx(published_score(33), abs=0.01)
    assert detail["system"]["client_nodes"] == 10
    assert detail["ten_node"] is True
    assert [p["name"] for p in detail["phases"]][:2] == ["ior-easy-write", "mdtest-easy-write"]
    assert detail["archive"]["sha256"] and detail["archive"]["download"].startswith("http://testserver/")


def test_the_same_bytes_again_answer_200_with_the_existing_submission(alice: Any) -> None:
    first = _upload(alice).json()
    again = _upload(alice)
    assert again.status_code == 200
    assert again.json()["id"] == first["id"]


def test_the_same_bytes_from_another_account_answer_409_revealing_nothing(
    alice: Any, api_client_for: Any, other_submitter: Any
) -> None:
    first = _upload(alice, system=json.dumps(SYSTEM)).json()
    response = _upload(api_client_for(other_submitter))
    assert response.status_code == 409
    text = response.content.decode()
    for secret in (f'"{first["id"]}"', "alice", "Wolf", "Intel"):
        assert secret not in text
    assert "another account" in response.json()["detail"]


def test_a_bad_system_description_is_refused_with_the_field_named(alice: Any) -> None:
    response = _upload(alice, system=json.dumps({"client_nodes": "many"}))
    assert response.status_code == 400
    assert "client_nodes" in response.json()["system"]
    assert not Submission.objects.exists()


def test_a_system_description_that_is_not_json_is_refused(alice: Any) -> None:
    response = _upload(alice, system="{nodes: 10")
    assert response.status_code == 400
    assert "system" in response.json()


def test_an_unknown_release_is_refused(alice: Any) -> None:
    response = _upload(alice, release="sc99")
    assert response.status_code == 400
    assert "release" in response.json()


def test_a_missing_archive_is_refused(alice: Any) -> None:
    response = alice.post(LIST_URL, {"system": json.dumps(SYSTEM)}, format="multipart")
    assert response.status_code == 400
    assert "archive" in response.json()


def test_someone_elses_upload_is_not_visible(alice: Any, api_client_for: Any, other_submitter: Any) -> None:
    created = _upload(alice).json()
    assert api_client_for(other_submitter).get(created["url"]).status_code == 404
    assert api_client_for(None).get(created["url"]).status_code == 404


def test_the_committee_sees_every_submission(alice: Any, api_client_for: Any, committee_member: Any) -> None:
    created = _upload(alice).json()
    assert api_client_for(committee_member).get(created["url"]).status_code == 200


def test_imported_history_is_public(api_client_for: Any) -> None:
    imported = Submission.objects.create(source=Submission.Source.IMPORT, io500_id=3, score=938.95)
    response = api_client_for(None).get(f"{LIST_URL}{imported.pk}/")
    assert response.status_code == 200
    assert response.json()["score"] == 938.95


def test_the_list_shows_only_your_own_submissions(
    alice: Any, api_client_for: Any, other_submitter: Any
) -> None:
    mine = _upload(alice).json()
    _upload(api_client_for(other_submitter), number=3)
    Submission.objects.create(source=Submission.Source.IMPORT, io500_id=6)
    listing = alice.get(LIST_URL).json()
    assert [row["id"] for row in listing["results"]] == [mine["id"]]
    assert listing["count"] == 1


def test_the_openapi_schema_generates_without_warnings_or_errors(tmp_path: Path) -> None:
    schema_file = tmp_path / "schema.yaml"
    # --fail-on-warn turns any drf-spectacular warning into an error; --validate checks OpenAPI 3.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema_file))
    schema = yaml.safe_load(schema_file.read_text())
    upload = schema["paths"]["/api/v1/submissions/"]["post"]
    assert {"200", "202", "400", "409"} <= set(upload["responses"])
    assert "multipart/form-data" in upload["requestBody"]["content"]


def test_the_schema_endpoint_serves_the_schema(client: Any) -> None:
    response = client.get(reverse("schema"))
    assert response.status_code == 200
    assert b"/api/v1/submissions/{id}/" in response.content


def test_create_api_token_creates_the_user_and_prints_the_token_last() -> None:
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", "dora", stdout=out, stderr=err)
    token = out.getvalue().strip().splitlines()[-1]
    stored = ApiToken.objects.get(user__username="dora")
    assert stored.digest == token_digest(token)
    out_again = io.StringIO()
    call_command("create_api_token", "dora", stdout=out_again, stderr=io.StringIO())
    # Stored hashed, the old token cannot be shown again: a new one replaces it.
    assert out_again.getvalue().strip().splitlines()[-1] != token
    assert ApiToken.objects.filter(user__username="dora").count() == 1


def test_a_token_from_the_command_authenticates_an_upload() -> None:
    from rest_framework.test import APIClient

    out = io.StringIO()
    call_command("create_api_token", "erin", stdout=out, stderr=io.StringIO())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().split()[-1]}")
    assert _upload(client).status_code == 202
