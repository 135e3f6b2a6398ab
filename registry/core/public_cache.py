"""Public pages and chart data answered from the cache before any other middleware or view runs.

Most traffic is anonymous readers of the published lists and the history charts: the same bytes for
everyone until the next publish, import or release change. A view marks such a response with
`mark_public(response, seconds)`; for a request without any cookie or credentials this middleware
then stores the body (and a gzip copy, which every browser accepts) under the list and chart cache
generations, and answers the next identical request from it without sessions, authentication, URL
resolution or a query. Responses that are personal (a cookie set, a CSRF token handed out) or not
marked are never stored here.

The page and chart data of one submission or storage system are public only while what they show is
visible to everyone. For those paths one small query, the fingerprint, runs on every request: None
(missing, private, under embargo) sends the request on to its view unanswered and unstored; otherwise
the fingerprint, which holds the row's state and last change, is part of the key, so a change is
never answered from an older copy.

Only a canonical query is looked up or stored (registry.core.query_params): each path declares the query
parameters its view reads (PUBLIC_ROUTES), and the key is built from those alone, sorted. A request
with any other parameter, a repeated one or a value in another spelling is sent to its view and
never stored, so made-up queries cost the server a render each but never cache memory. Known
tracking tags (utm_*, fbclid, ...) change no page: they are dropped and the request is answered
from the entry of the page without them.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from re import Pattern

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils import timezone
from django.utils.regex_helper import _lazy_re_compile

from registry.core.generations import (
    CHARTS_GENERATION_KEY,
    LIST_CACHE_GENERATION_KEY,
    charts_generation,
    list_cache_generation,
)
from registry.core.query_params import Query, canonical_query

logger = logging.getLogger(__name__)

_MARK = "_public_cache_seconds"
# Headers that describe the stored body; everything else is set afresh by the outer middleware.
_STORED_HEADERS = ("Content-Type", "Cache-Control", "Vary", "X-Frame-Options", "Content-Language")
_ACCEPTS_GZIP = _lazy_re_compile(r"\bgzip\b")
Fingerprint = Callable[..., "tuple[object, ...] | None"]


@dataclass(frozen=True)
class PublicRoute:
    """A path whose marked answers are kept for anonymous readers (the views that call mark_public),
    and the query parameters its view reads: the only ones a stored answer's key holds."""

    pattern: Pattern[str]
    params: tuple[str, ...]
    # The query that fingerprints the one row the page shows (the pattern's `pk` group); None for a
    # page that depends on nothing but the cache generations.
    fingerprint: Fingerprint | None = None


# Declared by the apps whose views call mark_public (public_routes_register, from AppConfig.ready).
# Everywhere else (the API, health checks, forms, downloads) a request goes straight on, without two
# useless cache reads.
PUBLIC_ROUTES: tuple[PublicRoute, ...] = ()


def _no_expiry() -> datetime.datetime | None:
    return None


# When the next stored answer stops being true without a generation change (a release leaving its
# embargo); registered by the app that knows (public_expiry_register).
_next_expiry: Callable[[], datetime.datetime | None] = _no_expiry


def public_routes_register(*routes: PublicRoute) -> None:
    global PUBLIC_ROUTES
    known = {route.pattern.pattern for route in PUBLIC_ROUTES}
    PUBLIC_ROUTES = (*PUBLIC_ROUTES, *(route for route in routes if route.pattern.pattern not in known))


def public_expiry_register(next_expiry: Callable[[], datetime.datetime | None]) -> None:
    global _next_expiry
    _next_expiry = next_expiry


def seconds_until(moment: datetime.datetime | None, *, cap: int) -> int:
    """Seconds from now until `moment` (at least 1, at most `cap`; `cap` when there is no moment)."""
    if moment is None:
        return cap
    return int(max(1, min(cap, math.ceil((moment - timezone.now()).total_seconds()))))


def seconds_until_next_day(*, cap: int) -> int:
    """Seconds until the next midnight UTC (at least 1, at most `cap`): how long a page that prints
    today's date (a citation's retrieval date) may be kept."""
    now = timezone.now().astimezone(datetime.UTC)
    midnight = datetime.datetime.combine(
        now.date() + datetime.timedelta(days=1), datetime.time(), datetime.UTC
    )
    return seconds_until(midnight, cap=cap)


# Compressing a few hundred bytes gains nothing and costs the client a decoder pass.
GZIP_MIN_BYTES = 512


def is_anonymous_reader(request: HttpRequest) -> bool:
    """No cookie (so no session, log-in or messages) and no credentials."""
    return not request.COOKIES and "HTTP_AUTHORIZATION" not in request.META


def is_personal(request: HttpRequest, response: HttpResponseBase) -> bool:
    """The response sets a cookie or handed out a CSRF token: it belongs to this reader alone,
    whatever the request looked like, and must not be kept for others."""
    if response.cookies:
        return True
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or request.META.get("CSRF_COOKIE_USED"))


def mark_public(response: HttpResponse, seconds: int) -> HttpResponse:
    """Let the public cache keep this response for anonymous readers for up to `seconds`.

    Only for content that is the same for every reader and changes only with a publish, an import
    or a release change (each of which bumps a cache generation). An embargo that ends sooner
    shortens the time, so a list leaving its embargo is seen when it does.
    """
    setattr(response, _MARK, seconds)
    return response


def mark_public_if_anonymous(request: HttpRequest, response: HttpResponse, seconds: int) -> HttpResponse:
    """`mark_public` for a page or chart of one row (a fingerprinted PUBLIC_ROUTES path) rendered for
    a visitor who is not logged in: what such a visitor sees is the same for all of them."""
    if not request.user.is_authenticated:
        mark_public(response, seconds)
    return response


@dataclass(frozen=True)
class StoredResponse:
    headers: tuple[tuple[str, str], ...]
    body: bytes
    gzipped: bytes | None
    etag: str
    # Wall-clock time (time.time()) after which no copy of it may be served.
    expires_at: float


class LocalCopies:
    """The answers read most, also kept in this process, up to `max_bytes` of bodies.

    A shared-cache read of the balance chart's two megabytes is a network transfer (Redis) or an
    unpickling copy (local memory) on every request. Keys hold the cache generations, which a
    publish bumps and which never repeat (registry.core.generations.new_generation), so a copy can only be
    served while the shared entry is current, and never after its own deadline.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, StoredResponse] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _size(stored: StoredResponse) -> int:
        return len(stored.body) + len(stored.gzipped or b"")

    def get(self, key: str) -> StoredResponse | None:
        with self._lock:
            stored = self._entries.get(key)
            if stored is None:
                return None
            if stored.expires_at <= time.time():
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return stored

    def put(self, key: str, stored: StoredResponse) -> None:
        size = self._size(stored)
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = stored
            self._bytes += size
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: str) -> None:
        stored = self._entries.pop(key)
        self._bytes -= self._size(stored)


def public_route(path: str) -> tuple[PublicRoute, re.Match[str]] | None:
    for route in PUBLIC_ROUTES:
        match = route.pattern.match(path)
        if match is not None:
            return route, match
    return None


def public_cache_key(
    generations: tuple[int, int], path: str, query: Query, fingerprint: tuple[object, ...] = ()
) -> str:
    target = repr((path, query, fingerprint))
    # Paths and queries are user input: hashed, the key stays short and safe for every backend.
    digest = hashlib.sha256(target.encode("utf-8", "surrogateescape")).hexdigest()[:40]
    return f"public:{generations[0]}:{generations[1]}:{digest}"


def cache_generations() -> tuple[int, int]:
    """The list and chart cache generations, in one round trip to the cache."""
    # One round trip on the hot path; the functions set a missing generation the agreed way.
    found = cache.get_many([LIST_CACHE_GENERATION_KEY, CHARTS_GENERATION_KEY])
    lists = found.get(LIST_CACHE_GENERATION_KEY)
    charts = found.get(CHARTS_GENERATION_KEY)
    return (
        int(lists) if lists is not None else list_cache_generation(),
        int(charts) if charts is not None else charts_generation(),
    )


def _stored(response: HttpResponse, seconds: int) -> StoredResponse:
    body = response.content
    gzipped = gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_MIN_BYTES else None
    if gzipped is not None and len(gzipped) >= len(body):
        gzipped = None
    headers = tuple((name, response[name]) for name in _STORED_HEADERS if response.has_header(name))
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    return StoredResponse(headers, body, gzipped, etag, time.time() + seconds)


def _answer(request: HttpRequest, stored: StoredResponse) -> HttpResponseBase:
    accepts_gzip = _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) is not None
    use_gzip = stored.gzipped is not None and accepts_gzip
    # The compressed bytes differ from the body: a weak tag, as Django's GZipMiddleware gives it.
    etag = f"W/{stored.etag}" if use_gzip else stored.etag
    if request.META.get("HTTP_IF_NONE_MATCH") in (stored.etag, f"W/{stored.etag}"):
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = etag
        return not_modified
    body = stored.gzipped if use_gzip and stored.gzipped else stored.body
    response = HttpResponse(body)
    for name, value in stored.headers:
        response[name] = value
    if stored.gzipped is not None:
        vary = response.get("Vary")
        response["Vary"] = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
    if use_gzip:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    # len(response.content) would join (copy) the body once more; it can be megabytes.
    response["Content-Length"] = str(len(body))
    return response


def _seconds_before_expiry(cap: int, list_generation: int) -> int:
    # Releases and their embargoes only change with a new list generation: ask once per generation.
    key = f"public:next-embargo-end:{list_generation}"
    moment = cache.get(key, False)
    if moment is False:
        moment = _next_expiry()
        cache.set(key, moment, seconds_until(moment, cap=24 * 3600) if moment else None)
    return seconds_until(moment, cap=cap)


def _storable(request: HttpRequest, response: HttpResponseBase, list_generation: int) -> int:
    """Seconds this response may be kept for every anonymous reader; 0 when not at all."""
    seconds = getattr(response, _MARK, 0)
    if not seconds or response.status_code != 200 or not isinstance(response, HttpResponse):
        return 0
    if is_personal(request, response) or response.has_header("Content-Encoding"):
        return 0
    return _seconds_before_expiry(int(seconds), list_generation)


def _row_fingerprint(route: PublicRoute, match: re.Match[str]) -> tuple[object, ...] | None:
    """The fingerprint of the row a fingerprinted path shows (() for other public paths); None for a
    row not visible to everyone, and when the database cannot be asked (the view then answers, with
    its own checks and the outage page)."""
    if route.fingerprint is None:
        return ()
    try:
        return route.fingerprint(pk=int(match["pk"]))
    except DatabaseError:
        return None


class PublicCacheMiddleware:
    """Answers anonymous GETs of marked responses from the cache; stores them on the way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        if isinstance(caches[DEFAULT_CACHE_ALIAS], DummyCache):
            # No cache configured: nothing could be answered from it, so do no work for it.
            raise MiddlewareNotUsed
        self.get_response = get_response
        self.copies = LocalCopies(settings.PUBLIC_CACHE_LOCAL_BYTES)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method != "GET" or not is_anonymous_reader(request):
            return self.get_response(request)
        found = public_route(request.path)
        if found is None:
            return self.get_response(request)
        route, match = found
        # Checked before the fingerprint: a made-up query costs no visibility query either.
        query = canonical_query(request.GET, route.params)
        if query is None:
            return self.get_response(request)
        fingerprint = _row_fingerprint(route, match)
        if fingerprint is None:
            return self.get_response(request)
        try:
            generations = cache_generations()
            key = public_cache_key(generations, request.path, query, fingerprint)
            stored = self.copies.get(key) or self._shared(key)
        except Exception:  # whatever the cache client raises
            # A cache that is down must not take the site down with it: serve as if uncached.
            logger.warning("public cache unavailable; serving %s uncached", request.path, exc_info=True)
            return self.get_response(request)
        if stored is not None:
            return _answer(request, stored)
        response = self.get_response(request)
        try:
            seconds = _storable(request, response, generations[0])
            if not seconds:
                return response
            assert isinstance(response, HttpResponse)  # _storable() said so
            stored = _stored(response, seconds)
            cache.set(key, stored, seconds)
        except Exception:
            logger.warning("public cache unavailable; %s not stored", request.path, exc_info=True)
            return response
        self.copies.put(key, stored)
        return _answer(request, stored)

    def _shared(self, key: str) -> StoredResponse | None:
        found = cache.get(key)
        if not isinstance(found, StoredResponse):
            return None
        self.copies.put(key, found)
        return found
