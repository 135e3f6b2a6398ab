"""The inline viewer's pages (frontend.pages.files): who may see them, escaping, paging links."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from submissions.models import Finding, ReviewState, Submission
from tests.factories import make_release
from tests.submissions.viewer_archives import tar_gz, with_archive

pytestmark = pytest.mark.django_db

HOSTILE = b'<script>alert("x")</script>\n\xe2\x80\xaeevil\n'


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def _members(client: Any, submission: Submission, archive_id: int) -> str:
    response = client.get(reverse("submissions:files", args=[submission.pk, archive_id]))
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_file_list_links_each_text_file_and_the_file_page_escapes_it(client: Any) -> None:
    submission, archive = with_archive(tar_gz({"run/io500.ini": HOSTILE, "run/core": b"\x7fELF\x00"}))
    html = _members(client, submission, archive.pk)
    assert "run/io500.ini" in html and "binary" in html
    page = client.get(reverse("submissions:file", args=[submission.pk, archive.pk, 0]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "<script>alert" not in text and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    assert "\u202e" not in text  # bidi overrides are neutralised
    assert 'id="L2"' in text and 'href="#L1"' in text
    binary = client.get(reverse("submissions:file", args=[submission.pk, archive.pk, 1])).content.decode()
    assert 'data-role="binary"' in binary


def test_the_submission_page_links_the_viewer(client: Any) -> None:
    submission, archive = with_archive(tar_gz({"a.txt": b"x\n"}))
    html = client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert reverse("submissions:files", args=[submission.pk, archive.pk]) in html


def test_an_embargoed_run_s_files_are_not_found_for_strangers_but_shown_to_its_submitter(
    client: Any, submitter: Any, other_submitter: Any, committee_member: Any
) -> None:
    release = make_release(embargo_end=timezone.now() + datetime.timedelta(days=30))
    submission, archive = with_archive(
        tar_gz({"a.txt": b"x\n"}),
        source=Submission.Source.UPLOAD,
        review_state=ReviewState.PUBLISHED,
        release=release,
        submitter=submitter,
    )
    urls = [
        reverse("submissions:files", args=[submission.pk, archive.pk]),
        reverse("submissions:file", args=[submission.pk, archive.pk, 0]),
        reverse("submissions:download", args=[submission.pk, archive.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(other_submitter)
    for url in urls:
        assert client.get(url).status_code == 404
    for user in (submitter, committee_member):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 200


def test_an_archive_of_another_submission_is_not_found(client: Any) -> None:
    submission, _ = with_archive(tar_gz({"a.txt": b"x\n"}))
    _, foreign = with_archive(tar_gz({"b.txt": b"y\n"}), name="other.tgz")
    assert client.get(reverse("submissions:files", args=[submission.pk, foreign.pk])).status_code == 404
    assert client.get(reverse("submissions:file", args=[submission.pk, foreign.pk, 0])).status_code == 404


def test_a_folder_or_a_missing_member_is_not_found(client: Any) -> None:
    submission, archive = with_archive(tar_gz({"a.txt": b"x\n"}))
    assert client.get(reverse("submissions:file", args=[submission.pk, archive.pk, 7])).status_code == 404


def test_a_finding_naming_a_file_and_line_leads_to_that_line(client: Any) -> None:
    lines = b"".join(b"key = %d\n" % n for n in range(1, 1200))
    submission, archive = with_archive(tar_gz({"run/io500.ini": lines, "run/out.txt": b"ok\n"}))
    finding = Finding.objects.create(
        submission=submission,
        code="x",
        severity="warning",
        message="run/io500.ini: unknown option at line 1100",
    )
    page = client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    source = reverse("submissions:finding-source", args=[submission.pk, finding.pk])
    assert source in page
    response = client.get(source)
    assert response.status_code == 302
    assert (
        response["Location"]
        == reverse("submissions:file", args=[submission.pk, archive.pk, 0]) + "?page=3#L1100"
    )
    shown = client.get(response["Location"]).content.decode()
    assert 'id="L1100"' in shown and "key = 1100" in shown
