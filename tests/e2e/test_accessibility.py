"""axe-core (pinned in package-lock.json) on the main pages, as a visitor and as a logged-in
submitter and committee member, at a phone's and a desktop's width: no serious or critical
violation of the WCAG 2.1 A/AA rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from submissions.review.roles import committee_member_add
from tests.e2e.browser import ARTIFACTS, AXE_FAILING_IMPACTS, axe_violations, log_in, open_page
from tests.submissions.review.helpers import open_release, verified_upload
from tests.support.chart_data import rich_history

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 375, "height": 800}, "desktop": {"width": 1400, "height": 900}}


def check(page: Any, url: str, report: dict[str, Any]) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    violations = axe_violations(page)
    report[url] = violations
    return [
        f"{url}: {v['id']} ({v['impact']}): {v['help']} at {v['targets']}"
        for v in violations
        if v["impact"] in AXE_FAILING_IMPACTS
    ]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_main_pages_have_no_serious_accessibility_violation(
    live_server: Any, browser: Any, submitter: Any, committee_member: Any, width: str
) -> None:
    history, leader = rich_history()
    draft = verified_upload(submitter, open_release())
    base = live_server.url
    visitor_pages = [
        "/",
        "/lists/isc41/io500/",
        "/lists/isc41/",
        f"/submissions/{leader.pk}/",
        f"/systems/{history.daos.pk}/",
        "/history/",
        "/file-systems/",
        "/file-systems/lustre/",
        "/vendors/intel/",
        f"/compare/?ids={history.submissions[0].pk},{leader.pk}",
        "/claims/?claim=%231+on+the+ISC41+IO500+list",
        "/accounts/login/",
        "/accounts/signup/",
        "/nowhere/",
    ]
    failing: list[str] = []
    report: dict[str, Any] = {}
    visitor = open_page(browser, viewport=WIDTHS[width], bypass_csp=True).page
    for path in visitor_pages:
        failing += check(visitor, base + path, report)
    member = open_page(browser, viewport=WIDTHS[width], bypass_csp=True).page
    log_in(member, base, submitter.username)
    own = f"/submissions/{draft.pk}"
    member_pages = ("/submissions/upload/", "/submissions/mine/", "/accounts/token/", f"{own}/")
    for path in (*member_pages, f"{own}/system/", f"{own}/replace/", f"{own}/withdraw/"):
        failing += check(member, base + path, report)
    committee_member_add(user=committee_member)
    committee = open_page(browser, viewport=WIDTHS[width], bypass_csp=True).page
    log_in(committee, base, committee_member.username)
    committee_pages = ("/review/", "/review/releases/", "/review/releases/new/", "/review/releases/isc40/")
    for path in (*committee_pages, f"/review/{draft.pk}/"):
        failing += check(committee, base + path, report)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{width}.json").write_text(json.dumps(report, indent=2))
    assert failing == [], "\n".join(failing)
