"""The rows of one list as every output shows them: page, CSV, JSON download and API share this."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, F, OuterRef, QuerySet
from django.http import Http404

from registry.core.generations import LIST_CACHE_SECONDS, list_cache_generation
from registry.core.messaging import DERIVED_VIEW_NOTE, is_official_provenance, list_messaging_status
from registry.core.query_params import canonical_values
from registry.lists.custom import (
    SORT_NAME,
    CustomRanking,
    CustomWeights,
    custom_apply,
    custom_ranking,
    sorted_by_custom,
)
from registry.lists.filters import ListEntryFilter
from registry.lists.selectors import list_entries, release_get, snapshot_current
from registry.lists.sublists import sublist_rank, sublist_statistics
from registry.models import ListEntry, ListKind, ListSnapshot, Release
from submissions.models import Finding, Reproducibility, Submission
from submissions.selectors import phase_values

# Column order of the CSV download; the JSON rows carry the same keys.
ROW_FIELDS = (
    "rank",
    "id",
    "io500_id",
    "release",
    "institution",
    "system",
    "storage_vendor",
    "filesystem",
    "client_nodes",
    "total_procs",
    "score",
    "bw",
    "md",
    "reproducibility",
    "submitter",
)
CUSTOM_FIELDS = ("custom_score", "custom_rank")
SUBLIST_FIELDS = ("sublist_rank",)


@dataclass
class ListRows:
    filterset: ListEntryFilter
    entries: QuerySet[ListEntry]
    ranking: CustomRanking


def list_rows(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> ListRows:
    queryset = list_entries(snapshot=snapshot)
    filterset = ListEntryFilter(data=params, queryset=queryset)
    entries = filterset.qs if filterset.is_valid() else queryset.none()
    return ListRows(filterset=filterset, entries=entries, ranking=custom_ranking(params))


# What each row reads besides the annotations of `selectors.list_entries`: plain columns through
# values(), because building a model instance per row (four joined models) cost more than the query.
ROW_COLUMNS = {
    "submission_pk": F("submission_id"),
    "submission_io500_id": F("submission__io500_id"),
    "submission_release": F("submission__release__name"),
    "submission_reproducibility": F("submission__reproducibility"),
    "submission_valid": F("submission__valid"),
    # An error finding of the registry's own checks: what an "invalid here" badge links to (a run
    # io500.org itself marked invalid has none, and the registry has nothing to show for it).
    "submission_failed_here": Exists(
        Finding.objects.filter(submission_id=OuterRef("submission_id"), severity=Finding.Severity.ERROR)
    ),
    "submission_source": F("submission__source"),
    "submission_anonymous": F("submission__anonymous"),
    "submitter_username": F("submission__submitter__username"),
    "submitter_first_name": F("submission__submitter__first_name"),
    "submitter_last_name": F("submission__submitter__last_name"),
}
ANNOTATED_COLUMNS = (
    "institution_name",
    "system_name",
    "vendor",
    "filesystem",
    "client_nodes",
    "total_procs",
    "run_nodes",
    "run_tasks",
)
REPRODUCIBILITY_LABELS = {str(value): str(label) for value, label in Reproducibility.choices}
# Imported history: io500.org's public data records no reproducibility level, and "Undefined" is a
# level the committee assigns, so an imported entry left at the default says that nobody recorded one.
NOT_RECORDED = "not recorded"


def reproducibility_shown(level: str, source: str) -> tuple[str | None, str]:
    """The level's code (None when none was recorded) and the label the lists show."""
    if source == Submission.Source.IMPORT and level == Reproducibility.UNDEFINED:
        return None, NOT_RECORDED
    return level, REPRODUCIBILITY_LABELS.get(level, level)


def publication_name(values: Mapping[str, Any]) -> str | None:
    """The submitter as the lists show them: "anonymous" when they chose so, none for imported
    history (io500.org never published its submitters)."""
    if values["submission_source"] == Submission.Source.IMPORT or values["submitter_username"] is None:
        return None
    if values["submission_anonymous"]:
        return "anonymous"
    full_name = f"{values['submitter_first_name'] or ''} {values['submitter_last_name'] or ''}".strip()
    return full_name or values["submitter_username"]


def entry_row(values: Mapping[str, Any]) -> dict[str, Any]:
    """One list row from the values() of `list_row_values`."""
    reproducibility, reproducibility_label = reproducibility_shown(
        values["submission_reproducibility"], values["submission_source"]
    )
    row: dict[str, Any] = {
        "rank": values["rank"],
        "id": values["submission_pk"],
        "io500_id": values["submission_io500_id"],
        "release": values["submission_release"],
        "institution": values["institution_name"],
        "system": values["system_name"],
        "storage_vendor": values["vendor"] or None,
        "filesystem": values["filesystem"],
        "client_nodes": values["client_nodes"],
        "total_procs": values["total_procs"],
        # The counts the run's own outputs print, beside the declared ones (the page shows both).
        "run_client_nodes": values["run_nodes"],
        "run_tasks": values["run_tasks"],
        "score": values["score"],
        "bw": values["bw"],
        "md": values["md"],
        "reproducibility": reproducibility,
        "reproducibility_label": reproducibility_label,
        "submitter": publication_name(values),
        "valid": values["submission_valid"],
        # The registry's own checks found the run invalid: an official list may hold such a run.
        "invalid_here": values["submission_valid"] is False and bool(values["submission_failed_here"]),
    }
    return row


def list_row_values(entries: QuerySet[ListEntry]) -> list[dict[str, Any]]:
    """The rows of a filtered and ordered list in one query, as plain dictionaries."""
    values = entries.values("rank", "score", "bw", "md", *ANNOTATED_COLUMNS, **ROW_COLUMNS)
    return [entry_row(row) for row in values]


# The filters that make a sublist (ranked anew among its own entries, with its own statistics).
SUBLIST_PARAMS = (
    "q",
    "filesystem",
    "vendor",
    "nodes_min",
    "nodes_max",
    "year",
    "reproducibility",
    "institution_type",
)
# Only these query parameters change the rows; anything else (e.g. tracking tags) shares the cache entry.
ROW_PARAMS = (*SUBLIST_PARAMS, "o", "w_bw", "w_md", "formula")
# A custom ranking is anyone's to vary without end (every formula, every pair of weights): the rows
# it ranks are cached, the ranking never is (a stored answer per formula filled the cache: 0.9 MiB each).
CUSTOM_PARAMS = ("w_bw", "w_md", "formula")
BASE_PARAMS = tuple(name for name in ROW_PARAMS if name not in CUSTOM_PARAMS)


@dataclass(frozen=True)
class RowsResult:
    rows: list[dict[str, Any]]
    weights: CustomWeights | None
    filter_errors: dict[str, list[str]]
    # The canonical text of the formula the custom score comes from; "" for weights or none.
    formula: str = ""
    # What was wrong with the custom weights or formula, and why entries have no custom score.
    custom_errors: tuple[str, ...] = ()
    custom_notes: tuple[str, ...] = ()
    # Filters were given: the rows carry their rank inside the sublist.
    sublist: bool = False
    statistics: dict[str, Any] | None = None
    # Whether the formula is spelt as the site's links write it (the links repeat that spelling).
    canonical: bool = True
    # Names this exact view of a published list; empty for drafts and for custom rankings, which must
    # never be cached.
    cache_key: str = ""

    @property
    def custom(self) -> bool:
        return bool(self.formula) or self.weights is not None

    @property
    def derived_view_note(self) -> str:
        """What a custom ranking or a sublist is under the IO500 Messaging Policy, else ""."""
        return DERIVED_VIEW_NOTE if self.custom or self.sublist else ""

    @property
    def ranked_by_reader(self) -> bool:
        """A custom ranking was asked for (valid or not): an answer nobody else is likely to ask
        for again, so no cache keeps it."""
        return self.custom or bool(self.custom_errors)


def _rows_key(snapshot: ListSnapshot, relevant: tuple[tuple[str, str], ...]) -> str:
    digest = hashlib.sha256(repr(relevant).encode()).hexdigest()[:32]
    return f"lists:rows:{list_cache_generation()}:{snapshot.pk}:{snapshot.status}:{digest}"


def list_rows_base(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> RowsResult:
    """The serialised rows of one list view without its custom ranking (search, filters and sort
    only), cached until the next publish (or import) bumps the list cache generation. Published
    snapshots never change, so the cache cannot go stale."""
    relevant = tuple((name, str(params.get(name, ""))) for name in BASE_PARAMS if params.get(name))
    key = _rows_key(snapshot, relevant)
    cached = cache.get(key)
    if isinstance(cached, RowsResult):
        return cached
    given = dict(relevant)
    result = list_rows(snapshot=snapshot, params=given)
    rows = list_row_values(result.entries)
    sublist = any(given.get(name) for name in SUBLIST_PARAMS)
    if sublist:
        sublist_rank(rows)
    answer = RowsResult(
        rows=rows,
        weights=None,
        filter_errors={name: [str(e) for e in errors] for name, errors in result.filterset.errors.items()},
        sublist=sublist,
        statistics=sublist_statistics(rows),
        cache_key=key if snapshot.is_frozen else "",
    )
    # Only views the site's own links ask for are kept; other spellings of a value are answered anew.
    if snapshot.is_frozen and canonical_values(params, BASE_PARAMS):
        cache.set(key, answer, LIST_CACHE_SECONDS)
    return answer


def _custom_after_entry(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with its custom columns right after the entry's own (ROW_FIELDS), where the JSON
    downloads have always had them, before the sublist rank and the complete columns."""
    ordered: dict[str, Any] = {}
    for name, value in row.items():
        if name in CUSTOM_FIELDS:
            continue
        ordered[name] = value
        if name == ROW_FIELDS[-1]:
            ordered.update((custom, row.get(custom)) for custom in CUSTOM_FIELDS)
    return ordered


def rows_ranked(base: RowsResult, params: Mapping[str, str]) -> RowsResult:
    """`base` (rows of `list_rows_base`, as they are or made complete) with the custom ranking the
    query asks for: computed for every request, never cached (see CUSTOM_PARAMS)."""
    given = {name: str(params.get(name, "")) for name in ROW_PARAMS if params.get(name)}
    if not any(given.get(name) for name in CUSTOM_PARAMS):
        return base
    ranking = custom_ranking(given)
    formula = ranking.active
    rows = [dict(row) for row in base.rows]
    notes: list[str] = []
    if formula is not None:
        phases = (
            phase_values(submission_ids=[row["id"] for row in rows], phases=formula.phases)
            if formula.phases
            else {}
        )
        notes = custom_apply(rows, formula, phases).notes
        # A typed formula ranks the table by itself unless another sort is asked for.
        ordering = given.get("o") or (f"-{SORT_NAME}" if ranking.formula is not None else "")
        rows = [_custom_after_entry(row) for row in sorted_by_custom(rows, ordering)]
    return dataclasses.replace(
        base,
        rows=rows,
        weights=ranking.weights if ranking.formula is None else None,
        formula=ranking.formula.text if ranking.formula is not None else "",
        custom_errors=ranking.errors,
        custom_notes=tuple(notes),
        statistics=sublist_statistics(rows),
        canonical=ranking.canonical,
        cache_key="",
    )


def list_rows_cached(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> RowsResult:
    """The serialised rows of one list view: the cached rows of its search, filters and sort, ranked
    by the custom weights or formula when the query gives them."""
    return rows_ranked(list_rows_base(snapshot=snapshot, params=params), params)


def resolve_list(release: str, kind: str, version: str = "") -> tuple[Release, ListSnapshot | None]:
    """The release and the list shown at /lists/<release>/<kind>/ (?version=N for a superseded one)."""
    found = release_get(slug=release)
    if found is None:
        raise Http404(f'There is no release "{release}". Release names look like sc19 or isc23.')
    if kind not in ListKind.values:
        raise Http404(f'"{kind}" is not a kind of list. The kinds are: {", ".join(ListKind.values)}.')
    return found, snapshot_current(
        release=found, kind=kind, version=int(version) if version.isdigit() else None
    )


def list_payload(snapshot: ListSnapshot, result: RowsResult) -> dict[str, Any]:
    """The JSON download and the API answer: the list's identity plus the rows of the page."""
    return {
        "release": snapshot.release.name,
        "kind": snapshot.kind,
        "title": snapshot.label or snapshot.release.name,
        "version": snapshot.version,
        "status": snapshot.status,
        "published_at": snapshot.published_at.isoformat() if snapshot.published_at else None,
        "correction_reason": snapshot.correction_reason,
        "provenance": snapshot.provenance,
        "provenance_label": snapshot.get_provenance_display(),
        "official": is_official_provenance(snapshot.provenance),
        "data_source": snapshot.source,
        "custom_weights": {"bw": result.weights.bw, "md": result.weights.md} if result.weights else None,
        "custom_formula": result.formula or None,
        "custom_errors": list(result.custom_errors),
        "custom_notes": list(result.custom_notes),
        "sublist": result.sublist,
        "derived_view": result.derived_view_note or None,
        "messaging_term": list_messaging_status(snapshot.provenance).term,
        "statistics": result.statistics,
        "count": len(result.rows),
        "rows": result.rows,
    }
