"""Headless chromium: a reader pastes a sentence quoting an IO500 result into the claim checker and
reads whether the published lists support it, which list it was checked on and the citation the
IO500 Messaging Policy asks for, at a phone's width and a desktop's."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.e2e.browser import WIDTHS, Browsing, open_page, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def top_of(io500_data: Path, name: str) -> float:
    with (io500_data / "lists" / name).open(newline="") as handle:
        return float(next(row for row in csv.DictReader(handle) if row["id"] == "1")["score"])


def check(session: Browsing, url: str, sentence: str, shot: str) -> dict[str, str]:
    page = session.page
    page.goto(f"{url}/claims/")
    page.fill("textarea[name=claim]", sentence)
    page.click("form[data-role=claim-form] button[type=submit]")
    page.wait_for_selector("[data-role=claim-result]")
    screenshot(page, shot)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{shot}: the page is {overflow} px wider than the window"
    return {
        "verdict": page.get_attribute("[data-role=claim-result]", "data-verdict") or "",
        "heading": page.inner_text("[data-role=claim-verdict]"),
        "list": page.inner_text("[data-role=claim-list]")
        if page.locator("[data-role=claim-list]").count()
        else "",
        "citation": page.inner_text("[data-role=claim-citation]")
        if page.locator("[data-role=claim-citation]").count()
        else "",
        "reasons": page.inner_text("[data-role=claim-reasons]")
        if page.locator("[data-role=claim-reasons]").count()
        else "",
    }


def test_a_reader_checks_a_claim_and_reads_the_verdict_and_citation(
    live_server: Any, browser: Any, io500_data: Path
) -> None:
    call_command("import_io500", str(io500_data), "--skip-raw", stdout=io.StringIO())
    session = open_page(browser)
    score = top_of(io500_data, "list_sc20_io500.csv")
    for width, viewport in WIDTHS.items():
        session.page.set_viewport_size(viewport)
        supported = check(
            session, live_server.url, f"#1 on the SC20 IO500 list with {int(score):,}", f"claim-{width}"
        )
        assert supported["verdict"] == "supported"
        assert supported["heading"] == "Supported by the registry's lists"
        assert "Recorded as io500.org published it" in supported["list"]
        assert "a verified placement of #1 on the IO500 list at SC20" in supported["citation"]

        wrong = check(
            session, live_server.url, f"#2 on the SC20 IO500 list with {int(score):,}", f"claim-wrong-{width}"
        )
        assert wrong["verdict"] == "not-supported"
        assert f"not {int(score):,}" in wrong["reasons"]
    assert not session.problems, session.problems
