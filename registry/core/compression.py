"""gzip for every text answer: pages (logged in too), CSV, JSON, BibTeX, the API.

A list's JSON is 770 KB and compresses about tenfold; static files are compressed by WhiteNoise
already (it answers before this middleware) and the bulk downloads are gzip files themselves.

BREACH: an attacker who can make a victim's browser ask for a page that reflects the attacker's
input and holds a secret learns the secret from the compressed sizes, one guessed character at a time.
What the registry's pages hold:
- the CSRF token of every logged-in page (the header's log-out form): Django masks it with a fresh
  random mask in every answer, so it is never the same bytes twice and cannot be guessed by size;
  Django's GZipMiddleware also pads each answer with random bytes (Heal-the-BREACH);
- the API token the token page shows once, in the answer to its POST; and a form sent back with its
  errors repeats what was typed next to the CSRF token.
So an answer is left uncompressed when its page used the CSRF token *and* reflects input: the answer
to a POST, or a GET with a query string (a logged-in search). Every other logged-in page, every
public page and every download is compressed: the masking answers for the token there, and an
anonymous page holds no secret at all.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# Media types worth compressing; archives, images and the bulk .gz files are compressed already.
_TEXT_TYPES = (
    "text/",
    "application/json",
    "application/javascript",
    "application/xml",
    "application/x-bibtex",
    "application/vnd.oai.openapi",  # the OpenAPI schema (YAML; +json for JSON)
)
_TEXT_SUFFIXES = ("+json", "+xml", "+yaml")


def is_text(response: HttpResponseBase) -> bool:
    content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
    return content_type.startswith(_TEXT_TYPES) or content_type.endswith(_TEXT_SUFFIXES)


def used_csrf_token(request: HttpRequest, response: HttpResponseBase) -> bool:
    """The page put the CSRF token in its body. Rendering it asks CsrfViewMiddleware to (re)send the
    cookie, which that middleware (below this one) has done by now, clearing its flag."""
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE")) or settings.CSRF_COOKIE_NAME in response.cookies


def reflects_input_with_secret(request: HttpRequest, response: HttpResponseBase) -> bool:
    """The page used the CSRF token (it is in the body) and may repeat what the client sent."""
    used_token = used_csrf_token(request, response)
    reflects = request.method not in ("GET", "HEAD") or bool(request.META.get("QUERY_STRING"))
    return used_token and reflects


class TextGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for text answers only, and never for an answer that reflects input
    next to a secret (see the module's notes). It sets `Vary: Accept-Encoding` on what it compresses."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not is_text(response) or reflects_input_with_secret(request, response):
            return response
        compressed: HttpResponseBase = super().process_response(request, response)
        return compressed
