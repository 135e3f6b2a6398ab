"""Reading a tar stream with bounded headers and a checked compression trailer.

Used by the one archive walker (`scoring.readers.walk`), through which both the scoring engine and
the upload sandbox read tarballs. Everything here raises `TarRejected` with a message a submitter
can act on; the walker turns it into its `ArchiveRejected`.

Two holes of Python's tarfile are closed:

* A GNU long-name or long-link header (typeflag 'L' / 'K') or a pax header ('x', 'g', Solaris 'X')
  is read whole into memory before anything can look at it, however large its declared size. One
  that declares 1 GiB gzips to 1 MiB and costs the reader gigabytes. `BoundedTarInfo` checks the
  declared size before the payload is read.
* tarfile stops at the zero blocks that end an archive and never reads the compressed stream to its
  end, so the gzip CRC32 and length (bzip2's and xz's checks likewise) are never verified: a cut-off
  or corrupted upload would pass as a shorter archive. `finish_stream` reads the rest of it.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import sys
import tarfile
import weakref
import zlib
from contextlib import AbstractContextManager, nullcontext
from typing import BinaryIO, Protocol, Self

# The real corpus (every shared submission packed by GNU tar in gnu and posix formats, and the
# tarballs in the shared data) has no such header above 90 bytes, and no path above 96. A name is
# at most PATH_MAX (4,096 bytes); a pax header adds times, owner names and perhaps an extended
# attribute or two. 64 KiB is 700 times the largest seen and 16 times PATH_MAX, yet costs nothing
# to hold in memory.
MAX_HEADER_BYTES = 64 * 1024
# tarfile keeps every member's name and pax attributes, and global pax attributes pile up for the
# whole archive, so many headers just below the bound would add up again (10,000 members of 64 KiB
# are 625 MiB). 16 MiB is enough for 180,000 members with a typical 90-byte pax header.
MAX_HEADER_BYTES_PER_ARCHIVE = 16 * 1024 * 1024
# After the end-of-archive marker only padding to the end of the tar record follows: 10 KiB with
# GNU tar's default blocking factor. Reading much more would be a bomb of its own.
MAX_TRAILING_BYTES = 1024 * 1024

# Python's tarfile before 3.11.10 and 3.12.6 (CVE-2024-6232) parses a pax header with two patterns
# that backtrack: `\d+ hdrcharset=` searched through the whole header is quadratic in every run of
# digits (one 60,000-digit header, well inside MAX_HEADER_BYTES, took 25 s), and `(\d+) ([^=]+)=`
# runs past a record that has no `=`. On such an interpreter a pax header is checked first: its
# records must be well formed (each `length keyword=value\n` holding its `=`), and no run of digits
# may be longer than the 20 of a 64-bit number, the longest a pax record holds. The digits then cost
# at most ten steps a byte, a quarter of a second for the whole per-archive header budget.
PAX_PARSER_BACKTRACKS = sys.version_info < (3, 11, 10) or (3, 12) <= sys.version_info < (3, 12, 6)
MAX_PAX_DIGIT_RUN = 20
_PAX_LONG_DIGIT_RUN = re.compile(rb"[0-9]{%d}" % (MAX_PAX_DIGIT_RUN + 1))
_PAX_LENGTH = re.compile(rb"([0-9]{1,20}) ")

_SHOWN_NAME_CHARS = 160
_CHUNK = 64 * 1024

_HEADER_KINDS: dict[bytes, str] = {
    tarfile.GNUTYPE_LONGNAME: "GNU long-name header",
    tarfile.GNUTYPE_LONGLINK: "GNU long-link header",
    tarfile.XHDTYPE: "pax extended header",
    tarfile.XGLTYPE: "pax global header",
    tarfile.SOLARIS_XHDTYPE: "Solaris extended header",
}

# Magic bytes of the compressions a tarball may use.
COMPRESSIONS: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
)


class TarRejected(Exception):
    """The tar stream breaks a bound or its compression is damaged; the message says which."""


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def fmt_bytes(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def _exact(n: int) -> str:
    # Both forms: "64.0 KiB" reads well, the exact count lets a submitter check it against their tar.
    return f"{fmt_bytes(n)} ({n:,} bytes)"


def shown_name(name: str) -> str:
    """A member name as it may appear in a message: raw bytes and control characters escaped, shortened."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= _SHOWN_NAME_CHARS else text[: _SHOWN_NAME_CHARS - 1] + "…"


def compression_of(head: bytes) -> str | None:
    """'gzip', 'bzip2' or 'xz' from the first bytes of a tarball, None when it is not compressed."""
    return next((name for magic, name in COMPRESSIONS if head.startswith(magic)), None)


def decompressed(raw: BinaryIO, compression: str | None) -> AbstractContextManager[Readable]:
    """The decompressing reader of `raw`: these modules, unlike tarfile's own, check the trailer."""
    if compression == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if compression == "bzip2":
        return bz2.BZ2File(raw, mode="rb")
    if compression == "xz":
        return lzma.LZMAFile(raw, mode="rb")
    return nullcontext(raw)


# Header bytes seen so far in each open archive, for the per-archive bound. Weak keys: an archive's
# count goes away with it, and nothing is added to tarfile's own objects.
_spent: weakref.WeakKeyDictionary[tarfile.TarFile, int] = weakref.WeakKeyDictionary()


class BoundedTarInfo(tarfile.TarInfo):
    """A TarInfo that refuses oversized long-name and pax headers before reading their payload.

    `_proc_member` is tarfile's documented hook for subclasses: it runs after the 512-byte header
    block is parsed and before `_proc_gnulong` / `_proc_pax` read `self.size` bytes. The headers that
    follow a long-name or pax header are read through this class too, so chains are checked.
    """

    def _proc_member(self, archive: tarfile.TarFile) -> tarfile.TarInfo:
        kind = _HEADER_KINDS.get(self.type)
        if kind is not None:
            self._check_header_size(archive, kind)
        # typeshed leaves out tarfile's private hooks.
        processed: tarfile.TarInfo = super()._proc_member(archive)  # type: ignore[misc]
        return processed

    def _proc_pax(self, archive: tarfile.TarFile) -> tarfile.TarInfo:
        if not PAX_PARSER_BACKTRACKS or archive.fileobj is None:
            processed: tarfile.TarInfo = super()._proc_pax(archive)  # type: ignore[misc]
            return processed
        # Read the header once to check it, then hand tarfile the same bytes (stream mode cannot
        # seek back): its own first read of the header is answered from them.
        stream = archive.fileobj
        payload = stream.read(self._block(self.size))  # type: ignore[attr-defined]
        problem = pax_problem(payload[: self.size])
        if problem is not None:
            raise TarRejected(
                f'The archive member "{shown_name(self.name)}" (a pax header at byte {self.offset:,} of '
                f"the unpacked archive) {problem}; tar writes no such header, so the archive was not "
                "read further."
            )
        archive.fileobj = _Replay(payload, stream)  # type: ignore[assignment]
        try:
            replayed: tarfile.TarInfo = super()._proc_pax(archive)  # type: ignore[misc]
        finally:
            archive.fileobj = stream
        return replayed

    def _check_header_size(self, archive: tarfile.TarFile, kind: str) -> None:
        where = (
            f'The archive member "{shown_name(self.name)}" (a {kind} at byte {self.offset:,} of the '
            "unpacked archive)"
        )
        if self.size > MAX_HEADER_BYTES:
            raise TarRejected(
                f"{where} declares {_exact(self.size)} of header data, but such a header only holds a "
                f"file name, a link target or a few attributes and may be at most "
                f"{_exact(MAX_HEADER_BYTES)}; the archive was not read further."
            )
        total = _spent.get(archive, 0) + self.size
        if total > MAX_HEADER_BYTES_PER_ARCHIVE:
            raise TarRejected(
                f"{where} brings the archive's long-name and pax headers to {_exact(total)}, more than "
                f"the {_exact(MAX_HEADER_BYTES_PER_ARCHIVE)} accepted in one archive; the archive was "
                "not read further."
            )
        _spent[archive] = total


# tarfile ends the archive quietly at a garbled or cut-off header after the first member; those are
# damaged archives, and silently dropping the rest would hide the real reason for a missing result.
_BAD_HEADER_ERRORS = tuple(
    getattr(tarfile, name)
    for name in ("InvalidHeaderError", "TruncatedHeaderError")
    if hasattr(tarfile, name)
)


class StrictTarInfo(BoundedTarInfo):
    """A BoundedTarInfo that refuses a garbled or cut-off header instead of ending the archive there."""

    @classmethod
    def fromtarfile(cls, tarfile: tarfile.TarFile) -> Self:
        try:
            return super().fromtarfile(tarfile)
        except _BAD_HEADER_ERRORS as exc:
            raise TarRejected(
                f"The archive is damaged or truncated: a member header at byte {tarfile.offset:,} of the "
                f"unpacked data cannot be read ({exc})."
            ) from exc


def pax_problem(header: bytes) -> str | None:
    """What makes a pax header's records unsafe to hand to a backtracking parser, or None."""
    long_run = _PAX_LONG_DIGIT_RUN.search(header)
    if long_run is not None:
        return f"holds a number of more than {MAX_PAX_DIGIT_RUN} digits at byte {long_run.start():,}"
    at = 0
    while at < len(header) and header[at] != 0:
        length = _PAX_LENGTH.match(header, at)
        record_end = at + int(length.group(1)) if length is not None else 0
        if length is None or record_end > len(header) or header[record_end - 1 : record_end] != b"\n":
            return f"has a record at byte {at:,} that is not `length keyword=value` ending in a line break"
        if header.find(b"=", length.end(), record_end) < 0:
            return f"has a record at byte {at:,} without `=`"
        at = record_end
    return None


class _Replay:
    """A stream that answers reads from `data` first, then from `inner` (tell() and the rest too)."""

    def __init__(self, data: bytes, inner: object) -> None:
        self._data = data
        self._inner = inner

    def read(self, size: int = -1) -> bytes:
        if not self._data:
            data: bytes = self._inner.read(size)  # type: ignore[attr-defined]
            return data
        if size < 0 or size >= len(self._data):
            head, self._data = self._data, b""
            rest = size - len(head) if size >= 0 else -1
            tail: bytes = self._inner.read(rest) if rest != 0 else b""  # type: ignore[attr-defined]
            return head + tail
        head, self._data = self._data[:size], self._data[size:]
        return head

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def finish_stream(stream: Readable, compression: str | None) -> None:
    """Read what follows tar's end-of-archive marker, so the decompressor verifies its trailer.

    Raises TarRejected when the compressed stream is cut short, fails its checksum or length, or
    when more than MAX_TRAILING_BYTES follow the end of the tar archive.
    """
    what = f"{compression} stream" if compression else "archive"
    left = MAX_TRAILING_BYTES
    try:
        while chunk := stream.read(min(_CHUNK, left + 1)):
            left -= len(chunk)
            if left < 0:
                raise TarRejected(
                    f"The {what} goes on for more than {fmt_bytes(MAX_TRAILING_BYTES)} after the end of "
                    "the tar archive; that is not a tarball written by tar, so it was not read further."
                )
    except EOFError as error:
        raise TarRejected(
            f"The {what} is truncated: it ends before its end marker ({error}), so files may be "
            "missing. The upload or copy was probably interrupted; pack and upload the archive again."
        ) from error
    except (OSError, lzma.LZMAError, zlib.error) as error:
        if isinstance(error, OSError) and error.errno is not None:
            raise  # the disk, not the archive: gzip and bz2 report damage without an errno
        raise TarRejected(
            f"The {what} is damaged ({error}): it is not valid compressed data, or its checksum or "
            "length does not match the content. The file was probably corrupted in transfer; pack and "
            "upload the archive again."
        ) from error
