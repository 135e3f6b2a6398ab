"""/api/v1/: where an API client starts. Every endpoint (those with an id as URI templates, RFC 6570),
the OpenAPI schema, the docs, the token page and the site, so that a client needs nothing but this
address. Routes are named, never imported: registry.core knows no app."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# The submission's workflow steps, each at /api/v1/submissions/{id}/<step>/: (step, methods, what).
SUBMISSION_STEPS = (
    ("system", "PATCH", "fix the system description (each edit is a revision)"),
    ("questionnaire", "GET, PUT", "read or answer the questionnaire"),
    ("submit", "POST", "submit the verified upload for review"),
    ("withdraw", "POST", "withdraw it before publication"),
    ("revisions", "GET", "the edits of the description and questionnaire"),
    ("replace", "POST", "upload a new tarball in its place"),
    ("decisions", "GET, POST", "per-entry decisions (the submitter's withdrawal, the committee's)"),
    ("review", "POST", "the committee's decision"),
)


def _link(href: str, methods: str, description: str, *, auth: bool) -> dict[str, Any]:
    return {"href": href, "methods": methods, "description": description, "authentication": auth}


def api_root_links(request: Request) -> dict[str, Any]:
    absolute = request.build_absolute_uri
    submissions = absolute(reverse("submissions-api:submission-list"))
    systems = absolute(reverse("submissions-api:system-list"))
    lists = absolute(reverse("registry-api:list-index"))
    endpoints = {
        "submissions": _link(
            submissions, "GET, POST", "your submissions; POST uploads an archive", auth=True
        ),
        "submission": _link(
            submissions + "{id}/", "GET", "one submission: status, scores, findings", auth=False
        ),
        **{
            f"submission_{step}": _link(submissions + "{id}/" + step + "/", methods, what, auth=True)
            for step, methods, what in SUBMISSION_STEPS
        },
        "lists": _link(lists, "GET", "every list: release x kind, entry counts, provenance", auth=False),
        "list": _link(lists + "{release}/{kind}/", "GET", "one list with every column", auth=False),
        "lists_bulk": _link(
            absolute(reverse("frontend:bulk-download", kwargs={"fmt": "csv"})).replace(
                ".csv.gz", ".{fmt}.gz"
            ),
            "GET",
            "every public list in one gzip file, fmt csv or json",
            auth=False,
        ),
        "systems": _link(systems, "GET", "storage systems, ?q= searches", auth=False),
        "system": _link(systems + "{id}/", "GET", "one storage system and its submissions", auth=False),
        "claim_check": _link(
            absolute(reverse("registry-api:claim-check")) + "?claim={sentence}",
            "GET",
            "whether the published lists support a sentence quoting a result, and its citation",
            auth=False,
        ),
    }
    return {
        "name": "IO500 results registry API",
        "version": "v1",
        "authentication": (
            "Send 'Authorization: Token <token>' for your own submissions and every write; "
            f"get a token at {absolute(reverse('accounts:api-token'))}."
        ),
        "endpoints": endpoints,
        "schema": absolute(reverse("schema")),
        "docs": absolute(reverse("api-docs")),
        "token_page": absolute(reverse("accounts:api-token")),
        "site": absolute("/"),
    }


_LINK = inline_serializer(
    name="ApiLink",
    fields={
        "href": serializers.CharField(help_text="An address, or a URI template with {id}, {release}, ..."),
        "methods": serializers.CharField(),
        "description": serializers.CharField(),
        "authentication": serializers.BooleanField(help_text="A token is needed (or a log-in)."),
    },
)


class ApiRootView(APIView):
    """Every endpoint of the API, the schema, the docs and the token page."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="The API's entry point",
        responses=inline_serializer(
            name="ApiRoot",
            fields={
                "name": serializers.CharField(),
                "version": serializers.CharField(),
                "authentication": serializers.CharField(),
                "endpoints": serializers.DictField(child=_LINK),
                "schema": serializers.CharField(),
                "docs": serializers.CharField(),
                "token_page": serializers.CharField(),
                "site": serializers.CharField(),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(api_root_links(request))
