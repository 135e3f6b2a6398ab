"""Headers every answer gets on its way out: a Content-Security-Policy on HTML pages, and
`Cache-Control: private, no-store` on anything made for one person.

Django 5.2 has no CSP support of its own (it arrives in 6.0) and the policy is one fixed string,
so a few lines here rather than another package. The pages load scripts and styles only from our
own static files, as ES modules, and no page has an inline script, an inline event handler or a
`style` attribute, so the policy can forbid all of them: injected markup cannot run anything even
if an escaping bug let it into a page. D3 sets styles through the CSSOM (element.style), which a
policy without 'unsafe-inline' allows.

Sits outside registry.core.public_cache in MIDDLEWARE, so answers from that cache get the headers too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control

from registry.core.public_cache import is_personal

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # The blank favicon of every page is a data: URL.
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


def _is_html(response: HttpResponseBase) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


def made_for_one_person(request: HttpRequest, response: HttpResponseBase) -> bool:
    """A request that may be logged in (a session cookie, credentials) or an answer that sets a
    cookie or holds a CSRF token: no shared cache (proxy, CDN) may keep it, nor the browser's disk."""
    if is_personal(request, response):
        return True
    may_be_logged_in = settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META
    # Charts and lists explicitly public are the same for everyone, whoever asks.
    return may_be_logged_in and "public" not in response.get("Cache-Control", "")


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # A view with a policy of its own keeps it (raw downloads are sandboxed, the API docs page
        # runs Redoc, which injects its styles).
        if _is_html(response) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        if made_for_one_person(request, response):
            patch_cache_control(response, private=True, no_store=True)
        return response
