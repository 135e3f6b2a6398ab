"""Content-addressed, write-once storage of raw uploaded files through Django's storage API.

The storage key is derived from the SHA-256 of the bytes, so the same bytes always land on the same
key and an existing key is never written again. That makes storing idempotent (a retried upload
stores nothing new) and lets the ingest worker check that what it reads is what was uploaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import TypeVar

from django.conf import settings
from django.core.files import File
from django.core.files.storage import FileSystemStorage, default_storage

logger = logging.getLogger(__name__)

_CHUNK = 1024 * 1024
T = TypeVar("T")
_MAX_NAME = 120


@dataclass(frozen=True)
class Digest:
    sha256: str
    size: int


def digest_file(file: File[bytes]) -> Digest:
    """SHA-256 and size of an uploaded file, read in chunks (uploads may be hundreds of MiB)."""
    sha = hashlib.sha256()
    size = 0
    file.seek(0)
    for chunk in file.chunks(_CHUNK):
        sha.update(chunk)
        size += len(chunk)
    file.seek(0)
    return Digest(sha256=sha.hexdigest(), size=size)


def clean_original_name(name: str, fallback: str = "archive") -> str:
    """The last path component of what the browser or client called the file, safe as a key part."""
    base = PurePosixPath(name.replace("\\", "/")).name.strip()
    base = "".join(ch if ch.isprintable() and ch not in '<>:"|?*' else "_" for ch in base)
    if base in ("", ".", ".."):
        base = fallback
    if len(base) > _MAX_NAME:
        stem, dot, ext = base.rpartition(".")
        base = (stem[: _MAX_NAME - len(ext) - 1] + dot + ext) if dot and len(ext) < 16 else base[:_MAX_NAME]
    return base


def storage_key(sha256: str, original_name: str) -> str:
    return f"archives/{sha256[:2]}/{sha256}/{original_name}"


class StorageFault(Exception):
    """Our archive storage failed a call (refused it, hung, unreachable): never the submitter's fault."""


class ArchiveStorageUnavailable(StorageFault):
    """Our storage refused the bytes (full, read-only, gone, hung): nothing was kept, the upload may be
    retried."""

    def __init__(self) -> None:
        super().__init__(
            "The registry could not store your archive because its storage is full or unavailable at the "
            "moment. Nothing was kept; please upload it again later. The administrators have been alerted."
        )


class ArchiveUnreachable(StorageFault):
    """Our storage did not hand back a stored file (hung, unreachable): the file is kept, ask again later."""

    def __init__(self) -> None:
        super().__init__(
            "The registry cannot reach the storage that holds this file at the moment. The file is kept; "
            "please try again in a minute."
        )


class _Pause:
    """After a storage call that hung until its timeout, further calls of this process fail at once for
    STORAGE_PAUSE_AFTER_HANG_S: one slow answer per process and pause instead of every request waiting
    out the timeouts while the storage stays hung. A call that fails quickly (a refusal) pauses nothing."""

    until = 0.0


def _storage_call(what: str, fault: type[StorageFault], call: Callable[[], T]) -> T:
    """`call()`, with every error of the storage backend turned into `fault`. The backends are
    pluggable and raise their own types (OSError on a disk; botocore, boto3 and s3transfer errors on
    S3, none of them an OSError), so anything but our own StorageFault counts as the storage failing."""
    if time.monotonic() < _Pause.until:
        logger.warning("%s skipped: the archive storage hung a moment ago", what)
        raise fault()
    started = time.monotonic()
    try:
        return call()
    except StorageFault:
        raise
    except Exception as exc:
        elapsed = time.monotonic() - started
        if elapsed >= settings.STORAGE_HUNG_AFTER_S:
            _Pause.until = time.monotonic() + settings.STORAGE_PAUSE_AFTER_HANG_S
        logger.error("%s failed after %.1f s: %s: %s", what, elapsed, type(exc).__name__, exc)
        raise fault() from exc


def store_once(file: File[bytes], key: str) -> str:
    """Save `file` under `key` unless that key exists already (same key means same bytes).

    On a local disk the bytes go to a temporary name first and are renamed into place, so the key
    never holds a partial file: a full disk or a killed process leaves at most a `.partial-*` file,
    never a truncated archive that a later upload of the same bytes would trust.
    Raises ArchiveStorageUnavailable when the storage refuses the write or does not answer in time.
    """

    def store() -> str:
        if default_storage.exists(key):
            return key
        file.seek(0)
        if isinstance(default_storage, FileSystemStorage):
            return _save_by_rename(file, key)
        # Object stores (S3) make an object visible only once it is complete.
        return str(default_storage.save(key, file))

    return _storage_call(f"storing {key}", ArchiveStorageUnavailable, store)


def open_stored(key: str) -> File[bytes]:
    """A stored file, open for reading, whose storage has answered: S3 fetches the object on the
    first read, which would otherwise happen while the response streams, past any error page.
    Raises ArchiveUnreachable when the storage fails or does not answer in time."""

    def fetch() -> File[bytes]:
        handle: File[bytes] = default_storage.open(key, "rb")
        try:
            handle.read(0)
        except BaseException:
            handle.close()
            raise
        return handle

    return _storage_call(f"reading {key}", ArchiveUnreachable, fetch)


def storage_check() -> None:
    """A read-only round trip to the local folder or the bucket (the readiness probe)."""
    _storage_call(
        "checking the archive storage", ArchiveUnreachable, lambda: default_storage.exists("archives")
    )


def _save_by_rename(file: File[bytes], key: str) -> str:
    partial = f"{key}.partial-{uuid.uuid4().hex}"
    try:
        saved = default_storage.save(partial, file)
        # Same bytes under the same key: if a concurrent upload won the race, replacing is harmless.
        Path(default_storage.path(saved)).replace(default_storage.path(key))
    except BaseException:
        with contextlib.suppress(OSError):
            default_storage.delete(partial)
        raise
    return key


def copy_verified(key: str, expected: Digest, destination: Path) -> bool:
    """Copy a stored file to a local path; True when its bytes still hash to what was recorded.

    Raises ArchiveUnreachable when the storage fails; an OSError of `destination` (our scratch disk)
    propagates as it is, so that the caller can tell the two apart.
    """
    sha = hashlib.sha256()
    size = 0
    source = open_stored(key)
    try:
        with open(destination, "wb") as out:
            while True:
                chunk = _storage_call(f"reading {key}", ArchiveUnreachable, partial(source.read, _CHUNK))
                if not chunk:
                    break
                sha.update(chunk)
                size += len(chunk)
                out.write(chunk)
    finally:
        source.close()
    return sha.hexdigest() == expected.sha256 and size == expected.size
