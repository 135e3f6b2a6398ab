"""The viewer's reads (submissions.viewer): the member index through the one walker, bounds, paging,
binary detection and the file a finding cites."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring.readers.walk import Limits
from submissions import viewer
from submissions.viewer import (
    LINES_PER_PAGE,
    Member,
    archive_member_index,
    archive_member_read,
    finding_citation,
    looks_like_text,
    may_cite_file,
    member_text,
    page_of_line,
)
from tests.submissions.viewer_archives import tar_gz, with_archive

pytestmark = pytest.mark.django_db


def _member(name: str = "a.txt", size: int = 0, index: int = 1) -> Member:
    return Member(index=index, name=name, kind="file", size=size, is_text=True, problem=None)


def test_the_index_lists_every_member_with_its_size_and_whether_it_is_text() -> None:
    cache.clear()
    _, archive = with_archive(
        tar_gz({"run/io500.ini": b"[global]\n", "run/bin.dat": b"\x00\x01\x02", "run/empty.txt": b""})
    )
    index = archive_member_index(archive=archive)
    assert index.refused is None
    by_name = {m.name: m for m in index.members}
    assert by_name["run/io500.ini"].size == 9 and by_name["run/io500.ini"].is_text
    assert not by_name["run/bin.dat"].is_text
    assert by_name["run/empty.txt"].is_text and by_name["run/empty.txt"].size == 0


def test_the_index_is_cached_by_the_archive_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    _, archive = with_archive(tar_gz({"a.txt": b"x\n"}))
    first = archive_member_index(archive=archive)

    def no_walk(_archive: object) -> None:
        raise AssertionError("walked again")

    monkeypatch.setattr(viewer, "_read_index", no_walk)
    assert archive_member_index(archive=archive) == first


def test_an_archive_over_the_limits_is_listed_up_to_the_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(viewer, "VIEW_LIMITS", Limits(max_members=3))
    _, archive = with_archive(tar_gz({f"f{i}.txt": b"x\n" for i in range(10)}))
    index = archive_member_index(archive=archive)
    assert index.refused is not None and "more than 3" in index.refused
    assert len(index.members) <= 3


def test_odd_names_are_shown_escaped_and_not_offered() -> None:
    cache.clear()
    _, archive = with_archive(tar_gz({"run/bell\x07.txt": b"x\n", "../escape.txt": b"y\n"}))
    members = {m.name: m for m in archive_member_index(archive=archive).members}
    assert "run/bell\\x07.txt" in members
    assert not members["../escape.txt"].viewable and members["../escape.txt"].problem


def test_a_member_is_read_up_to_one_byte_past_the_cap() -> None:
    cache.clear()
    _, archive = with_archive(tar_gz({"first.txt": b"1\n", "big.txt": b"y" * 5000}))
    big = next(m for m in archive_member_index(archive=archive).members if m.name == "big.txt")
    assert archive_member_read(archive=archive, member=big, cap=100) == b"y" * 101


def test_text_is_paged_and_numbered_over_the_whole_file() -> None:
    content = "".join(f"line {n}\n" for n in range(1, LINES_PER_PAGE * 2 + 11)).encode()
    member = _member(size=len(content))
    second = member_text(member, content, 2)
    assert (second.page, second.pages, second.total_lines) == (2, 3, LINES_PER_PAGE * 2 + 10)
    assert (
        second.lines[0].number == LINES_PER_PAGE + 1 and second.lines[0].text == f"line {LINES_PER_PAGE + 1}"
    )
    assert not second.truncated
    # Past the last page, the last one.
    assert member_text(member, content, 99).lines[-1].number == LINES_PER_PAGE * 2 + 10
    assert page_of_line(LINES_PER_PAGE) == 1 and page_of_line(LINES_PER_PAGE + 1) == 2


def test_a_file_past_the_bound_is_cut_at_a_line_end_and_says_so() -> None:
    content = b"abc\n" * 100
    text = member_text(_member(size=400), content[:51], 1, cap=50)
    assert text.truncated
    assert [line.text for line in text.lines] == ["abc"] * 12  # 48 bytes: the 13th line was cut
    assert not member_text(_member(size=400), content, 1, cap=400).truncated


def test_binary_detection() -> None:
    assert looks_like_text(b"IO500 version io500-sc23\n\tok\r\n\x1b[1mbold\x1b[0m\x0c")
    assert looks_like_text("Zürich résumé".encode("latin-1"))
    assert not looks_like_text(b"ELF\x00\x01")
    assert not looks_like_text(b"text then \x03 control")


def test_a_finding_cites_the_member_it_names_and_its_line() -> None:
    members = (
        _member("run/io500.ini", index=1),
        _member("run/result_summary.txt", index=2),
        _member("other/io500.ini", index=3),
    )
    cited = finding_citation("Options in run/io500.ini were ignored, the first at line 12: x", members)
    assert cited == (members[0], 12)
    # A bare file name shared by two members names neither.
    assert finding_citation("io500.ini line 3 is odd", members) is None
    assert finding_citation("see result_summary.txt", members) == (members[1], None)
    assert finding_citation("nothing cited", members) is None
    assert may_cite_file("in io500.ini") and not may_cite_file("bandwidth too high")
