"""In headless chromium: a submitter uploads a real run (submission-33: 64 GiB/s from 10 client nodes)
declaring a 1 GbE client network; the submission page shows "faster than the network" as the first
finding, an error, and the run invalid. Screenshot: test-artifacts/plausibility-network.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import PASSWORD
from tests.e2e.browser import log_in, open_page, screenshot
from tests.submissions.archives import pack_folder
from tests.support.data import submission_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_run_faster_than_its_declared_network_shows_the_error_first(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    tarball = tmp_path / "submission-33.tgz"
    tarball.write_bytes(pack_folder(submission_folder(33)))
    problems: list[str] = []
    page = open_page(browser, problems).page
    base = live_server.url
    log_in(page, base, "alice")

    page.goto(f"{base}/submissions/upload/")
    page.set_input_files("[name=archive]", str(tarball))
    for name, value in {
        "system_name": "Slow Links",
        "institution_name": "Plausibility Lab",
        "filesystem_type": "Lustre",
        "client_nodes": "10",
        "procs_per_node": "32",
        "client_network_gbps": "1",
    }.items():
        page.fill(f"[name={name}]", value)
    page.click("button:has-text('Upload and verify')")
    page.wait_for_url("**/submissions/*/")
    page.wait_for_selector("[data-final='true']", timeout=60_000)
    page.reload()
    first = page.locator("ul.findings li.finding").first
    assert "finding-error" in (first.get_attribute("class") or "")
    text = first.inner_text()
    assert "plausibility-network" in text and "faster than the declared client network" in text
    assert "1.16 GiB/s" in text
    notes = page.locator("ul.findings").inner_text()
    assert "plausibility-not-checked" in notes and "memory per client node not declared" in notes
    screenshot(page, "plausibility-network")
    assert problems == []
