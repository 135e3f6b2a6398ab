"""The browser helpers that the page walks trust: axe at a page's second width looks at exactly what
that width shows and the first did not."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import MARK_UNRENDERED, axe_violations, open_page

pytestmark = [pytest.mark.e2e]

# An image without a text alternative everywhere, and one in a column only a wide screen shows.
PAGE = """<!doctype html><html lang="en"><head><title>t</title><style>
  @media (max-width: 600px) { .wide-only { display: none; } }
</style></head><body><main>
  <p><img src="data:," id="always"></p>
  <div class="wide-only"><p><img src="data:," id="wide"></p></div>
</main></body></html>"""


def _image_targets(violations: list[dict[str, Any]]) -> list[str]:
    return sorted(target for v in violations if v["id"] == "image-alt" for target in v["targets"])


def test_axe_at_the_second_width_reads_only_what_that_width_adds(browser: Any) -> None:
    page = open_page(browser, viewport={"width": 375, "height": 800}).page
    page.set_content(PAGE)
    assert _image_targets(axe_violations(page)) == ["#always"]
    page.evaluate(MARK_UNRENDERED)
    page.set_viewport_size({"width": 1400, "height": 900})
    assert _image_targets(axe_violations(page, only_newly_shown=True)) == ["#wide"]
    # The marks are gone: nothing more is new at the same width.
    assert axe_violations(page, only_newly_shown=True) == []
