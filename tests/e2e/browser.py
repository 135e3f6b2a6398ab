"""Headless chromium (Debian's, driven by Playwright) for the end-to-end tests: pages that record
every console error and uncaught exception, and where screenshots go."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import PASSWORD

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# Debian's old headless shell: the same Blink as its chromium (one source package, one version) without
# the desktop browser around it; it renders the same pages on about 40 % less CPU (test_browsing and
# test_entity_pages: 13-14 against 21-24 CPU-s, cgroup-measured). E2E_CHROMIUM picks another binary.
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 900}
# Screenshots of the pages a test walks through cost chromium about a tenth of its CPU: taken when
# asked (`make screenshots`, or E2E_SCREENSHOTS=1), and always of every open page when a test fails.
SCREENSHOTS = os.environ.get("E2E_SCREENSHOTS", "") not in ("", "0")


def screenshot(target: Any, name: str, *, full_page: bool = True) -> None:
    """A page (whole, unless `full_page` is False) or a locator's box, as test-artifacts/NAME.png."""
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    path = str(ARTIFACTS / f"{name}.png")
    if hasattr(target, "goto") and full_page:
        target.screenshot(path=path, full_page=True)
    else:
        target.screenshot(path=path)


def screenshot_failed(browser: Any, test_name: str) -> None:
    """Every page still open in `browser`, after a failure, as test-artifacts/failed-TEST-N.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^\w.-]+", "-", test_name)
    pages = [page for context in browser.contexts for page in context.pages]
    for number, page in enumerate(pages):
        page.screenshot(path=str(ARTIFACTS / f"failed-{safe}-{number}.png"), full_page=True)


@dataclass
class Browsing:
    """A chromium page and every console error or uncaught exception it reported."""

    page: Any
    problems: list[str] = field(default_factory=list)

    def on_console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(message.text)

    def on_page_error(self, error: Any) -> None:
        self.problems.append(str(error))


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# What the accessibility check fails on; "moderate" and "minor" findings are reported, not failed.
AXE_FAILING_IMPACTS = ("serious", "critical")


def _axe_source() -> Path:
    if not AXE.is_file():
        raise AssertionError(f"axe-core is missing at {AXE}; `make install` installs it (npm ci).")
    return AXE


def open_page(
    browser: Any,
    problems: list[str] | None = None,
    *,
    viewport: dict[str, int] | None = None,
    with_axe: bool = False,
) -> Browsing:
    """A page in a context of its own (its own cookies: one person), reporting into `problems`.
    `with_axe`: every document the page loads has axe-core (axe_violations), although the site's
    policy forbids any script but its own. Registered once, it costs each load a compile of axe in
    the renderer, which keeps it; injected into each page instead, axe's 650 kB went through the
    driver every time (the every-page walk: 40 against 32 CPU-s)."""
    context = browser.new_context(viewport=viewport or VIEWPORT, accept_downloads=True, bypass_csp=with_axe)
    if with_axe:
        context.add_init_script(path=str(_axe_source()))
    page = context.new_page()
    session = Browsing(page, problems if problems is not None else [])
    page.on("console", session.on_console)
    page.on("pageerror", session.on_page_error)
    return session


AXE_RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
# Before a page is resized: every element the page does not render now (display: none at this
# width, or inside such an element) is marked, so that axe can look at what the other width shows.
MARK_UNRENDERED = """() => { for (const e of document.body.querySelectorAll("*")) {
    if (e.getClientRects().length === 0) e.dataset.axeUnrendered = ""; } }"""


def axe_violations(page: Any, *, only_newly_shown: bool = False) -> list[dict[str, Any]]:
    """The accessibility violations axe-core finds on the page as it is now (WCAG 2.x A and AA rules).

    With `only_newly_shown`, axe looks only at what MARK_UNRENDERED marked and the page now renders
    (the page was resized since): a page checked whole at one width then costs axe at the other
    width only what that width adds, such as the list columns a phone hides."""
    if not page.evaluate("() => typeof axe === 'object'"):
        # A page not opened `with_axe` (its content set by the test).
        page.add_script_tag(path=str(_axe_source()))
    found: list[dict[str, Any]] = page.evaluate(
        """async ([rules, onlyNewlyShown]) => {
            let context = document;
            if (onlyNewlyShown) {
                const marked = [...document.querySelectorAll("[data-axe-unrendered]")];
                const shown = new Set(marked.filter((e) => e.getClientRects().length > 0));
                marked.forEach((e) => delete e.dataset.axeUnrendered);
                // The outermost of them: axe looks inside each.
                const outermost = [...shown].filter((e) => {
                    for (let p = e.parentElement; p; p = p.parentElement) if (shown.has(p)) return false;
                    return true;
                });
                if (outermost.length === 0) return [];
                context = { include: outermost };
            }
            const result = await axe.run(context, { ...rules, resultTypes: ["violations"] });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
            }));
        }""",
        [AXE_RULES, only_newly_shown],
    )
    return found


def log_in(page: Any, base: str, username: str, password: str = PASSWORD) -> None:
    """Through the log-in form, as a person would: the one way every browser test logs in."""
    page.goto(f"{base}/accounts/login/")
    page.fill("[name=username]", username)
    page.fill("[name=password]", password)
    page.click("button:has-text('Log in')")
    page.wait_for_load_state()


def build_and_open_draft(
    page: Any, base: str, release: str, kind: str = "production", *, every: bool = False
) -> None:
    """The committee builds a release's drafts (`every` kind, or `kind` alone) from its page, then
    follows the link to the draft of `kind`. The link is on the page before the build too: it is
    followed only once the build's confirmation is shown, and the draft waited for until loaded."""
    page.goto(f"{base}/review/releases/{release}/")
    row = f"#release-lists tr[data-kind={kind}]"
    page.click("[data-role=build-all]" if every else f"{row} button:has-text('uild draft')")
    page.wait_for_selector(".message-success:has-text('draft list(s)')")
    page.click(f"{row} a >> nth=0")
    page.wait_for_url(f"**/review/releases/{release}/lists/{kind}/")


# A phone's and a desktop's screen: every page of a journey is looked at in both.
WIDTHS = {"phone": {"width": 375, "height": 800}, "desktop": {"width": 1400, "height": 900}}
# After a resize: every shown chart drawn again for its box's new width (frontend/static/frontend/js/
# charts/common.js redraws 150 ms after the box changed and records the width it drew at), and none
# wider than its box. A chart that merely fits may still be the drawing for the old width.
CHARTS_FIT = """() => [...document.querySelectorAll('[data-chart]')].every((chart) =>
    chart.dataset.state !== 'drawn' || chart.clientWidth === 0
    || (chart.dataset.drawnWidth === String(chart.clientWidth)
        && [...chart.querySelectorAll('svg')].every(
            (svg) => svg.getBoundingClientRect().width <= svg.parentElement.clientWidth + 1)))"""
CHART_REDRAW_TIMEOUT_MS = 5000


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


def fits_its_screen(page: Any) -> bool:
    """No sideways scrolling of the page itself (wide tables scroll inside their own box)."""
    fits = bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))
    if not fits:
        # Shown with the failing assertion's output: which elements stick out.
        sys.stderr.write(f"{page.url} is wider than its screen: {page.evaluate(WIDEST)}\n")
    return fits


def each_width(
    page: Any, *, own_last: bool = False, before_resize: Callable[[Any], None] | None = None
) -> Iterator[str]:
    """The page looked at in each of WIDTHS, loaded once: yields each width's name with the page
    resized to it and its charts drawn again for it. The page's own width comes first, unresized,
    and the page ends at another; with `own_last` it comes last, so that the page ends where it was
    without a resize back (each resize lays the page out and redraws its charts again).
    `before_resize(page)` runs before each resize."""
    own = page.viewport_size
    for name, viewport in sorted(WIDTHS.items(), key=lambda item: (item[1] == own) == own_last):
        if page.viewport_size != viewport:
            if before_resize is not None:
                before_resize(page)
            page.set_viewport_size(viewport)
            page.wait_for_function(CHARTS_FIT, timeout=CHART_REDRAW_TIMEOUT_MS)
        yield name


def misfits_at_each_width(
    page: Any, name: str, check: Callable[[str], None] | None = None, *, prefix: str = "journey"
) -> list[str]:
    """The page as it is now, looked at in each of WIDTHS in turn: resized (a phone turned sideways
    redraws the same way), its charts waited for, `check(width)` run, a screenshot
    test-artifacts/PREFIX-WIDTH-NAME.png taken. The widths at which the page scrolls sideways are
    returned; the page is left at the viewport it had. One journey thus proves both screens without
    walking twice through the uploads and decisions that cost most of its time."""
    first = page.viewport_size
    misfits: list[str] = []
    for width in each_width(page, own_last=True):
        if check is not None:
            check(width)
        screenshot(page, f"{prefix}-{width}-{name}")
        if not fits_its_screen(page):
            misfits.append(f"{name} at {width}")
    if page.viewport_size != first:
        page.set_viewport_size(first)
    return misfits


def chart_states(page: Any) -> list[tuple[str, str, int]]:
    """Each chart of the page: its kind, its state (frontend/static/frontend/js/charts/common.js)
    and how many SVG elements it holds."""
    states: list[tuple[str, str, int]] = page.eval_on_selector_all(
        ".chart[data-chart]",
        "els => els.map(e => [e.dataset.chart, e.dataset.state || '', e.querySelectorAll('svg *').length])",
    )
    return states


def drawn_charts(states: list[tuple[str, str, int]]) -> set[str]:
    """The kinds of the charts drawn with some content (more than five SVG elements)."""
    return {name for name, state, elements in states if state == "drawn" and elements > 5}


# Loaded, and every chart on the page drawn, empty or failed (frontend/static/frontend/js/charts/
# common.js marks each with data-state; "loading" while its data comes). A chart that never gets a
# state has no script to draw it, which the wait's timeout reports.
SETTLED = """() => document.readyState === "complete" && [...document.querySelectorAll("[data-chart]")]
    .every((chart) => chart.dataset.state && chart.dataset.state !== "loading")"""
SETTLE_TIMEOUT_MS = 15_000


def settle(page: Any) -> None:
    """What "networkidle" waited for on these pages, without its half second of silence per page."""
    page.wait_for_function(SETTLED, timeout=SETTLE_TIMEOUT_MS)
