"""The OpenAPI schema (issue 28, item 4): complete (no warning, valid), with the new endpoints, and
served from a copy made once per process."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

from registry.core.api_docs import ApiSchemaView

pytestmark = pytest.mark.django_db


def test_the_schema_generates_without_a_warning_and_validates(tmp_path: Any) -> None:
    out = io.StringIO()
    # --fail-on-warn turns every drf-spectacular warning (an unresolvable serializer, a path
    # parameter without a type, a name collision) into a failure.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"), stdout=out
    )
    schema = yaml.safe_load((tmp_path / "schema.yaml").read_text())
    for path in (
        "/api/v1/",
        "/api/v1/lists/",
        "/api/v1/systems/",
        "/api/v1/systems/{id}/",
        "/api/v1/submissions/{id}/withdraw/",
        "/api/v1/submissions/{id}/questionnaire/",
        "/api/v1/submissions/{id}/submit/",
    ):
        assert path in schema["paths"], path
    assert set(schema["paths"]["/api/v1/submissions/{id}/questionnaire/"]) >= {"get", "put"}
    assert "/accounts/token/" in schema["info"]["description"] and "curl" in schema["info"]["description"]


def test_the_schema_is_made_once_per_process_and_format(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ApiSchemaView, "_rendered", {})
    made: list[str] = []
    real = ApiSchemaView._render

    def counted(self: ApiSchemaView, request: Any, version: Any) -> tuple[bytes, str]:
        made.append(request.accepted_media_type)
        return real(self, request, version)

    monkeypatch.setattr(ApiSchemaView, "_render", counted)
    first = client.get("/api/schema/")
    again = client.get("/api/schema/")
    as_json = client.get("/api/schema/?format=json")
    assert first.content == again.content and first["Content-Type"].startswith("application/vnd.oai.openapi")
    assert as_json.json()["openapi"].startswith("3.") and first["Content-Disposition"].startswith("inline")
    assert made == ["application/vnd.oai.openapi", "application/vnd.oai.openapi+json"]


def test_the_docs_page_links_the_token_page_the_api_root_and_the_site(client: Client) -> None:
    page = client.get("/api/docs/").content.decode()
    assert 'href="/accounts/token/"' in page and 'href="/api/v1/"' in page and 'href="/"' in page
    assert "create_api_token" not in page
