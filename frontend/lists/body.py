"""The rendered body of a list page (and of home), cached until the next publish or import.

A published list never changes, so its page body is rendered once per list view (the list plus its
search, filters, sort and custom weights) and kept under the list cache generation, which every
publish, import, draft build and release change bumps. The page of a list that is not published
(the release's tabs link to every kind it offers) is cached too, as the tabs link to it, without a
query: only a publish, an import, a draft or a release change alters what it says, unless its
release is still to be published or under embargo, which time alone ends; those are looked up again
on every request.

Around the body, the site header depends on who is logged in. A request without any cookie or
credentials is anonymous and sees what every such request sees, so for those the whole page is
cached as bytes (registry.core.public_cache): most readers of the lists, and crawlers, then cost a cache
read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString

from frontend.lists.context import PAGE_PARAMS, home_context, list_context
from registry.core.generations import LIST_CACHE_SECONDS, list_cache_generation
from registry.core.public_cache import mark_public, seconds_until_next_day
from registry.core.query_params import canonical_query
from registry.models import ListSnapshot, Release

BODY_TEMPLATE = "frontend/_list_body.html"


@dataclass(frozen=True)
class ListBody:
    title: str
    html: SafeString
    # How long the body may be served from the cache; 0 means not at all.
    cache_seconds: int = 0


def list_body_key(scope: tuple[str, ...], params: QueryDict) -> str:
    relevant = tuple((name, tuple(params.getlist(name))) for name in PAGE_PARAMS if params.get(name))
    # Search terms are user input: hashed, the key stays short and safe for every cache backend.
    digest = hashlib.sha256(repr((scope, relevant)).encode()).hexdigest()[:40]
    return f"lists:body:{list_cache_generation()}:{digest}"


Built = TypeVar("Built", ListBody, ListBody | None)


def list_body_cached(scope: tuple[str, ...], params: QueryDict, build: Callable[[], Built]) -> Built:
    """The body cached for this page and these parameters, else `build()` (stored if it allows)."""
    key = list_body_key(scope, params)
    cached = cache.get(key)
    if isinstance(cached, ListBody):
        return cached
    body = build()
    # A made-up query (another spelling, a repeated parameter) is rendered but never kept.
    if body is not None and body.cache_seconds > 0 and canonical_query(params, PAGE_PARAMS) is not None:
        cache.set(key, body, body.cache_seconds)
    return body


def list_body_render(
    params: QueryDict,
    *,
    release: Release,
    kind: str,
    snapshot: ListSnapshot | None,
    is_home: bool = False,
    cache_seconds: int = LIST_CACHE_SECONDS,
) -> ListBody:
    context = list_context(params, release=release, kind=kind, snapshot=snapshot)
    context["is_home"] = is_home
    if is_home:
        context.update(home_context(release))
    html = SafeString(render_to_string(BODY_TEMPLATE, context))
    cacheable = snapshot is not None or _unpublished_page_keeps(params, release)
    return ListBody(
        title=page_title(release, context["kind_label"], snapshot),
        html=html,
        # A published list's citation prints today's date: kept until midnight at most; a formula is
        # kept only in its canonical spelling. An unpublished tab keeps while nothing can publish it.
        cache_seconds=(
            (seconds_until_next_day(cap=cache_seconds) if context["cacheable"] else 0)
            if snapshot is not None
            else (cache_seconds if cacheable else 0)
        ),
    )


def page_title(release: Release, label: str, snapshot: ListSnapshot | None) -> str:
    """A reconstructed list says so in the title too: a tab or a bookmark must not pass it for
    io500.org's list."""
    reconstructed = snapshot is not None and snapshot.provenance == ListSnapshot.Provenance.RECONSTRUCTED
    return f"{release.name} {label} list" + (" (reconstructed)" if reconstructed else "")


def _unpublished_page_keeps(params: QueryDict, release: Release) -> bool:
    """Whether the page of a list with no visible version may be cached: the page a release's tab
    links to (no query; another version or a filter of a list that is not there is answered but not
    kept) of a release already published and out of embargo, so that no moment changes what it says.
    Home links the tabs of its release, published or not: without this, every reader of such a tab
    cost a render and six queries."""
    if any(params.get(name) for name in PAGE_PARAMS):
        return False
    under_embargo = release.embargo_end is not None and release.embargo_end > timezone.now()
    return not under_embargo and release.publication_date <= timezone.localdate()


def list_page_response(
    request: HttpRequest, scope: tuple[str, ...], build: Callable[[], ListBody | None]
) -> HttpResponse | None:
    """The list page for `scope` (None when `build` finds no list to show).

    The whole page of a published list is marked public: anonymous readers then get it from
    registry.core.public_cache without reaching this view.
    """
    body = list_body_cached(scope, request.GET, build)
    if body is None:
        return None
    response = render(request, "frontend/list.html", {"page_title": body.title, "body": body.html})
    if body.cache_seconds > 0:
        mark_public(response, seconds_until_next_day(cap=body.cache_seconds))
    return response
