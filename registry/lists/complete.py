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
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, F, OuterRef
from django.urls import reverse

from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.query_params import canonical_values
from registry.lists.rows import (
    CUSTOM_FIELDS,
    ROW_FIELDS,
    ROW_PARAMS,
    SUBLIST_FIELDS,
    RowsResult,
    list_payload,
    list_rows_cached,
)
from registry.models import ListEntry, ListSnapshot
from scoring.model import PHASE_ORDER, BasisLevel
from scoring.readers.phases import unit_of
from scoring.rules.score import EXTENDED_BW_PHASES, EXTENDED_MD_PHASES
from submissions.models import Archive, PhaseResult, Result, Submission
from submissions.selectors import public_submissions_q

NUMBER, INTEGER, TEXT, BOOLEAN = "number", "integer", "text", "boolean"


@dataclass(frozen=True)
class Column:
    """One column of the complete download: its name (the CSV header and the JSON key), the type of
    its values, its unit and what it holds."""

    name: str
    kind: str
    description: str
    unit: str = ""
    io500_org: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "unit": self.unit or None,
            "io500_org": self.io500_org,
            "description": self.description,
        }


# The columns of the list page (registry.lists.rows.ROW_FIELDS), described.
PAGE_COLUMNS = (
    Column("rank", INTEGER, "Position on this list (io500.org's download writes it into its `id` column)."),
    Column(
        "id", INTEGER, "The registry's submission id (stable; the submission page is /submissions/<id>/)."
    ),
    Column("io500_id", INTEGER, "io500.org's submission id, for entries that came from io500.org."),
    Column("release", TEXT, "The release in which the submission first appeared."),
    Column("institution", TEXT, "Institution, as the list printed it."),
    Column("system", TEXT, "System, as the list printed it."),
    Column("storage_vendor", TEXT, "Storage vendor."),
    Column("filesystem", TEXT, "File-system type, as the list printed it."),
    Column("client_nodes", INTEGER, "Client nodes of the run."),
    Column("total_procs", INTEGER, "Client processes of the run (nodes times processes per node)."),
    Column("score", NUMBER, "The list score: sqrt(bw * md) as this list ranked it."),
    Column("bw", NUMBER, "Bandwidth score of this list entry.", unit="GiB/s"),
    Column("md", NUMBER, "Metadata score of this list entry.", unit="kIOPS"),
    Column("reproducibility", TEXT, "The committee's reproducibility level (code)."),
    Column("submitter", TEXT, "The submitter's name, \"anonymous\", or empty for io500.org's history."),
)
CUSTOM_COLUMNS = (
    Column("custom_score", NUMBER, "Only with custom weights: BW^a * MD^b, a + b = 1."),
    Column("custom_rank", INTEGER, "Only with custom weights: the position by custom_score."),
)
PROVENANCE_COLUMN = Column(
    "list_provenance",
    TEXT,
    "Where the list comes from: recorded (as io500.org published it), reconstructed (rebuilt here "
    "by the registry's rules, not an official list) or published_here (by this registry's committee).",
)

IDENTITY_COLUMNS = (
    Column("reproducibility_label", TEXT, "The reproducibility level as the lists show it."),
    Column(
        "list_entry_id",
        TEXT,
        "Citable id of this row: io500-<release>-<kind>-v<version>-<rank>. A published list never "
        "changes, so the id always names the same entry; /entries/<id>/ leads to it.",
    ),
    Column("submission_url", TEXT, "Permalink of the submission page."),
    Column("list_release", TEXT, "The release of the list this row belongs to."),
    Column("list_label", TEXT, 'The list\'s name as published, e.g. "SC18*" for the corrected SC18.'),
    Column("list_kind", TEXT, "The kind of list: io500, production, research, ten-node, full, ..."),
    Column("list_version", INTEGER, "Version of the list (a correction is a new version)."),
    Column("list_status", TEXT, "published, or superseded by a corrected version."),
    Column("list_published_at", TEXT, "When the list was published (ISO 8601)."),
    Column("list_official", BOOLEAN, "False for a reconstructed list, which no IO500 committee published."),
    Column("list_url", TEXT, "Permalink of the list (this version)."),
    Column(
        "verdict",
        TEXT,
        "The registry's verdict on the run: verified (re-verified from its files; evidence_basis "
        "says from which), invalid (its files break a run rule, or io500.org marked it invalid), "
        "recorded (io500.org's published values; raw files not public).",
    ),
    Column("valid", BOOLEAN, "Whether the run is valid (io500.org's status for recorded runs)."),
    Column(
        "evidence_basis",
        TEXT,
        "What the verdict rests on, weakest first: summaries (some scored phase's value is backed by "
        "the summary files alone; also io500.org's published values without raw files), tool-outputs, "
        "per-rank, cross-phase. The registry's check of the files, not the IO500 Messaging Policy's "
        '"verified".',
    ),
    Column(
        "phases_without_raw_output",
        TEXT,
        "The scored phases whose value no raw output backs, separated by commas (empty: none).",
    ),
    Column(
        "values_source",
        TEXT,
        "raw_files: the phase columns with units were read from the run's output files here; "
        "published_record: only io500.org's published values exist.",
    ),
    Column("raw_files_public", BOOLEAN, "Whether the run's result files are stored here and public."),
    Column("io500_version", TEXT, "The IO500 version the run's output names (empty: it names none)."),
    Column("output_format", TEXT, "The IO500 output era the scoring engine read (e.g. c-isc25, shell)."),
    Column("run_mode", TEXT, "standard or extended, as the run's output says."),
    Column("run_timestamp", TEXT, "When the run started, as its output names it."),
)

# io500.org's `submissions` table in column order (the SQL files of IO500/webpage, replayed:
# lists/submissions.csv of the shared IO500 data), without `id` and `score` (page columns above) and
# without `information_submitter`, which io500.org never publishes. The ALTER of
# sql/2024-04-07-map-fields.sql that adds three more columns names a column no public file creates
# (`information_md_sockets`), so what io500.org's table holds since then is not known.
IO500_ORG_NUMBERS = frozenset(
    {
        "io500_score",
        "io500_bw",
        "io500_md",
        "io500_tot_iops",
        "ior_easy_write",
        "ior_easy_read",
        "ior_hard_write",
        "ior_hard_read",
        "mdtest_easy_write",
        "mdtest_easy_stat",
        "mdtest_easy_delete",
        "mdtest_hard_write",
        "mdtest_hard_read",
        "mdtest_hard_stat",
        "mdtest_hard_delete",
        "find_easy",
        "find_hard",
        "find_mixed",
    }
)
IO500_ORG_INTEGERS = frozenset(
    {
        "information_client_nodes",
        "information_client_total_procs",
        "information_10_node_challenge",
        "include_in_io500",
    }
)
IO500_ORG_NAMES = (
    "release_id",
    "information_system",
    "information_institution",
    "information_storage_vendor",
    "information_filesystem_type",
    "information_client_nodes",
    "information_client_total_procs",
    "io500_score",
    "io500_bw",
    "io500_md",
    "io500_tot_iops",
    "information_data",
    "information_10_node_challenge",
    "information_list_name",
    "information_identifier",
    "information_submission_date",
    "information_embargo_end_date",
    "information_storage_install_date",
    "information_storage_refresh_date",
    "information_filesystem_name",
    "information_filesystem_version",
    "information_client_procs_per_node",
    "information_client_operating_system",
    "information_client_operating_system_version",
    "information_client_kernel_version",
    "information_md_nodes",
    "information_md_storage_devices",
    "information_md_storage_type",
    "information_md_volatile_memory_capacity",
    "information_md_storage_interface",
    "information_md_network",
    "information_md_software_version",
    "information_md_operating_system_version",
    "information_ds_nodes",
    "information_ds_storage_devices",
    "information_ds_storage_type",
    "information_ds_volatile_memory_capacity",
    "information_ds_storage_interface",
    "information_ds_network",
    "information_ds_software_version",
    "information_ds_operating_system_version",
    "information_note",
    "information_best",
    "ior_easy_write",
    "ior_easy_read",
    "ior_hard_write",
    "ior_hard_read",
    "mdtest_easy_write",
    "mdtest_easy_stat",
    "mdtest_easy_delete",
    "mdtest_hard_write",
    "mdtest_hard_read",
    "mdtest_hard_stat",
    "mdtest_hard_delete",
    "find_easy",
    "find_hard",
    "find_mixed",
    "marker_score",
    "marker_md",
    "storage_data",
    "status",
    "include_in_io500",
    "valid_from",
    "valid_to",
    "cdcl_url",
    "repository_url",
)
# The scored phases under io500.org's names (find: `find_mixed`, the column io500.org fills since
# ISC21; its SC19 .. ISC20 rows repeat the value in `find_easy`).
IO500_ORG_PHASE_NAMES = {
    "ior-easy-write": "ior_easy_write",
    "ior-easy-read": "ior_easy_read",
    "ior-hard-write": "ior_hard_write",
    "ior-hard-read": "ior_hard_read",
    "mdtest-easy-write": "mdtest_easy_write",
    "mdtest-easy-stat": "mdtest_easy_stat",
    "mdtest-easy-delete": "mdtest_easy_delete",
    "mdtest-hard-write": "mdtest_hard_write",
    "mdtest-hard-read": "mdtest_hard_read",
    "mdtest-hard-stat": "mdtest_hard_stat",
    "mdtest-hard-delete": "mdtest_hard_delete",
    "find": "find_mixed",
}
IO500_ORG_UNITS = {
    **dict.fromkeys(
        ("io500_bw", "ior_easy_write", "ior_easy_read", "ior_hard_write", "ior_hard_read"), "GiB/s"
    ),
    **{
        name: "kIOPS"
        for name in IO500_ORG_NUMBERS
        if name.startswith(("mdtest_", "find_")) or name in ("io500_md", "io500_tot_iops")
    },
}


def _io500_org_kind(name: str) -> str:
    if name in IO500_ORG_NUMBERS:
        return NUMBER
    return INTEGER if name in IO500_ORG_INTEGERS else TEXT


IO500_ORG_DESCRIPTIONS = {
    "release_id": "The release in which the submission first appeared, by name, as io500.org's "
    "download replaces its internal release id.",
    **dict.fromkeys(
        IO500_ORG_PHASE_NAMES.values(),
        "io500.org's value of the phase for this entry (its row, or the list as io500.org printed "
        "it), else the value measured here.",
    ),
}


IO500_ORG_COLUMNS: tuple[Column, ...] = tuple(
    Column(
        name,
        _io500_org_kind(name),
        IO500_ORG_DESCRIPTIONS.get(
            name,
            "io500.org's column: what io500.org published for the entry, else the registry's value "
            "of the same meaning where it keeps one.",
        ),
        unit=IO500_ORG_UNITS.get(name, ""),
        io500_org=True,
    )
    for name in IO500_ORG_NAMES
)

IO500_ORG_KINDS = {column.name: column.kind for column in IO500_ORG_COLUMNS}

# Every phase the IO500 application runs, in its order: the twelve scored ones, the unscored
# ior-rnd4K-easy-read, and the extended mode's phases (md-workbench as the application names its
# sections). `timestamp` is left out: it marks when the run happened and measures nothing; the run's
# start is `run_timestamp`.
PHASES = (
    *(name for name in PHASE_ORDER if name != "timestamp"),
    *EXTENDED_BW_PHASES,
    "mdworkbench-create",
    "mdworkbench-bench",
    "mdworkbench-delete",
    *(name for name in EXTENDED_MD_PHASES if name != "mdworkbench-bench"),
)


def phase_value_column(phase: str) -> str:
    return f"{phase} ({unit_of(phase)})"


def phase_time_column(phase: str) -> str:
    return f"{phase} time (seconds)"


PHASE_COLUMNS = (
    *(
        column
        for phase in PHASES
        for column in (
            Column(
                phase_value_column(phase),
                NUMBER,
                f"{phase} as re-derived here from the run's output files.",
                unit=unit_of(phase),
            ),
            Column(phase_time_column(phase), NUMBER, f"The time {phase} ran.", unit="seconds"),
        )
    ),
    Column(
        "other_phases",
        TEXT,
        "Phases of the run under names no column above has, as 'name=value unit (time s)', '; '-separated.",
    ),
)

# The system description's typed fields without an io500.org column of the same meaning.
SYSTEM_COLUMNS = (
    Column("system_client_network", TEXT, "The client nodes' network, as described."),
    Column("system_client_network (Gbit/s)", NUMBER, "Client network bandwidth per node.", unit="Gbit/s"),
    Column("system_server_network", TEXT, "The storage servers' network, as described."),
    Column("system_md_devices", TEXT, "The metadata servers' storage devices, as described."),
    Column("system_ds_devices", TEXT, "The data servers' storage devices, as described."),
)

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


def list_entry_id(*, release_slug: str, kind: str, version: int, rank: int) -> str:
    return f"io500-{release_slug}-{kind}-v{version}-{rank}"


def site_url(path: str) -> str:
    """An absolute link on the registry's canonical address (settings.SITE_URL), whichever host name
    the request came by: a cached page or download is the same for every reader."""
    return str(settings.SITE_URL).rstrip("/") + path


def list_permalink(snapshot: ListSnapshot) -> str:
    path = reverse("frontend:list", kwargs={"release": snapshot.release.slug, "kind": snapshot.kind})
    return site_url(f"{path}?version={snapshot.version}")


def submission_permalink(pk: int) -> str:
    return site_url(reverse("submissions:detail", kwargs={"pk": pk}))


def _submission_permalink_prefix() -> str:
    """The permalink of a submission without its id, so that rows need no URL reversing each."""
    sample = submission_permalink(0)
    return sample[: -len("0/")]


@dataclass(frozen=True)
class ListIdentity:
    """What every row of one list shares: its columns, and the start of its rows' entry ids."""

    columns: dict[str, Any]
    entry_id_prefix: str
    submission_url_prefix: str


def list_identity(snapshot: ListSnapshot) -> ListIdentity:
    columns = {
        "list_provenance": snapshot.provenance,
        "list_release": snapshot.release.name,
        "list_label": snapshot.label or snapshot.release.name,
        "list_kind": snapshot.kind,
        "list_version": snapshot.version,
        "list_status": snapshot.status,
        "list_published_at": snapshot.published_at.isoformat() if snapshot.published_at else None,
        "list_official": snapshot.provenance != ListSnapshot.Provenance.RECONSTRUCTED,
        "list_url": list_permalink(snapshot),
    }
    prefix = list_entry_id(
        release_slug=snapshot.release.slug, kind=snapshot.kind, version=snapshot.version, rank=0
    )
    return ListIdentity(
        columns=columns,
        entry_id_prefix=prefix[: -len("0")],
        submission_url_prefix=_submission_permalink_prefix(),
    )


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
            "submission_id", "version", "era", "mode", "timestamp", "basis_level", "summary_only_phases"
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


def _typed(value: Any, kind: str) -> Any:
    """io500.org's record keeps the SQL text ("243.640000"); numbers become numbers, and text that
    is not a number where io500.org's column is numeric stays as it was written, never dropped."""
    if value is None:
        return None
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            return None
    if kind in (NUMBER, INTEGER):
        try:
            number = float(value)
        except (TypeError, ValueError):
            return value
        if not math.isfinite(number):
            # JSON has no infinity: such text stays text.
            return str(value)
        return int(number) if kind == INTEGER and number.is_integer() else number
    return value if kind == BOOLEAN else str(value)


def _repository_url(record: Mapping[str, Any]) -> str | None:
    """The run's folder in IO500/submission-data, as io500.org's `repository_url` links it."""
    path = record.get("source_path")
    if not isinstance(path, str) or not path:
        return None
    return "https://github.com/IO500/submission-data/tree/master/" + quote(path)


Fallback = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, float]], Any]


# Written by the registry even for io500.org's rows: io500.org's download replaces its internal release
# id by the release's acronym, which the record does not hold.
IO500_ORG_DERIVED = frozenset({"release_id"})


def _date(value: Any) -> str | None:
    return value.date().isoformat() if value is not None else None


def _published_phase(phase: str) -> Fallback:
    def value(row: Mapping[str, Any], sub: Mapping[str, Any], published: Mapping[str, float]) -> Any:
        return published.get(phase)

    return value


# Where the registry keeps a value of the same meaning as an io500.org column, for entries io500.org
# never published: (page row, submission details, phases published for the entry) -> value.
IO500_ORG_FALLBACKS: dict[str, Fallback] = {
    "release_id": lambda row, sub, pub: row["release"],
    "information_system": lambda row, sub, pub: row["system"],
    "information_institution": lambda row, sub, pub: row["institution"],
    "information_storage_vendor": lambda row, sub, pub: row["storage_vendor"],
    "information_filesystem_type": lambda row, sub, pub: row["filesystem"],
    "information_client_nodes": lambda row, sub, pub: row["client_nodes"],
    "information_client_total_procs": lambda row, sub, pub: row["total_procs"],
    "io500_score": lambda row, sub, pub: row["score"],
    "io500_bw": lambda row, sub, pub: row["bw"],
    "io500_md": lambda row, sub, pub: row["md"],
    "information_10_node_challenge": lambda row, sub, pub: int(sub["ten_node"]) if sub else None,
    "information_submission_date": lambda row, sub, pub: _date(sub.get("submitted_at")),
    "information_filesystem_name": lambda row, sub, pub: sub.get("fs_name") or None,
    "information_filesystem_version": lambda row, sub, pub: sub.get("fs_version") or None,
    "information_client_procs_per_node": lambda row, sub, pub: sub.get("procs_per_node"),
    "information_client_operating_system": lambda row, sub, pub: sub.get("client_os") or None,
    "information_client_kernel_version": lambda row, sub, pub: sub.get("client_kernel") or None,
    "information_md_nodes": lambda row, sub, pub: sub.get("md_servers"),
    "information_ds_nodes": lambda row, sub, pub: sub.get("ds_servers"),
    "repository_url": lambda row, sub, pub: _repository_url(sub.get("published_record") or {}),
    **{column: _published_phase(phase) for phase, column in IO500_ORG_PHASE_NAMES.items()},
}


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
    }
    for column in IO500_ORG_COLUMNS:
        derived = column.name in IO500_ORG_DERIVED
        columns[column.name] = None if derived else _typed(record.get(column.name), column.kind)
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
        **row,
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
            complete[name] = _typed(fallback(row, sub, published), IO500_ORG_KINDS[name])
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
    """The rows of one list view (its search, filters, sort and weights) with every column, cached
    like the page's rows: until the next publish or import, for the views the site links to."""
    result = list_rows_cached(snapshot=snapshot, params=params)
    key = ""
    # Only the views the site's own links ask for are kept, as for the page's rows.
    if result.cache_key and result.canonical and canonical_values(params, ROW_PARAMS):
        # The site address is in every row (permalinks): a changed SITE_URL must not reuse rows.
        key = (
            f"{result.cache_key}:complete:{hashlib.sha256(str(settings.SITE_URL).encode()).hexdigest()[:12]}"
        )
        cached = cache.get(key)
        if isinstance(cached, RowsResult):
            return cached
    complete = dataclasses.replace(result, rows=complete_rows(snapshot, result.rows), cache_key=key)
    if key:
        cache.set(key, complete, LIST_CACHE_SECONDS)
    return complete


def list_payload_complete(snapshot: ListSnapshot, result: RowsResult) -> dict[str, Any]:
    """The JSON download and the API answer of one list: its identity, what each column holds, and
    the complete rows."""
    payload = list_payload(snapshot, result)
    rows = payload.pop("rows")
    return {**payload, "columns": columns_described(with_custom=result.custom), "rows": rows}
