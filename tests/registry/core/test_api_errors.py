"""Every error under /api/ is JSON (issue 28, item 4): unknown paths, wrong methods, missing or
refused credentials, rate limits, oversized bodies, server errors; pages elsewhere stay HTML."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import path

from registry import urls as root_urls
from registry.core.api_errors import api_exception_handler
from registry.core.ratelimit import too_many_response

pytestmark = pytest.mark.django_db


def json_error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    # The one field every API error has (some say more: "status", "fields", "unknown_fields").
    assert isinstance(body["detail"], str) and body["detail"]
    assert body.get("status", status) == status
    return dict(body)


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_path_is_a_json_404_never_the_resolver_page(
    client: Client, settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug  # DEBUG's technical 404 page ("Resolver404") is caught too
    for url in ("/api/", "/api/v1/nope/", "/api/v2/", "/api/v1/submissions/abc/"):
        body = json_error(client.get(url), 404)
        assert "/api/v1/" in body["detail"] and "Resolver404" not in str(body)


def test_outside_the_api_a_404_is_still_the_sites_page(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_wrong_method_is_a_json_405_with_allow(client: Client) -> None:
    response = client.delete("/api/v1/lists/")
    json_error(response, 405)
    assert "GET" in response["Allow"]


def test_no_token_is_a_json_401_and_a_bad_token_too(client: Client) -> None:
    json_error(client.get("/api/v1/submissions/"), 401)
    json_error(client.get("/api/v1/submissions/", headers={"Authorization": "Token io500_wrong"}), 401)


def test_another_users_step_is_a_json_403(api_client_for: Any, submitter: Any, other_submitter: Any) -> None:
    from tests.factories import make_submission

    theirs = make_submission(source="upload", submitter=other_submitter)
    # Their draft is not visible to this submitter: 404, and the committee's step is refused: 403.
    json_error(
        api_client_for(submitter).post(f"/api/v1/submissions/{theirs.pk}/withdraw/", {"reason": "x"}), 404
    )
    mine = make_submission(source="upload", submitter=submitter)
    response = api_client_for(submitter).post(
        f"/api/v1/submissions/{mine.pk}/review/", {"action": "accept"}, format="json"
    )
    json_error(response, 403)


def test_a_session_post_without_csrf_is_a_json_403(client: Client, submitter: Any) -> None:
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(submitter)
    json_error(csrf_client.post("/api/v1/submissions/1/withdraw/", {"reason": "because"}), 403)


def test_an_oversized_body_is_a_json_413_with_the_reason(client: Client, settings: Any) -> None:
    settings.MAX_REQUEST_BYTES = 1000
    response = client.post("/api/v1/submissions/", data=b"x" * 2000, content_type="application/octet-stream")
    assert "MiB" in json_error(response, 413)["detail"]


def test_a_rate_limit_is_a_json_429_with_its_reason_and_retry_after_and_a_page_elsewhere() -> None:
    factory = RequestFactory()
    response = too_many_response(factory.post("/api/v1/submissions/"), "Too many uploads.", 90)
    assert json_error(response, 429)["detail"] == "Too many uploads."
    assert response["Retry-After"] == "90"
    page = too_many_response(factory.post("/submissions/upload/"), "Too many uploads.", 90)
    assert page.status_code == 429 and page["Content-Type"].startswith("text/html")


def test_an_exception_in_an_api_view_is_a_json_500(settings: Any) -> None:
    def broken(request: Any) -> Any:
        raise RuntimeError("boom")

    settings.ROOT_URLCONF = type(
        "BrokenUrls",
        (),
        {
            "urlpatterns": [path("api/v1/broken/", broken), *root_urls.urlpatterns],
            "handler500": root_urls.handler500,
        },
    )
    client = Client(raise_request_exception=False)
    body = json_error(client.get("/api/v1/broken/"), 500)
    assert "boom" not in body["detail"]


def test_a_services_validation_error_is_a_json_400_naming_fields() -> None:
    from django.core.exceptions import ValidationError

    response = api_exception_handler(ValidationError({"reason": ["Say why."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data == {"detail": "Say why.", "status": 400, "fields": {"reason": ["Say why."]}}
