"""Abuse limits that need no extra package: fixed-window counters in the cache (Redis in production).

What is limited: failed log-ins on every password form (per user name and client address pair, and
per client address), review comments per user, sign-up and password-reset
forms per client address, uploads per user (the web form
here, the API through `submissions.throttles`, both counting in the same buckets), the bytes a user
uploads per day, and the size of any request body. Rates read "<count>/<period>" with the period
one of s, m, h, d, optionally preceded by a number ("10/15m"); an empty rate switches a limit off.

The limiter fails open: when the cache cannot be reached, requests go through and a warning is
logged, so a Redis restart never locks researchers out.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, cache, caches
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve

from registry.core.api_errors import api_error, is_api_path
from registry.core.text import username_key

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$", re.IGNORECASE)
# Forms that send an e-mail to whatever address is typed in: the ones spammers use.
ACCOUNT_FORMS = ("accounts:signup", "accounts:password_reset", "accounts:resend-activation")
# Review comments: each can send a notification e-mail.
COMMENT_FORMS = ("submissions:comment",)
# Every form that checks a password: the site's log-in and the admin's.
LOGIN_VIEWS = ("login", "admin:login")
# Only a failed log-in re-renders the form (200); a success redirects.
_LOGIN_FAILED_STATUS = 200


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str | None) -> Rate | None:
    """Rate("10/15m") -> 10 per 900 s; None or "" -> no limit. Raises ValueError for nonsense."""
    if not text:
        return None
    match = _RATE_RE.match(text)
    if match is None:
        raise ValueError(f'"{text}" is not a rate; write it like "30/h" or "10/15m".')
    count, multiple, unit = match.groups()
    return Rate(int(count), int(multiple or 1) * _PERIODS[unit.lower()])


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # seconds until the current window ends


def _key(bucket: str, rate: Rate, now: float) -> tuple[str, int]:
    window = int(now // rate.seconds)
    namespace = getattr(settings, "RATELIMIT_NAMESPACE", "")
    key = f"ratelimit:{namespace}:{bucket}:{rate.seconds}:{window}"
    return key, rate.seconds - int(now % rate.seconds)


def _counters() -> BaseCache:
    """The "limits" cache where settings define one (apart from the evicting page cache), else the
    default cache."""
    return caches["limits"] if "limits" in settings.CACHES else cache


def _guarded(action: Callable[[], Verdict]) -> Verdict:
    try:
        return action()
    except Exception:  # the cache is down: fail open rather than lock everybody out
        logger.warning("rate limiter: the cache cannot be reached; the request is let through", exc_info=True)
        return Verdict(True, 0)


def rate_hit(bucket: str, rate: Rate | None, cost: int = 1) -> Verdict:
    """Count `cost` against the bucket; allowed while the window's total stays within the rate."""
    if rate is None:
        return Verdict(True, 0)

    def hit() -> Verdict:
        key, retry_after = _key(bucket, rate, time.time())
        counters = _counters()
        counters.add(key, 0, timeout=rate.seconds + 1)
        total = counters.incr(key, cost)
        return Verdict(total <= rate.count, retry_after)

    return _guarded(hit)


def rate_refund(bucket: str, rate: Rate | None, cost: int = 1) -> None:
    """Give back what `rate_hit` counted (a log-in that succeeded was no failure)."""
    if rate is None:
        return

    def refund() -> Verdict:
        key, _ = _key(bucket, rate, time.time())
        counters = _counters()
        if counters.get(key) is not None:
            counters.decr(key, cost)
        return Verdict(True, 0)

    _guarded(refund)


def upload_verdict(user_pk: int, request_bytes: int) -> Verdict:
    """One upload of `request_bytes` by a user, counted against both per-user upload limits."""
    count = rate_hit(f"upload:{user_pk}", parse_rate(settings.UPLOAD_RATE))
    if not count.allowed:
        return count
    daily_bytes = settings.UPLOAD_BYTES_PER_DAY
    volume = rate_hit(
        f"upload-bytes:{user_pk}", Rate(daily_bytes, 86400) if daily_bytes else None, request_bytes
    )
    return volume


def client_address(request: HttpRequest) -> str:
    # REMOTE_ADDR is the proxy behind a reverse proxy; deployments then set a trusted header.
    header = getattr(settings, "RATELIMIT_CLIENT_IP_HEADER", "")
    if header and request.META.get(header):
        return str(request.META[header]).split(",")[0].strip()
    return str(request.META.get("REMOTE_ADDR", "unknown"))


def _minutes(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def too_many_response(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    response: HttpResponse
    if is_api_path(request.path):
        response = api_error(429, message)
    else:
        response = HttpResponse(
            render_to_string("429.html", {"message": message}, request=request), status=429
        )
    response["Retry-After"] = str(max(retry_after, 1))
    return response


def request_too_large_response(request: HttpRequest, size: int, limit: int) -> HttpResponse:
    message = (
        f"This request is {size / 2**20:,.0f} MiB; the registry accepts at most {limit / 2**20:,.0f} MiB "
        "per upload. Leave out large scratch files and upload the result folder again."
    )
    if is_api_path(request.path):
        return api_error(413, message)
    body = render_to_string("413.html", {"message": message}, request=request)
    return HttpResponse(body, status=413)


def _content_length(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class RateLimitMiddleware:
    """Refuses oversized bodies (413) and over-eager log-ins and form uploads (429) before any view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        size, limit = _content_length(request), settings.MAX_REQUEST_BYTES
        if limit and size > limit:
            return request_too_large_response(request, size, limit)
        # Here, not in process_view: the CSRF check (an earlier process_view) reads the whole
        # multipart body to find its token, and an upload over the limit must be refused unread.
        refused = self._upload_refused(request) if request.method == "POST" else None
        return refused or self.get_response(request)

    def _upload_refused(self, request: HttpRequest) -> HttpResponse | None:
        try:
            view_name = resolve(request.path_info).view_name
        except Resolver404:
            return None
        if view_name != "submissions:upload" or not request.user.is_authenticated:
            return None
        verdict = upload_verdict(int(request.user.pk), _content_length(request))
        if verdict.allowed:
            return None
        return too_many_response(
            request,
            "You have uploaded too much in a short time. Please wait "
            f"{_minutes(verdict.retry_after)} and upload again.",
            verdict.retry_after,
        )

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match is None:
            return None
        name = request.resolver_match.view_name
        if name in LOGIN_VIEWS:
            return self._login(request, view, args, kwargs)
        if name in COMMENT_FORMS and request.user.is_authenticated:
            verdict = rate_hit(f"comment:{request.user.pk}", parse_rate(settings.COMMENT_RATE))
            if not verdict.allowed:
                return too_many_response(
                    request,
                    "You have sent many comments in a short time. Please wait "
                    f"{_minutes(verdict.retry_after)} before you send the next one.",
                    verdict.retry_after,
                )
        if name in ACCOUNT_FORMS:
            # Sign-ups and reset mails cost us an e-mail each: counted per client address.
            verdict = rate_hit(f"{name}:{client_address(request)}", parse_rate(settings.ACCOUNT_FORM_RATE))
            if not verdict.allowed:
                return too_many_response(
                    request,
                    "This form was sent too often from your network. Please wait "
                    f"{_minutes(verdict.retry_after)} and try again.",
                    verdict.retry_after,
                )
        return None

    def _login(self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any) -> HttpResponse:
        """Every password form (the site's and the admin's) through one limiter.

        Lock-out is keyed on the pair (user name, client address), as django-axes does with
        AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]: a stranger guessing from elsewhere
        cannot lock the owner out of their own account, while one address guessing one account is
        stopped; a looser limit per address stops one address spraying many accounts. An attempt
        is counted before it is evaluated (an atomic INCR), so concurrent guesses cannot overshoot
        the limit; a successful log-in gives its count back.
        """
        # The name as the log-in looks it up (submissions.accounts.backends): ALICE in fullwidth
        # letters and "Alice" are alice's account, so they count against alice's lock.
        username = username_key(str(request.POST.get("username", ""))[:150].strip())
        address = client_address(request)
        reserved = [
            (f"login-pair:{address}:{username}", parse_rate(settings.LOGIN_FAILURE_RATE)),
            (f"login-ip:{address}", parse_rate(settings.LOGIN_IP_FAILURE_RATE)),
        ]
        verdicts = [rate_hit(bucket, rate) for bucket, rate in reserved]
        refused = [verdict for verdict in verdicts if not verdict.allowed]
        if refused:
            retry_after = max(verdict.retry_after for verdict in refused)
            return too_many_response(
                request,
                "Too many failed log-in attempts from your network for this account. For its safety, "
                f"please wait {_minutes(retry_after)} before you try again.",
                retry_after,
            )
        response: HttpResponse = view(request, *args, **kwargs)
        if response.status_code != _LOGIN_FAILED_STATUS:
            for bucket, rate in reserved:
                rate_refund(bucket, rate)
        return response
