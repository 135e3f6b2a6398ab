"""One download of everything public: every entry of every published list, with every column of the
list downloads (registry.lists.complete), as CSV and as JSON, gzip-compressed.

Every public submission is on at least one published list (the Historical lists hold them all), so
the entries of the visible lists are everything public. Only lists anyone may read are included:
published or superseded, and out of embargo (registry.lists.selectors.visible_snapshots); drafts,
lists under embargo and submissions on no published list never are.

Building the files reads every list (four queries each) and compresses some megabytes, so each
file is built once per list cache generation (a publish, an import or a release change moves it on)
and kept in the cache as compressed bytes until then, at most until the next embargo ends; one
process builds it while the others wait briefly for it, so a crawler asking again and again costs a
cache read each time.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from django.core.cache import cache
from django.utils import timezone

from frontend.lists.csv_cells import csv_write
from frontend.lists.readme import readme_url
from registry.core.generations import list_cache_generation
from registry.core.site import site_fingerprint, site_url
from registry.lists.columns import PHASE_AUTHORITY
from registry.lists.complete import KnownRun, columns_described, complete_fields, complete_rows
from registry.lists.rows import RowsResult, list_payload, list_row_values
from registry.lists.selectors import list_entries, seconds_until_next_embargo_end, visible_snapshots
from registry.models import KIND_ORDER, ListSnapshot

BULK_FORMATS = ("csv", "json")
# A built file stays current until the list generation moves on; this only bounds a forgotten entry.
BULK_CACHE_SECONDS = 24 * 3600
# Longer than a build takes on the full history (a few seconds), so two builds never overlap.
BUILD_LOCK_SECONDS = 120
# How long a request waits for the file another process is building before it is told to come back.
WAIT_FOR_BUILD_SECONDS = 10.0
COMPRESS_LEVEL = 6
ABOUT = (
    "Every entry of every published IO500 list in this registry (each list once per version), with "
    "the columns of the list downloads. Lists marked list_official = false were reconstructed here by "
    "the registry's rules and are not official IO500 lists. Cite the list and release an entry is on, "
    "with its rank, when you quote a result."
)


@dataclass(frozen=True)
class BulkFile:
    """A built bulk download: the gzip bytes and what they hold."""

    fmt: str
    body: bytes
    etag: str
    generated_at: str
    lists: int
    rows: int

    @property
    def filename(self) -> str:
        return f"io500-registry-all-lists.{self.fmt}.gz"


def _ordered_snapshots() -> list[ListSnapshot]:
    """Every visible list: by release, then in tab order, then version."""
    position = {kind.value: index for index, kind in enumerate(KIND_ORDER)}
    snapshots = list(visible_snapshots().select_related("release"))
    return sorted(
        snapshots,
        key=lambda s: (
            s.release.publication_date,
            s.release.name,
            position.get(s.kind, len(position)),
            s.version,
        ),
    )


def _lists_with_rows() -> Iterator[tuple[ListSnapshot, list[dict[str, Any]]]]:
    known: dict[int, KnownRun] = {}
    for snapshot in _ordered_snapshots():
        rows = list_row_values(list_entries(snapshot=snapshot))
        yield snapshot, complete_rows(snapshot, rows, known=known)


def list_summary(snapshot: ListSnapshot, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A list's identity as the list API answers it, without its rows."""
    payload = list_payload(snapshot, RowsResult(rows=rows, weights=None, filter_errors={}))
    # What depends on a view of the list (weights, formula, filters, their statistics) is not in it.
    for view_key in (
        "rows",
        "custom_weights",
        "custom_formula",
        "custom_errors",
        "custom_notes",
        "sublist",
        "statistics",
    ):
        del payload[view_key]
    return payload


def _write_csv(stream: TextIO) -> tuple[int, int]:
    fields = complete_fields(with_custom=False)
    lists = rows = 0
    csv_write(stream, fields, ())
    for _snapshot, list_rows in _lists_with_rows():
        csv_write(stream, fields, list_rows, header=False)
        lists, rows = lists + 1, rows + len(list_rows)
    return lists, rows


def _write_json(stream: TextIO, generated_at: str) -> tuple[int, int]:
    """One JSON document written row by row: the rows first, the lists they belong to after them."""
    head = {
        "about": ABOUT,
        "phase_values": PHASE_AUTHORITY,
        "readme": readme_url(),
        "generated_at": generated_at,
        "site": site_url(),
        "columns": columns_described(with_custom=False),
    }
    stream.write(json.dumps(head)[:-1] + ', "rows": [')
    summaries: list[dict[str, Any]] = []
    rows = 0
    for snapshot, list_rows in _lists_with_rows():
        for row in list_rows:
            stream.write(("\n" if rows == 0 else ",\n") + json.dumps(row))
            rows += 1
        summaries.append(list_summary(snapshot, list_rows))
    stream.write('\n], "lists": ' + json.dumps(summaries) + "}\n")
    return len(summaries), rows


def bulk_build(fmt: str) -> BulkFile:
    """The file built now, from the database."""
    generated_at = timezone.now().isoformat()
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=COMPRESS_LEVEL, mtime=0) as compressed,
        io.TextIOWrapper(compressed, encoding="utf-8", newline="") as text,
    ):
        lists, rows = _write_csv(text) if fmt == "csv" else _write_json(text, generated_at)
    body = buffer.getvalue()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    return BulkFile(fmt=fmt, body=body, etag=etag, generated_at=generated_at, lists=lists, rows=rows)


def _key(fmt: str) -> str:
    # The site address is in every row (permalinks).
    return f"lists:bulk:{list_cache_generation()}:{site_fingerprint()}:{fmt}"


def bulk_file(fmt: str) -> BulkFile | None:
    """The current file, from the cache or built here; None when another process is building it and
    it did not appear in time (the caller asks the client to come back)."""
    key = _key(fmt)
    found = cache.get(key)
    if isinstance(found, BulkFile):
        return found
    lock, token = f"{key}:building", uuid.uuid4().hex
    if cache.add(lock, token, BUILD_LOCK_SECONDS):
        try:
            built = bulk_build(fmt)
            # A release leaving its embargo adds lists without a generation move: keep it until then.
            cache.set(key, built, seconds_until_next_embargo_end(cap=BULK_CACHE_SECONDS))
            return built
        finally:
            if cache.get(lock) == token:
                cache.delete(lock)
    deadline = time.monotonic() + WAIT_FOR_BUILD_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.25)
        found = cache.get(key)
        if isinstance(found, BulkFile):
            return found
    return None
