"""The awards panel and the "new" badges of a published list in headless chromium, on a desktop
(1400 px) and a phone (375 px): visible, inside the viewport, no console error. With
E2E_SCREENSHOTS=1 the pages land in test-artifacts/awards-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import open_page, screenshot
from tests.support.awards import two_research_lists

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_awards_panel_and_new_badges_fit_the_screen(
    live_server: Any, browser: Any, submitter: Any
) -> None:
    lists = two_research_lists(submitter)
    browsing = open_page(browser)
    for width in (1400, 375):
        browsing.page.set_viewport_size({"width": width, "height": 900})
        the_panel_and_badges_fit(browsing.page, live_server.url, lists, width)
    assert browsing.problems == []


def the_panel_and_badges_fit(page: Any, base: str, lists: dict[str, Any], width: int) -> None:
    page.goto(f"{base}/lists/sc40/research/")
    panel = page.locator('[data-role="awards"]')
    panel.wait_for()
    assert panel.locator("li").count() == 3
    assert page.locator('[data-role="new"]').count() == 2
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.locator(f'[data-award="bandwidth"] a[href="/submissions/{lists["c"].pk}/"]').is_visible()
    screenshot(page, f"awards-list-{width}")
    screenshot(panel, f"awards-panel-{width}")
    screenshot(page.locator("tr[data-new]").first.locator("xpath=ancestor::table"), f"awards-rows-{width}")
