"""The information pages (rules, how to run, call, about, the list index) in chromium at a phone's and
a desktop's width: reachable from the site navigation, no sideways page scroll, no serious or critical
axe violation."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest
from django.utils import timezone

from tests.e2e.browser import AXE_FAILING_IMPACTS, axe_violations, open_page, screenshot
from tests.factories import make_release, make_submission, publish_list
from tests.submissions.review.helpers import open_release

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 375, "height": 800}, "desktop": {"width": 1400, "height": 900}}
PAGES = {
    "rules": "/rules/",
    "how-to-run": "/how-to-run/",
    "call": "/call/",
    "about": "/about/",
    "lists": "/lists/",
}


def test_the_information_pages_fit_the_screen_and_pass_axe(live_server: Any, browser: Any) -> None:
    past = timezone.localdate() - datetime.timedelta(days=300)
    release = make_release(name="SC30", publication_date=past, list_kinds=["io500", "ten-node", "full"])
    publish_list(release, "io500", [make_submission() for _ in range(3)], provenance="recorded")
    open_release(name="ISC40", accepted_versions=["io500-isc40", "io500-isc40_v1"])
    problems: list[str] = []
    page = open_page(browser, problems, bypass_csp=True).page
    failing: list[str] = []
    for (width, viewport), (name, path) in itertools.product(WIDTHS.items(), PAGES.items()):
        page.set_viewport_size(viewport)
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        screenshot(page, f"info-{name}-{width}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (
            f"{path} scrolls sideways at {width}"
        )
        failing += [
            f"{path}: {v['id']} ({v['impact']}): {v['help']} at {v['targets']}"
            for v in axe_violations(page)
            if v["impact"] in AXE_FAILING_IMPACTS
        ]
    assert failing == [], "\n".join(failing)
    assert problems == []


def test_a_reader_finds_the_call_from_the_footer_and_reaches_the_upload(
    live_server: Any, browser: Any
) -> None:
    open_release(name="ISC40")
    page = open_page(browser, viewport=WIDTHS["phone"]).page
    page.goto(live_server.url + "/rules/")
    page.click("footer >> text=Call for submissions")
    page.wait_for_load_state()
    assert page.url.endswith("/call/")
    assert "ISC40 is open for submissions" in page.inner_text('[data-role="open-call"]')
    page.click("text=Upload a result to ISC40")
    page.wait_for_load_state()
    # Not logged in: the upload asks for a log-in and comes back to the release the call named.
    assert "/accounts/login/" in page.url and "release%3Disc40" in page.url
    page.goto(live_server.url + "/faq/")
    assert page.url.endswith("/about/#faq")
