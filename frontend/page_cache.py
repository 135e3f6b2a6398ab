"""Whole pages cached as bytes for anonymous readers: one submission, one storage system.

A submission page costs tens of milliseconds to render (phases, findings, the system, the list
medians) yet only changes when the submission, its list context or a release changes. For a reader
without any cookie or credentials (see `is_anonymous_reader`) the rendered page is kept under a key
made of everything that can change what it shows: a fingerprint the caller reads with the
anonymous visibility rule (submission id, updated_at, state, ...), plus the list and chart
generations that every publish, import and release change bumps. The fingerprint query runs on every
request, so a page that is (or becomes) embargoed or private is never served from here: the caller
passes no fingerprint, and the page is rendered for whoever asks, under the usual checks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from frontend.public_cache import cache_generations, is_anonymous_reader, is_personal
from registry.list_rows import LIST_CACHE_SECONDS

PAGE_CACHE_SECONDS = LIST_CACHE_SECONDS


def anonymous_page_key(name: str, fingerprint: tuple[object, ...]) -> str:
    # The fingerprint holds names and timestamps; hashed, the key stays short for every backend.
    digest = hashlib.sha256(repr(fingerprint).encode()).hexdigest()[:40]
    lists, charts = cache_generations()
    return f"pages:{name}:{lists}:{charts}:{digest}"


def anonymous_page_cached(
    request: HttpRequest,
    name: str,
    fingerprint: Callable[[], tuple[object, ...] | None],
    render_page: Callable[[], HttpResponse],
) -> HttpResponse:
    """The page from the cache for an anonymous reader of public content, else `render_page()`.

    `fingerprint` is only called for anonymous readers and returns None when the content is not
    visible to everyone; then nothing is read from or written to the cache.
    """
    if not is_anonymous_reader(request):
        return render_page()
    public = fingerprint()
    if public is None:
        return render_page()
    key = anonymous_page_key(name, public)
    page = cache.get(key)
    if isinstance(page, bytes):
        return HttpResponse(page)
    response = render_page()
    if response.status_code == 200 and not is_personal(request, response):
        cache.set(key, response.content, PAGE_CACHE_SECONDS)
    return response
