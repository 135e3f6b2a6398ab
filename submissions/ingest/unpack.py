"""Safe extraction of an uploaded archive into a private folder.

Nothing from the archive is trusted: member names, types and sizes are checked one by one, files are
created with fixed permissions and without following links, and the limits count the bytes actually
written, because a bomb lies in its headers. The first breach stops everything with an
`ExtractionRejected` whose message a submitter can act on.
"""

from __future__ import annotations

import errno
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO, Self

from scoring.readers.tarstream import (
    BoundedTarInfo,
    TarRejected,
    compression_of,
    decompressed,
    finish_stream,
    fmt_bytes,
    shown_name,
)

MAX_MEMBERS = 10_000
MAX_UNPACKED_BYTES = 2 * 1024**3
MAX_RATIO = 100
# Real result folders are two or three levels deep with short names; these bounds keep hostile
# names from reaching the file system's own limits, where errors would be cryptic.
MAX_NAME_BYTES = 255
MAX_PATH_CHARS = 1024
MAX_DEPTH = 64
_CHUNK = 1024 * 1024
_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}

_GZIP_MAGIC = b"\x1f\x8b"
_BZIP2_MAGIC = b"BZh"
_XZ_MAGIC = b"\xfd7zXZ\x00"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")


class ExtractionRejected(Exception):
    """The archive was refused; the message says why in words a submitter understands."""


@dataclass(frozen=True)
class Limits:
    max_members: int = MAX_MEMBERS
    max_unpacked_bytes: int = MAX_UNPACKED_BYTES
    max_ratio: float = MAX_RATIO


@dataclass(frozen=True)
class ExtractionReport:
    members: int
    files: int
    unpacked_bytes: int


@dataclass(frozen=True)
class _Member:
    """One archive entry, reduced to what extraction needs, whatever the archive format."""

    name: str
    kind: str  # "file" | "dir" | "symlink" | "hardlink" | "device" | "fifo" | "other"
    open: Callable[[], IO[bytes] | None]  # the member's content (files only)


def archive_format(path: Path) -> str:
    """'tar' or 'zip', read from the first bytes rather than the file name (which may lie)."""
    with open(path, "rb") as f:
        head = f.read(512)
    if head.startswith(_ZIP_MAGICS):
        return "zip"
    if head.startswith((_GZIP_MAGIC, _BZIP2_MAGIC, _XZ_MAGIC)) or head[257:262] == b"ustar":
        return "tar"
    if not head:
        raise ExtractionRejected("The archive is empty (0 bytes).")
    raise ExtractionRejected(
        "This file is not an archive the registry can open: upload the result folder as "
        ".tar, .tar.gz (.tgz), .tar.bz2, .tar.xz or .zip."
    )


def _check_name_characters(name: str) -> None:
    if "\x00" in name:
        raise ExtractionRejected(f'The archive member "{shown_name(name)}" has a NUL byte in its name.')
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        # tarfile hands undecodable bytes back as surrogate escapes.
        raise ExtractionRejected(
            f'The name of the archive member "{shown_name(name)}" is not valid UTF-8; rename the file '
            "with plain characters and pack the archive again."
        ) from None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise ExtractionRejected(
            f'The name of the archive member "{shown_name(name)}" contains a control character '
            "(such as a line break or an escape); rename the file and pack the archive again."
        )


def _check_name_lengths(name: str, parts: list[str]) -> None:
    longest = max(parts, key=lambda part: len(part.encode("utf-8")))
    if len(longest.encode("utf-8")) > MAX_NAME_BYTES:
        raise ExtractionRejected(
            f'The archive member "{shown_name(name)}" has a file or folder name that is too long '
            f"({len(longest.encode('utf-8'))} bytes); names may be at most {MAX_NAME_BYTES} bytes."
        )
    if len(name) > MAX_PATH_CHARS or len(parts) > MAX_DEPTH:
        raise ExtractionRejected(
            f'The archive member "{shown_name(name)}" has a path that is too long ({len(name):,} '
            f"characters, {len(parts)} levels); paths may be at most {MAX_PATH_CHARS:,} characters "
            f"and {MAX_DEPTH} levels deep."
        )


def safe_member_path(name: str) -> PurePosixPath | None:
    """The relative path a member may be written to, None for the archive root itself.

    Raises ExtractionRejected for absolute paths, any `..` component and names no result folder has
    (NUL, control characters, bytes that are not UTF-8, absurd lengths), before anything is written.
    """
    _check_name_characters(name)
    unified = name.replace("\\", "/")
    if unified.startswith("/") or (len(unified) > 1 and unified[1] == ":"):
        raise ExtractionRejected(
            f'The archive member "{shown_name(name)}" has an absolute path; archives must only hold '
            "relative paths."
        )
    parts = [p for p in unified.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ExtractionRejected(
            f'The archive member "{shown_name(name)}" contains ".." and would be written outside the '
            "result folder."
        )
    if not parts:
        return None
    _check_name_lengths(name, parts)
    return PurePosixPath(*parts)


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.isreg():
        return "file"
    if info.isdir():
        return "dir"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hardlink"
    if info.ischr() or info.isblk():
        return "device"
    if info.isfifo():
        return "fifo"
    return "other"


def _zip_kind(info: zipfile.ZipInfo) -> str:
    mode = info.external_attr >> 16
    # Archives made on Windows (or by writestr) carry no Unix file type; then the trailing slash is
    # the only type marker.
    if stat.S_IFMT(mode) == 0:
        return "dir" if info.is_dir() else "file"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "fifo"
    return "other"


# tarfile ends the archive quietly at a garbled or cut-off header after the first member; those are
# damaged archives, and silently dropping the rest would hide the real reason for a missing result.
_BAD_HEADER_ERRORS = tuple(
    getattr(tarfile, name)
    for name in ("InvalidHeaderError", "TruncatedHeaderError")
    if hasattr(tarfile, name)
)


class _StrictTarInfo(BoundedTarInfo):
    @classmethod
    def fromtarfile(cls, tarfile: tarfile.TarFile) -> Self:
        try:
            return super().fromtarfile(tarfile)
        except _BAD_HEADER_ERRORS as exc:
            raise ExtractionRejected(
                f"The archive is damaged or truncated: a member header at byte {tarfile.offset:,} of the "
                f"unpacked data cannot be read ({exc})."
            ) from exc


def _tar_members(path: Path) -> Iterator[_Member]:
    try:
        with open(path, "rb") as raw:
            compression = compression_of(raw.read(8))
            raw.seek(0)
            # The compression modules rather than tarfile's "r|*": they check the stream's trailer.
            with decompressed(raw, compression) as stream:
                # Stream mode reads each header once, in order, without seeking back.
                with tarfile.open(fileobj=stream, mode="r|", tarinfo=_StrictTarInfo) as tar:  # type: ignore[call-overload]
                    for info in tar:
                        yield _Member(info.name, _tar_kind(info), partial(tar.extractfile, info))
                finish_stream(stream, compression)
    except TarRejected as exc:
        raise ExtractionRejected(str(exc)) from exc
    except tarfile.ReadError as exc:
        raise ExtractionRejected(
            f"The archive is damaged or truncated and could not be read to the end ({exc})."
        ) from exc
    except (EOFError, OSError) as exc:
        raise ExtractionRejected(f"The archive is damaged or truncated ({exc}).") from exc


def _zip_members(path: Path) -> Iterator[_Member]:
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                _check_zip_readable(info)
                yield _Member(info.filename, _zip_kind(info), partial(zf.open, info))
    except zipfile.BadZipFile as exc:
        raise ExtractionRejected(f"The zip archive is damaged and could not be read ({exc}).") from exc
    except (EOFError, OSError) as exc:
        raise ExtractionRejected(f"The zip archive is damaged or truncated ({exc}).") from exc


def _check_zip_readable(info: zipfile.ZipInfo) -> None:
    # zipfile raises RuntimeError / NotImplementedError for these, which say nothing to a submitter.
    if info.flag_bits & 0x1:
        raise ExtractionRejected(
            f'The archive member "{shown_name(info.filename)}" is encrypted; upload the results without '
            "a password."
        )
    if info.compress_type not in _ZIP_METHODS:
        raise ExtractionRejected(
            f'The archive member "{shown_name(info.filename)}" uses a compression method the registry '
            f"cannot read (zip method {info.compress_type}); pack it as .tar.gz, or as a zip with the "
            "usual deflate compression."
        )


# What reading a damaged member's content raises, depending on the compression.
_DAMAGE_ERRORS = (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile, zlib.error, lzma.LZMAError)

_OUR_FAULT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.ENOMEM}

_KIND_REASONS = {
    "symlink": "is a symbolic link",
    "hardlink": "is a hard link",
    "device": "is a device file",
    "fifo": "is a named pipe (FIFO)",
    "other": "is a special file",
}


class _Writer:
    """Writes members below `root`, keeping the running totals the limits are checked against."""

    def __init__(self, root: Path, archive_size: int, limits: Limits) -> None:
        self.root = root
        self.archive_size = max(archive_size, 1)
        self.limits = limits
        self.members = 0
        self.files = 0
        self.written = 0

    def add(self, member: _Member) -> None:
        self.members += 1
        if self.members > self.limits.max_members:
            raise ExtractionRejected(
                f"The archive holds more than {self.limits.max_members:,} members; "
                "the registry accepts at most that many files and folders."
            )
        relative = safe_member_path(member.name)
        if member.kind in _KIND_REASONS:
            raise ExtractionRejected(
                f'The archive member "{shown_name(member.name)}" {_KIND_REASONS[member.kind]}; '
                "only regular files and folders are accepted."
            )
        if relative is None:
            return
        target = self.root.joinpath(*relative.parts)
        try:
            self._make_parents(relative)
            if member.kind == "dir":
                self._make_dir(target, member.name)
            else:
                self._write_file(target, member)
        except _DAMAGE_ERRORS as exc:
            if isinstance(exc, OSError) and exc.errno in _OUR_FAULT_ERRNOS:
                raise  # our disk, not the archive: let the task fail and be retried
            raise ExtractionRejected(
                f'The archive member "{shown_name(member.name)}" could not be unpacked; the archive is '
                f"damaged or truncated ({exc})."
            ) from exc

    def _make_parents(self, relative: PurePosixPath) -> None:
        current = self.root
        for part in relative.parts[:-1]:
            current = current / part
            self._make_dir(current, str(relative))

    def _make_dir(self, target: Path, name: str) -> None:
        try:
            target.mkdir(mode=0o755)
        except FileExistsError:
            # lstat, not stat: a link must never be accepted as a folder to write through.
            if not stat.S_ISDIR(target.lstat().st_mode):
                raise ExtractionRejected(
                    f'The archive member "{shown_name(name)}" needs a folder where the archive already '
                    "put a file."
                ) from None

    def _write_file(self, target: Path, member: _Member) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(target, flags, 0o644)
        except FileExistsError:
            raise ExtractionRejected(
                f'The archive holds "{shown_name(member.name)}" twice; each file may appear only once.'
            ) from None
        source = member.open()
        with os.fdopen(fd, "wb") as out:
            if source is None:
                return
            with source:
                while chunk := source.read(_CHUNK):
                    self.written += len(chunk)
                    self._check_totals()
                    out.write(chunk)
        self.files += 1

    def _check_totals(self) -> None:
        if self.written > self.limits.max_unpacked_bytes:
            raise ExtractionRejected(
                f"The archive unpacks to more than {fmt_bytes(self.limits.max_unpacked_bytes)}; "
                "the registry accepts result folders up to that size."
            )
        ratio = self.written / self.archive_size
        if ratio > self.limits.max_ratio:
            raise ExtractionRejected(
                f"The archive expands more than {self.limits.max_ratio:g} times its size "
                f"({fmt_bytes(self.archive_size)} became more than {fmt_bytes(self.written)}); "
                "this looks like a decompression bomb, so it was not unpacked."
            )


def extract_archive(archive: Path, destination: Path, limits: Limits | None = None) -> ExtractionReport:
    """Unpack `archive` (tar, tar.gz/.bz2/.xz or zip) into the empty folder `destination`.

    On rejection the caller removes `destination`; nothing is ever written outside it.
    """
    limits = limits or Limits()
    members = _zip_members(archive) if archive_format(archive) == "zip" else _tar_members(archive)
    writer = _Writer(destination, archive.stat().st_size, limits)
    for member in members:
        writer.add(member)
    return ExtractionReport(members=writer.members, files=writer.files, unpacked_bytes=writer.written)
