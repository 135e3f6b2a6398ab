"""The present as it is public, in the browser at phone and desktop width (issue 26): one sentence per
release on what is public, no list under the name of a release no public run belongs to, a
reconstructed list never passing for the official one, and a trend that compares like with like.

Walks home, the history and every tab of every release at 375 and 1400 px; with E2E_SCREENSHOTS=1
each page lands in test-artifacts/present-<width>-<page>.png. The same walk reads the real data as a
visitor first sees it: home names the newest release and draws its list, the history has a point of
every release up to the newest, a reconstructed list shows where it comes from."""

from __future__ import annotations

import datetime
import io
from typing import Any
from urllib.parse import urlsplit

import pytest

from registry.models import ListSnapshot, Release
from submissions.models import Finding, Submission
from tests.e2e.browser import (
    WIDTHS,
    chart_states,
    drawn_charts,
    each_width,
    fits_its_screen,
    open_page,
    screenshot,
    settle,
)
from tests.factories import make_release, make_result, make_submission, publish_list
from tests.support.data import shared_subset

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN_WIDTHS = tuple(size["width"] for size in WIDTHS.values())
# What the site said before issue 26, each half of a contradiction.
STALE = ("not in any public file", "published lists end with")


# What the walk reads of each tab, in one call into the page. Playwright's own queries (inner_text,
# locator counts, attributes) each walk the whole document, shadow roots included: on a table of
# 3,000 rows one costs about 16 ms of CPU against 2-3 ms for a plain evaluate (measured on this
# machine), and the seven per tab cost the 90 tabs more than their checks.
READ_TAB = """([stale, wordForWord]) => {
    const text = (selector) => {
        const element = document.querySelector(selector);
        return element === null ? null : element.innerText;
    };
    const provenance = document.querySelectorAll('[data-role="provenance"]');
    return {
        title: document.title,
        heading: text("h1"),
        stale: stale.filter((sentence) => document.body.innerText.includes(sentence)),
        provenances: provenance.length,
        provenance: provenance.length ? provenance[0].getAttribute("data-provenance") : null,
        publicRecords: document.querySelectorAll('[data-role="public-record"]').length,
        reason: text('[data-role="unpublished-reason"]'),
        wordForWord: wordForWord === null ? null : text(wordForWord),
        listTables: document.querySelectorAll("#list-table").length,
        sc25Links: document.querySelectorAll('[data-role="what-exists"] a[href="/lists/sc25/full/"]').length,
    };
}"""


def trend_labels_clear_of_legends(page: Any) -> list[str]:
    """Trend and share charts whose axis labels reach into their legend (the old rotated
    "ISC25 (reconstructed)" did in both)."""
    clashes: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.chart[data-chart="trend"], .chart[data-chart="shares"]')]
            .flatMap((chart) => {
            const legend = chart.querySelector('.chart-legend');
            if (!legend) return [];
            const top = legend.getBoundingClientRect().top;
            return [...chart.querySelectorAll('svg text')]
              .filter((t) => t.getBoundingClientRect().bottom > top + 0.5)
              .map((t) => `${chart.dataset.metric || chart.dataset.by}: ${t.textContent}`);
        })"""
    )
    return clashes


# Tabs whose sentence is checked word for word: a reconstructed list's notice, and why a list of a
# release io500.org published is not shown.
TABS_READ_WORD_FOR_WORD = {
    "/lists/sc25/full/": ('[data-role="provenance"]', "Reconstructed here, not an official IO500 list."),
    "/lists/isc23/production/": (
        '[data-role="unpublished-reason"]',
        "Of io500.org's lists of ISC23 only the Research list is in a public file",
    ),
}


def test_home_history_and_every_release_tab_tell_what_is_public(
    live_server, browser, io500_data, tmp_path, settings
):
    from django.core.management import call_command

    # Every list file and a raw run of ISC25 and of SC25 (the releases whose lists are not public).
    settings.MEDIA_ROOT = tmp_path / "media"
    subset = shared_subset(io500_data, tmp_path, {"738", "759"})
    call_command("import_io500", str(subset), stdout=io.StringIO())
    releases = list(Release.objects.order_by("publication_date").values_list("slug", "name", "list_kinds"))
    base = live_server.url
    for width in SCREEN_WIDTHS:
        session = open_page(browser, viewport={"width": width, "height": 900})
        page = session.page

        page.goto(base + "/")
        settle(page)
        screenshot(page, f"present-{width}-home")
        heading = page.inner_text("h1")
        assert "SC24 Research" in heading, heading
        assert page.locator('[data-role="provenance"][data-provenance="recorded"]').count() == 1
        assert page.locator("table.data tbody tr").count() == 129
        states = chart_states(page)
        assert drawn_charts(states) >= {"radar"}, states
        notice = page.inner_text('[data-role="newer-releases"]')
        assert "io500.org published its ISC25 lists at its BoF of 11 June 2025" in notice
        assert "the public list data ends with SC24 and holds none of them" in notice
        assert "No public run belongs to ISC26, so no list is shown under its name." in notice
        assert "io500.org's SC26 lists were due at its BoF of 18 November 2026" in notice
        assert page.locator('[data-role="newer-releases"] a[href="/lists/sc26/full/"]').count() == 0
        body = page.inner_text("body")
        assert not any(stale in body for stale in STALE), body[:400]
        assert fits_its_screen(page), "home scrolls sideways"

        page.goto(base + "/history/")
        settle(page)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.chart[data-chart=\"trend\"]')]"
            ".every(e => e.dataset.state === 'drawn')",
            timeout=15000,
        )
        screenshot(page, f"present-{width}-history")
        score_chart = '.chart[data-chart="trend"][data-metric="score"]'
        official_best = page.locator(f"{score_chart} circle.top").count()
        rebuilt_best = page.locator(f"{score_chart} path.rebuilt-top").count()
        # The 15 releases SC17 .. SC24 on the official line; the reconstructed ISC25 and SC25 apart.
        assert rebuilt_best == 2, rebuilt_best
        assert official_best == 15, official_best
        legend = page.inner_text('.chart[data-chart="trend"][data-metric="score"] .chart-legend')
        assert "reconstructed here, not official" in legend and "ISC25 1" in legend and "SC25 1" in legend
        assert trend_labels_clear_of_legends(page) == []
        states = chart_states(page)
        assert drawn_charts(states) >= {"balance", "trend"}, states
        balance = page.eval_on_selector_all(
            '.chart[data-chart="balance"] .chart-legend li', "items => items.map(i => i.textContent)"
        )
        # ISC26 and SC26 have no public run yet, so nothing new to draw.
        for release in (
            "SC17",
            "ISC21",
            "SC21",
            "ISC23",
            "SC24",
            "ISC25 (reconstructed)",
            "SC25 (reconstructed)",
        ):
            assert release in balance, (release, balance)
        assert fits_its_screen(page), "history scrolls sideways"

        assert session.problems == [], session.problems
        page.context.close()
    # Every tab of every release, loaded once and looked at in both widths: the page is resized (its
    # charts redraw on resize as on a phone turned sideways) from the width the last page ended at,
    # so no page is drawn at a width nobody looks at.
    session = open_page(browser, viewport=WIDTHS["phone"])
    page = session.page
    read_word_for_word: set[str] = set()
    for slug, name, kinds in releases:
        # /lists/<release>/ is the release's page (its lists and awards) once it published one: the
        # tabs are on each list page, the first of which is then looked at without a reload.
        page.goto(f"{base}/lists/{slug}/{kinds[0]}/")
        tabs = page.eval_on_selector_all(
            "ul.tabs a", "links => links.map((a) => [a.dataset.kind, a.getAttribute('href')])"
        )
        assert tabs, name
        for kind, href in tabs:
            if urlsplit(page.url).path != href:
                page.goto(base + href)
            selector, sentence = TABS_READ_WORD_FOR_WORD.get(href, (None, ""))
            tab = page.evaluate(READ_TAB, [list(STALE), selector])
            title, heading = tab["title"], tab["heading"]
            assert heading is not None, href
            assert tab["stale"] == [], href
            if tab["provenances"]:
                assert tab["provenances"] == 1, href
                rebuilt = tab["provenance"] == "reconstructed"
                # A reconstructed list says so in the title and the heading, an official one never.
                assert ("(reconstructed)" in title) == rebuilt, (href, title)
                assert ("(reconstructed)" in heading) == rebuilt, (href, heading)
                assert tab["publicRecords"] == 1, href
            else:
                reason = tab["reason"]
                assert reason is not None and reason.strip(), href
            if selector is not None:
                assert sentence in (tab["wordForWord"] or ""), href
                read_word_for_word.add(href)
            if name in ("ISC26", "SC26") and kind in ("full", "historical"):
                # No run of 2026 is public: no copied list under its name, and what exists instead.
                assert tab["provenances"] == 0 and tab["listTables"] == 0, href
                assert f"No public run belongs to {name}" in reason
                assert tab["sc25Links"] == 1
            for screen in each_width(page):
                screenshot(page, f"present-{WIDTHS[screen]['width']}-{slug}-{kind}", full_page=False)
                assert fits_its_screen(page), f"{href} scrolls sideways at {screen} width"
    assert read_word_for_word == set(TABS_READ_WORD_FOR_WORD)
    assert session.problems == [], session.problems
    page.context.close()


def test_an_official_list_marks_runs_found_invalid_and_says_whose_score_it_shows(live_server, browser):
    release = make_release(name="SC18", publication_date=datetime.date(2018, 11, 13), list_kinds=["io500"])
    good = make_submission(release=release, bw=30.0, md=90.0)
    bad = make_submission(release=release, status=Submission.Status.INVALID, valid=False)
    make_result(submission=bad, valid=False)
    Finding.objects.create(
        submission=bad,
        code="stonewall",
        severity=Finding.Severity.ERROR,
        message="The write phase ran 120 s.",
    )
    publish_list(release, "io500", [good, bad], provenance=ListSnapshot.Provenance.RECORDED)
    session = open_page(browser, viewport={"width": 1400, "height": 900})
    page = session.page
    page.goto(live_server.url + "/lists/sc18/io500/")
    settle(page)
    screenshot(page, "present-1400-sc18-invalid-here")
    assert "Score recorded by io500.org" in page.inner_text('th[data-column="score"]')
    badges = page.locator('#list-table [data-role="invalid-here"]')
    assert badges.count() == 1
    assert page.locator('#list-table [data-role="repro"]').first.inner_text() == "not recorded"
    badges.first.click()
    settle(page)
    assert page.url.endswith(f"/submissions/{bad.pk}/#findings")
    assert "The write phase ran 120 s." in page.inner_text("#findings")
    assert page.inner_text('[data-role="score-source"]') == "recomputed here"
    screenshot(page, "present-1400-invalid-submission")
    assert session.problems == []
