"""Reads for the inline viewer of a stored archive's files: the member index and one member's text.

The stored archive is immutable (content-addressed), so its member index is cached by its SHA-256 for
good. Every read goes through the one archive walker and its Limits (`scoring.readers.walk`), straight
from the stored file: a request never copies or unpacks an archive to disk. A hostile archive costs a
request at most what the walker's limits allow, and only the first request: a refusal is cached too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO, BinaryIO, cast

from django.core.cache import cache

from scoring.readers.tarstream import shown_name
from scoring.readers.walk import ArchiveRejected, Limits, walk_archive
from submissions.archives import open_stored
from submissions.models import Archive

# The walk's limits are the upload's: whatever was accepted at upload can be shown, nothing more.
VIEW_LIMITS = Limits()
# What one file page reads and shows at most; the rest is offered as the download.
MAX_SHOWN_BYTES = 1024 * 1024
LINES_PER_PAGE = 500
# How much of a member decides whether it is text.
SNIFF_BYTES = 8192
# Control characters other than tab, newline, form feed, carriage return and escape (terminal colours
# in job outputs) mark a binary file, as do NUL bytes.
_BINARY_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")
# Bump when Member changes shape, so no process reads another version's pickles.
_INDEX_VERSION = 1
_INDEX_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True)
class Member:
    """One entry of an archive as the viewer lists it."""

    index: int  # its place in the walk: the file page's address
    name: str  # printable (control characters escaped), bounded in length
    kind: str  # "file", "dir", ... as the walker says
    size: int  # bytes of content (0 for folders)
    is_text: bool
    problem: str | None  # why its name cannot be used, if it cannot

    @property
    def viewable(self) -> bool:
        return self.kind == "file" and self.problem is None


@dataclass(frozen=True)
class MemberIndex:
    members: tuple[Member, ...]
    refused: str | None  # the walker's reason when the archive cannot be read to the end


@dataclass(frozen=True)
class Line:
    number: int
    text: str


@dataclass(frozen=True)
class MemberText:
    member: Member
    lines: tuple[Line, ...]  # this page's lines
    page: int
    pages: int
    total_lines: int  # of the part shown
    truncated: bool  # the member is longer than what is shown


def looks_like_text(head: bytes) -> bool:
    """Whether a member's first bytes are text: no NUL, no control characters but the usual ones.
    Text need not be UTF-8 (old outputs are Latin-1); it is shown with replacement characters."""
    return not _BINARY_CONTROLS.search(head)


def _index_key(archive: Archive) -> str:
    return f"viewer:index:v{_INDEX_VERSION}:{archive.sha256}:{VIEW_LIMITS.max_members}"


def archive_member_index(*, archive: Archive) -> MemberIndex:
    """Every member of a stored archive, read once and cached by the archive's hash.

    Raises ArchiveUnreachable when the storage does not answer (not cached: it is ours to fix)."""
    key = _index_key(archive)
    cached = cache.get(key)
    if isinstance(cached, MemberIndex):
        return cached
    index = _read_index(archive)
    cache.set(key, index, _INDEX_SECONDS)
    return index


def _read_index(archive: Archive) -> MemberIndex:
    members: list[Member] = []
    handle = open_stored(str(archive.file.name))
    try:
        for number, entry in enumerate(walk_archive(_seekable(handle), VIEW_LIMITS)):
            size = 0
            head = b""
            if entry.kind == "file":
                # A tar is one stream: the content is read through (and counted by the walker's
                # limits) to learn its size; only the first bytes are kept, to tell text.
                for chunk in entry.chunks():
                    if len(head) < SNIFF_BYTES:
                        head += chunk[: SNIFF_BYTES - len(head)]
                    size += len(chunk)
            members.append(
                Member(
                    index=number,
                    name=shown_name(entry.name),
                    kind=entry.kind,
                    size=size,
                    is_text=entry.kind == "file" and looks_like_text(head),
                    problem=entry.problem or entry.kind_problem,
                )
            )
    except ArchiveRejected as refused:
        return MemberIndex(tuple(members), str(refused))
    finally:
        handle.close()
    return MemberIndex(tuple(members), None)


def _seekable(handle: IO[bytes]) -> BinaryIO:
    # Django's File wraps the storage's file object (a local file, or S3's spooled copy); both seek.
    inner = getattr(handle, "file", handle)
    return cast(BinaryIO, inner if hasattr(inner, "seek") else handle)


def archive_member_read(*, archive: Archive, member: Member, cap: int = MAX_SHOWN_BYTES) -> bytes:
    """At most `cap` + 1 bytes of one member (one more than shown, to tell it was cut).

    Raises ArchiveRejected if the archive no longer walks to the member (it did when indexed)."""
    handle = open_stored(str(archive.file.name))
    try:
        for number, entry in enumerate(walk_archive(_seekable(handle), VIEW_LIMITS)):
            if number == member.index:
                return entry.read(cap + 1)
            if number > member.index:
                break
    finally:
        handle.close()
    raise ArchiveRejected("The archive no longer holds this member.")


def member_text(member: Member, content: bytes, page: int, *, cap: int = MAX_SHOWN_BYTES) -> MemberText:
    """One page of a member's lines, numbered from 1 over the whole file.

    `content` is what `archive_member_read` gave: past `cap` bytes the text is cut at the last line
    end before it (a line cut in half would read as a whole one). Pages past the last give the last.
    """
    truncated = len(content) > cap or member.size > cap
    shown = content[:cap]
    if truncated and b"\n" in shown:
        shown = shown[: shown.rindex(b"\n") + 1]
    text = shown.decode("utf-8", errors="replace")
    all_lines = text.splitlines() if text else []
    pages = max(1, -(-len(all_lines) // LINES_PER_PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * LINES_PER_PAGE
    lines = tuple(
        Line(start + offset + 1, line)
        for offset, line in enumerate(all_lines[start : start + LINES_PER_PAGE])
    )
    return MemberText(member, lines, page, pages, len(all_lines), truncated)


def page_of_line(line: int) -> int:
    """The page of a file that shows line `line` (counted from 1)."""
    return (max(line, 1) - 1) // LINES_PER_PAGE + 1


# "... at line 12 ..." or "line 12" in a finding's message.
_LINE = re.compile(r"\bline (\d{1,9})\b")


def finding_citation(message: str, members: tuple[Member, ...]) -> tuple[Member, int | None] | None:
    """The viewable member a finding's message names (by its path, or else its file name) and the
    line it cites, if any. The longest name wins, so `io500.ini` is not taken for `a/io500.ini`."""
    named = sorted(
        (m for m in members if m.viewable and m.is_text and m.name in message),
        key=lambda m: len(m.name),
        reverse=True,
    )
    chosen = named[0] if named else None
    if chosen is None:
        by_base = [
            m
            for m in members
            # Only names with an extension: a bare word like `out` would match ordinary prose.
            if m.viewable
            and m.is_text
            and "." in m.name.rsplit("/", 1)[-1]
            and re.search(rf"(?<![\w./-]){re.escape(m.name.rsplit('/', 1)[-1])}\b", message)
        ]
        # A base name shared by several members (one per run) does not say which one is meant.
        if len(by_base) != 1:
            return None
        chosen = by_base[0]
    line = _LINE.search(message)
    return chosen, int(line.group(1)) if line else None


# A file name with an extension, as findings name the files they cite (`io500.ini`, `ior-easy-write.txt`).
_FILE_NAME = re.compile(r"[\w.-]+\.(?:txt|ini|out|log|err|sh|json|csv|conf)\b")


def may_cite_file(message: str) -> bool:
    """Whether a finding's message names a file, so that its page offers the link to the cited line
    (resolved against the archive only when followed: the submission page does not walk archives)."""
    return _FILE_NAME.search(message) is not None
