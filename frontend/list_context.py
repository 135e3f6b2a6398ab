"""What a list page shows: tabs, picker, filters, sortable columns and the rows (shared by home)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from registry.list_rows import list_rows_cached
from registry.membership import ONE_PER_SYSTEM_KINDS
from registry.models import KIND_ORDER, ListKind, ListSnapshot, Release
from registry.selectors import list_facets, release_list, release_published_kinds, snapshot_versions


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    sort: str | None
    numeric: bool = False
    first_descending: bool = False


COLUMNS = (
    Column("rank", "#", "rank", numeric=True),
    Column("release", "BoF", "release"),
    Column("institution", "Institution", "institution"),
    Column("system", "System", "system"),
    Column("storage_vendor", "Storage vendor", "vendor"),
    Column("filesystem", "File system type", "filesystem"),
    Column("client_nodes", "Client nodes", "nodes", numeric=True, first_descending=True),
    Column("total_procs", "Total client proc.", "procs", numeric=True, first_descending=True),
    Column("score", "Score", "score", numeric=True, first_descending=True),
    Column("bw", "BW (GiB/s)", "bw", numeric=True, first_descending=True),
    Column("md", "MD (kIOP/s)", "md", numeric=True, first_descending=True),
    Column("reproducibility", "Repro.", None),
    Column("submitter", "Submitter", None),
)
CUSTOM_COLUMNS = (
    Column("custom_score", "Custom score", "custom", numeric=True, first_descending=True),
    Column("custom_rank", "Custom #", None, numeric=True),
)
FILTER_PARAMS = ("q", "filesystem", "vendor", "nodes_min", "nodes_max", "year")


def kind_label(kind: str) -> str:
    return str(ListKind(kind).label)


def empty_message(release: Release, kind: str, has_filters: bool) -> str:
    if has_filters:
        return "No entry of this list matches the search and filters."
    if kind in release.list_kinds:
        return f"The {kind_label(kind)} list of {release.name} has not been published."
    return f"No {kind_label(kind)} list was published for {release.name}."


def tabs(release: Release, current: str) -> list[dict[str, Any]]:
    published = set(release_published_kinds(release=release))
    kinds = published | set(release.list_kinds)
    return [
        {
            "kind": kind.value,
            "label": kind.label,
            "url": reverse("frontend:list", kwargs={"release": release.slug, "kind": kind.value}),
            "active": kind.value == current,
            "ranked": kind in ONE_PER_SYSTEM_KINDS,
            "published": kind.value in published,
        }
        for kind in KIND_ORDER
        if kind.value in kinds
    ]


def query_with(request: HttpRequest, **changes: str | None) -> str:
    query = request.GET.copy()
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else ""


def header(request: HttpRequest, column: Column) -> dict[str, Any]:
    current = request.GET.get("o", "")
    state = ""
    link = None
    if column.sort is not None:
        if current == column.sort:
            state, target = "asc", f"-{column.sort}"
        elif current == f"-{column.sort}":
            state, target = "desc", column.sort
        else:
            target = f"-{column.sort}" if column.first_descending else column.sort
        link = query_with(request, o=target)
    return {"column": column, "link": link, "state": state}


def list_context(
    request: HttpRequest, *, release: Release, kind: str, snapshot: ListSnapshot | None
) -> dict[str, Any]:
    has_filters = any(request.GET.get(name) for name in FILTER_PARAMS)
    context: dict[str, Any] = {
        "release": release,
        "kind": kind,
        "kind_label": kind_label(kind),
        "snapshot": snapshot,
        "tabs": tabs(release, kind),
        "releases": list(release_list()),
        "filters": {name: request.GET.get(name, "") for name in FILTER_PARAMS},
        "sort": request.GET.get("o", ""),
        "w_bw": request.GET.get("w_bw", ""),
        "w_md": request.GET.get("w_md", ""),
        "has_filters": has_filters,
        "empty_message": empty_message(release, kind, has_filters),
        "is_home": False,
    }
    if snapshot is None:
        return context
    result = list_rows_cached(snapshot=snapshot, params=request.GET)
    columns = COLUMNS + (CUSTOM_COLUMNS if result.weights else ())
    querystring = query_with(request)
    base = {"release": release.slug, "kind": kind}
    context.update(
        {
            "rows": result.rows,
            "result": result,
            "headers": [header(request, column) for column in columns],
            "columns": columns,
            "facets": list_facets(snapshot=snapshot),
            "versions": snapshot_versions(release=release, kind=kind),
            "csv_url": reverse("frontend:list-download", kwargs={**base, "fmt": "csv"}) + querystring,
            "json_url": reverse("frontend:list-download", kwargs={**base, "fmt": "json"}) + querystring,
            "api_url": reverse("registry-api:list", kwargs=base) + querystring,
            "list_url": reverse("frontend:list", kwargs=base),
        }
    )
    return context
