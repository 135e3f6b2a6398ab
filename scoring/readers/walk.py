"""The one walk through an uploaded archive, with the one set of limits every reader of archives obeys.

The command-line verifier (`scoring.readers.locate`) reads members from it; the upload sandbox
(`submissions.ingest.unpack`) writes them to disk. Both get the same members, refused for the same
reasons with the same messages, because the limits are checked here and nowhere else:

* every byte decompressed counts, whatever the member: headers, padding, and the data of members
  nobody reads (a member named `.`, a directory or special file with a data size, a file the reader
  skips). A 78 KB bzip2 upload whose member `.` held 100 GiB of zeros once cost a worker 289 s
  because the sandbox counted only bytes it wrote. The count stops the walk at the first read past
  the total size or the compression ratio.
* every entry counts as a member, folders included, and so does every folder a path only implies
  (`a/b/c/file` creates `a`, `a/b`, `a/b/c`): 50 KB of tar once made 630,000 folders. Names, depth
  and counts are checked before an entry is handed out, so nothing is created for a refused one.
* a zip's table of contents is bounded before zipfile reads it (`scoring.readers.zipdir`).

Everything a submitter can cause ends in `ArchiveRejected`, whose message they can act on.
"""

from __future__ import annotations

import lzma
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO

from scoring.readers.names import NameOverLimit, UnsafeName, member_path
from scoring.readers.tarstream import (
    Readable,
    StrictTarInfo,
    TarRejected,
    compression_of,
    decompressed,
    finish_stream,
    fmt_bytes,
    shown_name,
)
from scoring.readers.zipdir import ZipDirectoryTooLarge, check_zip_directory

MIB = 1024 * 1024
_CHUNK = MIB
_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
_OTHER_KINDS = {
    "symlink": "is a symbolic link",
    "hardlink": "is a hard link",
    "device": "is a device file",
    "fifo": "is a named pipe (FIFO)",
    "other": "is a special file",
}


@dataclass(frozen=True)
class Limits:
    """The bounds of one archive, for the command line and the upload sandbox alike."""

    # Files and folders (named or implied by a path). The largest real upload holds a few hundred.
    max_members: int = 10_000
    # Bytes decompressed, headers and skipped data included.
    max_unpacked_bytes: int = 2 * 1024**3
    # Decompressed bytes per byte of archive, once past the grace below: text compresses 5 to 20 times.
    max_ratio: float = 100
    # Tar headers compress far better than text: 10,000 empty files in bzip2 expand 257 times, to
    # 5 MiB. Below this many bytes the ratio is not held against an archive, and a bomb gains a
    # fraction of a second. It is above the 16 MiB the pax headers of one archive may take, so that
    # bound's more precise refusal comes first.
    ratio_grace_bytes: int = 24 * MIB


class ArchiveRejected(Exception):
    """The archive breaks a limit, is damaged or is no archive; the message says which."""


class _Meter:
    """Every byte decompressed from one archive, checked against the limits on each read."""

    def __init__(self, limits: Limits, archive_bytes: int) -> None:
        self.limits = limits
        self.archive_bytes = max(archive_bytes, 1)
        self.count = 0

    def add(self, size: int) -> None:
        self.count += size
        if self.count > self.limits.max_unpacked_bytes:
            raise ArchiveRejected(
                f"The archive unpacks to more than {fmt_bytes(self.limits.max_unpacked_bytes)}; "
                "the registry accepts result folders up to that size."
            )
        allowed = max(self.limits.max_ratio * self.archive_bytes, self.limits.ratio_grace_bytes)
        if self.count > allowed:
            raise ArchiveRejected(
                f"The archive expands more than {self.limits.max_ratio:g} times its size "
                f"({fmt_bytes(self.archive_bytes)} became more than {fmt_bytes(self.count)}); "
                "this looks like a decompression bomb, so it was not unpacked."
            )


class _Metered:
    """A readable whose every byte is added to the meter."""

    def __init__(self, inner: Readable, meter: _Meter) -> None:
        self._inner = inner
        self._meter = meter

    def read(self, size: int = -1, /) -> bytes:
        data = self._inner.read(size)
        self._meter.add(len(data))
        return data

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


# What reading damaged content raises, depending on the compression.
_DAMAGE = (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, ValueError)


def _is_damage(error: BaseException) -> bool:
    # An OSError with an errno is the disk's, not the archive's: the caller's to handle or retry.
    return isinstance(error, _DAMAGE) and not (isinstance(error, OSError) and error.errno is not None)


@dataclass(frozen=True)
class Entry:
    """One archive entry, whatever the format, as far as its name and type could be checked."""

    name: str  # as written in the archive
    kind: str  # "file" | "dir" | "symlink" | "hardlink" | "device" | "fifo" | "other"
    path: PurePosixPath | None  # cleaned relative path; None for the archive root or an unsafe name
    problem: str | None  # why the name cannot be used (absolute, `..`, control characters...)
    _open: Callable[[], Readable | None] = field(repr=False)

    @property
    def kind_problem(self) -> str | None:
        """Why this entry is neither a regular file nor a folder, or None."""
        reason = _OTHER_KINDS.get(self.kind)
        if reason is None:
            return None
        return (
            f'The archive member "{shown_name(self.name)}" {reason}; only regular files and folders '
            "are accepted."
        )

    def chunks(self, size: int = _CHUNK) -> Iterator[bytes]:
        """The content of a file entry, piece by piece, counted against the archive's limits."""
        try:
            source = self._open()
            if source is None:
                return
            try:
                while chunk := source.read(size):
                    yield chunk
            finally:
                close = getattr(source, "close", None)
                if close is not None:
                    close()
        except Exception as error:
            if not _is_damage(error):
                raise
            raise ArchiveRejected(
                f'The archive member "{shown_name(self.name)}" could not be unpacked; the archive is '
                f"damaged or truncated ({_reason(error)})."
            ) from error

    def read(self, cap: int) -> bytes:
        """At most `cap` bytes of the content (ask for one more than you keep to see it was cut)."""
        parts: list[bytes] = []
        kept = 0
        for chunk in self.chunks(min(_CHUNK, cap)):
            parts.append(chunk)
            kept += len(chunk)
            if kept >= cap:
                break
        return b"".join(parts)[:cap]


class _Census:
    """Members so far: every entry once, every folder once, implied ones included; and every entry
    header read, repeats included, so a flood of one folder entry repeated costs what it reads."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.members = 0
        self.headers = 0
        self.folders: set[PurePosixPath] = set()

    def admit(self, entry: Entry) -> None:
        self.headers += 1
        if self.headers > self.limits.max_members:
            raise ArchiveRejected(
                f"The archive holds more than {self.limits.max_members:,} entries; "
                "the registry accepts at most that many files and folders."
            )
        if entry.path is None:
            self._count(1)
            return
        # parents ends with ".", the archive root, which every archive has anyway.
        new = [parent for parent in list(entry.path.parents)[:-1] if parent not in self.folders]
        if entry.kind != "dir":
            self._count(len(new) + 1)
        elif entry.path not in self.folders:
            new.append(entry.path)
            self._count(len(new))
        else:
            self._count(len(new))
        self.folders.update(new)

    def _count(self, added: int) -> None:
        self.members += added
        if self.members > self.limits.max_members:
            raise ArchiveRejected(
                f"The archive holds more than {self.limits.max_members:,} members; "
                "the registry accepts at most that many files and folders."
            )


def walk_archive(path: Path | BinaryIO, limits: Limits | None = None) -> Iterator[Entry]:
    """Every entry of the tar (plain, gzip, bzip2, xz) or zip archive `path`, within the limits.

    `path` may also be an open, seekable binary file (a stored archive read in place, so that a web
    request never copies or unpacks it to disk); the walk reads it from its start and leaves it open.
    Raises ArchiveRejected at the first limit crossed, for damage, or when `path` is no archive.
    Read each file entry's content before asking for the next entry: a tar is one stream.
    """
    limits = limits or Limits()
    meter = _Meter(limits, _size_of(path))
    census = _Census(limits)
    entries = (
        _zip_entries(path, limits, meter) if archive_format(path) == "zip" else _tar_entries(path, meter)
    )
    for entry in entries:
        census.admit(entry)
        yield entry


def _size_of(source: Path | BinaryIO) -> int:
    if isinstance(source, Path):
        return source.stat().st_size
    end = source.seek(0, 2)
    source.seek(0)
    return end


@contextmanager
def _opened(source: Path | BinaryIO) -> Iterator[BinaryIO]:
    """The archive's bytes from the start: a path is opened and closed, a caller's file only rewound."""
    if isinstance(source, Path):
        with open(source, "rb") as handle:
            yield handle
    else:
        source.seek(0)
        yield source


def archive_format(path: Path | BinaryIO) -> str:
    """'tar' or 'zip', read from the first bytes rather than the file name (which may lie)."""
    with _opened(path) as handle:
        head = handle.read(512)
    if head.startswith(_ZIP_MAGICS):
        return "zip"
    if compression_of(head) is not None or head[257:262] == b"ustar":
        return "tar"
    if not head:
        raise ArchiveRejected("The archive is empty (0 bytes).")
    raise ArchiveRejected(
        "This file is not an archive the registry can open: upload the result folder as "
        ".tar, .tar.gz (.tgz), .tar.bz2, .tar.xz or .zip."
    )


def _entry(name: str, kind: str, opener: Callable[[], Readable | None]) -> Entry:
    try:
        path = member_path(name)
    except UnsafeName as unsafe:
        return Entry(name, kind, None, str(unsafe), opener)
    except NameOverLimit as over:
        raise ArchiveRejected(str(over)) from None
    return Entry(name, kind, path, None, opener)


def _tar_entries(path: Path | BinaryIO, meter: _Meter) -> Iterator[Entry]:
    try:
        with _opened(path) as raw:
            compression = compression_of(raw.read(8))
            raw.seek(0)
            # The compression modules rather than tarfile's "r|*": they check the stream's trailer.
            with decompressed(raw, compression) as stream:
                counted = _Metered(stream, meter)
                # Stream mode reads each header once, in order, without seeking back; skipping a
                # member's data reads it through `counted` like any other byte.
                with tarfile.open(fileobj=counted, mode="r|", tarinfo=StrictTarInfo) as tar:  # type: ignore[call-overload]
                    for info in tar:
                        yield _entry(info.name, _tar_kind(info), _tar_opener(tar, info, meter))
                finish_stream(counted, compression)
    except TarRejected as error:
        raise ArchiveRejected(str(error)) from error
    except tarfile.ReadError as error:
        if "empty" in str(error).lower():
            raise ArchiveRejected("This is an empty archive: it holds no files or folders.") from error
        raise ArchiveRejected(_damaged(error)) from error
    except Exception as error:
        if not _is_damage(error):
            raise
        raise ArchiveRejected(_damaged(error)) from error


def _tar_opener(tar: tarfile.TarFile, info: tarfile.TarInfo, meter: _Meter) -> Callable[[], Readable | None]:
    if info.issparse():
        # A sparse member's holes come out as zeros that were never in the stream: count them too.
        return lambda: _opened_metered(tar.extractfile(info), meter)
    return lambda: tar.extractfile(info)


def _opened_metered(handle: IO[bytes] | None, meter: _Meter) -> Readable | None:
    return None if handle is None else _Metered(handle, meter)


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


def _zip_entries(path: Path | BinaryIO, limits: Limits, meter: _Meter) -> Iterator[Entry]:
    try:
        with _opened(path) as handle:
            check_zip_directory(handle, limits.max_members)
            with zipfile.ZipFile(handle) as zipped:
                for info in zipped.infolist():
                    _check_zip_readable(info)
                    yield _entry(info.filename, _zip_kind(info), _zip_opener(zipped, info, meter))
    except ZipDirectoryTooLarge as error:
        raise ArchiveRejected(str(error)) from error
    except Exception as error:
        if not _is_damage(error):
            raise
        raise ArchiveRejected(_damaged(error, "zip archive")) from error


def _zip_opener(zipped: zipfile.ZipFile, info: zipfile.ZipInfo, meter: _Meter) -> Callable[[], Readable]:
    # Members are decompressed only when read, so only what is read is counted.
    return lambda: _Metered(zipped.open(info), meter)


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


def _check_zip_readable(info: zipfile.ZipInfo) -> None:
    # zipfile raises RuntimeError / NotImplementedError for these, which say nothing to a submitter.
    if info.flag_bits & 0x1:
        raise ArchiveRejected(
            f'The archive member "{shown_name(info.filename)}" is encrypted; upload the results without '
            "a password."
        )
    if info.compress_type not in _ZIP_METHODS:
        raise ArchiveRejected(
            f'The archive member "{shown_name(info.filename)}" uses a compression method the registry '
            f"cannot read (zip method {info.compress_type}); pack it as .tar.gz, or as a zip with the "
            "usual deflate compression."
        )


def _damaged(error: BaseException, what: str = "archive") -> str:
    return f"The {what} is damaged or truncated and could not be read to the end ({_reason(error)})."


def _reason(error: BaseException) -> str:
    text = str(error).strip()
    return text or type(error).__name__
