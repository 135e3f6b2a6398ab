"""Public list pages: home, a release's lists with tabs, CSV and JSON downloads."""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from frontend.lists.body import ListBody, list_body_render, list_page_response
from frontend.lists.context import release_context
from frontend.lists.csv_cells import csv_text
from frontend.lists.readme import describedby, downloads_readme, readme_url
from frontend.lists.selectors import list_index
from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.public_cache import mark_public
from registry.lists.complete import complete_fields, list_payload_complete, list_rows_complete
from registry.lists.rows import resolve_list
from registry.lists.selectors import (
    list_entry_get,
    release_get,
    release_list,
    release_published_kinds,
    seconds_until_next_embargo_end,
    snapshot_home,
)

# Release slugs as the URLs spell them (frontend.lists.urls RELEASE).
RELEASE_SLUG = re.compile(r"[a-z0-9]+")
# A citable list-entry id (registry.lists.permalinks.list_entry_id).
ENTRY_ID = re.compile(
    r"io500-(?P<release>[a-z0-9]+)-(?P<kind>[a-z0-9-]+)-v(?P<version>\d{1,6})-(?P<rank>\d{1,6})"
)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    def build() -> ListBody | None:
        snapshot = snapshot_home()
        if snapshot is None:
            return None
        # A release whose embargo ends becomes the home list without a publish: cache until then.
        return list_body_render(
            request.GET,
            release=snapshot.release,
            kind=snapshot.kind,
            snapshot=snapshot,
            is_home=True,
            cache_seconds=seconds_until_next_embargo_end(cap=LIST_CACHE_SECONDS),
        )

    response = list_page_response(request, ("home",), build)
    if response is None:
        return render(request, "frontend/home_empty.html", {"releases": list(release_list())})
    return response


@require_GET
def lists_index(request: HttpRequest) -> HttpResponse:
    """Every release and list kind with its entry count and provenance. The release picker submits
    here too (?release=sc19) and is sent on to that release; the newest list stays at home (/)."""
    if "release" not in request.GET:
        response = render(request, "frontend/list_index.html", {"releases": list_index()})
        # Changes only with a publish, an import or a release edit (each moves the list generation).
        return mark_public(response, LIST_CACHE_SECONDS)
    slug = request.GET.get("release", "").strip().lower()
    if not slug:
        return redirect("frontend:lists")
    if RELEASE_SLUG.fullmatch(slug) is None:
        # No release URL can be built from it (and none exists): say so instead of failing on it.
        shown = slug if len(slug) <= 40 else f"{slug[:40]}…"
        raise Http404(f'There is no release "{shown}". Release names look like sc19 or isc23.')
    return redirect("frontend:release", release=slug)


@require_GET
def release_page(request: HttpRequest, release: str) -> HttpResponse:
    """A release's page: its published lists, what is new on each and their awards (cached and
    public as a list page is); a release with no list published yet opens its first list's tab."""
    found = release_get(slug=release)
    if found is None:
        raise Http404(f'There is no release "{release}". Release names look like sc19 or isc23.')

    def build() -> ListBody | None:
        context = release_context(found)
        if context is None:
            return None
        html = SafeString(render_to_string("frontend/_release_body.html", context))
        return ListBody(title=f"{found.name} lists and awards", html=html, cache_seconds=LIST_CACHE_SECONDS)

    response = list_page_response(request, ("release", found.slug), build)
    if response is not None:
        return response
    kinds = release_published_kinds(release=found) or list(found.list_kinds)
    if not kinds:
        raise Http404(f"{found.name} publishes no lists.")
    return redirect("frontend:list", release=found.slug, kind=kinds[0])


@require_GET
def list_page(request: HttpRequest, release: str, kind: str) -> HttpResponse:
    def build() -> ListBody:
        found, snapshot = resolve_list(release, kind, request.GET.get("version", ""))
        return list_body_render(request.GET, release=found, kind=kind, snapshot=snapshot)

    response = list_page_response(request, ("list", release, kind), build)
    if response is None:  # build() renders every list, published or not, or raises Http404
        raise Http404(f"No {kind} list of {release}.")
    return response


@require_GET
def list_download(request: HttpRequest, release: str, kind: str, fmt: str) -> HttpResponse:
    found, snapshot = resolve_list(release, kind, request.GET.get("version", ""))
    if snapshot is None:
        raise Http404(f"No {kind} list was published for {found.name}, so there is nothing to download.")
    result = list_rows_complete(snapshot=snapshot, params=request.GET)
    filename = f"io500-{found.slug}-{kind}"
    if fmt == "json":
        payload = list_payload_complete(snapshot, result)
        response: HttpResponse = JsonResponse(payload, json_dumps_params={"indent": 1})
    else:
        response = HttpResponse(
            rows_csv(result.rows, with_custom=result.custom, with_sublist=result.sublist),
            content_type="text/csv",
        )
    response["X-List-Provenance"] = snapshot.provenance
    # Which of the two sets of phase columns is authoritative for what: the README says it.
    response["Link"] = describedby(readme_url())
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


@require_GET
def downloads_readme_view(request: HttpRequest) -> HttpResponse:
    """What the list downloads hold: which phase values are authoritative, every column described."""
    response = HttpResponse(downloads_readme(), content_type="text/plain; charset=utf-8")
    # The same for everyone; it changes only with a deployment.
    response["Cache-Control"] = "public, max-age=3600"
    return response


def rows_csv(rows: list[dict[str, Any]], *, with_custom: bool, with_sublist: bool = False) -> str:
    """The complete rows as CSV (registry.lists.complete). Every row names its list and the list's
    provenance, so a reconstructed list cannot pass for io500.org's once a spreadsheet has lost the
    file name. Submitter-typed names are made safe to open in a spreadsheet (frontend.lists.csv_cells).
    A sublist's rows carry their rank inside it next to the official one."""
    return csv_text(complete_fields(with_custom=with_custom, with_sublist=with_sublist), rows)


@require_GET
def entry(request: HttpRequest, entry_id: str) -> HttpResponse:
    """A citable list-entry id leads to the submission it names."""
    match = ENTRY_ID.fullmatch(entry_id)
    if match is None:
        raise Http404(
            "A list-entry id looks like io500-sc19-io500-v1-3: release, kind, version and rank of a "
            "published list."
        )
    found = list_entry_get(
        release_slug=match["release"],
        kind=match["kind"],
        version=int(match["version"]),
        rank=int(match["rank"]),
    )
    if found is None:
        raise Http404(f"No published list has the entry {entry_id}.")
    return redirect("submissions:detail", pk=found.submission_id)


def list_url(release: str, kind: str) -> str:
    return reverse("frontend:list", kwargs={"release": release, "kind": kind})
