"""Every page type (tests.e2e.site_pages) at a phone's (375 px) and a desktop's (1400 px) width, logged
out, as a submitter and as the committee, in one walk that loads each page once and resizes it: the page
itself never scrolls sideways (wide tables scroll inside their card), nothing is cut off, printed
over, touching an edge or empty (tests.e2e.geometry), and axe-core (pinned in package-lock.json)
finds no serious or critical violation of the WCAG 2.1 A/AA rules, every fold open. And the archive
viewer in the browser: escaped content, a line anchor that scrolls, the embargo."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.utils import timezone

from submissions.models import Finding, ReviewState, Submission
from tests.e2e.browser import (
    ARTIFACTS,
    AXE_FAILING_IMPACTS,
    MARK_UNRENDERED,
    WIDEST,
    WIDTHS,
    axe_violations,
    each_width,
    fits_its_screen,
    log_in,
    open_page,
    screenshot,
    settle,
)
from tests.e2e.geometry import page_problems
from tests.e2e.site_pages import every_page_type, viewer_archive
from tests.e2e.test_journeys import shot
from tests.factories import make_release

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _check(page: Any, url: str, name: str, failures: list[str], axe: dict[str, Any]) -> None:
    """The page loaded once at the width the page is at, then resized to the other: it ends there,
    and the next page loads at that width. axe reads the whole page at the first width and at the
    second what only the second shows."""
    page.goto(url)
    settle(page)
    for looked_at, width in enumerate(
        each_width(page, before_resize=lambda at: at.evaluate(MARK_UNRENDERED))
    ):
        shot(page, width, f"fits-{name}")
        screenshot(page, f"journey-{width}-fits-{name}-top", full_page=False)
        if not fits_its_screen(page):
            failures.append(f"{width} {name} ({url}): {page.evaluate(WIDEST)}")
        # The geometry, then axe on the same page with every fold open (page_problems leaves them
        # open): what folds is still read by whoever opens it.
        failures += [f"{width} {name} ({url}): {problem}" for problem in page_problems(page)]
        if not fits_its_screen(page):
            failures.append(f"{width} {name} ({url}) with its folds open: {page.evaluate(WIDEST)}")
        violations = axe_violations(page, only_newly_shown=looked_at > 0)
        axe[f"{width} {name}"] = violations
        failures += [
            f"{width} {name} ({url}): axe {v['id']} ({v['impact']}): {v['help']} at {v['targets']}"
            for v in violations
            if v["impact"] in AXE_FAILING_IMPACTS
        ]


def test_every_page_fits_its_screen_shows_nothing_cut_off_or_empty_and_passes_axe(
    live_server: Any, browser: Any, submitter: Any, committee_member: Any
) -> None:
    """Every page type, as each role, at both widths: one data set-up and one browser page per role,
    each page loaded once and resized for the second width, so the walk costs each page's load and
    checks, not a set-up, a log-in or a second load per page."""
    pages = every_page_type(submitter)
    base = live_server.url
    failures: list[str] = []
    axe: dict[str, Any] = {}
    visitor = open_page(browser, with_axe=True).page
    submitting = open_page(browser, with_axe=True).page
    log_in(submitting, base, submitter.username)
    committee = open_page(browser, with_axe=True).page
    log_in(committee, base, committee_member.username)
    roles = (
        (visitor, "", pages.visitor),
        (submitting, "submitter-", pages.submitter),
        (committee, "committee-", pages.committee),
    )
    for page, prefix, paths in roles:
        page.set_viewport_size(WIDTHS["phone"])
        for name, path in paths.items():
            _check(page, base + path, prefix + name, failures, axe)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "axe.json").write_text(json.dumps(axe, indent=2, sort_keys=True))
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_viewer_shows_markup_as_text_and_scrolls_to_a_cited_line(
    live_server: Any, browser: Any, width: str
) -> None:
    submission, archive = viewer_archive()
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
    submission, archive = viewer_archive(
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
