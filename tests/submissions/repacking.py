"""Real runs re-packed every way an uploader can without changing what they measured: the folder or
the archive renamed, another compressor, unrelated files added (tests of submissions.run_identity)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from scoring.readers.locate import read_runs
from submissions.run_identity import run_fingerprint
from tests.support.data import submission_folder

NOTE = b"re-packed by someone else\n"
# A C-application run with phase clocks and config.ini, and a shell-era run whose folder name is the
# timestamp the reader reports.
C_APP_RUN = submission_folder(33)
SHELL_RUN = submission_folder(3) / "data" / "results" / "2019.11.11-04.23.30"


def members_of(folder: Path, top: str, extra: bool) -> list[tuple[str, bytes]]:
    members = [
        (f"{top}/{p.relative_to(folder)}", p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()
    ]
    if extra:
        members += [(f"{top}/NOTES.txt", NOTE), ("README", NOTE)]
    return members


def tar_of(members: list[tuple[str, bytes]], compress: Callable[[bytes], bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return compress(buffer.getvalue())


def zip_of(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def fingerprint_in(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    (run,) = read_runs(path)
    return run_fingerprint(run)


PACKINGS: dict[str, tuple[str, bool, str, Callable[[list[tuple[str, bytes]]], bytes]]] = {
    # name: (top folder, unrelated files added, archive name, packer)
    "renamed folder": ("renamed-by-someone-else", False, "run.tgz", lambda m: tar_of(m, gzip.compress)),
    "renamed archive": ("ORIGINAL", False, "my-own-run.tar.gz", lambda m: tar_of(m, gzip.compress)),
    "bzip2": ("ORIGINAL", False, "run.tar.bz2", lambda m: tar_of(m, bz2.compress)),
    "xz": ("ORIGINAL", False, "run.tar.xz", lambda m: tar_of(m, lzma.compress)),
    "zip": ("ORIGINAL", False, "run.zip", zip_of),
    "unrelated file added": ("ORIGINAL", True, "run.tgz", lambda m: tar_of(m, gzip.compress)),
    "all at once": ("results/elsewhere", True, "x.zip", zip_of),
}


def original_fingerprint(tmp_path: Path, folder: Path) -> str:
    """The run packed as its owner would: its own folder name, gzip, nothing added."""
    return fingerprint_in(
        tmp_path, "original.tgz", tar_of(members_of(folder, folder.name, False), gzip.compress)
    )


def repacked_fingerprint(tmp_path: Path, folder: Path, packing: str) -> str:
    top, extra, name, pack = PACKINGS[packing]
    return fingerprint_in(
        tmp_path, name, pack(members_of(folder, folder.name if top == "ORIGINAL" else top, extra))
    )
