"""The ranked table is what a list page opens with, as on io500.org and TOP500 (issue 28): its first
row is on the first screen of a phone and of a desktop, under a visible provenance label, while the
list's details, the filters and the radar fold or follow the table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import open_page, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1400, "height": 900}}
# Home (the newest official list), an io500.org list with awards and changes, and a 10-node list.
PAGES = ("/", "/lists/sc20/io500/", "/lists/isc21/ten-node/")

FIRST_ROW_TOP = "() => document.querySelector('#list-table tbody tr').getBoundingClientRect().top"


def test_the_first_ranked_row_is_on_the_first_screen_under_its_provenance(
    live_server: Any, browser: Any, imported_history: Any
) -> None:
    page = open_page(browser).page
    for screen, viewport in SCREENS.items():
        page.set_viewport_size(viewport)
        each_page_opens_with_its_table(page, live_server.url, screen, viewport)
    page.goto(live_server.url + "/")
    newer = page.locator('[data-role="newer-releases"]')
    assert newer.count() == 1 and page.locator('[data-role="newer-releases-link"]').is_visible()
    assert (
        page.locator('[data-role="home-lead"] a[href="/call/"]').count()
        == page.locator('[data-role="home-lead"] [data-role="open-call"]').count()
    )


def each_page_opens_with_its_table(page: Any, base: str, screen: str, viewport: dict[str, int]) -> None:
    for path in PAGES:
        page.goto(base + path)
        page.wait_for_load_state("domcontentloaded")
        screenshot(
            page, f"table-first-{screen}-{path.strip('/').replace('/', '-') or 'home'}", full_page=False
        )
        top = page.evaluate(FIRST_ROW_TOP)
        assert 0 < top < viewport["height"], f"{path}: the first row starts at {top:.0f} px"
        provenance = page.locator('[data-role="provenance"]')
        assert provenance.is_visible(), path
        assert provenance.bounding_box()["y"] < top, path
        # What folded is still there, one click away.
        about = page.locator('[data-role="list-about"]')
        assert not about.locator('[data-role="public-record"]').is_visible(), path
        about.locator(":scope > summary").click()
        assert about.locator('[data-role="public-record"]').is_visible(), path
        filters = page.locator('[data-role="filters"]')
        filters.locator(":scope > summary").click()
        assert page.locator("#f-q").is_visible(), path
