"""Complete list rows: everything public about each entry of a list, for the CSV and JSON downloads,
the list API and the bulk download of every public list.

A row starts with the columns the list page shows (registry.lists.rows, unchanged for existing
consumers) and goes on with:

* stable ids and provenance: the citable list-entry id, the submission's permalink, the list the
  row belongs to (release, kind, version, publication, official or not) and where its values come
  from (re-verified from the raw files, or as io500.org published them);
* io500.org's download columns under io500.org's names. Its list download
  (IO500/webpage src/Controller/ListingsController.php, download()) writes every column of its
  `submissions` table except `information_submitter`, plus the list score. For an entry that came
  from io500.org they hold what io500.org published for it; where io500.org has no value (a run
  uploaded here), the registry's value of the same meaning, else nothing;
* every phase of the run, its value and its time, with the unit in the column name: the values the
  registry re-derived from the run's own output files (empty where the raw files are not public);
* the system description fields io500.org has no column for.

Two of io500.org's names are already taken by the page's columns: `score` means the same (the list
score), `id` does not: io500.org's download renumbers `id` to the row's position, which is `rank`
here, while `id` stays the registry's submission id that existing consumers rely on.

The registry's own columns are described in registry.lists.columns, io500.org's (names, types, units,
the registry's stand-in values) in registry.lists.io500_org, the ids and permalinks in
registry.lists.permalinks; this module reads what the rows need and caches the rows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, F, OuterRef

from registry.core.generations import LIST_CACHE_SECONDS, list_cache_generation
from registry.core.query_params import canonical_values
from registry.core.site import site_fingerprint
from registry.lists.awards import awards_payload, snapshot_awards
from registry.lists.changes import release_changes
from registry.lists.columns import (
    CUSTOM_COLUMNS,
    IDENTITY_COLUMNS,
    PAGE_COLUMNS,
    PHASE_COLUMNS,
    PHASES,
    PROVENANCE_COLUMN,
    SYSTEM_COLUMNS,
    Column,
    phase_time_column,
    phase_value_column,
)
from registry.lists.io500_org import (
    IO500_ORG_COLUMNS,
    IO500_ORG_DERIVED,
    IO500_ORG_FALLBACKS,
    IO500_ORG_KINDS,
    column_value,
)
from registry.lists.permalinks import ListIdentity, list_identity
from registry.lists.rows import (
    BASE_PARAMS,
    CUSTOM_FIELDS,
    ROW_FIELDS,
    SUBLIST_FIELDS,
    RowsResult,
    list_payload,
    list_rows_base,
    rows_ranked,
)
from registry.models import ListEntry, ListSnapshot
from scoring.model import BasisLevel
from submissions.models import Archive, PhaseResult, Result, Submission
from submissions.selectors import public_submissions_q

COMPLETE_COLUMNS: tuple[Column, ...] = (
    *PAGE_COLUMNS,
    PROVENANCE_COLUMN,
    *IDENTITY_COLUMNS,
    *IO500_ORG_COLUMNS,
    *PHASE_COLUMNS,
    *SYSTEM_COLUMNS,
)
# The columns that depend on the submission alone, whatever list its row is on (run_columns).
RUN_COLUMN_NAMES = (
    "verdict",
    "valid",
    "evidence_basis",
    "phases_without_raw_output",
    "values_source",
    "raw_files_public",
    "io500_version",
    "output_format",
    "run_mode",
    "run_timestamp",
    "run_started",
    "run_client_nodes",
    "run_client_nodes_source",
    "run_tasks",
    "run_tasks_source",
    *(column.name for column in (*IO500_ORG_COLUMNS, *PHASE_COLUMNS, *SYSTEM_COLUMNS)),
)


def complete_fields(*, with_custom: bool, with_sublist: bool = False) -> tuple[str, ...]:
    """The CSV header: the page's columns (and custom ones) first, so that existing consumers that
    read columns by position find them where they were; a sublist's own rank follows the official one."""
    sublist = SUBLIST_FIELDS if with_sublist else ()
    head = (
        ROW_FIELDS[0],
        *sublist,
        *ROW_FIELDS[1:],
        *(CUSTOM_FIELDS if with_custom else ()),
        PROVENANCE_COLUMN.name,
    )
    return (*head, *(column.name for column in COMPLETE_COLUMNS[len(PAGE_COLUMNS) + 1 :]))


def columns_described(*, with_custom: bool) -> list[dict[str, Any]]:
    custom = CUSTOM_COLUMNS if with_custom else ()
    return [column.as_dict() for column in (*PAGE_COLUMNS, *custom, *COMPLETE_COLUMNS[len(PAGE_COLUMNS) :])]


@dataclass(frozen=True)
class RunDetails:
    """What one submission adds to its rows, read in a fixed number of queries for many."""

    submission: dict[str, Any]
    run: dict[str, Any]
    phases: list[tuple[str, float | None, str, float | None]]


SUBMISSION_FIELDS = ("status", "valid", "ten_node", "submitted_at", "published_record")
SYSTEM_VALUES = {
    "fs_name": F("system__filesystem_name"),
    "fs_version": F("system__filesystem_version"),
    "procs_per_node": F("system__procs_per_node"),
    "client_os": F("system__client_os"),
    "client_kernel": F("system__client_kernel"),
    "client_network": F("system__client_network"),
    "client_network_gbps": F("system__client_network_gbps"),
    "md_servers": F("system__md_servers"),
    "md_devices": F("system__md_devices"),
    "ds_servers": F("system__ds_servers"),
    "ds_devices": F("system__ds_devices"),
    "server_network": F("system__server_network"),
}


def run_details(submission_ids: Iterable[int]) -> dict[int, RunDetails]:
    """Everything public about these submissions that the list rows do not carry: three queries.

    Only submissions everyone may see are read, so a list row can never show more of a submission
    than its page does (a published list holds public submissions only; this keeps it so).
    """
    ids = sorted(set(submission_ids))
    raw = Archive.objects.filter(submission=OuterRef("pk"), kind=Archive.Kind.RESULT)
    submissions: dict[int, dict[str, Any]] = {
        row["pk"]: dict(row)
        for row in Submission.objects.filter(public_submissions_q(), pk__in=ids)
        .annotate(raw_files_public=Exists(raw))
        .values("pk", "raw_files_public", *SUBMISSION_FIELDS, **SYSTEM_VALUES)
    }
    public = list(submissions)
    runs: dict[int, dict[str, Any]] = {
        row["submission_id"]: dict(row)
        for row in Result.objects.filter(submission_id__in=public, is_primary=True).values(
            "submission_id",
            "version",
            "era",
            "mode",
            "timestamp",
            "started",
            "nodes",
            "nodes_source",
            "procs",
            "procs_source",
            "basis_level",
            "summary_only_phases",
        )
    }
    phases: dict[int, list[tuple[str, float | None, str, float | None]]] = {pk: [] for pk in public}
    measured = (
        PhaseResult.objects.filter(result__submission_id__in=public, result__is_primary=True)
        .order_by("result__submission_id", "order", "name")
        .values_list("result__submission_id", "name", "value", "unit", "time_s")
    )
    for pk, name, value, unit, time_s in measured:
        phases[pk].append((name, value, unit, time_s))
    return {pk: RunDetails(submissions[pk], runs.get(pk, {}), phases[pk]) for pk in public}


def recorded_phases(snapshot: ListSnapshot) -> dict[int, dict[str, float]]:
    """The phase values io500.org's plotted lists printed per entry (rank -> phase -> value)."""
    found: dict[int, dict[str, float]] = {}
    for rank, phases in ListEntry.objects.filter(snapshot=snapshot, recorded__has_key="phases").values_list(
        "rank", "recorded__phases"
    ):
        if isinstance(phases, dict):
            found[rank] = {name: value for name, value in phases.items() if isinstance(value, (int, float))}
    return found


def _other_phases(phases: Sequence[tuple[str, float | None, str, float | None]]) -> str | None:
    known = set(PHASES) | {"timestamp"}
    parts = [
        f"{name}={'' if value is None else f'{value:g}'} {unit}"
        + (f" ({time_s:g} s)" if time_s is not None else "")
        for name, value, unit, time_s in phases
        if name not in known
    ]
    return "; ".join(parts) or None


def run_columns(details: RunDetails | None) -> dict[str, Any]:
    """The columns a submission's rows share on every list it is on: the run, its phases, its system
    and what io500.org published for it. None (a submission not public, never the case on a
    published list) leaves them all empty."""
    if details is None:
        return dict.fromkeys(RUN_COLUMN_NAMES)
    sub, run = details.submission, details.run
    record = sub.get("published_record")
    record = record if isinstance(record, dict) else {}
    columns: dict[str, Any] = {
        "verdict": sub.get("status"),
        "valid": sub.get("valid"),
        # io500.org's values without raw files rest on nothing but the published summary.
        "evidence_basis": run.get("basis_level")
        or (BasisLevel.SUMMARIES.value if sub.get("status") == Submission.Status.RECORDED else None),
        "phases_without_raw_output": ", ".join(run.get("summary_only_phases") or ()) or None,
        "values_source": "raw_files" if details.phases else "published_record",
        "raw_files_public": sub.get("raw_files_public"),
        "io500_version": run.get("version"),
        "output_format": run.get("era"),
        "run_mode": run.get("mode") or None,
        "run_timestamp": run.get("timestamp") or None,
        "run_started": run.get("started") or None,
        "run_client_nodes": run.get("nodes"),
        "run_client_nodes_source": run.get("nodes_source") or None,
        "run_tasks": run.get("procs"),
        "run_tasks_source": run.get("procs_source") or None,
    }
    for column in IO500_ORG_COLUMNS:
        derived = column.name in IO500_ORG_DERIVED
        columns[column.name] = None if derived else column_value(record.get(column.name), column.kind)
    measured = {name: (value, time_s) for name, value, _unit, time_s in details.phases}
    for phase in PHASES:
        value, time_s = measured.get(phase, (None, None))
        columns[phase_value_column(phase)] = value
        columns[phase_time_column(phase)] = time_s
    columns["other_phases"] = _other_phases(details.phases)
    columns["system_client_network"] = sub.get("client_network") or None
    columns["system_client_network (Gbit/s)"] = sub.get("client_network_gbps")
    columns["system_server_network"] = sub.get("server_network") or None
    columns["system_md_devices"] = sub.get("md_devices") or None
    columns["system_ds_devices"] = sub.get("ds_devices") or None
    return columns


def complete_row(
    row: Mapping[str, Any],
    *,
    identity: ListIdentity,
    details: RunDetails | None,
    shared: Mapping[str, Any],
    published_phases: Mapping[str, float],
) -> dict[str, Any]:
    """One page row made complete. `shared` is `run_columns(details)`; what io500.org published for
    the entry on this list (`published_phases`, its plotted values) and the row's own values fill
    io500.org's columns that io500.org's row of the submission leaves empty."""
    complete: dict[str, Any] = {
        # `invalid_here` is the page's badge; the downloads carry the verdict and `valid` instead.
        **{key: value for key, value in row.items() if key != "invalid_here"},
        **identity.columns,
        "list_entry_id": f"{identity.entry_id_prefix}{row['rank']}",
        "submission_url": f"{identity.submission_url_prefix}{row['id']}/",
        **shared,
    }
    sub: Mapping[str, Any] = details.submission if details else {}
    # Where io500.org published no value for a phase, the value measured here stands in for it.
    measured = {
        name: value for name, value, _u, _t in (details.phases if details else ()) if value is not None
    }
    published = {**measured, **published_phases}
    for name, fallback in IO500_ORG_FALLBACKS.items():
        if complete[name] is None:
            complete[name] = column_value(fallback(row, sub, published), IO500_ORG_KINDS[name])
    return complete


@dataclass(frozen=True)
class KnownRun:
    """A submission read once: its details and the columns its rows share on every list."""

    details: RunDetails | None
    columns: dict[str, Any]


def complete_rows(
    snapshot: ListSnapshot,
    rows: Sequence[Mapping[str, Any]],
    *,
    known: dict[int, KnownRun] | None = None,
) -> list[dict[str, Any]]:
    """The rows of one list (as registry.lists.rows serialises them) made complete: four queries at
    most. `known` carries the submissions already read from one list to the next (the lists are
    cumulative, so most submissions are on many of them)."""
    identity = list_identity(snapshot)
    runs: dict[int, KnownRun] = known if known is not None else {}
    missing = {row["id"] for row in rows} - runs.keys()
    if missing:
        found = run_details(missing)
        runs.update({pk: KnownRun(found.get(pk), run_columns(found.get(pk))) for pk in missing})
    published = recorded_phases(snapshot)
    return [
        complete_row(
            row,
            identity=identity,
            details=runs[row["id"]].details,
            shared=runs[row["id"]].columns,
            published_phases=published.get(row["rank"], {}),
        )
        for row in rows
    ]


def list_rows_complete(*, snapshot: ListSnapshot, params: Mapping[str, str]) -> RowsResult:
    """The rows of one list view (its search, filters, sort and weights) with every column. The
    complete rows of the search, filters and sort are cached like the page's rows (until the next
    publish or import, for the views the site links to); a custom ranking is applied to them on
    every request and never kept (registry.lists.rows.CUSTOM_PARAMS)."""
    base = list_rows_base(snapshot=snapshot, params=params)
    key = ""
    # Only the views the site's own links ask for are kept, as for the page's rows.
    if base.cache_key and canonical_values(params, BASE_PARAMS):
        # The site address is in every row (permalinks): a changed SITE_URL must not reuse rows.
        key = f"{base.cache_key}:complete:{site_fingerprint()}"
        cached = cache.get(key)
        if isinstance(cached, RowsResult):
            return rows_ranked(cached, params)
    complete = dataclasses.replace(base, rows=complete_rows(snapshot, base.rows), cache_key=key)
    if key:
        cache.set(key, complete, LIST_CACHE_SECONDS)
    return rows_ranked(complete, params)


def list_payload_complete(snapshot: ListSnapshot, result: RowsResult) -> dict[str, Any]:
    """The JSON download and the API answer of one list: its identity, what each column holds, and
    the complete rows."""
    payload = list_payload(snapshot, result)
    rows = payload.pop("rows")
    return {
        **payload,
        **list_highlights(snapshot),
        "columns": columns_described(with_custom=result.custom),
        "rows": rows,
    }


def list_highlights(snapshot: ListSnapshot) -> dict[str, Any]:
    """A published list's awards and its entries not on the previous list of its kind (the "new"
    badges), for the JSON download and the API; cached like its rows, so a cached list answers with
    no more queries than before."""
    key = f"lists:highlights:{list_cache_generation()}:{snapshot.pk}:{snapshot.status}"
    cached = cache.get(key) if snapshot.is_frozen else None
    if isinstance(cached, dict):
        return cached
    changes = release_changes(snapshot) if snapshot.is_frozen else None
    highlights = {
        "awards": awards_payload(snapshot_awards(snapshot)),
        "previous_list": changes.previous_label if changes else None,
        "new_entries": sorted(changes.added_ids) if changes else [],
    }
    if snapshot.is_frozen:
        cache.set(key, highlights, LIST_CACHE_SECONDS)
    return highlights
