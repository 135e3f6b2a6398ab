"""What a demanding reader calls broken on a page, measured in the browser: text cut off by a box that
does not scroll, chart labels cut at their chart's edge or printed over each other, text touching the
screen's edge or the header bar, cards with nothing in them. Each check is about a class of defect on
every page, not about one page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Closer than this to the screen's left or right edge, text reads as touching it.
EDGE_PX = 6
# The first line of a page's content at least this far below the header bar.
HEADER_GAP_PX = 12
# Time for what opening a <details> starts (a chart drawn into it) to settle.
OPENING_MS = 300

# Opens every closed <details>; answers how many it opened.
OPEN_EVERY_FOLD = """() => [...document.querySelectorAll("details:not([open])")]
    .map((fold) => (fold.open = true)).length"""
# The checks themselves, in the page's own language: geometry.js (its heading comment left out, so
# Playwright reads the text as the function it is).
_SOURCE = (Path(__file__).parent / "geometry.js").read_text().splitlines()
PROBLEMS = "\n".join(line for line in _SOURCE if not line.startswith("//"))


def page_problems(page: Any) -> list[str]:
    """Every problem the checks above find on the page as it is, then with every <details> open (what
    folds is still shown to whoever opens it: a table in a closed box must fit too). Leaves them open."""
    found: list[str] = page.evaluate(PROBLEMS, [EDGE_PX, HEADER_GAP_PX])
    if page.evaluate(OPEN_EVERY_FOLD):
        page.wait_for_timeout(OPENING_MS)
        opened = page.evaluate(PROBLEMS, [EDGE_PX, HEADER_GAP_PX])
        found += [f"{problem} (with its folds open)" for problem in opened if problem not in found]
    return found
