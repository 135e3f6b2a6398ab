"""One download of everything public: every entry of every published list, with every column of the
list downloads (registry.lists.complete), as CSV and as JSON, gzip-compressed.

Every public submission is on at least one published list (the Historical lists hold them all), so
the entries of the visible lists are everything public. Only lists anyone may read are included:
published or superseded, and out of embargo (registry.lists.selectors.visible_snapshots); drafts,
lists under embargo and submissions on no published list never are.

Building the files reads every list (four queries each) and compresses some megabytes (about two
seconds on the full history), so no request builds them: a Celery task (frontend.lists.tasks) builds
both after every change of the lists (`lists_changed`: a publish, an import, a release change) and
stores them in the default storage under the list cache generation; a request reads the stored file.
A release leaving its embargo adds lists without a generation move: a beat task, every minute,
rebuilds files older than an embargo's end (or missing), and a request that finds such a file serves
it (it lacks the new lists, it holds nothing hidden) and queues a rebuild. Until the first build of
a generation is stored the answer is 503 with Retry-After.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any, TextIO

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from frontend.lists.csv_cells import csv_write
from frontend.lists.readme import readme_url
from registry.core.generations import list_cache_generation
from registry.core.site import site_fingerprint, site_url
from registry.lists.columns import PHASE_AUTHORITY
from registry.lists.complete import KnownRun, columns_described, complete_fields, complete_rows
from registry.lists.rows import RowsResult, list_payload, list_row_values
from registry.lists.selectors import list_entries, next_embargo_end, visible_snapshots
from registry.models import KIND_ORDER, ListSnapshot

BULK_FORMATS = ("csv", "json")
# How long shared caches may keep a download (the file itself is current until the lists change).
BULK_CACHE_SECONDS = 24 * 3600
# Longer than a build takes on the full history (a few seconds): a second build is not queued meanwhile.
BUILD_LOCK_SECONDS = 120
# The folder of the default storage (MEDIA_ROOT or the object store) that holds the built files.
STORAGE_DIR = "bulk-downloads"
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


# Every visible list with its complete rows, in file order: what both formats are written from.
BulkLists = list[tuple[ListSnapshot, list[dict[str, Any]]]]


def bulk_lists() -> BulkLists:
    """Read once by a build of both files: the rows are most of a build's work (about half of each
    file's), the writing and compressing the rest."""
    known: dict[int, KnownRun] = {}
    lists: BulkLists = []
    for snapshot in _ordered_snapshots():
        rows = list_row_values(list_entries(snapshot=snapshot))
        lists.append((snapshot, complete_rows(snapshot, rows, known=known)))
    return lists


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


def _write_csv(stream: TextIO, lists_with_rows: BulkLists) -> tuple[int, int]:
    fields = complete_fields(with_custom=False)
    lists = rows = 0
    csv_write(stream, fields, ())
    for _snapshot, list_rows in lists_with_rows:
        csv_write(stream, fields, list_rows, header=False)
        lists, rows = lists + 1, rows + len(list_rows)
    return lists, rows


def _write_json(stream: TextIO, generated_at: str, lists_with_rows: BulkLists) -> tuple[int, int]:
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
    for snapshot, list_rows in lists_with_rows:
        for row in list_rows:
            stream.write(("\n" if rows == 0 else ",\n") + json.dumps(row))
            rows += 1
        summaries.append(list_summary(snapshot, list_rows))
    stream.write('\n], "lists": ' + json.dumps(summaries) + "}\n")
    return len(summaries), rows


def bulk_build(fmt: str, lists: BulkLists | None = None) -> BulkFile:
    """The file built now, from the database, or from `lists` (bulk_lists) read for both formats."""
    lists_with_rows = bulk_lists() if lists is None else lists
    generated_at = timezone.now().isoformat()
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=COMPRESS_LEVEL, mtime=0) as compressed,
        io.TextIOWrapper(compressed, encoding="utf-8", newline="") as text,
    ):
        if fmt == "csv":
            count, rows = _write_csv(text, lists_with_rows)
        else:
            count, rows = _write_json(text, generated_at, lists_with_rows)
    body = buffer.getvalue()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    return BulkFile(fmt=fmt, body=body, etag=etag, generated_at=generated_at, lists=count, rows=rows)


def _prefix() -> str:
    # The site address is in every row (permalinks); the generation moves on with every list change.
    return f"{STORAGE_DIR}/{list_cache_generation()}-{site_fingerprint()}"


def _names(prefix: str, fmt: str) -> tuple[str, str]:
    """The stored file and its description (what the response headers say)."""
    return f"{prefix}.{fmt}.gz", f"{prefix}.{fmt}.meta.json"


def _save(name: str, body: bytes) -> None:
    # Written under a fixed name: an earlier copy (a rebuild at an embargo's end) is replaced.
    if default_storage.exists(name):
        default_storage.delete(name)
    default_storage.save(name, ContentFile(body))


def bulk_store(fmt: str, lists: BulkLists | None = None) -> BulkFile:
    """Build the file (from the database, or from `lists`) and store it for the current list
    generation."""
    prefix = _prefix()
    built = bulk_build(fmt, lists)
    upcoming = next_embargo_end()
    body_name, meta_name = _names(prefix, fmt)
    _save(body_name, built.body)
    meta = {
        "etag": built.etag,
        "generated_at": built.generated_at,
        "lists": built.lists,
        "rows": built.rows,
        # A release leaving its embargo adds lists without a generation move: rebuilt then.
        "stale_after": upcoming.isoformat() if upcoming else None,
    }
    _save(meta_name, json.dumps(meta).encode())
    return built


def bulk_prune() -> int:
    """Delete the files of earlier generations and site addresses; how many were deleted."""
    current = _prefix().rsplit("/", 1)[1]
    try:
        _folders, files = default_storage.listdir(STORAGE_DIR)
    except FileNotFoundError:
        return 0
    stale = [name for name in files if not name.startswith(current + ".")]
    for name in stale:
        default_storage.delete(f"{STORAGE_DIR}/{name}")
    return len(stale)


def _stored(fmt: str) -> tuple[BulkFile, bool] | None:
    """The stored file of the current generation and whether an embargo ended since it was built."""
    body_name, meta_name = _names(_prefix(), fmt)
    try:
        with default_storage.open(meta_name) as meta_file:
            meta = json.loads(meta_file.read())
        with default_storage.open(body_name) as body_file:
            body = body_file.read()
    except FileNotFoundError:
        return None
    found = BulkFile(
        fmt=fmt,
        body=body,
        etag=meta["etag"],
        generated_at=meta["generated_at"],
        lists=meta["lists"],
        rows=meta["rows"],
    )
    stale_after = meta.get("stale_after")
    stale = bool(stale_after) and timezone.now() >= datetime.datetime.fromisoformat(stale_after)
    return found, stale


def _queued_key() -> str:
    return f"lists:bulk:{list_cache_generation()}:queued"


def bulk_needs_build() -> bool:
    """A file of the current lists is missing, or older than an embargo's end."""
    for fmt in BULK_FORMATS:
        found = _stored(fmt)
        if found is None or found[1]:
            return True
    return False


def bulk_build_schedule() -> None:
    """Queue one build of both files (a Celery task); a build queued in the last BUILD_LOCK_SECONDS
    counts, so a crawler asking again and again queues nothing more."""
    from frontend.lists.tasks import bulk_downloads_queue

    if cache.add(_queued_key(), True, BUILD_LOCK_SECONDS):
        bulk_downloads_queue()


def bulk_file(fmt: str) -> BulkFile | None:
    """The current file, from storage; never built in the request. None when it is not built yet:
    a build is queued and the caller asks the client to come back (where tasks run in-process, as in
    the demo, the queued build has run and the file is there)."""
    found = _stored(fmt)
    if found is None:
        bulk_build_schedule()
        found = _stored(fmt)
        if found is None:
            return None
    current, stale = found
    if stale:
        # Served as it is (it lacks the lists that just left their embargo, it holds nothing hidden)
        # while the new one is built.
        bulk_build_schedule()
    return current
