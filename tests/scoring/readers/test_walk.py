"""The archive walker: every byte decompressed counts, folders count as members, names are bounded."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from scoring.readers.names import MAX_DEPTH
from scoring.readers.walk import ArchiveRejected, Entry, Limits, walk_archive
from tests.submissions.archives import file_member, special_member, tar_of

MIB = 1024 * 1024
SMALL = Limits(max_members=20)


def _archive(tmp_path: Path, data: bytes) -> Path:
    archive = tmp_path / "upload.bin"
    archive.write_bytes(data)
    return archive


def _walk(archive: Path, limits: Limits | None = None) -> list[Entry]:
    """All entries, reading each file's content as the ingest does."""
    seen = []
    for entry in walk_archive(archive, limits):
        b"".join(entry.chunks())
        seen.append(entry)
    return seen


def _skipped(name: str, kind: bytes, size: int) -> tuple[tarfile.TarInfo, None]:
    info, _ = special_member(name, kind)
    info.size = size
    return info, None


def _tar_with_data_nobody_reads(name: str, kind: bytes, size: int) -> bytes:
    """A header claiming `size` bytes of zeros that no reader asks for, then a file."""
    info, _ = _skipped(name, kind, size)
    plain = info.tobuf(tarfile.USTAR_FORMAT) + bytes(size)
    after = io.BytesIO()
    with tarfile.open(fileobj=after, mode="w") as tar:
        tar.addfile(tarfile.TarInfo("run/result.txt"), io.BytesIO(b""))
    return gzip.compress(plain + after.getvalue(), mtime=0)


@pytest.mark.parametrize(
    ("name", "kind"),
    [(".", tarfile.REGTYPE), ("./", tarfile.REGTYPE), ("run/label", b"V")],
    ids=["member named .", "member named ./", "volume header"],
)
def test_the_data_of_a_member_nobody_reads_counts_against_the_ratio(
    tmp_path: Path, name: str, kind: bytes
) -> None:
    archive = _archive(tmp_path, _tar_with_data_nobody_reads(name, kind, 64 * MIB))
    with pytest.raises(ArchiveRejected, match="decompression bomb"):
        for _entry in walk_archive(archive, Limits(ratio_grace_bytes=MIB)):
            pass  # nothing is read: only the walk itself decompresses


def test_the_data_of_a_member_nobody_reads_counts_against_the_total(tmp_path: Path) -> None:
    archive = _archive(tmp_path, tar_of(file_member("run/a.bin", bytes(3 * MIB)), compression=""))
    with pytest.raises(ArchiveRejected, match=r"unpacks to more than 2\.0 MiB"):
        for _entry in walk_archive(archive, Limits(max_unpacked_bytes=2 * MIB)):
            pass


def test_an_honest_archive_of_tiny_files_is_within_the_ratio_grace(tmp_path: Path) -> None:
    members = [file_member(f"run/f{index}", b"") for index in range(2_000)]
    data = tar_of(*members, compression="bz2")
    assert (2_000 * 1024) / len(data) > 100, "these headers compress beyond the ratio"
    assert len(_walk(_archive(tmp_path, data))) == 2_000


def test_folders_a_path_implies_count_as_members(tmp_path: Path) -> None:
    # One file 20 folders deep: 20 folders and the file make 21 members.
    deep = "/".join(f"d{level}" for level in range(20)) + "/file.txt"
    archive = _archive(tmp_path, tar_of(file_member(deep)))
    with pytest.raises(ArchiveRejected, match="more than 20 members"):
        _walk(archive, SMALL)
    shallower = "/".join(f"d{level}" for level in range(19)) + "/file.txt"
    assert len(_walk(_archive(tmp_path, tar_of(file_member(shallower))), SMALL)) == 1


def test_a_folder_entry_after_its_files_is_not_counted_twice(tmp_path: Path) -> None:
    members = [file_member(f"run/f{index}") for index in range(19)]
    archive = _archive(tmp_path, tar_of(*members, special_member("run", tarfile.DIRTYPE)))
    assert len(_walk(archive, SMALL)) == 20


def test_one_folder_entry_repeated_counts_every_time_it_is_read(tmp_path: Path) -> None:
    # A plain tar of one folder header repeated costs 512 bytes a repeat and adds no member.
    repeated = [special_member("run", tarfile.DIRTYPE) for _ in range(21)]
    with pytest.raises(ArchiveRejected, match="more than 20 entries"):
        _walk(_archive(tmp_path, tar_of(*repeated)), SMALL)
    assert len(_walk(_archive(tmp_path, tar_of(*repeated[:20])), SMALL)) == 20


def test_the_entry_that_crosses_the_count_is_never_handed_out(tmp_path: Path) -> None:
    members = [special_member(f"run/d{index}", tarfile.DIRTYPE) for index in range(30)]
    handed_out: list[str] = []
    with pytest.raises(ArchiveRejected, match="more than 20 members"):
        for entry in walk_archive(_archive(tmp_path, tar_of(*members)), SMALL):
            handed_out.append(entry.name)
    # "run" is implied by the first folder: 19 folders below it make 20 members.
    assert handed_out == [f"run/d{index}" for index in range(19)]


def test_a_path_deeper_than_the_limit_is_refused_before_it_is_handed_out(tmp_path: Path) -> None:
    deep = "/".join(["d"] * MAX_DEPTH) + "/file.txt"
    with pytest.raises(ArchiveRejected, match=f"at most 1,024 characters and {MAX_DEPTH} levels deep"):
        _walk(_archive(tmp_path, tar_of(file_member(deep))))


def test_an_unsafe_name_is_reported_on_its_entry_for_the_reader_to_decide(tmp_path: Path) -> None:
    (entry,) = _walk(_archive(tmp_path, tar_of(file_member("../escape.txt"))))
    assert entry.path is None
    assert entry.problem is not None and 'contains ".."' in entry.problem


def test_an_open_file_walks_as_its_path_does_and_is_left_open(tmp_path: Path) -> None:
    # The viewer reads a stored archive in place; the same limits hold, and the file stays the caller's.
    data = tar_of(file_member("run/a.txt", b"one\n"), file_member("run/b.txt", b"two\n"))
    archive = _archive(tmp_path, data)
    with open(archive, "rb") as handle:
        handle.read(5)  # a position that is not the start
        from_file = [(e.name, b"".join(e.chunks())) for e in walk_archive(handle)]
        assert not handle.closed
    assert from_file == [(e.name, b"".join(e.chunks())) for e in walk_archive(archive)]
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as out:
        out.writestr("z.txt", b"zip\n")
    assert [e.name for e in walk_archive(zipped)] == ["z.txt"]
    with pytest.raises(ArchiveRejected, match="more than 1 members"):
        _walk_file(io.BytesIO(data), Limits(max_members=1))


def _walk_file(handle: io.BytesIO, limits: Limits) -> None:
    for entry in walk_archive(handle, limits):
        b"".join(entry.chunks())
