"""Headless chromium: a reader follows a file-system link from a list row to the page of that file
system, sees its best score per release drawn and every entry across releases, at 375 and 1400 px."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import WIDTHS, open_page, screenshot
from tests.support.chart_data import build_history

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_reader_follows_a_list_row_to_its_file_system_page(live_server: Any, browser: Any) -> None:
    build_history()
    page = open_page(browser).page
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        follow_a_row_to_its_file_system(page, live_server.url, width)


def follow_a_row_to_its_file_system(page: Any, base: str, width: str) -> None:
    page.goto(f"{base}/lists/isc41/io500/")
    # The file-system column may be folded away at a phone's width: follow its link's address.
    href = page.locator("td.col-filesystem a", has_text="Lustre").first.get_attribute("href")
    assert href == "/file-systems/lustre/"
    page.goto(base + href)
    assert page.inner_text("h1") == "Lustre"
    # The trend chart draws its best-score dots from the JSON endpoint.
    page.wait_for_selector("[data-chart=trend] svg circle")
    rows = page.locator("table[data-role=entity-entries] tbody tr")
    assert rows.count() == 2
    assert "SC40" in rows.nth(1).inner_text() and "published here" in rows.nth(1).inner_text()
    screenshot(page, f"entity-filesystem-{width}")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the window"
    page.locator("table[data-role=entity-systems] a", has_text="Blue").click()
    page.wait_for_url("**/systems/*/")
    assert page.locator('a[href="/file-systems/lustre/"]').count() >= 1
