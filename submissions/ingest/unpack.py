"""Safe extraction of an uploaded archive into a private folder.

The members, every limit and the refusal messages come from the one archive walker
(`scoring.readers.walk`), which the command-line verifier reads through as well; what is added here
is writing to disk: only regular files and folders, created with fixed permissions, without
following links, and only once the walker has accepted the member. The first breach stops everything
with an `ExtractionRejected` whose message a submitter can act on.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from scoring.readers.tarstream import shown_name
from scoring.readers.walk import ArchiveRejected, Entry, Limits, walk_archive

__all__ = ["ExtractionRejected", "ExtractionReport", "Limits", "extract_archive"]

_OUR_FAULT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.ENOMEM}


class ExtractionRejected(Exception):
    """The archive was refused; the message says why in words a submitter understands."""


@dataclass(frozen=True)
class ExtractionReport:
    members: int
    files: int
    unpacked_bytes: int


class _Writer:
    """Writes accepted entries below `root`, counting what it wrote for the report."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.members = 0
        self.files = 0
        self.written = 0

    def add(self, entry: Entry) -> None:
        self.members += 1
        refusal = entry.problem or entry.kind_problem
        if refusal is not None:
            raise ExtractionRejected(refusal)
        if entry.path is None:
            return
        target = self.root.joinpath(*entry.path.parts)
        try:
            self._make_parents(entry.path)
            if entry.kind == "dir":
                self._make_dir(target, entry.name)
            else:
                self._write_file(target, entry)
        except OSError as exc:
            if exc.errno in _OUR_FAULT_ERRNOS:
                raise  # our disk, not the archive: let the task fail and be retried
            raise ExtractionRejected(
                f'The archive member "{shown_name(entry.name)}" could not be unpacked ({exc.strerror}).'
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

    def _write_file(self, target: Path, entry: Entry) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(target, flags, 0o644)
        except FileExistsError:
            raise ExtractionRejected(
                f'The archive holds "{shown_name(entry.name)}" twice; each file may appear only once.'
            ) from None
        with os.fdopen(fd, "wb") as out:
            for chunk in entry.chunks():
                self.written += len(chunk)
                out.write(chunk)
        self.files += 1


def extract_archive(archive: Path, destination: Path, limits: Limits | None = None) -> ExtractionReport:
    """Unpack `archive` (tar, tar.gz/.bz2/.xz or zip) into the empty folder `destination`.

    On rejection the caller removes `destination`; nothing is ever written outside it. Failures of
    our own disk (full, read-only, I/O errors) propagate, so the task is retried.
    """
    writer = _Writer(destination)
    try:
        for entry in walk_archive(archive, limits):
            writer.add(entry)
    except ArchiveRejected as refused:
        raise ExtractionRejected(str(refused)) from refused
    return ExtractionReport(members=writer.members, files=writer.files, unpacked_bytes=writer.written)
