"""The size of a zip's central directory, checked before `zipfile.ZipFile` reads it.

`ZipFile` reads the whole central directory into memory and builds one `ZipInfo` per record before
anyone can look at them: a 193 MiB zip of 4 million directory entries took a worker to 1.9 GiB. The
end-of-central-directory record (the zip64 one where present) says where the directory is and how
large; this module reads that record the way `ZipFile` will, bounds the directory's size and counts
its records, and only then lets `ZipFile` open the archive.
"""

from __future__ import annotations

import struct
import zipfile
from typing import BinaryIO

# A central-directory record is 46 bytes plus its name, extra field and comment. Real uploads have
# names under 300 bytes and extra fields of a few dozen; 16 MiB holds 10,000 records of 1.6 KiB,
# five times what the largest real one needs, and is what one archive's tar headers may hold too.
MAX_ZIP_DIRECTORY_BYTES = 16 * 1024 * 1024
_RECORD = struct.Struct("<4s24xHHH12x")  # signature; name, extra and comment lengths
_RECORD_SIGNATURE = b"PK\x01\x02"
_ZIP64_END_SIGNATURE = b"PK\x06\x06"
_ZIP64_END_BYTES = 56 + 20  # the zip64 end record and its locator, which sit before the classic one

# The same reader ZipFile uses, so both agree on where the directory is (comments, zip64, data
# prepended to the archive). typeshed leaves zipfile's private helpers out.
_end_record = zipfile._EndRecData  # type: ignore[attr-defined]


class ZipDirectoryTooLarge(Exception):
    """The central directory is larger or holds more entries than accepted; the message says which."""


def check_zip_directory(handle: BinaryIO, max_entries: int) -> None:
    """Refuse a zip whose central directory exceeds MAX_ZIP_DIRECTORY_BYTES or `max_entries` records.

    A directory that cannot be found or parsed is left to ZipFile, which reports the damage.
    """
    end = _end_record(handle)
    if not end:
        return
    declared, size, location = end[4], end[5], end[9]
    if declared > max_entries:
        raise ZipDirectoryTooLarge(_too_many(f"declares {declared:,} entries", max_entries))
    if size > MAX_ZIP_DIRECTORY_BYTES:
        raise ZipDirectoryTooLarge(
            f"The zip archive's table of contents is {size:,} bytes, more than the "
            f"{MAX_ZIP_DIRECTORY_BYTES:,} accepted (an IO500 result needs a few kilobytes); it was not "
            "read further."
        )
    start = location - size - (_ZIP64_END_BYTES if end[0] == _ZIP64_END_SIGNATURE else 0)
    if start < 0:
        return
    handle.seek(start)
    records = count_records(handle.read(size), max_entries)
    if records > max_entries:
        raise ZipDirectoryTooLarge(_too_many(f"holds more than {max_entries:,} entries", max_entries))


def count_records(directory: bytes, max_entries: int) -> int:
    """How many central-directory records `directory` holds, counting no further than max_entries + 1.

    The declared count may lie (ZipFile reads records until the directory's bytes are used up), so
    the records themselves are counted.
    """
    at = records = 0
    while at + _RECORD.size <= len(directory) and records <= max_entries:
        signature, name, extra, comment = _RECORD.unpack_from(directory, at)
        if signature != _RECORD_SIGNATURE:
            break
        records += 1
        at += _RECORD.size + name + extra + comment
    return records


def _too_many(what: str, max_entries: int) -> str:
    return (
        f"The archive holds more than {max_entries:,} members (its table of contents {what}); the "
        "registry accepts at most that many files and folders."
    )
