"""A corpus of hostile uploads, built on the fly: every way a stranger's archive can try to hurt us.

Each `Hostile` builds its bytes from a real result folder of the shared data and a canary folder
that an escaping member would write into. It also says how the registry must answer: the statuses
allowed (`rejected` or `invalid`, never `verified`) and a pattern the reason given to the submitter
must match, so that "rejected" alone (with a useless message) does not count as a pass.
"""

from __future__ import annotations

import bz2
import functools
import gzip
import io
import lzma
import random
import re
import struct
import subprocess
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

REJECTED = ("rejected",)
INVALID = ("invalid",)
REFUSED = ("rejected", "invalid")

_BLOCK = 512
_MIB = 1024 * 1024
_GIB = 1024 * _MIB


@dataclass(frozen=True)
class Context:
    """What a builder needs: a real run folder to disguise attacks in, and where escapes would land."""

    run: Path  # a complete, valid C-app result folder (real data)
    shell_run: Path  # a complete shell-era result folder (real data)
    canary: Path  # an absolute folder outside every sandbox; it must stay empty


@dataclass(frozen=True)
class Hostile:
    kind: str
    filename: str
    build: Callable[[Context], bytes]
    statuses: tuple[str, ...]
    reason: str  # a regular expression the submission's error must match (case-insensitive)
    heavy: bool = False  # expensive to build or to process: kept out of the quick subsets

    def reason_matches(self, error: str) -> bool:
        return re.search(self.reason, error, re.IGNORECASE | re.DOTALL) is not None


# --- building blocks -----------------------------------------------------------------------------


def _real_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _tar(
    members: Iterable[tuple[tarfile.TarInfo, bytes | None]],
    compression: str = "gz",
    fmt: int = tarfile.PAX_FORMAT,
) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=fmt) as tar:
        for info, data in members:
            if data is None:
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return _compress(buffer.getvalue(), compression)


def _compress(plain: bytes, compression: str) -> bytes:
    if compression == "gz":
        return gzip.compress(plain, mtime=0)
    if compression == "xz":
        return lzma.compress(plain)
    return plain


def _file(name: str, data: bytes = b"hello\n") -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), data


def _special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3  # /dev/null's numbers: harmless, but a device all the same
    return info, None


def _run_members(
    ctx: Context, top: str = "run", edit: dict[str, bytes] | None = None
) -> list[tuple[tarfile.TarInfo, bytes | None]]:
    files = {**_real_files(ctx.run), **(edit or {})}
    return [_file(f"{top}/{name}", data) for name, data in files.items()]


def _with_run(ctx: Context, *extra: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    """A real, valid run with the attack hidden among its files: only the attack can sink it."""
    return _tar([*_run_members(ctx), *extra])


def _zip(entries: Iterable[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buffer.getvalue()


def _edit_numbers(ctx: Context, replacement: str) -> bytes:
    """The real run with its ior-easy-write result replaced, in the summary and in result.txt."""
    files = _real_files(ctx.run)
    summary = files["result_summary.txt"].decode()
    summary = re.sub(r"(ior-easy-write\s+)\S+", lambda m: m.group(1) + replacement, summary, count=1)
    result = files["result.txt"].decode()
    result = re.sub(
        r"(\[ior-easy-write\].*?score\s*=\s*)\S+",
        lambda m: m.group(1) + replacement,
        result,
        count=1,
        flags=re.S,
    )
    edit = {"result_summary.txt": summary.encode(), "result.txt": result.encode()}
    return _tar(_run_members(ctx, edit=edit))


# --- the attacks -----------------------------------------------------------------------------------


def _traversal(ctx: Context) -> bytes:
    return _with_run(ctx, _file("run/../../../../../../../../.." + str(ctx.canary / "dotdot.txt")))


def _traversal_backslash(ctx: Context) -> bytes:
    return _with_run(ctx, _file("run\\..\\..\\..\\..\\..\\..\\..\\..\\evil.txt"))


def _absolute(ctx: Context) -> bytes:
    return _with_run(ctx, _file(str(ctx.canary / "absolute.txt")))


def _drive_letter(ctx: Context) -> bytes:
    return _with_run(ctx, _file("C:/Windows/evil.txt"))


def _symlink_out(ctx: Context) -> bytes:
    return _with_run(ctx, _special("run/passwd", tarfile.SYMTYPE, "/etc/passwd"))


def _symlink_then_write(ctx: Context) -> bytes:
    # The two-step escape: a link to the canary, then a file "inside" the link.
    return _tar(
        [
            _special("run/escape", tarfile.SYMTYPE, str(ctx.canary)),
            _file("run/escape/through-link.txt"),
            *_run_members(ctx),
        ]
    )


def _hardlink_out(ctx: Context) -> bytes:
    return _with_run(ctx, _special("run/shadow", tarfile.LNKTYPE, "/etc/shadow"))


def _hardlink_inside(ctx: Context) -> bytes:
    # Even a link to a member of the same archive is refused: links are not part of a result folder.
    return _with_run(ctx, _special("run/copy.txt", tarfile.LNKTYPE, "run/result.txt"))


def _char_device(ctx: Context) -> bytes:
    return _with_run(ctx, _special("run/null", tarfile.CHRTYPE))


def _block_device(ctx: Context) -> bytes:
    return _with_run(ctx, _special("run/sda", tarfile.BLKTYPE))


def _fifo(ctx: Context) -> bytes:
    return _with_run(ctx, _special("run/pipe", tarfile.FIFOTYPE))


def _duplicate_member(ctx: Context) -> bytes:
    forged = b"[RESULT]       ior-easy-write     9999.000000 GiB/s  : time 400.000 seconds\n"
    return _with_run(ctx, _file("run/result_summary.txt", forged))


def _nul_in_name(ctx: Context) -> bytes:
    # A pax header can carry any byte in a name; some tools cut at the NUL, some do not.
    info, data = _file("run/notes.txt")
    info.pax_headers = {"path": "run/notes.txt\x00../../escape.txt"}
    return _with_run(ctx, (info, data))


def _invalid_utf8_name(ctx: Context) -> bytes:
    # Raw bytes in a GNU header name; tarfile hands them back as surrogate escapes.
    info, data = _file("run/r\udcffsum\udcfe.txt")
    plain = _tar([*_run_members(ctx), (info, data)], compression="", fmt=tarfile.GNU_FORMAT)
    return gzip.compress(plain, mtime=0)


def _control_characters_in_name(ctx: Context) -> bytes:
    return _with_run(ctx, _file("run/\x1b[31mred\nnew line.txt"))


def _long_component(ctx: Context) -> bytes:
    return _with_run(ctx, _file("run/" + "a" * 300 + ".txt"))


def _deep_path(ctx: Context) -> bytes:
    return _with_run(ctx, _file("run/" + "d/" * 2100 + "deep.txt"))


def _gzip_around_zeros(head: bytes, zeros: int, tail: bytes) -> bytes:
    """`head`, `zeros` zero bytes and `tail` as one valid gzip stream, without compressing or holding
    the zeros.

    After a full flush deflate starts afresh, so one compressed mebibyte of zeros can be repeated;
    the gzip trailer still carries the true CRC and size, so the bomb is a perfectly valid file.
    """
    assert zeros % _MIB == 0, "whole mebibytes of zeros only"
    chunk = bytes(_MIB)
    engine = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    head_packed = engine.compress(head) + engine.flush(zlib.Z_FULL_FLUSH)
    block = engine.compress(chunk) + engine.flush(zlib.Z_FULL_FLUSH)
    tail_packed = engine.compress(tail) + engine.flush()
    crc = zlib.crc32(head)
    for _ in range(zeros // _MIB):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(tail, crc)
    size = (len(head) + zeros + len(tail)) & 0xFFFFFFFF
    gzip_header = b"\x1f\x8b\x08\x00" + bytes(4) + b"\x02\xff"
    return gzip_header + head_packed + block * (zeros // _MIB) + tail_packed + struct.pack("<2L", crc, size)


def _zeros_member_tar_gz(total: int) -> bytes:
    """A .tar.gz holding one member of `total` zero bytes."""
    info = tarfile.TarInfo("run/zeros.bin")
    info.size = total
    return _gzip_around_zeros(info.tobuf(tarfile.PAX_FORMAT), total, bytes(2 * _BLOCK))


def _gzip_bomb(ctx: Context) -> bytes:
    return _zeros_member_tar_gz(1024 * _MIB)


def _xz_bomb(ctx: Context) -> bytes:
    info = tarfile.TarInfo("run/zeros.bin")
    info.size = 64 * _MIB
    engine = lzma.LZMACompressor(preset=0)
    parts = [engine.compress(info.tobuf(tarfile.PAX_FORMAT))]
    parts += [engine.compress(bytes(_MIB)) for _ in range(64)]
    parts += [engine.compress(bytes(2 * _BLOCK)), engine.flush()]
    return b"".join(parts)


def _zip_bomb(ctx: Context) -> bytes:
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf,
        zf.open("run/zeros.bin", "w") as out,
    ):
        chunk = bytes(_MIB)
        for _ in range(128):
            out.write(chunk)
    return buffer.getvalue()


def _sparse(ctx: Context, tar_format: str) -> bytes:
    """A 1,000,000,000-byte member that is one hole: a few KiB of archive, a gigabyte if written out."""
    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder) / "run"
        run.mkdir()
        for name, data in _real_files(ctx.run).items():
            (run / name).write_bytes(data)
        with open(run / "sparse.bin", "wb") as f:
            f.truncate(1_000_000_000)
        archive = Path(folder) / "sparse.tgz"
        subprocess.run(
            ["tar", "--sparse", f"--format={tar_format}", "-czf", str(archive), "-C", folder, "run"],
            check=True,
            capture_output=True,
        )
        return archive.read_bytes()


def _nested_archive(ctx: Context) -> bytes:
    inner = _tar(_run_members(ctx))
    return _tar([_file("upload/inner-results.tgz", inner)])


def _zip_overlapping(ctx: Context) -> bytes:
    """64 central-directory entries all pointing at one local file: the overlapping-entries bomb."""
    data = zlib.compress(bytes(8 * _MIB), 9)[2:-4]  # raw deflate
    crc = zlib.crc32(bytes(8 * _MIB))
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(data), 8 * _MIB, 5, 0) + b"a.bin"
    body = local + data
    central = b""
    names = [f"run/{i:03d}.bin".encode() for i in range(64)]
    for name in names:
        central += (
            struct.pack(
                "<4s6H3L5H2L",
                b"PK\x01\x02",
                20,
                20,
                0,
                8,
                0,
                0,
                crc,
                len(data),
                8 * _MIB,
                len(name),
                0,
                0,
                0,
                0,
                0,
                0,
            )
            + name
        )
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(names), len(names), len(central), len(body), 0)
    return body + central + end


def _zip_name_mismatch(ctx: Context) -> bytes:
    """The local header says one name, the central directory another (a classic scanner evasion)."""
    data = bytearray(_zip([("run/result_summary.txt", b"x" * 100)]))
    local_name_at = 30
    data[local_name_at : local_name_at + 3] = b"../"
    return bytes(data)


def _zip_encrypted(ctx: Context) -> bytes:
    data = bytearray(_zip([(f"run/{n}", d) for n, d in _real_files(ctx.run).items()]))
    # Set the "encrypted" flag bit in every central-directory entry and local header.
    for signature, flag_offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (at := data.find(signature, start)) >= 0:
            data[at + flag_offset] |= 0x01
            start = at + 4
    return bytes(data)


def _zip_unsupported_method(ctx: Context) -> bytes:
    data = bytearray(_zip([(f"run/{n}", d) for n, d in _real_files(ctx.run).items()]))
    for signature, method_offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (at := data.find(signature, start)) >= 0:
            data[at + method_offset : at + method_offset + 2] = struct.pack("<H", 98)  # PPMd
            start = at + 4
    return bytes(data)


def _truncated(ctx: Context) -> bytes:
    whole = _tar(_run_members(ctx))
    return whole[: len(whole) // 2]


def _corrupt_gzip(ctx: Context) -> bytes:
    data = bytearray(_tar(_run_members(ctx)))
    for offset in range(len(data) // 3, len(data) // 3 + 64):
        data[offset] ^= 0x5A
    return bytes(data)


def _corrupt_zip(ctx: Context) -> bytes:
    data = bytearray(_zip([(f"run/{n}", d) for n, d in _real_files(ctx.run).items()]))
    for offset in range(100, 164):
        data[offset] ^= 0xA5
    return bytes(data)


def _lying_header_size(ctx: Context) -> bytes:
    """A member whose header promises far more bytes than the archive holds."""
    info = tarfile.TarInfo("run/result_summary.txt")
    info.size = 10 * _MIB
    plain = info.tobuf(tarfile.PAX_FORMAT) + b"[RESULT] only this much\n".ljust(_BLOCK, b"\0")
    return gzip.compress(plain, mtime=0)


def _plain_run_tar(ctx: Context) -> bytes:
    """The real run as an uncompressed tar, end-of-archive marker included."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in _run_members(ctx):
            assert data is not None
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _header_bomb(ctx: Context, kind: bytes, name: str) -> bytes:
    """A header of type `kind` declaring 1 GiB (zeros, ~1 MiB once gzip'ed) in front of a real run.

    tarfile reads such a header's whole payload into memory before looking at it: a GNU long name
    or link target, or pax attributes (for the next member, or for all of them if global).
    """
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = _GIB
    return _gzip_around_zeros(info.tobuf(tarfile.USTAR_FORMAT), _GIB, _plain_run_tar(ctx))


def _many_pax_headers(ctx: Context) -> bytes:
    """300 members each carrying a 60 KiB pax comment: each header is allowed, together 17.6 MiB."""
    comment = "x" * 60 * 1024
    members = []
    for index in range(300):
        info, data = _file(f"run/notes-{index:03d}.txt")
        info.pax_headers = {"comment": comment}
        members.append((info, data))
    return _with_run(ctx, *members)


def _gzip_cut_at_member_boundary(ctx: Context) -> bytes:
    """A real run's .tar.gz cut right after the run's members, where no tar header is broken.

    A last member, the end-of-archive marker and the gzip trailer are lost. tarfile ends quietly
    at a missing header, so unless the gzip stream is read to its end this passes for a complete,
    shorter archive.
    """
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in [*_run_members(ctx), _file("run/zz-lost.txt")]:
            assert data is not None
            if info.name == "run/zz-lost.txt":
                cut = buffer.tell()
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    engine = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    packed = engine.compress(buffer.getvalue()[:cut]) + engine.flush(zlib.Z_FULL_FLUSH)
    return b"\x1f\x8b\x08\x00" + bytes(4) + b"\x02\xff" + packed


def _gzip_wrong_crc(ctx: Context) -> bytes:
    """A real run's .tar.gz whose gzip trailer carries a wrong CRC32: the content was altered."""
    data = bytearray(_tar(_run_members(ctx)))
    data[-8] ^= 0xFF
    return bytes(data)


def _empty_file(ctx: Context) -> bytes:
    return b""


def _empty_tar(ctx: Context) -> bytes:
    return _tar([])


def _empty_zip(ctx: Context) -> bytes:
    return _zip([])


def _not_an_archive(ctx: Context) -> bytes:
    return b"\x7fELF\x02\x01\x01" + bytes(200)  # an executable, named .tgz


# Bytes the walk decompresses but no reader keeps: the data of a member that is skipped. A 78 KB
# bzip2 upload whose member "." held 100 GiB of zeros once kept a worker busy for 289 s.
_BZIP2_ZEROS = 8 * _MIB
# GNU tar's volume label (`tar --label`), a type tarfile does not know and skips like file data.
GNU_VOLUME_HEADER = b"V"


@functools.cache
def _bzip2_zeros() -> bytes:
    """8 MiB of zeros as one bzip2 stream of 40-odd bytes; concatenated streams are one valid file."""
    return bz2.compress(bytes(_BZIP2_ZEROS), 9)


def skipped_data(ctx: Context, name: str, kind: bytes = tarfile.REGTYPE, zeros: int = _GIB) -> bytes:
    """A member `name` of type `kind` whose `zeros` bytes of data nobody keeps, then a real run, as
    bzip2 (1 GiB is 5 KB; 100 GiB, 0.6 MB)."""
    assert zeros % _BZIP2_ZEROS == 0, "whole multiples of 8 MiB only"
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = zeros
    head = bz2.compress(info.tobuf(tarfile.GNU_FORMAT))  # GNU: sizes past the 8 GiB of ustar
    return head + _bzip2_zeros() * (zeros // _BZIP2_ZEROS) + bz2.compress(_plain_run_tar(ctx))


def _folder_flood(ctx: Context) -> bytes:
    """170 empty files, each 61 folders deep on a path of its own: 10,370 folders from 20 KB.

    At scale (50 KB of tar) this made 630,000 folders, 2.4 GiB of scratch in 128 s.
    """
    chain = "d/" * 60
    return _with_run(ctx, *(_file(f"run/f{index}/{chain}x", b"") for index in range(170)))


def _zip_folder_flood(ctx: Context) -> bytes:
    """10,001 folder entries around a real run (4 million of them once took a worker to 1.9 GiB)."""
    folders = [(f"run/d{index}/", b"") for index in range(10_001)]
    return _zip([*((f"run/{name}", data) for name, data in _real_files(ctx.run).items()), *folders])


def _many_members(ctx: Context) -> bytes:
    header = tarfile.TarInfo
    plain = io.BytesIO()
    for index in range(100_000):
        info = header(f"run/f{index:06d}")
        info.size = 1
        plain.write(info.tobuf(tarfile.USTAR_FORMAT))
        plain.write(b"x".ljust(_BLOCK, b"\0"))
    plain.write(bytes(2 * _BLOCK))
    return gzip.compress(plain.getvalue(), compresslevel=6, mtime=0)


def _random_hex(count: int) -> bytes:
    # Random hex digits barely compress, so the line reaches the reader instead of the bomb check.
    return random.Random(count).randbytes(count // 2).hex().encode()


def _huge_line(ctx: Context) -> bytes:
    # 17 MiB without a newline in the summary, the only file left that carries the numbers: above
    # the reader's file cap.
    line = b"[RESULT] ior-easy-write " + _random_hex(17 * _MIB)
    members = _run_members(ctx, edit={"result_summary.txt": line})
    return _tar(member for member in members if member[0].name != "run/result.txt")


def _huge_line_in_result_txt(ctx: Context) -> bytes:
    # 12 MiB on one line of result.txt: below the cap, so the INI reader has to cope with it.
    line = b"[ior-easy-write]\nscore = " + _random_hex(12 * _MIB) + b"\n"
    return _tar(_run_members(ctx, edit={"result.txt": line}))


def _binary_garbage_results(ctx: Context) -> bytes:
    garbage = bytes(range(256)) * 400
    edit = dict.fromkeys(("result_summary.txt", "result.txt", "config.ini"), garbage)
    return _tar(_run_members(ctx, edit=edit))


def _utf16_results(ctx: Context) -> bytes:
    files = _real_files(ctx.run)
    edit = {name: files[name].decode().encode("utf-16") for name in ("result_summary.txt", "result.txt")}
    return _tar(_run_members(ctx, edit=edit))


def _mixed_eras(ctx: Context) -> bytes:
    """One result folder whose summary comes from the 2019 shell script and the rest from the C app."""
    shell = _real_files(ctx.shell_run)
    return _tar(_run_members(ctx, edit={"result_summary.txt": shell["result_summary.txt"]}))


def _several_tampered_runs(ctx: Context) -> bytes:
    """Many result folders in one tarball, each a copy of a real run with a different phase inflated."""
    members: list[tuple[tarfile.TarInfo, bytes | None]] = []
    files = _real_files(ctx.run)
    result_txt = files["result.txt"].decode()
    for index, match in enumerate(re.finditer(r"^score\s*=\s*(\S+)$", result_txt, re.M)):
        inflated = (
            result_txt[: match.start(1)] + f"{float(match.group(1)) * 10:f}" + result_txt[match.end(1) :]
        )
        edit = {"result.txt": inflated.encode()}
        members += _run_members(ctx, top=f"runs/attempt-{index:02d}", edit=edit)
    return _tar(members)


def _only_extra_results(ctx: Context) -> bytes:
    """A tarball with nothing but job files: no result folder at all."""
    return _tar(
        [_file("job/slurm.sh", b"#!/bin/bash\nsrun io500 config.ini\n"), _file("job/README", b"see attached")]
    )


HOSTILE: tuple[Hostile, ...] = (
    Hostile("path traversal (..)", "dotdot.tgz", _traversal, REJECTED, r'contains "\.\."'),
    Hostile(
        "path traversal (backslashes)", "backslash.tgz", _traversal_backslash, REJECTED, r'contains "\.\."'
    ),
    Hostile("absolute path", "absolute.tgz", _absolute, REJECTED, "absolute path"),
    Hostile("Windows drive path", "drive.tgz", _drive_letter, REJECTED, "absolute path"),
    Hostile("symlink out of the tree", "symlink.tgz", _symlink_out, REJECTED, "symbolic link"),
    Hostile(
        "symlink then write through it", "symlink-write.tgz", _symlink_then_write, REJECTED, "symbolic link"
    ),
    Hostile("hard link out of the tree", "hardlink.tgz", _hardlink_out, REJECTED, "hard link"),
    Hostile("hard link inside the tree", "hardlink-inside.tgz", _hardlink_inside, REJECTED, "hard link"),
    Hostile("character device", "chardev.tgz", _char_device, REJECTED, "device file"),
    Hostile("block device", "blockdev.tgz", _block_device, REJECTED, "device file"),
    Hostile("FIFO", "fifo.tgz", _fifo, REJECTED, r"named pipe"),
    Hostile("duplicate member name", "duplicate.tgz", _duplicate_member, REJECTED, "twice"),
    Hostile("NUL byte in a name", "nul.tgz", _nul_in_name, REJECTED, r"NUL byte"),
    Hostile("invalid UTF-8 name", "badutf8.tgz", _invalid_utf8_name, REJECTED, r"not valid UTF-8"),
    Hostile(
        "control characters in a name",
        "control.tgz",
        _control_characters_in_name,
        REJECTED,
        r"control character",
    ),
    Hostile("overlong name component", "longname.tgz", _long_component, REJECTED, r"name .*too long"),
    Hostile("deeply nested path", "deep.tgz", _deep_path, REJECTED, r"path .*too long"),
    Hostile("gzip bomb (1 GiB of zeros)", "bomb.tgz", _gzip_bomb, REJECTED, "decompression bomb", heavy=True),
    Hostile("xz bomb (64 MiB of zeros)", "bomb.txz", _xz_bomb, REJECTED, "decompression bomb"),
    Hostile("zip bomb (128 MiB of zeros)", "bomb.zip", _zip_bomb, REJECTED, "decompression bomb", heavy=True),
    Hostile(
        "sparse member of 10^9 bytes (GNU)",
        "sparse-gnu.tgz",
        lambda c: _sparse(c, "gnu"),
        REJECTED,
        "decompression bomb|sparse",
    ),
    Hostile(
        "sparse member of 10^9 bytes (pax)",
        "sparse-pax.tgz",
        lambda c: _sparse(c, "posix"),
        REJECTED,
        "decompression bomb|sparse",
    ),
    Hostile(
        "nested archive only", "nested.tgz", _nested_archive, REJECTED, r"archive inside|No IO500 result"
    ),
    Hostile(
        "zip with overlapping entries",
        "overlap.zip",
        _zip_overlapping,
        REJECTED,
        r"damaged|overlap|decompression bomb",
    ),
    Hostile("zip local/central name mismatch", "mismatch.zip", _zip_name_mismatch, REJECTED, r"damaged"),
    Hostile("encrypted zip", "encrypted.zip", _zip_encrypted, REJECTED, r"encrypted"),
    Hostile(
        "zip with an unsupported compression",
        "ppmd.zip",
        _zip_unsupported_method,
        REJECTED,
        r"compression method",
    ),
    Hostile("truncated tar.gz", "truncated.tgz", _truncated, REJECTED, r"damaged or truncated"),
    Hostile("corrupt gzip stream", "corrupt.tgz", _corrupt_gzip, REJECTED, r"damaged"),
    Hostile("corrupt zip", "corrupt.zip", _corrupt_zip, REJECTED, r"damaged"),
    Hostile(
        "member larger than the archive",
        "lying-size.tgz",
        _lying_header_size,
        REJECTED,
        r"damaged or truncated",
    ),
    Hostile(
        "1 GiB GNU long-name header",
        "longname-bomb.tgz",
        lambda c: _header_bomb(c, tarfile.GNUTYPE_LONGNAME, "././@LongLink"),
        REJECTED,
        r'"\./\./@LongLink" \(a GNU long-name header .*declares 1\.0 GiB \(1,073,741,824 bytes\).*'
        r"at most 64\.0 KiB \(65,536 bytes\)",
    ),
    Hostile(
        "1 GiB GNU long-link header",
        "longlink-bomb.tgz",
        lambda c: _header_bomb(c, tarfile.GNUTYPE_LONGLINK, "././@LongLink"),
        REJECTED,
        r'"\./\./@LongLink" \(a GNU long-link header .*declares 1\.0 GiB \(1,073,741,824 bytes\).*'
        r"at most 64\.0 KiB \(65,536 bytes\)",
    ),
    Hostile(
        "1 GiB pax extended header",
        "pax-bomb.tgz",
        lambda c: _header_bomb(c, tarfile.XHDTYPE, "run/PaxHeaders.4242/result.txt"),
        REJECTED,
        r'"run/PaxHeaders\.4242/result\.txt" \(a pax extended header .*declares 1\.0 GiB '
        r"\(1,073,741,824 bytes\).*at most 64\.0 KiB \(65,536 bytes\)",
    ),
    Hostile(
        "1 GiB pax global header",
        "pax-global-bomb.tgz",
        lambda c: _header_bomb(c, tarfile.XGLTYPE, "pax_global_header"),
        REJECTED,
        r'"pax_global_header" \(a pax global header .*declares 1\.0 GiB \(1,073,741,824 bytes\).*'
        r"at most 64\.0 KiB \(65,536 bytes\)",
    ),
    Hostile(
        "300 pax headers of 60 KiB",
        "many-pax.tgz",
        _many_pax_headers,
        REJECTED,
        r"pax extended header .*brings the archive's long-name and pax headers to 16\.\d MiB .*more "
        r"than the 16\.0 MiB \(16,777,216 bytes\)",
    ),
    Hostile(
        "gzip cut at a member boundary",
        "cut.tgz",
        _gzip_cut_at_member_boundary,
        REJECTED,
        r"truncated|incomplete",
    ),
    Hostile("gzip with a wrong CRC", "wrong-crc.tgz", _gzip_wrong_crc, REJECTED, r"gzip stream is damaged"),
    Hostile("empty file", "empty.tgz", _empty_file, REJECTED, r"empty"),
    Hostile("empty tar", "empty-tar.tgz", _empty_tar, REJECTED, r"No IO500 result"),
    Hostile("empty zip", "empty.zip", _empty_zip, REJECTED, r"No IO500 result"),
    Hostile("not an archive (ELF named .tgz)", "program.tgz", _not_an_archive, REJECTED, r"not an archive"),
    Hostile(
        "100,000 tiny members", "many.tgz", _many_members, REJECTED, r"more than 10,000 members", heavy=True
    ),
    Hostile(
        'member named dot (".") with 1 GiB of data (bzip2)',
        "dot.tbz2",
        lambda c: skipped_data(c, "."),
        REJECTED,
        "decompression bomb",
    ),
    Hostile(
        'member named dot-slash ("./") with 1 GiB of data (bzip2)',
        "dotslash.tbz2",
        lambda c: skipped_data(c, "./"),
        REJECTED,
        "decompression bomb",
    ),
    Hostile(
        "folder entry with 1 GiB of data (bzip2)",
        "folder-data.tbz2",
        lambda c: skipped_data(c, "run/data", tarfile.DIRTYPE),
        REJECTED,
        "decompression bomb|after the end of the tar archive",
    ),
    Hostile(
        "volume header with 1 GiB of data (bzip2)",
        "volume-data.tbz2",
        lambda c: skipped_data(c, "run/label", GNU_VOLUME_HEADER),
        REJECTED,
        "decompression bomb|special file",
    ),
    Hostile("10,370 implied folders", "folders.tgz", _folder_flood, REJECTED, r"more than 10,000 members"),
    Hostile(
        "10,001 zip folder entries", "folders.zip", _zip_folder_flood, REJECTED, r"more than 10,000 members"
    ),
    Hostile("17 MiB single line", "longline.tgz", _huge_line, REJECTED, r"too large|larger than", heavy=True),
    Hostile(
        "12 MiB line in result.txt",
        "longline-ini.tgz",
        _huge_line_in_result_txt,
        REFUSED,
        r"not valid|could not",
        heavy=True,
    ),
    Hostile(
        "binary garbage result files",
        "garbage.tgz",
        _binary_garbage_results,
        REJECTED,
        r"binary data instead of text",
    ),
    Hostile("UTF-16 result files", "utf16.tgz", _utf16_results, REJECTED, r"binary data instead of text"),
    Hostile("NaN result", "nan.tgz", lambda c: _edit_numbers(c, "nan"), INVALID, r"not valid"),
    Hostile("infinite result", "inf.tgz", lambda c: _edit_numbers(c, "inf"), INVALID, r"not valid"),
    Hostile(
        "negative result", "negative.tgz", lambda c: _edit_numbers(c, "-38.704764"), INVALID, r"not valid"
    ),
    Hostile(
        "absurd result (1e300)", "absurd.tgz", lambda c: _edit_numbers(c, "1e300"), INVALID, r"not valid"
    ),
    Hostile("mixed eras in one folder", "mixed.tgz", _mixed_eras, INVALID, r"not valid"),
    Hostile("several tampered result folders", "several.tgz", _several_tampered_runs, INVALID, r"not valid"),
    Hostile("job files but no results", "nothing.tgz", _only_extra_results, REJECTED, r"No IO500 result"),
)
