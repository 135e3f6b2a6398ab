"""Headless chromium: percentiles drawn next to the phase bars (and the switch that changes the runs
they are taken among), and a sublist with a custom formula whose link reloads to the same table.
Screenshots go to test-artifacts/ for a human to look at."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from scoring.model import SCORED_PHASES
from submissions.models import Reproducibility, Submission
from tests.e2e.browser import screenshot, settle
from tests.factories import (
    add_phases,
    make_release,
    make_result,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# (file system, vendor, client nodes, reproducibility, phase scale)
SYSTEMS = (
    ("DAOS", "Intel", 10, Reproducibility.FULLY, 9.0),
    ("Lustre", "DDN", 10, Reproducibility.LIMITED, 3.0),
    ("Lustre", "DDN", 64, Reproducibility.FULLY, 5.0),
    ("BeeGFS", "ThinkParQ", 10, Reproducibility.UNDEFINED, 1.0),
    ("Lustre", "HPE", 512, Reproducibility.FULLY, 7.0),
    ("Lustre", "DDN", 2048, Reproducibility.FULLY, 2.0),
    ("WekaFS", "WekaIO", 16, Reproducibility.LIMITED, 4.0),
    ("Lustre", "DDN", 10, Reproducibility.UNDEFINED, 6.0),
)


def published_list() -> list[Submission]:
    """One published list of runs with all twelve phases, on 10 to 2048 client nodes."""
    release = make_release(name="SC60", publication_date=datetime.date(2060, 11, 15))
    runs = []
    for index, (filesystem, vendor, nodes, level, scale) in enumerate(SYSTEMS):
        system = make_storage_system(name=f"{filesystem} {index}", filesystem_type=filesystem, vendor=vendor)
        bw, md = 10.0 * scale, 40.0 * scale / (1 + index % 3)
        submission = make_submission(
            release=release, storage_system=system, bw=bw, md=md, reproducibility=level
        )
        make_system_description(submission=submission, client_nodes=nodes)
        values = {phase: scale * (position + 1) * (1 + (index * position) % 4) for position, phase in
                  enumerate(SCORED_PHASES)}  # fmt: skip
        add_phases(make_result(submission=submission, version="io500-sc25", mode="standard"), values)
        runs.append(submission)
    runs.sort(key=lambda submission: -(submission.score or 0))
    publish_list(release, "io500", runs)
    return runs


def bar_labels(page: Any) -> list[str]:
    labels: list[str] = page.eval_on_selector_all(
        "[data-chart='phases'] text.bar-label", "els => els.map(e => e.textContent)"
    )
    return labels


def test_the_submission_page_draws_each_phase_percentile_next_to_its_bar(live_server, browsing):
    runs = published_list()
    target = runs[3]
    page = browsing.page
    page.goto(f"{live_server.url}/submissions/{target.pk}/")
    page.wait_for_function(
        "() => document.querySelector(\"[data-chart='phases']\").dataset.state === 'drawn'"
    )
    comparable = bar_labels(page)
    assert len(comparable) == 12
    assert all(label.startswith("P") and label[1:].isdigit() for label in comparable), comparable
    # The same figures as the table for readers without JavaScript.
    table = page.eval_on_selector_all(
        "table[data-fallback='phases'] td[data-placement='comparable']",
        "els => els.map(e => e.textContent.trim().split(' ')[0])",
    )
    assert table == comparable
    page.locator("[data-chart='phases'] text.bar-label").first.scroll_into_view_if_needed()
    screenshot(page, "submission-percentiles")

    page.check(f"[data-placement-switch='{target.pk}'] input[value='ten_node']")
    page.wait_for_function(
        "() => document.querySelector(\"[data-chart='phases']\").dataset.placementScope === 'ten_node'"
    )
    ten_node = bar_labels(page)
    expected = page.eval_on_selector_all(
        "table[data-fallback='phases'] td[data-placement='ten_node']",
        "els => els.map(e => e.textContent.trim().split(' ')[0])",
    )
    assert ten_node == expected and ten_node != comparable
    # The tooltip says what the figure is.
    page.hover("[data-chart='phases'] rect.bar >> nth=0")
    tooltip = page.locator(".chart-tooltip").inner_text()
    assert "10-node runs" in tooltip and "rank" in tooltip
    screenshot(page, "submission-percentiles-ten-node")
    assert browsing.problems == []


def table_of(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        "#list-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    return rows


def test_a_sublist_with_a_formula_reloads_from_its_link_to_the_same_table(live_server, browsing):
    published_list()
    page = browsing.page
    page.goto(f"{live_server.url}/lists/sc60/io500/")
    settle(page)
    page.click("[data-role=filters] > summary")  # the filters fold above the table
    page.select_option("#f-filesystem", "Lustre")
    page.select_option("#f-reproducibility", "fully_reproducible")
    page.fill("#f-formula", "sqrt(ior-easy-write*ior_hard_write)/nodes")
    page.click("#list-filters button[type=submit]")
    settle(page)
    shown = table_of(page)
    assert len(shown) == 3
    headers = page.eval_on_selector_all("#list-table thead th", "ths => ths.map(t => t.dataset.column)")
    # The first column holds the rows' compare boxes.
    assert headers[:3] == ["compare", "rank", "sublist_rank"] and headers[-2:] == [
        "custom_score",
        "custom_rank",
    ]
    assert [row[-1] for row in shown] == ["1", "2", "3"]  # ranked by the formula
    assert sorted(int(row[2]) for row in shown) == [1, 2, 3]  # renumbered inside the sublist
    official = [int(row[1]) for row in shown]
    assert official != sorted(official)  # the official rank is kept, not replaced
    assert page.inner_text("[data-role='formula']") == "sqrt(ior_easy_write * ior_hard_write) / nodes"
    assert page.locator("[data-role='statistics'][open]").count() == 1
    screenshot(page, "sublist-formula")

    share = page.get_attribute("[data-role='share-url']", "href")
    assert share is not None
    fresh = browsing.page.context.browser.new_context().new_page()
    fresh.goto(live_server.url + share)
    settle(fresh)
    assert table_of(fresh) == shown
    assert fresh.input_value("#f-formula") == "sqrt(ior_easy_write * ior_hard_write) / nodes"
    screenshot(fresh, "sublist-formula-reloaded")
    page.reload()
    settle(page)
    assert table_of(page) == shown
    assert browsing.problems == []
