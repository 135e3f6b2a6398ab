"""axe-core (pinned in package-lock.json) on every page type (tests.e2e.site_pages: the lists, the
submission and its archive viewer, the entity and information pages, the claim checker with a verdict,
the API docs, the submitter's and the committee's pages), as a visitor and as a logged-in submitter
and committee member, at a phone's and a desktop's width: no serious or critical violation of the
WCAG 2.1 A/AA rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.browser import ARTIFACTS, AXE_FAILING_IMPACTS, axe_violations, log_in, open_page, screenshot
from tests.e2e.geometry import OPEN_EVERY_FOLD, OPENING_MS
from tests.e2e.site_pages import every_page_type

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 375, "height": 800}, "desktop": {"width": 1400, "height": 900}}


def check(page: Any, url: str, shot: str, report: dict[str, Any]) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    screenshot(page, shot)
    # What folds is checked too (a table in a closed <details> scrolls once opened): every fold open.
    if page.evaluate(OPEN_EVERY_FOLD):
        page.wait_for_timeout(OPENING_MS)
    violations = axe_violations(page)
    report[url] = violations
    return [
        f"{url}: {v['id']} ({v['impact']}): {v['help']} at {v['targets']}"
        for v in violations
        if v["impact"] in AXE_FAILING_IMPACTS
    ]


def test_every_page_type_has_no_serious_accessibility_violation(
    live_server: Any, browser: Any, submitter: Any, committee_member: Any
) -> None:
    # One data set-up and one browser page per role, resized for the second width: a crawl of every
    # page type costs axe's run per page, not a set-up or a log-in per page or width.
    pages = every_page_type(submitter)
    base = live_server.url
    visitor = open_page(browser, bypass_csp=True).page
    member = open_page(browser, bypass_csp=True).page
    log_in(member, base, submitter.username)
    committee = open_page(browser, bypass_csp=True).page
    log_in(committee, base, committee_member.username)
    roles = (
        ("visitor", visitor, pages.visitor),
        ("submitter", member, pages.submitter),
        ("committee", committee, pages.committee),
    )
    ARTIFACTS.mkdir(exist_ok=True)
    failing: list[str] = []
    for width, viewport in WIDTHS.items():
        report: dict[str, Any] = {}
        for role, page, paths in roles:
            page.set_viewport_size(viewport)
            for name, path in paths.items():
                found = check(page, base + path, f"axe-{width}-{role}-{name}", report)
                failing += [f"{width} {role}: {line}" for line in found]
        (ARTIFACTS / f"axe-{width}.json").write_text(json.dumps(report, indent=2))
    assert failing == [], "\n".join(failing)
