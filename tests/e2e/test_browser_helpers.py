"""The browser helpers that the page walks trust: axe at a page's second width looks at exactly what
that width shows and the first did not. And a layout rule too fine for the walk's geometry checks:
a chart legend's swatch beside the first line of a label that wraps."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import MARK_UNRENDERED, axe_violations, open_page
from tests.support.data import REPO

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


def test_a_wrapping_legend_label_keeps_its_swatch_beside_its_first_line(browser: Any) -> None:
    css = (REPO / "frontend/static/frontend/css/site.css").read_text()
    css += (REPO / "frontend/static/frontend/css/charts.css").read_text()
    long_name = "A very long system name of a university cluster that wraps on a phone " * 2
    page = open_page(browser, viewport={"width": 375, "height": 800}).page
    page.set_content(
        f'<!doctype html><html lang="en"><head><style>{css}</style></head><body><div class="chart">'
        '<ul class="chart-legend">'
        f'<li><span class="swatch" style="background:#1f77b4"></span>{long_name}</li>'
        '<li><span class="swatch" style="background:#d62728"></span>short</li></ul></div></body></html>'
    )
    offsets = page.evaluate(
        """() => [...document.querySelectorAll('.chart-legend li')].map((li) => {
            const swatch = li.querySelector('.swatch').getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(li.lastChild);
            const first = range.getClientRects()[0];
            return {lines: range.getClientRects().length, squash: Math.abs(swatch.width - swatch.height),
                    off: Math.abs((swatch.top + swatch.bottom) / 2 - (first.top + first.bottom) / 2)};
        })"""
    )
    assert offsets[0]["lines"] > 1, offsets  # the label does wrap
    for legend_item in offsets:
        # Beside the first line's middle, and square (a flex item the label squeezed was a sliver).
        assert legend_item["off"] <= 2 and legend_item["squash"] < 0.5, offsets
