"""Safe extraction: every attack is built on the fly and must be refused before it does harm."""

from __future__ import annotations

import io
import random
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from submissions.ingest.unpack import ExtractionRejected, Limits, extract_archive
from tests.submissions.archives import file_member, pack_folder, special_member, tar_of, zip_folder, zip_of


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A destination inside a parent folder we can check stays untouched."""
    destination = tmp_path / "parent" / "dest"
    destination.mkdir(parents=True)
    return destination


def _extract(tmp_path: Path, data: bytes, destination: Path, limits: Limits | None = None) -> None:
    archive = tmp_path / "upload.bin"
    archive.write_bytes(data)
    extract_archive(archive, destination, limits)


def _everything_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("compression", ["gz", "bz2", "xz", ""])
def test_it_extracts_a_real_result_folder_in_every_tar_compression(
    tmp_path: Path, sandbox: Path, io500_submissions: Path, compression: str
) -> None:
    folder = io500_submissions / "submission-33"
    _extract(tmp_path, pack_folder(folder, compression), sandbox)
    expected = {str(p.relative_to(folder.parent)) for p in folder.rglob("*")} | {folder.name}
    assert _everything_under(sandbox) == expected
    sample = next(p for p in folder.rglob("*") if p.is_file())
    assert (sandbox / sample.relative_to(folder.parent)).read_bytes() == sample.read_bytes()


def test_it_extracts_a_zip_of_a_real_result_folder(
    tmp_path: Path, sandbox: Path, io500_submissions: Path
) -> None:
    folder = io500_submissions / "submission-585"
    _extract(tmp_path, zip_folder(folder), sandbox)
    assert (sandbox / "submission-585" / "result_summary.txt").read_bytes() == (
        folder / "result_summary.txt"
    ).read_bytes()


def test_extracted_files_get_safe_permissions(tmp_path: Path, sandbox: Path) -> None:
    info, data = file_member("run/setuid-script")
    info.mode = 0o4777
    _extract(tmp_path, tar_of((info, data)), sandbox)
    assert stat.S_IMODE((sandbox / "run" / "setuid-script").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    "name", ["../evil.txt", "run/../../evil.txt", "run/../../../tmp/evil.txt", "..\\evil.txt"]
)
def test_it_rejects_path_traversal_members(tmp_path: Path, sandbox: Path, name: str) -> None:
    with pytest.raises(ExtractionRejected, match=r'contains "\.\."'):
        _extract(tmp_path, tar_of(file_member("run/ok.txt"), file_member(name)), sandbox)
    assert _everything_under(sandbox.parent) <= {"dest", "dest/run", "dest/run/ok.txt"}


def test_it_rejects_path_traversal_in_zip_archives(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match=r'contains "\.\."'):
        _extract(tmp_path, zip_of(("../../evil.txt", b"x")), sandbox)
    assert not (tmp_path / "evil.txt").exists()


@pytest.mark.parametrize("name", ["/etc/evil.conf", "/tmp/evil.txt", "C:/evil.txt"])
def test_it_rejects_absolute_paths(tmp_path: Path, sandbox: Path, name: str) -> None:
    with pytest.raises(ExtractionRejected, match="absolute path"):
        _extract(tmp_path, tar_of(file_member(name)), sandbox)
    assert _everything_under(sandbox) == set()


def test_it_rejects_symlink_members(tmp_path: Path, sandbox: Path) -> None:
    link = special_member("run/passwd", tarfile.SYMTYPE, linkname="/etc/passwd")
    with pytest.raises(ExtractionRejected, match="symbolic link"):
        _extract(tmp_path, tar_of(link), sandbox)
    assert not (sandbox / "run" / "passwd").is_symlink()


def test_it_rejects_a_symlink_followed_by_a_write_through_it(tmp_path: Path, sandbox: Path) -> None:
    # The classic two-step escape: a link to a folder outside, then a file "inside" the link.
    link = special_member("run/out", tarfile.SYMTYPE, linkname="../../..")
    with pytest.raises(ExtractionRejected, match="symbolic link"):
        _extract(tmp_path, tar_of(link, file_member("run/out/evil.txt")), sandbox)
    assert not (tmp_path / "evil.txt").exists()


def test_it_rejects_symlinks_in_zip_archives(tmp_path: Path, sandbox: Path) -> None:
    info = zipfile.ZipInfo("run/passwd")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with pytest.raises(ExtractionRejected, match="symbolic link"):
        _extract(tmp_path, zip_of((info, b"/etc/passwd")), sandbox)


def test_it_rejects_hard_link_members(tmp_path: Path, sandbox: Path) -> None:
    link = special_member("run/shadow", tarfile.LNKTYPE, linkname="/etc/shadow")
    with pytest.raises(ExtractionRejected, match="hard link"):
        _extract(tmp_path, tar_of(file_member("run/a.txt"), link), sandbox)
    assert not (sandbox / "run" / "shadow").exists()


@pytest.mark.parametrize("kind", [tarfile.CHRTYPE, tarfile.BLKTYPE])
def test_it_rejects_device_members(tmp_path: Path, sandbox: Path, kind: bytes) -> None:
    device = special_member("run/sda", kind)
    with pytest.raises(ExtractionRejected, match="device file"):
        _extract(tmp_path, tar_of(device), sandbox)
    assert not (sandbox / "run" / "sda").exists()


def test_it_rejects_fifo_members(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="named pipe"):
        _extract(tmp_path, tar_of(special_member("run/pipe", tarfile.FIFOTYPE)), sandbox)


def test_it_rejects_a_bomb_by_compression_ratio(tmp_path: Path, sandbox: Path) -> None:
    zeros = bytes(64 * 1024 * 1024)
    bomb = tar_of(file_member("run/zeros.bin", zeros))
    assert len(zeros) / len(bomb) > 100
    with pytest.raises(ExtractionRejected, match="decompression bomb"):
        _extract(tmp_path, bomb, sandbox)
    written = sum(p.stat().st_size for p in sandbox.rglob("*") if p.is_file())
    # Stopped within one chunk of the limit (100 times the archive, but never below the grace for
    # archives of many tiny files), long before the 64 MiB the header promised.
    assert written <= max(100 * len(bomb), Limits().ratio_grace_bytes) + 1024 * 1024


def test_it_rejects_a_zip_bomb_by_compression_ratio(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="decompression bomb"):
        _extract(tmp_path, zip_of(("zeros.bin", bytes(32 * 1024 * 1024))), sandbox)


def test_it_rejects_archives_that_unpack_beyond_the_size_cap(tmp_path: Path, sandbox: Path) -> None:
    random_ish = random.Random(7).randbytes(2 * 1024**2)  # incompressible: the ratio check stays quiet
    with pytest.raises(ExtractionRejected, match=r"unpacks to more than 1\.0 MiB"):
        _extract(
            tmp_path,
            tar_of(file_member("run/big.bin", random_ish)),
            sandbox,
            Limits(max_unpacked_bytes=1024**2),
        )


@pytest.mark.fuzz
def test_it_rejects_more_than_ten_thousand_members(tmp_path: Path, sandbox: Path) -> None:
    members = [file_member(f"run/f{i}", b"") for i in range(10_001)]
    with pytest.raises(ExtractionRejected, match="more than 10,000 members"):
        _extract(tmp_path, tar_of(*members), sandbox)


@pytest.mark.fuzz
def test_it_accepts_exactly_ten_thousand_members(tmp_path: Path, sandbox: Path) -> None:
    members = [file_member(f"run/f{i}", b"") for i in range(9_999)]  # plus the implicit "run" folder
    _extract(tmp_path, tar_of(*members, special_member("run", tarfile.DIRTYPE)), sandbox)
    assert len(list((sandbox / "run").iterdir())) == 9_999


def test_it_rejects_a_member_given_twice(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="twice"):
        _extract(tmp_path, tar_of(file_member("run/a.txt", b"1"), file_member("run/a.txt", b"2")), sandbox)


def test_it_rejects_a_folder_where_a_file_was_written(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="needs a folder"):
        _extract(tmp_path, tar_of(file_member("run", b"x"), file_member("run/a.txt")), sandbox)


def test_it_rejects_files_that_are_not_archives(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="not an archive"):
        _extract(tmp_path, b"[RESULT] ior-easy-write 1.0 GiB/s\n", sandbox)


def test_it_rejects_an_empty_upload(tmp_path: Path, sandbox: Path) -> None:
    with pytest.raises(ExtractionRejected, match="empty"):
        _extract(tmp_path, b"", sandbox)


def test_it_rejects_a_truncated_archive(tmp_path: Path, sandbox: Path, io500_submissions: Path) -> None:
    data = pack_folder(io500_submissions / "submission-33")
    with pytest.raises(ExtractionRejected, match="damaged or truncated"):
        _extract(tmp_path, data[: len(data) // 2], sandbox)


# Where each compression keeps the check of the whole stream: gzip's CRC32, the combined CRC bits at
# the very end of bzip2, the CRC32 of the xz stream footer.
_STREAM_CHECK_AT = {"gz": -8, "bz2": -2, "xz": -12}


@pytest.mark.parametrize("compression", _STREAM_CHECK_AT)
def test_it_rejects_an_archive_cut_anywhere_in_its_compression_trailer(
    tmp_path: Path, sandbox: Path, io500_submissions: Path, compression: str
) -> None:
    # Every tar member is intact; only the end of the compressed stream is missing.
    data = pack_folder(io500_submissions / "submission-33", compression)
    with pytest.raises(ExtractionRejected, match=r"stream is truncated: it ends before its end marker"):
        _extract(tmp_path, data[:-1], sandbox)


@pytest.mark.parametrize("compression", _STREAM_CHECK_AT)
def test_it_rejects_an_archive_whose_compression_check_fails(
    tmp_path: Path, sandbox: Path, io500_submissions: Path, compression: str
) -> None:
    data = bytearray(pack_folder(io500_submissions / "submission-33", compression))
    data[_STREAM_CHECK_AT[compression]] ^= 0x01
    with pytest.raises(ExtractionRejected, match=r"damaged"):
        _extract(tmp_path, bytes(data), sandbox)


def test_it_rejects_an_oversized_long_name_header_naming_it(tmp_path: Path, sandbox: Path) -> None:
    info = tarfile.TarInfo("././@LongLink")
    info.type = tarfile.GNUTYPE_LONGNAME
    info.size = 100 * 1024 * 1024
    plain = tar_of(file_member("run/ok.txt"), compression="")[:1024] + info.tobuf(tarfile.USTAR_FORMAT)
    with pytest.raises(ExtractionRejected) as refused:
        _extract(tmp_path, plain, sandbox)
    assert str(refused.value).startswith(
        'The archive member "././@LongLink" (a GNU long-name header at byte 1,024 of the unpacked '
        "archive) declares 100.0 MiB (104,857,600 bytes) of header data"
    )


def test_it_rejects_a_corrupt_zip(tmp_path: Path, sandbox: Path) -> None:
    data = bytearray(zip_of(("run/result_summary.txt", b"x" * 5000)))
    data[40:60] = bytes(20)  # inside the compressed stream of the only member
    with pytest.raises(ExtractionRejected, match="damaged"):
        _extract(tmp_path, bytes(data), sandbox)


def test_member_names_are_checked_before_anything_is_written(tmp_path: Path, sandbox: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("/abs/first.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(ExtractionRejected):
        _extract(tmp_path, buffer.getvalue(), sandbox)
    assert _everything_under(sandbox) == set()
