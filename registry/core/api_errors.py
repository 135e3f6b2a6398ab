"""Every error under /api/ answers JSON: `{"detail": "...", "status": 404}`.

An API client reads the body it gets; an HTML page (Django's "Resolver404" in DEBUG, the 404 page,
the CSRF failure page, a 413 or 429 page of the rate limits) is noise to it and hides the reason.
Three pieces, each for what reaches it:
- DRF's exception handler (`api_exception_handler`) for what an API view raises: DRF's own answers,
  plus a Django ValidationError of a service as 400 (the services raise those, not DRF's);
- the error handlers of the root URLconf (`page_not_found`, `permission_denied`, `bad_request`; the
  500 one is `registry.core.errors.server_error`) for what no view answers: an unknown path, an
  exception outside DRF;
- `ApiJsonErrorsMiddleware`, the net under both: any error answer under /api/ that is still not
  JSON (the CSRF failure page, a Django view's 405) becomes JSON with its status and headers
  (Retry-After, Allow) kept. The rate limits answer JSON under /api/ themselves, with their reason.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views import defaults
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler

API_PREFIX = "/api/"
API_ROOT = "/api/v1/"

# Headers of an error page that still say something to a client once the body is JSON.
_KEPT_HEADERS = ("Retry-After", "Allow", "WWW-Authenticate", "Cache-Control", "Vary")

_MESSAGES = {
    400: "The request is malformed.",
    401: "Authentication is required: send 'Authorization: Token <your token>'.",
    403: "You may not do this.",
    404: f"There is no API endpoint at this address; {API_ROOT} lists every endpoint.",
    405: "This method is not allowed here; the Allow header names those that are.",
    413: "The request body is too large.",
    429: "Too many requests; ask again after the Retry-After header's seconds.",
    500: "Something went wrong on our side. The administrators have been told; please try again later.",
}


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIX)


def api_error(status_code: int, detail: str | None = None) -> JsonResponse:
    """The one shape of an API error."""
    fallback = _MESSAGES.get(status_code) or HTTPStatus(status_code).phrase
    return JsonResponse({"detail": detail or fallback, "status": status_code}, status=status_code)


def _is_json(response: HttpResponseBase) -> bool:
    content_type = response.get("Content-Type", "")
    return content_type.startswith("application/json") or content_type.startswith("application/problem+json")


class ApiJsonErrorsMiddleware:
    """Outermost but one (after SecurityMiddleware): it sees the error answers of every middleware
    below it, the rate limits' 413 and 429 and the CSRF check's 403 included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.status_code < 400 or not is_api_path(request.path) or _is_json(response):
            return response
        replaced = api_error(response.status_code)
        for header in _KEPT_HEADERS:
            if header in response:
                replaced[header] = response[header]
        return replaced


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus a service's Django ValidationError as 400 with its messages (per field
    when it named fields). Anything else unhandled goes on to handler500, which answers JSON too."""
    if isinstance(exc, DjangoValidationError):
        body: dict[str, Any] = {"detail": " ".join(exc.messages), "status": 400}
        if hasattr(exc, "error_dict"):
            body["fields"] = exc.message_dict
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data["status"] = response.status_code
    return response


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: JSON under /api/, the site's 404 page elsewhere."""
    if is_api_path(request.path):
        return api_error(404)
    return defaults.page_not_found(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_path(request.path):
        return api_error(403, str(exception) or None)
    return defaults.permission_denied(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_path(request.path):
        return api_error(400)
    return defaults.bad_request(request, exception)
