"""The information pages in chromium: the call is found from the footer and leads to the upload.
Their fit and accessibility at both widths are checked with every other page type
(tests/e2e/site_pages.py, test_every_page_fits.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import WIDTHS, open_page
from tests.submissions.review.helpers import open_release

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


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
