"""Friendly answers when the site itself is in trouble: 503 while the database is down, 500 otherwise.

Input the database cannot represent (a NUL byte in a text, a number beyond its integer range) reaches
it through lookups no form validates; that is the client's mistake and answers 400, not 500.

The pages are rendered without the request, hence without context processors: those read the
session and the user, i.e. the very database that is gone. API clients get the same answer as JSON.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import DataError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

# Long enough for a PostgreSQL restart or fail-over; clients and crawlers come back after it.
RETRY_AFTER_S = 30
DATABASE_DOWN_ERRORS = (OperationalError, InterfaceError)
_UNAVAILABLE = (
    "The registry cannot reach its database at the moment. Nothing you uploaded is lost; please try "
    "again in a minute."
)
_UNREPRESENTABLE = (
    "The request holds a value the registry cannot store or look up, such as a NUL byte in a text or a "
    "number that is far too large. Check the values you sent."
)
_SERVER_ERROR = "Something went wrong on our side. The administrators have been told; please try again later."


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def database_unavailable(request: HttpRequest) -> HttpResponse:
    return service_unavailable(request, _UNAVAILABLE)


def service_unavailable(request: HttpRequest, message: str) -> HttpResponse:
    """503 with `message` (a page, or JSON for API clients), to be asked again after Retry-After."""
    response: HttpResponse
    if _wants_json(request):
        response = JsonResponse({"detail": message, "status": 503}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


def unrepresentable_input(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"detail": _UNREPRESENTABLE, "status": 400}, status=400)
    return HttpResponse(render_to_string("400.html", {"message": _UNREPRESENTABLE}), status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: Django calls it inside its `except`, so the exception is still at hand."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_DOWN_ERRORS):
        return database_unavailable(request)
    if isinstance(error, DataError):
        return unrepresentable_input(request)
    if _wants_json(request):
        return JsonResponse({"detail": _SERVER_ERROR, "status": 500}, status=500)
    return HttpResponse(render_to_string("500.html", {"message": _SERVER_ERROR}), status=500)


class DatabaseErrorMiddleware:
    """A database outage inside a view becomes the 503 page, unrepresentable input a 400 (in DEBUG too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN_ERRORS):
            logger.error("database unavailable while serving %s: %s", request.path, exception)
            return database_unavailable(request)
        if isinstance(exception, DataError):
            logger.warning("unrepresentable input for %s: %s", request.path, exception)
            return unrepresentable_input(request)
        return None
