"""Every page type at a phone's (375 px) and a desktop's (1400 px) width, logged out, as a submitter
and as the committee: the page itself never scrolls sideways (wide tables scroll inside their card).
And the archive viewer in the browser: escaped content, a line anchor that scrolls, the embargo."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from registry.lists.facet_names import canonical, slug
from submissions.models import Finding, ReviewState, Submission
from tests.e2e.browser import WIDTHS, fits_its_screen, log_in, open_page, screenshot
from tests.e2e.test_journeys import shot
from tests.factories import make_release
from tests.submissions.viewer_archives import tar_gz, with_archive
from tests.support.chart_data import rich_history

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A result file as a hostile submitter might write it: markup, a bidi override, a very long line.
HOSTILE_LINES = b"".join(b"option_%d = %d\n" % (n, n) for n in range(1, 1400))
HOSTILE = (
    b'<script>document.title="owned"</script>\n\xe2\x80\xaereversed\n' + b"x" * 5000 + b"\n" + HOSTILE_LINES
)


def _viewer_archive(**fields: Any) -> tuple[Submission, Any]:
    return with_archive(
        tar_gz(
            {"run/io500.ini": HOSTILE, "run/result_summary.txt": b"[RESULT] ok\n", "run/core": b"\x7fELF\x00"}
        ),
        **fields,
    )


# What widens the page: the elements past the screen's right edge that no scrolling box clips.
WIDEST = """() => {
    const clipped = (e) => {
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
            if (getComputedStyle(p).overflowX !== "visible") return true;
        }
        return false;
    };
    const wide = [...document.querySelectorAll("body *")].filter(
        (e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(e));
    return [document.documentElement.scrollWidth + " px", ...wide.slice(-6).map(
        (e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`)];
}"""


def _check(page: Any, url: str, width: str, name: str, failures: list[str]) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    shot(page, width, f"fits-{name}")
    screenshot(page, f"journey-{width}-fits-{name}-top", full_page=False)
    if not fits_its_screen(page):
        failures.append(f"{name} ({url}): {page.evaluate(WIDEST)}")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_page_scrolls_sideways(
    live_server: Any, browser: Any, submitter: Any, committee_member: Any, width: str
) -> None:
    history, leader = rich_history()
    other = next(
        s
        for s in history.submissions
        if s.pk != leader.pk and s.storage_system_id != leader.storage_system_id
    )
    viewed, archive = _viewer_archive()
    Finding.objects.create(
        submission=viewed, code="x", severity="warning", message="run/io500.ini: unknown option at line 1200"
    )
    base = live_server.url
    failures: list[str] = []
    page = open_page(browser, viewport=WIDTHS[width]).page
    assert leader.storage_system is not None
    public = {
        "home": "/",
        "list-index": "/lists/",
        "list": "/lists/isc41/io500/",
        "submission": f"/submissions/{leader.pk}/",
        "system": f"/systems/{leader.storage_system_id}/",
        "compare": f"/compare/?ids={leader.pk},{other.pk}",
        "history": "/history/",
        "file-systems": "/file-systems/",
        "file-system": "/file-systems/lustre/",
        "site": f"/sites/{slug(canonical('institution', leader.storage_system.institution.name))}/",
        "vendors": "/vendors/",
        "rules": "/rules/",
        "how-to-run": "/how-to-run/",
        "call": "/call/",
        "about": "/about/",
        "claims": "/claims/?claim=%231+on+the+ISC41+IO500+list",
        "api-docs": "/api/docs/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "files": f"/submissions/{viewed.pk}/files/{archive.pk}/view/",
        "file": f"/submissions/{viewed.pk}/files/{archive.pk}/view/0/",
        "file-binary": f"/submissions/{viewed.pk}/files/{archive.pk}/view/2/",
    }
    for name, path in public.items():
        _check(page, base + path, width, name, failures)
    # The list's statistics, opened.
    page.goto(base + "/lists/isc41/io500/")
    stats = page.locator("details[data-role=statistics]")
    if stats.count():
        stats.first.evaluate("d => { d.open = true; }")
        page.wait_for_timeout(300)
        shot(page, width, "fits-list-statistics")
        if not fits_its_screen(page):
            failures.append("list statistics opened")
    log_in(page, base, submitter.username)
    for name, path in {
        "upload": "/submissions/upload/",
        "mine": "/submissions/mine/",
        "token": "/accounts/token/",
    }.items():
        _check(page, base + path, width, f"submitter-{name}", failures)
    committee = open_page(browser, viewport=WIDTHS[width]).page
    log_in(committee, base, committee_member.username)
    for name, path in {"queue": "/review/", "submission": f"/submissions/{leader.pk}/"}.items():
        _check(committee, base + path, width, f"committee-{name}", failures)
    assert failures == []


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_viewer_shows_markup_as_text_and_scrolls_to_a_cited_line(
    live_server: Any, browser: Any, width: str
) -> None:
    submission, archive = _viewer_archive()
    finding = Finding.objects.create(
        submission=submission,
        code="x",
        severity="warning",
        message="run/io500.ini: unknown option at line 1200",
    )
    session = open_page(browser, viewport=WIDTHS[width])
    page = session.page
    base = live_server.url
    page.goto(f"{base}/submissions/{submission.pk}/")
    page.click(f"a[href='/submissions/{submission.pk}/findings/{finding.pk}/source/']")
    page.wait_for_load_state()
    assert page.url.endswith("?page=3#L1200")
    line = page.locator("#L1200")
    assert line.is_visible() and "option_1197 = 1197" in line.inner_text()
    assert line.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= -2 && r.top < window.innerHeight; }"
    )
    shot(page, width, "viewer-cited-line")
    page.goto(f"{base}/submissions/{submission.pk}/files/{archive.pk}/view/0/")
    assert page.title() != "owned"
    assert page.locator("#L1 .viewer-line").inner_text() == '<script>document.title="owned"</script>'
    assert page.locator(".viewer-text script").count() == 0
    assert fits_its_screen(page)
    shot(page, width, "viewer-file")
    assert session.problems == []


def test_an_embargoed_run_s_files_are_not_found_for_strangers(
    live_server: Any, browser: Any, submitter: Any
) -> None:
    release = make_release(embargo_end=timezone.now() + datetime.timedelta(days=30))
    submission, archive = _viewer_archive(
        source=Submission.Source.UPLOAD,
        review_state=ReviewState.PUBLISHED,
        release=release,
        submitter=submitter,
    )
    base = live_server.url
    stranger = open_page(browser).page
    for path in (
        f"/submissions/{submission.pk}/files/{archive.pk}/view/",
        f"/submissions/{submission.pk}/files/{archive.pk}/view/0/",
    ):
        assert stranger.goto(base + path).status == 404
    owner = open_page(browser).page
    log_in(owner, base, submitter.username)
    response = owner.goto(f"{base}/submissions/{submission.pk}/files/{archive.pk}/view/0/")
    assert response.status == 200 and owner.locator("#L1").count() == 1
