"""io500.org's download columns, under io500.org's names, with their types and units.

io500.org's list download (IO500/webpage src/Controller/ListingsController.php, download()) writes
every column of its `submissions` table except `information_submitter`, plus the list score. For an
entry that came from io500.org they hold what io500.org published for it; where io500.org has no value
(a run uploaded here), the registry's value of the same meaning (IO500_ORG_FALLBACKS), else nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from registry.lists.columns import BOOLEAN, INTEGER, NUMBER, TEXT, Column
from submissions.io500_org import IO500_ORG_PHASE_NAMES

# io500.org's `submissions` table in column order (the SQL files of IO500/webpage, replayed:
# lists/submissions.csv of the shared IO500 data), without `id` and `score` (the page's columns,
# registry.lists.columns) and without `information_submitter`, which io500.org never publishes. The ALTER of
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
        "Recorded by io500.org: its value of the phase for this entry (its row, or the list as "
        "io500.org printed it), authoritative for the official IO500 lists; for a run io500.org never "
        "published, the value measured here. The value recomputed here from the raw files is in "
        "'<phase> recomputed (<unit>)'.",
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


def column_value(value: Any, kind: str) -> Any:
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
