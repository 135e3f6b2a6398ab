"""Headless chromium against a live server: lists, downloads, submission, system, comparison, history.

Every page is checked for drawn charts (SVG elements inside each chart div) and for console errors;
with E2E_SCREENSHOTS=1 (`make screenshots`) screenshots land in test-artifacts/ for a human to look at.
"""

from __future__ import annotations

import csv
import datetime
import io
from pathlib import Path

import pytest

from tests.e2e.browser import Browsing, chart_states, drawn_charts, screenshot, settle
from tests.factories import make_release, make_submission, publish_list
from tests.support.chart_data import build_history, rich_history

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_and_check(browsing: Browsing, url: str, shot: str, charts: set[str]) -> list[tuple[str, str, int]]:
    page = browsing.page
    page.goto(url)
    settle(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.chart[data-chart]')]"
        ".every(e => e.dataset.state && e.dataset.state !== 'loading')",
        timeout=15000,
    )
    screenshot(page, shot)
    states = chart_states(page)
    assert charts <= drawn_charts(states), f"{url}: charts not drawn: {states}"
    assert browsing.problems == [], f"{url}: console errors {browsing.problems}"
    return states


def test_a_visitor_browses_lists_submissions_systems_comparisons_and_history(live_server, browsing):
    history, leader = rich_history()
    page = browsing.page
    base = live_server.url

    page.goto(base + "/")
    settle(page)
    assert page.locator("#list-table tbody tr").count() == 6
    screenshot(page, "home")

    # Sort by bandwidth, smallest first, from the column header.
    page.goto(base + "/lists/isc41/io500/")
    page.click("th[data-column='bw'] a")  # first click sorts descending
    page.click("th[data-column='bw'] a")
    settle(page)
    assert "o=bw" in page.url
    bandwidths = [float(c) for c in page.locator("#list-table tbody tr td:nth-child(10)").all_inner_texts()]
    assert bandwidths == sorted(bandwidths) and len(bandwidths) == 6

    # Filter by file system.
    page.click("[data-role=filters] > summary")  # the filters fold above the table
    page.select_option("#f-filesystem", "DAOS")
    page.click("#list-filters button[type=submit]")
    settle(page)
    assert "filesystem=DAOS" in page.url
    assert page.locator("#list-table tbody tr").count() == 1
    screenshot(page, "list-filtered")

    # Download the filtered list as CSV.
    with page.expect_download() as download_info:
        page.click("a[data-download='csv']")
    rows = list(csv.DictReader(io.StringIO(Path(download_info.value.path()).read_text())))
    assert [(row["system"], row["filesystem"]) for row in rows] == [("Red", "DAOS")]

    open_and_check(
        browsing, f"{base}/submissions/{leader.pk}/", "submission", {"phases", "ranks", "timeline"}
    )
    assert page.locator("h1").inner_text().startswith(f"Submission {leader.pk}")

    open_and_check(browsing, f"{base}/systems/{history.daos.pk}/", "system", {"rank-history", "balance"})
    ids = ",".join(str(s.pk) for s in history.submissions[:3])
    open_and_check(browsing, f"{base}/compare/?ids={ids}", "compare", {"compare"})
    assert page.locator("tr[data-differs='true']").count() == 1  # the seed setting
    states = open_and_check(browsing, f"{base}/history/", "history", {"balance", "trend", "shares"})
    assert len(states) == 6
    assert page.locator("#history-balance circle.point").count() == 12

    # Hovering a point shows who it is.
    page.hover("#history-balance circle.point >> nth=0")
    assert page.locator(".chart-tooltip").inner_text().startswith(("Red", "Blue", "System"))


def test_the_submission_page_draws_its_phase_rank_and_timeline_charts(live_server, browsing):
    _, leader = rich_history()
    page = browsing.page
    url = f"{live_server.url}/submissions/{leader.pk}/"
    open_and_check(browsing, url, "submission-charts", {"phases", "ranks", "timeline"})
    # The charts follow the table of phases they illustrate.
    charts_follow_the_table = page.evaluate(
        "() => Boolean(document.querySelector('main table.data')"
        ".compareDocumentPosition(document.querySelector('#submission-charts'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert charts_follow_the_table
    assert "rank 41" in page.locator("[data-chart='ranks'] .chart-note").inner_text()
    assert page.locator("[data-chart='timeline'] svg").count() == 12
    assert page.locator("[data-chart='phases'] .median-mark").count() > 0

    # Switching the per-rank phase fetches that phase's rows.
    page.select_option("[data-chart='ranks'] select", "mdtest-easy-write")
    page.wait_for_function("() => document.querySelector('[data-role=ranks-plot] svg')")
    assert browsing.problems == []


def test_a_ranked_list_shows_its_top_5_radar_and_a_complete_list_does_not(live_server, browsing):
    history, _ = rich_history()
    page = browsing.page
    open_and_check(browsing, f"{live_server.url}/lists/{history.new.slug}/io500/", "list-radar", {"radar"})
    assert page.locator("[data-chart='radar'] svg polygon").count() >= 5
    assert page.locator(".chart-legend li").count() == 5

    page.goto(f"{live_server.url}/lists/{history.new.slug}/historical/")
    settle(page)
    assert page.locator("[data-chart='radar']").count() == 0
    assert browsing.problems == []


def test_the_release_picker_and_the_api_docs_work_under_the_content_security_policy(live_server, browsing):
    history = build_history()
    page = browsing.page
    page.goto(f"{live_server.url}/lists/{history.new.slug}/io500/")
    # The picker submits on change from a module script, not an inline handler the policy blocks.
    with page.expect_navigation():
        page.select_option("#release-picker", history.old.slug)
    assert f"/lists/{history.old.slug}/" in page.url
    assert browsing.problems == []

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("text=IO500 results registry API", timeout=15000)
    screenshot(page, "api-docs", full_page=False)
    # Redoc's footer asks a CDN for its logo: the policy refuses, as it should; nothing else fails.
    unexpected = [problem for problem in browsing.problems if "cdn.redoc.ly" not in problem]
    assert unexpected == []


def test_a_radar_axis_no_entry_has_a_value_for_says_so(live_server, browsing):
    # Runs without a system description: no node or process counts on any of the five.
    release = make_release(name="SC18", publication_date=datetime.date(2018, 11, 13), list_kinds=["io500"])
    publish_list(
        release, "io500", [make_submission(release=release, bw=10.0 * n, md=20.0) for n in (5, 4, 3, 2, 1)]
    )
    page = browsing.page
    page.goto(f"{live_server.url}/lists/sc18/io500/")
    settle(page)
    labels = page.locator("[data-chart='radar'] svg").text_content() or ""
    assert labels.count("none recorded") == 2, labels
    assert "max \u2013" not in labels and "max 50" in labels
    assert browsing.problems == []
