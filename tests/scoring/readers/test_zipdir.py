"""A zip's table of contents is bounded and counted before zipfile builds a ZipInfo for each entry."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from scoring.readers.walk import ArchiveRejected, Limits, walk_archive
from scoring.readers.zipdir import MAX_ZIP_DIRECTORY_BYTES, count_records

LIMITS = Limits(max_members=50)
_END = b"PK\x05\x06"


def _folders_zip(count: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for index in range(count):
            zipped.writestr(f"run/d{index}/", b"")
    return buffer.getvalue()


@pytest.fixture
def zipfile_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records each time zipfile reads a table of contents (and builds its ZipInfo list)."""
    reads: list[str] = []
    original = zipfile.ZipFile._RealGetContents  # type: ignore[attr-defined]

    def spy(self: zipfile.ZipFile) -> None:
        reads.append("read")
        original(self)

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", spy)
    return reads


def _walk(tmp_path: Path, data: bytes) -> int:
    archive = tmp_path / "upload.zip"
    archive.write_bytes(data)
    return sum(1 for _ in walk_archive(archive, LIMITS))


def test_too_many_entries_are_refused_before_zipfile_reads_them(
    tmp_path: Path, zipfile_reads: list[str]
) -> None:
    with pytest.raises(ArchiveRejected, match=r"more than 50 members .*declares 51 entries"):
        _walk(tmp_path, _folders_zip(51))
    assert zipfile_reads == []


def test_the_zip64_end_record_is_read_as_zipfile_reads_it(
    tmp_path: Path, zipfile_reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # zipfile writes the zip64 end record once there are more entries than this.
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 10)
    data = _folders_zip(51)
    assert b"PK\x06\x06" in data, "no zip64 end record was written"
    with pytest.raises(ArchiveRejected, match="declares 51 entries"):
        _walk(tmp_path, data)
    assert zipfile_reads == []


def test_a_lying_entry_count_is_caught_by_counting_the_records(
    tmp_path: Path, zipfile_reads: list[str]
) -> None:
    data = bytearray(_folders_zip(51))
    end = data.rindex(_END)
    struct.pack_into("<HH", data, end + 8, 1, 1)  # this disk's entries, all entries: "1"
    with pytest.raises(ArchiveRejected, match="holds more than 50 entries"):
        _walk(tmp_path, bytes(data))
    assert zipfile_reads == []


def test_an_oversized_table_of_contents_is_refused_unread(tmp_path: Path, zipfile_reads: list[str]) -> None:
    data = bytearray(_folders_zip(1))
    end = data.rindex(_END)
    struct.pack_into("<L", data, end + 12, MAX_ZIP_DIRECTORY_BYTES + 1)
    with pytest.raises(ArchiveRejected, match="table of contents is 16,777,217 bytes"):
        _walk(tmp_path, bytes(data))
    assert zipfile_reads == []


def test_a_zip_at_the_limit_is_read(tmp_path: Path, zipfile_reads: list[str]) -> None:
    assert _walk(tmp_path, _folders_zip(49)) == 49  # and "run", implied: 50 members
    assert zipfile_reads == ["read"]


def test_counting_stops_one_past_the_limit() -> None:
    data = _folders_zip(500)
    directory = data[data.index(b"PK\x01\x02") : data.rindex(_END)]
    assert count_records(directory, 10) == 11
    assert count_records(directory, 1_000) == 500
