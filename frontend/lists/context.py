"""What a list page shows: tabs, picker, filters, sortable columns and the rows (shared by home).

Everything here depends on the list and the query parameters only, never on who asks, so the
rendered body can be cached and served to everybody.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.urls import reverse
from django.utils import timezone

from frontend.charts.entities import ENTITY_KINDS, EntityKind
from frontend.lists.citation import list_citation, retrieval_date
from frontend.lists.table import rows_html
from registry.lists.awards import awards_shown, snapshot_awards
from registry.lists.changes import correction_changes, release_changes
from registry.lists.facet_names import facet_key, slug
from registry.lists.filters import FACET_HELP
from registry.lists.permalinks import submission_path_prefix
from registry.lists.public_record import release_public_record, release_public_records
from registry.lists.rows import ROW_PARAMS, SUBLIST_PARAMS, RowsResult, list_rows_cached
from registry.lists.selectors import (
    list_facets,
    list_verdicts,
    recorded_list_changes,
    release_bof_facts,
    release_current_lists,
    release_list,
    release_published_kinds,
    releases_after,
    releases_open,
    snapshot_versions,
)
from registry.models import (
    KIND_ORDER,
    PRODUCTION_KINDS,
    RANKED_KIND_VALUES,
    RESEARCH_KINDS,
    TEN_NODE_KINDS,
    ListKind,
    ListSnapshot,
    Release,
    kind_label,
)


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
# Next to the official rank when filters make the list a sublist.
SUBLIST_COLUMN = Column("sublist_rank", "Sublist #", None, numeric=True)
FILTER_PARAMS = SUBLIST_PARAMS


@dataclass(frozen=True)
class FacetOption:
    value: str
    label: str
    selected: bool
    # The name's own page (every entry of it across releases); "" for a name no entry here has.
    entity_url: str = ""


def facet_options(kind: EntityKind, names: list[dict[str, Any]], selected: str) -> list[FacetOption]:
    """The drop-down of one facet: a canonical name per option with its entry count, the one the URL
    names selected whatever spelling or slug the URL used. A name no entry of this list has (a link
    from another list) stays selected, with no entries, so the form does not drop it silently."""
    wanted = facet_key(kind, selected) if selected.strip() else None
    path = ENTITY_KINDS[kind]["path"]
    options = [
        FacetOption(
            name["name"],
            f"{name['name']} ({name['count']})",
            facet_key(kind, name["name"]) == wanted,
            f"/{path}/{slug(name['name'])}/",
        )
        for name in names
    ]
    if wanted is not None and not any(option.selected for option in options):
        options.append(FacetOption(selected, f"{selected} (0)", True))
    return options


# The query parameters that change what a list page shows; links keep these and drop the rest
# (tracking tags and the like), so that every view of a list has one cache entry.
PAGE_PARAMS = (*ROW_PARAMS, "version")


def empty_message(release: Release, kind: str, has_filters: bool, *, published: bool) -> str:
    if has_filters:
        return "No entry of this list matches the search and filters."
    if published:
        return f"The {kind_label(kind)} list of {release.name} has no entries."
    if kind not in release.list_kinds:
        return f"No {kind_label(kind)} list was published for {release.name}."
    under_embargo = release.embargo_end is not None and release.embargo_end > timezone.now()
    committee_run = ListSnapshot.objects.filter(
        release=release, provenance=ListSnapshot.Provenance.PUBLISHED_HERE
    ).exists()
    if release.publication_date > timezone.localdate() or under_embargo or committee_run:
        return f"The {kind_label(kind)} list of {release.name} has not been published yet."
    return unpublished_reason(release, kind)


def unpublished_reason(release: Release, kind: str) -> str:
    """Why a past release's list is not shown: what is public of the release (the one sentence of
    registry.lists.public_record), then what the registry would need to rebuild this kind."""
    record = release_public_record(release)
    if kind in (ListKind.FULL, ListKind.HISTORICAL):
        return record.sentence
    cannot = f" The registry does not rebuild the {kind_label(kind)} list: "
    rebuilt = ListSnapshot.objects.filter(
        release=release, kind=ListKind.TEN_NODE, provenance=ListSnapshot.Provenance.RECONSTRUCTED
    ).exists()
    ten_node_note = (
        f" The {kind_label(ListKind.TEN_NODE)} list of this release is reconstructed from the node "
        "counts the runs' own outputs print, Production and Research together."
        if kind in TEN_NODE_KINDS and rebuilt
        else ""
    )
    if kind in PRODUCTION_KINDS:
        return (
            record.sentence
            + cannot
            + (
                "only the committee's decisions put a run on it (a production system, rated Fully "
                "Reproducible), and those decisions are not public."
            )
            + ten_node_note
        )
    if kind == ListKind.TEN_NODE_RESEARCH:
        return (
            record.sentence
            + cannot
            + (
                "a run belongs on it only once the committee has decided it is not a Production run, "
                "and those decisions are not public."
            )
            + ten_node_note
        )
    if kind in RESEARCH_KINDS or kind == ListKind.IO500:
        return (
            record.sentence
            + cannot
            + (
                "a new run belongs on it only once the committee has decided it is not a Production run, "
                "and those decisions are not public."
            )
        )
    if kind in TEN_NODE_KINDS:
        return (
            record.sentence
            + cannot
            + (
                "no run of the public data that belongs to it shows its client-node count in its own "
                "outputs, and io500.org's list data does not hold one for most entries."
            )
        )
    return record.sentence + cannot + "the public data does not hold what it needs."


def home_context(release: Release) -> dict[str, Any]:
    """What home says above its list: the open call, and the releases newer than the home list."""
    newer = releases_after(release)
    reconstructed = {
        (name, kind)
        for name, kind in ListSnapshot.objects.filter(
            release__in=newer, provenance=ListSnapshot.Provenance.RECONSTRUCTED
        ).values_list("release__name", "kind")
    }
    records = release_public_records(newer)
    return {
        "open_releases": list(releases_open()),
        "newer_releases": [
            {
                "release": later,
                "record": records[later.pk],
                "lists": [
                    {
                        "label": kind_label(kind),
                        "url": reverse("frontend:list", kwargs={"release": later.slug, "kind": kind}),
                    }
                    for kind in (ListKind.TEN_NODE, ListKind.FULL, ListKind.HISTORICAL)
                    if (later.name, kind.value) in reconstructed
                ],
            }
            for later in newer
        ],
    }


def tabs(release: Release, current: str) -> list[dict[str, Any]]:
    published = set(release_published_kinds(release=release))
    kinds = published | set(release.list_kinds)
    return [
        {
            "kind": kind.value,
            "label": kind.label,
            "url": reverse("frontend:list", kwargs={"release": release.slug, "kind": kind.value}),
            "active": kind.value == current,
            "ranked": kind in RANKED_KIND_VALUES,
            "published": kind.value in published,
        }
        for kind in KIND_ORDER
        if kind.value in kinds
    ]


def page_params(params: QueryDict) -> QueryDict:
    kept = QueryDict(mutable=True)
    for name in PAGE_PARAMS:
        values = [value for value in params.getlist(name) if value]
        if values:
            kept.setlist(name, values)
    return kept


def query_with(params: QueryDict, **changes: str | None) -> str:
    query = page_params(params)
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else ""


def header(params: QueryDict, column: Column, current: str) -> dict[str, Any]:
    """A column head; `current` is the sort in effect (a formula ranks by itself unless told)."""
    state = ""
    link = None
    if column.sort is not None:
        if current == column.sort:
            state, target = "asc", f"-{column.sort}"
        elif current == f"-{column.sort}":
            state, target = "desc", column.sort
        else:
            target = f"-{column.sort}" if column.first_descending else column.sort
        link = query_with(params, o=target)
    return {"column": column, "link": link, "state": state}


# Whose score a list shows: io500.org's as it published it, or the one this registry computed from
# the run's files (a recorded entry's recomputed score is on its submission page, labelled so).
SCORE_LABELS: dict[str, str] = {
    ListSnapshot.Provenance.RECORDED.value: "Score recorded by io500.org",
    ListSnapshot.Provenance.RECONSTRUCTED.value: "Score recomputed here",
    ListSnapshot.Provenance.PUBLISHED_HERE.value: "Score computed here",
}


def table_columns(result: RowsResult, provenance: str = "") -> tuple[Column, ...]:
    label = SCORE_LABELS.get(provenance)
    base = tuple(
        dataclasses.replace(column, label=label) if column.key == "score" and label else column
        for column in COLUMNS
    )
    columns = (base[0], SUBLIST_COLUMN, *base[1:]) if result.sublist else base
    return columns + (CUSTOM_COLUMNS if result.custom else ())


def canonical_params(params: QueryDict, result: RowsResult) -> QueryDict:
    """The query with the formula as the site writes it (a formula that cannot be read stays as
    typed, so that the form still shows it)."""
    if not result.formula or params.get("formula") == result.formula:
        return params
    # Built from the names a list page reads only (the public cache's rule), never a copy of all.
    canonical = page_params(params)
    canonical["formula"] = result.formula
    return canonical


def list_context(
    params: QueryDict, *, release: Release, kind: str, snapshot: ListSnapshot | None
) -> dict[str, Any]:
    has_filters = any(params.get(name) for name in FILTER_PARAMS)
    context: dict[str, Any] = {
        "release": release,
        "kind": kind,
        "kind_label": kind_label(kind),
        "snapshot": snapshot,
        "tabs": tabs(release, kind),
        "releases": list(release_list()),
        "filters": {name: params.get(name, "") for name in FILTER_PARAMS},
        "sort": params.get("o", ""),
        "formula": params.get("formula", ""),
        "cacheable": True,
        "w_bw": params.get("w_bw", ""),
        "w_md": params.get("w_md", ""),
        "has_filters": has_filters,
        "empty_message": empty_message(release, kind, has_filters, published=snapshot is not None),
        "is_home": False,
        "show_radar": False,
        "recorded_changes": recorded_list_changes(release=release, kind=kind),
        "bof_facts": release_bof_facts(release=release),
        "public_record": release_public_record(release),
    }
    if snapshot is None:
        return context
    result = list_rows_cached(snapshot=snapshot, params=params)
    facets = list_facets(snapshot=snapshot)
    columns = table_columns(result, snapshot.provenance)
    # A published version says what is new on it since the previous release's list (those entries
    # are marked "new"), and a correction also what it changed in the version it corrects.
    changes = release_changes(snapshot) if snapshot.is_frozen else None
    correction = correction_changes(snapshot) if snapshot.is_frozen else None
    new_ids = changes.added_ids if changes else frozenset()
    detail_prefix = submission_path_prefix()
    # Links write the formula in its one canonical spelling, which the caches keep.
    params = canonical_params(params, result)
    querystring = query_with(params)
    base = {"release": release.slug, "kind": kind}
    current_sort = params.get("o", "") or ("-custom" if result.formula else "")
    context.update(
        {
            "rows": result.rows,
            "rows_html": rows_html(
                result.rows,
                detail_prefix=detail_prefix,
                with_custom=result.custom,
                with_sublist=result.sublist,
                new_ids=new_ids,
                mark_invalid=snapshot.provenance != ListSnapshot.Provenance.RECONSTRUCTED,
            ),
            "result": result,
            "formula": result.formula or params.get("formula", ""),
            "headers": [header(params, column, current_sort) for column in columns],
            "columns": columns,
            "share_url": reverse("frontend:list", kwargs=base) + querystring,
            # A custom ranking (any formula, any weights) is answered but never kept (nor marked
            # public): anyone can vary it without end (registry.lists.rows.CUSTOM_PARAMS).
            "cacheable": not result.ranked_by_reader,
            "facets": facets,
            "filesystem_options": facet_options(
                "filesystem", facets["filesystems"], params.get("filesystem", "")
            ),
            "vendor_options": facet_options("vendor", facets["vendors"], params.get("vendor", "")),
            "facet_help": FACET_HELP,
            "versions": snapshot_versions(release=release, kind=kind),
            "csv_url": reverse("frontend:list-download", kwargs={**base, "fmt": "csv"}) + querystring,
            "json_url": reverse("frontend:list-download", kwargs={**base, "fmt": "json"}) + querystring,
            "api_url": reverse("registry-api:list", kwargs=base) + querystring,
            "list_url": reverse("frontend:list", kwargs=base),
            # The radar reads the current published version, so a superseded one goes without.
            "show_radar": kind in RANKED_KIND_VALUES and snapshot.status == ListSnapshot.Status.PUBLISHED,
            "citation": list_citation(snapshot, list_verdicts(snapshot=snapshot), retrieved=retrieval_date()),
            "changes": changes,
            "correction": correction,
            "new_count": len(new_ids),
            "awards": awards_shown(snapshot_awards(snapshot), detail_prefix),
        }
    )
    return context


def release_context(release: Release) -> dict[str, Any] | None:
    """The public page of a release: each list it published, what is new on it since the previous
    release's list, and its awards, as io500.org gives them per BoF (None: nothing published)."""
    snapshots = release_current_lists(release=release)
    if not snapshots:
        return None
    detail_prefix = submission_path_prefix()
    lists = []
    for snapshot in snapshots:
        changes = release_changes(snapshot)
        lists.append(
            {
                "kind": snapshot.kind,
                "label": kind_label(snapshot.kind),
                "snapshot": snapshot,
                "url": reverse("frontend:list", kwargs={"release": release.slug, "kind": snapshot.kind}),
                "previous_label": changes.previous_label if changes else None,
                "new_count": len(changes.added_ids) if changes else None,
                "awards": awards_shown(snapshot_awards(snapshot), detail_prefix),
            }
        )
    return {"release": release, "lists": lists}
