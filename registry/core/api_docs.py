"""/api/docs/: Redoc served from our own static files (drf-spectacular-sidecar), never from a CDN.

A script from another origin runs with the registry's origin and its users' sessions; a pinned copy
shipped with a pinned package is the one we audited. Redoc injects its styles at run time and runs
its search in a worker made from a blob: URL, so this page alone gets a policy that allows those,
and still no script but our own file.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularRedocView
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
