"""Headless chromium: a submission page and a list page offer their citation as text and BibTeX (with
working copy buttons), and the list page's bulk download link gives every list as CSV."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from submissions.models import Submission
from tests.e2e.browser import Browsing, screenshot, settle
from tests.support.data import shared_subset

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def citation_of(browsing: Browsing, url: str, shot: str) -> dict[str, str]:
    page = browsing.page
    page.goto(url)
    settle(page)
    page.click("a[href='#cite']")
    card = page.locator("[data-role='citation']")
    card.scroll_into_view_if_needed()
    screenshot(card, shot, full_page=False)
    screenshot(page, f"{shot}-page")
    return {
        "text": page.inner_text("[data-role='citation-text']"),
        "bibtex": page.inner_text("[data-role='citation-bibtex']"),
        "policy": page.inner_text("[data-role='messaging-policy']"),
    }


def copied(browsing: Browsing, target: str) -> str:
    page = browsing.page
    page.click(f"button[data-copy='{target}']")
    page.wait_for_function(
        f"() => document.querySelector(\"button[data-copy='{target}']\").textContent === 'Copied'"
    )
    text: str = page.evaluate("() => navigator.clipboard.readText()")
    return text


def test_a_reader_cites_a_result_and_its_list_and_downloads_every_list(
    live_server: Any, browsing: Browsing, io500_data: Path, tmp_path: Path, settings: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    # Every list, and the raw run of io500.org's submission 3 (SC19's #1), re-verified here.
    call_command("import_io500", str(shared_subset(io500_data, tmp_path, {"3"})), stdout=io.StringIO())
    settings.SITE_URL = live_server.url
    browsing.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    weka = Submission.objects.get(io500_id=3)

    result = citation_of(browsing, f"{live_server.url}/submissions/{weka.pk}/", "citation-submission")
    assert result["text"].startswith(f"WekaIO on AWS (WekaIO, WekaIO Matrix): IO500 submission {weka.pk}, ")
    assert "#1 on the IO500 list at SC19 (verified; list entry io500-sc19-io500-v1-1)" in result["text"]
    assert "Registry verdict: Checked here; reproducibility: not recorded." in result["text"]
    assert f"{live_server.url}/submissions/{weka.pk}/, retrieved " in result["text"]
    assert result["bibtex"].startswith(f"@misc{{io500-submission-{weka.pk},")
    assert "urldate = {" in result["bibtex"]
    assert "must be listed as “verified”" in result["policy"]
    assert copied(browsing, "citation-text") == result["text"]
    assert copied(browsing, "citation-bibtex") == result["bibtex"]
    # The citable entry id leads back to the submission.
    browsing.page.goto(f"{live_server.url}/entries/io500-sc19-io500-v1-1/")
    assert browsing.page.url == f"{live_server.url}/submissions/{weka.pk}/"

    listed = citation_of(browsing, f"{live_server.url}/lists/sc19/io500/", "citation-list")
    assert listed["text"].startswith("IO500 SC19 IO500 list, version 1, published 2019-11-19 (recorded as")
    assert "https://doi.org/10.5281/zenodo.6462493" in listed["text"]
    assert listed["bibtex"].startswith("@misc{io500-sc19-io500-v1,")
    assert copied(browsing, "citation-bibtex") == listed["bibtex"]

    with browsing.page.expect_download() as download_info:
        browsing.page.click("a[data-download='bulk-csv']")
    download = download_info.value
    assert download.suggested_filename == "io500-registry-all-lists.csv.gz"
    text = gzip.decompress(Path(download.path()).read_bytes()).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    weka_rows = [row for row in rows if row["list_entry_id"] == "io500-sc19-io500-v1-1"]
    assert len(weka_rows) == 1 and float(weka_rows[0]["ior-easy-write recomputed (GiB/s)"]) > 0
    assert browsing.problems == []
