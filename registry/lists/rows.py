"""The rows of one list as every output shows them: page, CSV, JSON download and API share this."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Case, F, FloatField, QuerySet, Value, When, Window
from django.db.models.functions import Exp, Ln, RowNumber
from django.http import Http404

from registry.core.generations import LIST_CACHE_SECONDS, list_cache_generation
from registry.core.query_params import canonical_values
from registry.lists.filters import ListEntryFilter
from registry.lists.selectors import list_entries, release_get, snapshot_current
from registry.models import ListEntry, ListKind, ListSnapshot, Release
from submissions.models import Reproducibility, Submission

MAX_WEIGHT = 100.0

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


class WeightsError(ValueError):
    """The custom ranking weights in the URL are not usable."""


@dataclass(frozen=True)
class CustomWeights:
    """A custom ranking: the weighted geometric mean BW^(w_bw/W) * MD^(w_md/W), W = w_bw + w_md.

    Weights 1 and 1 give back the official score sqrt(BW * MD). It is shown next to the official
    rank, never instead of it.
    """

    bw: float
    md: float

    @property
    def bw_exponent(self) -> float:
        return self.bw / (self.bw + self.md)

    @property
    def md_exponent(self) -> float:
        return self.md / (self.bw + self.md)


def parse_weights(params: Mapping[str, str]) -> CustomWeights | None:
    raw_bw, raw_md = (params.get("w_bw") or "").strip(), (params.get("w_md") or "").strip()
    if not raw_bw and not raw_md:
        return None
    try:
        bw = float(raw_bw or "0")
        md = float(raw_md or "0")
    except ValueError as error:
        raise WeightsError(
            "The custom weights must be numbers, e.g. 2 for bandwidth and 1 for metadata."
        ) from error
    if not (0 <= bw <= MAX_WEIGHT and 0 <= md <= MAX_WEIGHT) or not math.isfinite(bw + md):
        raise WeightsError(f"The custom weights must lie between 0 and {MAX_WEIGHT:g}.")
    if bw + md == 0:
        raise WeightsError("At least one custom weight must be above 0.")
    return CustomWeights(bw=bw, md=md)


@dataclass
class ListRows:
    filterset: ListEntryFilter
    entries: QuerySet[ListEntry]
    weights: CustomWeights | None
    weights_error: str


def list_rows(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> ListRows:
    weights_error = ""
    try:
        weights = parse_weights(params)
    except WeightsError as error:
        weights, weights_error = None, str(error)
    queryset = list_entries(snapshot=snapshot)
    if weights is not None:
        total = weights.bw + weights.md
        queryset = queryset.annotate(
            custom_score=Case(
                When(
                    bw__gt=0,
                    md__gt=0,
                    then=Exp(
                        (Value(weights.bw) * Ln(F("bw")) + Value(weights.md) * Ln(F("md"))) / Value(total),
                        output_field=FloatField(),
                    ),
                ),
                default=None,
                output_field=FloatField(),
            ),
        ).annotate(
            custom_rank=Window(
                RowNumber(), order_by=[F("custom_score").desc(nulls_last=True), F("rank").asc()]
            )
        )
    filterset = ListEntryFilter(data=params, queryset=queryset)
    entries = filterset.qs if filterset.is_valid() else queryset.none()
    return ListRows(filterset=filterset, entries=entries, weights=weights, weights_error=weights_error)


# What each row reads besides the annotations of `selectors.list_entries`: plain columns through
# values(), because building a model instance per row (four joined models) cost more than the query.
ROW_COLUMNS = {
    "submission_pk": F("submission_id"),
    "submission_io500_id": F("submission__io500_id"),
    "submission_release": F("submission__release__name"),
    "submission_reproducibility": F("submission__reproducibility"),
    "submission_source": F("submission__source"),
    "submission_anonymous": F("submission__anonymous"),
    "submitter_username": F("submission__submitter__username"),
    "submitter_first_name": F("submission__submitter__first_name"),
    "submitter_last_name": F("submission__submitter__last_name"),
}
ANNOTATED_COLUMNS = ("institution_name", "system_name", "vendor", "filesystem", "client_nodes", "total_procs")
REPRODUCIBILITY_LABELS = {str(value): str(label) for value, label in Reproducibility.choices}


def publication_name(values: Mapping[str, Any]) -> str | None:
    """The submitter as the lists show them: "anonymous" when they chose so, none for imported
    history (io500.org never published its submitters)."""
    if values["submission_source"] == Submission.Source.IMPORT or values["submitter_username"] is None:
        return None
    if values["submission_anonymous"]:
        return "anonymous"
    full_name = f"{values['submitter_first_name'] or ''} {values['submitter_last_name'] or ''}".strip()
    return full_name or values["submitter_username"]


def entry_row(values: Mapping[str, Any], *, with_custom: bool = False) -> dict[str, Any]:
    """One list row from the values() of `list_row_values`."""
    reproducibility = values["submission_reproducibility"]
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
        "score": values["score"],
        "bw": values["bw"],
        "md": values["md"],
        "reproducibility": reproducibility,
        "reproducibility_label": REPRODUCIBILITY_LABELS.get(reproducibility, reproducibility),
        "submitter": publication_name(values),
    }
    if with_custom:
        row["custom_score"] = values.get("custom_score")
        row["custom_rank"] = values.get("custom_rank")
    return row


def list_row_values(entries: QuerySet[ListEntry], *, with_custom: bool) -> list[dict[str, Any]]:
    """The rows of a filtered and ordered list in one query, as plain dictionaries."""
    custom = ("custom_score", "custom_rank") if with_custom else ()
    values = entries.values("rank", "score", "bw", "md", *ANNOTATED_COLUMNS, *custom, **ROW_COLUMNS)
    return [entry_row(row, with_custom=with_custom) for row in values]


# Only these query parameters change the rows; anything else (e.g. tracking tags) shares the cache entry.
ROW_PARAMS = ("q", "filesystem", "vendor", "nodes_min", "nodes_max", "year", "o", "w_bw", "w_md")


@dataclass(frozen=True)
class RowsResult:
    rows: list[dict[str, Any]]
    weights: CustomWeights | None
    weights_error: str
    filter_errors: dict[str, list[str]]
    # Names this exact view of a published list; empty for drafts, which must never be cached.
    cache_key: str = ""


def list_rows_cached(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> RowsResult:
    """The serialised rows of one list view, cached until the next publish (or import) bumps the
    list cache generation. Published snapshots never change, so the cache cannot go stale."""
    relevant = tuple((name, str(params.get(name, ""))) for name in ROW_PARAMS if params.get(name))
    digest = hashlib.sha256(repr(relevant).encode()).hexdigest()[:32]
    key = f"lists:{list_cache_generation()}:{snapshot.pk}:{snapshot.status}:{digest}"
    cached = cache.get(key)
    if isinstance(cached, RowsResult):
        return cached
    result = list_rows(snapshot=snapshot, params=dict(relevant))
    with_custom = result.weights is not None
    rows = RowsResult(
        rows=list_row_values(result.entries, with_custom=with_custom),
        weights=result.weights,
        weights_error=result.weights_error,
        filter_errors={name: [str(e) for e in errors] for name, errors in result.filterset.errors.items()},
        cache_key=key if snapshot.is_frozen else "",
    )
    # Only views the site's own links ask for are kept; other spellings of a value are answered anew.
    if snapshot.is_frozen and canonical_values(params, ROW_PARAMS):
        cache.set(key, rows, LIST_CACHE_SECONDS)
    return rows


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
        "official": snapshot.provenance != ListSnapshot.Provenance.RECONSTRUCTED,
        "data_source": snapshot.source,
        "custom_weights": {"bw": result.weights.bw, "md": result.weights.md} if result.weights else None,
        "count": len(result.rows),
        "rows": result.rows,
    }
