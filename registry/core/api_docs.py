"""/api/docs/: Redoc served from our own static files (drf-spectacular-sidecar), never from a CDN.

A script from another origin runs with the registry's origin and its users' sessions; a pinned copy
shipped with a pinned package is the one we audited. Redoc injects its styles at run time and runs
its search in a worker made from a blob: URL, so this page alone gets a policy that allows those,
and still no script but our own file.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import HttpResponse
from django.utils.translation import get_language
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.request import Request
from rest_framework.response import Response

from registry.core.security_headers import CONTENT_SECURITY_POLICY

API_DOCS_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
API_DOCS_POLICY += "; worker-src blob:"


class ApiDocsView(SpectacularRedocView):
    # drf-spectacular's own template also loads Google Fonts and has an inline style.
    template_name = "frontend/api_docs.html"

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = API_DOCS_POLICY
        return response


class ApiSchemaView(SpectacularAPIView):
    """/api/schema/: the OpenAPI schema, generated and rendered once per process, language and format.

    Generating it walks every view and serializer, and rendering it as YAML takes as long again
    (together about a second); it changes only with the code, and it is the same for everyone
    (SERVE_PUBLIC), so each process keeps the bytes it made.
    """

    _rendered: ClassVar[dict[tuple[str, str, str], tuple[bytes, str]]] = {}

    def _get_schema_response(self, request: Request) -> HttpResponse:
        version = self.api_version or request.version or self._get_version_parameter(request)  # type: ignore[no-untyped-call]
        media_type = request.accepted_media_type
        key = (str(version or ""), get_language() or "", media_type)
        if key not in self._rendered:
            self._rendered[key] = self._render(request, version)
        content, content_type = self._rendered[key]
        filename = self._get_filename(request, version)  # type: ignore[no-untyped-call]
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response

    def _render(self, request: Request, version: Any) -> tuple[bytes, str]:
        generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
        schema = generator.get_schema(request=request, public=self.serve_public)  # type: ignore[no-untyped-call]
        renderer = request.accepted_renderer
        media_type = request.accepted_media_type
        content = renderer.render(schema, media_type, self.get_renderer_context())
        return content.encode() if isinstance(
            content, str
        ) else content, f"{media_type}; charset={renderer.charset}" if renderer.charset else media_type
