"""Content-addressed, write-once storage of raw uploaded files through Django's storage API.

The storage key is derived from the SHA-256 of the bytes, so the same bytes always land on the same
key and an existing key is never written again. That makes storing idempotent (a retried upload
stores nothing new) and lets the ingest worker check that what it reads is what was uploaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from django.core.files import File
from django.core.files.storage import FileSystemStorage, default_storage

logger = logging.getLogger(__name__)

_CHUNK = 1024 * 1024
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


class ArchiveStorageUnavailable(Exception):
    """Our storage refused the bytes (full, read-only, gone): nothing was kept, the upload may be retried."""

    def __init__(self) -> None:
        super().__init__(
            "The registry could not store your archive because its storage is full or unavailable at the "
            "moment. Nothing was kept; please upload it again later. The administrators have been alerted."
        )


def store_once(file: File[bytes], key: str) -> str:
    """Save `file` under `key` unless that key exists already (same key means same bytes).

    On a local disk the bytes go to a temporary name first and are renamed into place, so the key
    never holds a partial file: a full disk or a killed process leaves at most a `.partial-*` file,
    never a truncated archive that a later upload of the same bytes would trust.
    Raises ArchiveStorageUnavailable when the storage refuses the write.
    """
    try:
        if default_storage.exists(key):
            return key
        file.seek(0)
        if isinstance(default_storage, FileSystemStorage):
            return _save_by_rename(file, key)
        # Object stores (S3) make an object visible only once it is complete.
        return default_storage.save(key, file)
    except OSError as exc:
        logger.error("storing %s failed: %s", key, exc)
        raise ArchiveStorageUnavailable() from exc


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
    """Copy a stored file to a local path; True when its bytes still hash to what was recorded."""
    sha = hashlib.sha256()
    size = 0
    with default_storage.open(key, "rb") as source, open(destination, "wb") as out:
        stream: IO[bytes] = source
        while chunk := stream.read(_CHUNK):
            sha.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return sha.hexdigest() == expected.sha256 and size == expected.size
