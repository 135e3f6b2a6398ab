"""The shared tar stream guards: header sizes checked at their bounds, compression read to its end."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
from collections.abc import Callable

import pytest

from scoring.readers.tarstream import (
    MAX_HEADER_BYTES,
    MAX_HEADER_BYTES_PER_ARCHIVE,
    MAX_TRAILING_BYTES,
    BoundedTarInfo,
    TarRejected,
    decompressed,
    finish_stream,
)

HEADER_TYPES = {
    "GNU long-name": tarfile.GNUTYPE_LONGNAME,
    "GNU long-link": tarfile.GNUTYPE_LONGLINK,
    "pax extended": tarfile.XHDTYPE,
    "pax global": tarfile.XGLTYPE,
}
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda data: gzip.compress(data, mtime=0),
    "bzip2": bz2.compress,
    "xz": lzma.compress,
}
# Where each format keeps the check of the whole stream: gzip's CRC32, the combined CRC bits at the
# very end of bzip2, the CRC32 of the xz stream footer.
CHECK_OFFSET = {"gzip": -8, "bzip2": -2, "xz": -12}


def _file(name: str, data: bytes = b"hello\n") -> bytes:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info.tobuf(tarfile.USTAR_FORMAT) + data.ljust(tarfile.BLOCKSIZE, b"\0")


def _header(kind: bytes, size: int, name: str = "././@LongLink") -> bytes:
    """A header of `kind` whose payload is exactly `size` bytes, valid for its type."""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    if kind in (tarfile.XHDTYPE, tarfile.XGLTYPE):
        # One "LEN comment=VALUE\n" record of exactly `size` bytes; LEN counts its own digits.
        fixed = len(f"{size} comment=\n")
        payload = f"{size} comment={'x' * (size - fixed)}\n".encode()
    else:
        payload = b"run/" + b"n" * 20 + b"\0" * (size - 24)
    assert len(payload) == size
    padded = payload + b"\0" * (-size % tarfile.BLOCKSIZE)
    return info.tobuf(tarfile.USTAR_FORMAT) + padded


def _read_names(plain: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(plain), mode="r|", tarinfo=BoundedTarInfo) as tar:
        return [member.name for member in tar]


END = bytes(2 * tarfile.BLOCKSIZE)


@pytest.mark.parametrize("kind", HEADER_TYPES.values(), ids=HEADER_TYPES.keys())
def test_a_header_of_exactly_the_bound_is_read(kind: bytes) -> None:
    names = _read_names(_header(kind, MAX_HEADER_BYTES) + _file("run/result.txt") + END)
    assert names == ["run/" + "n" * 20 if kind == tarfile.GNUTYPE_LONGNAME else "run/result.txt"]


@pytest.mark.parametrize("label", HEADER_TYPES)
def test_a_header_one_byte_above_the_bound_is_refused_naming_it(label: str) -> None:
    plain = _file("run/first.txt") + _header(HEADER_TYPES[label], MAX_HEADER_BYTES + 1) + END
    with pytest.raises(TarRejected) as refused:
        _read_names(plain)
    assert str(refused.value).startswith(
        f'The archive member "././@LongLink" (a {label} header at byte 1,024 of the unpacked archive) '
        "declares 64.0 KiB (65,537 bytes) of header data"
    )
    assert "at most 64.0 KiB (65,536 bytes)" in str(refused.value)


def test_the_size_is_checked_before_the_payload_is_read() -> None:
    # Only the header block is there: reading the declared payload would fail differently.
    info = tarfile.TarInfo("././@LongLink")
    info.type = tarfile.GNUTYPE_LONGNAME
    info.size = 1024**3
    with pytest.raises(TarRejected, match=r"declares 1\.0 GiB \(1,073,741,824 bytes\)"):
        _read_names(info.tobuf(tarfile.USTAR_FORMAT))


def test_headers_adding_up_beyond_the_archive_bound_are_refused_at_the_first_too_many() -> None:
    per_archive = MAX_HEADER_BYTES_PER_ARCHIVE // MAX_HEADER_BYTES
    member = _header(tarfile.XHDTYPE, MAX_HEADER_BYTES, "PaxHeaders/notes.txt") + _file("run/notes.txt")
    allowed = member * per_archive
    assert _read_names(allowed + END) == ["run/notes.txt"] * per_archive
    with pytest.raises(TarRejected) as refused:
        _read_names(allowed + member + END)
    assert f"at byte {len(allowed):,} of" in str(refused.value)
    assert "more than the 16.0 MiB (16,777,216 bytes) accepted in one archive" in str(refused.value)


def _compressed_tar(compression: str) -> bytes:
    # Padded to a 40 KiB tar record (tar -b 80), so that the tar reader, which reads 10 KiB at a time,
    # is done well before the decompressor reaches the stream's check: only finish_stream sees it.
    return COMPRESSORS[compression](_file("run/result.txt") + END + bytes(40960 - 3 * tarfile.BLOCKSIZE))


def _read_all(data: bytes, compression: str | None) -> list[str]:
    with decompressed(io.BytesIO(data), compression) as stream:
        with tarfile.open(fileobj=stream, mode="r|", tarinfo=BoundedTarInfo) as tar:  # type: ignore[call-overload]
            names = [member.name for member in tar]
        finish_stream(stream, compression)
    return names


@pytest.mark.parametrize("compression", [*COMPRESSORS, None])
def test_an_intact_stream_padded_to_a_tar_record_is_read(compression: str | None) -> None:
    plain = _file("run/result.txt") + END + bytes(10240 - 3 * tarfile.BLOCKSIZE)
    data = COMPRESSORS[compression](plain) if compression else plain
    assert _read_all(data, compression) == ["run/result.txt"]


@pytest.mark.parametrize("compression", COMPRESSORS)
def test_a_stream_cut_after_the_tar_end_is_refused_as_truncated(compression: str) -> None:
    data = _compressed_tar(compression)
    with pytest.raises(TarRejected, match=rf"The {compression} stream is truncated"):
        _read_all(data[:-3], compression)


@pytest.mark.parametrize("compression", COMPRESSORS)
def test_a_stream_failing_its_final_check_is_refused_as_damaged(compression: str) -> None:
    data = bytearray(_compressed_tar(compression))
    data[CHECK_OFFSET[compression]] ^= 0x01
    with pytest.raises(TarRejected, match=rf"The {compression} stream is damaged"):
        _read_all(bytes(data), compression)


def test_a_gzip_stream_with_a_wrong_length_is_refused_as_damaged() -> None:
    data = bytearray(_compressed_tar("gzip"))
    data[-4] ^= 0x01  # ISIZE, the uncompressed length modulo 2**32
    with pytest.raises(TarRejected, match=r"gzip stream is damaged \(Incorrect length"):
        _read_all(bytes(data), "gzip")


def test_more_than_a_mebibyte_after_the_tar_end_is_refused() -> None:
    # tarfile reads 10 KiB at a time, so what it took with the end marker is not counted.
    plain = _file("run/result.txt") + END + bytes(MAX_TRAILING_BYTES + 10240)
    with pytest.raises(TarRejected, match=r"more than 1\.0 MiB after the end of the tar archive"):
        _read_all(gzip.compress(plain, mtime=0), "gzip")
