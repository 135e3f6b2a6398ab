"""Site, vendor and file-system pages: an index of each kind and one page per canonical name, with
every list entry across releases. The same for every reader, so the public cache keeps them."""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from frontend.charts.entities import ENTITY_KINDS, EntityKind, entity_detail, entity_index
from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.public_cache import mark_public
from registry.lists.permalinks import submission_path_prefix


def _words(kind: EntityKind) -> dict[str, str]:
    return {**ENTITY_KINDS[kind], "kind": kind, "index_url": reverse(f"pages:{kind}-index")}


@require_GET
def index_page(request: HttpRequest, kind: EntityKind) -> HttpResponse:
    context = {"words": _words(kind), "entities": entity_index(kind)}
    return mark_public(render(request, "frontend/pages/entity_index.html", context), LIST_CACHE_SECONDS)


def _linked_entries(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each entry with the links of its list, system and submission. A page of a thousand entries
    reversed three URLs per row in its template, a third of its rendering; the few lists and
    systems are reversed once each here, the submissions' links follow the shape of one."""
    list_url = functools.cache(lambda release, kind: reverse("frontend:list", args=[release, kind]))
    system_url = functools.cache(lambda pk: reverse("pages:system", args=[pk]))
    submission_prefix = submission_path_prefix()
    return [
        {
            **row,
            "list_url": list_url(row["release_slug"], row["kind"]),
            "system_url": system_url(row["system_id"]),
            "submission_url": f"{submission_prefix}{row['submission_id']}/",
        }
        for row in entries
    ]


@require_GET
def detail_page(request: HttpRequest, kind: EntityKind, slug: str) -> HttpResponse:
    entity = entity_detail(kind, slug)
    if entity is None:
        raise Http404(f"No published list entry names this {ENTITY_KINDS[kind]['one'].lower()}.")
    context = {
        "words": _words(kind),
        "entity": {**entity, "entries": _linked_entries(entity["entries"])},
        "trends_src": reverse(f"charts:{kind}-trends", args=[slug]),
    }
    return mark_public(render(request, "frontend/pages/entity.html", context), LIST_CACHE_SECONDS)
