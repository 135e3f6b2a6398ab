"""Site, vendor and file-system pages: an index of each kind and one page per canonical name, with
every list entry across releases. The same for every reader, so the public cache keeps them."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from frontend.charts.entities import ENTITY_KINDS, EntityKind, entity_detail, entity_index
from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.public_cache import mark_public


def _words(kind: EntityKind) -> dict[str, str]:
    return {**ENTITY_KINDS[kind], "kind": kind, "index_url": reverse(f"pages:{kind}-index")}


@require_GET
def index_page(request: HttpRequest, kind: EntityKind) -> HttpResponse:
    context = {"words": _words(kind), "entities": entity_index(kind)}
    return mark_public(render(request, "frontend/pages/entity_index.html", context), LIST_CACHE_SECONDS)


@require_GET
def detail_page(request: HttpRequest, kind: EntityKind, slug: str) -> HttpResponse:
    entity = entity_detail(kind, slug)
    if entity is None:
        raise Http404(f"No published list entry names this {ENTITY_KINDS[kind]['one'].lower()}.")
    context = {
        "words": _words(kind),
        "entity": entity,
        "trends_src": reverse(f"charts:{kind}-trends", args=[slug]),
    }
    return mark_public(render(request, "frontend/pages/entity.html", context), LIST_CACHE_SECONDS)
