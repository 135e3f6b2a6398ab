"""In headless chromium: a submitter uploads a real run (submission-33) whose archive carries the
bundled runner's client facts and leaves kernel and memory blank on the form; the submission page
shows the kernel marked as reported by the runner, and the cache finding names the runner's facts as
the source of its memory figure. Screenshots: test-artifacts/runner-facts.png,
runner-facts-system.png (the description)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import PASSWORD
from tests.e2e.browser import open_page, screenshot
from tests.submissions.system.facts_files import FACTS_MEMBER, facts
from tests.submissions.system.test_upload_paths import tarball_with

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_facts_the_runner_reported_are_marked_as_such_on_the_submission_page(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    tarball = tmp_path / "submission-33.tgz"
    tarball.write_bytes(tarball_with(33, {FACTS_MEMBER: facts()}).read())
    problems: list[str] = []
    page = open_page(browser, problems).page
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("[name=username]", "alice")
    page.fill("[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_load_state()

    page.goto(f"{base}/submissions/upload/")
    assert page.locator("[name=client_memory_bytes]").count() == 1
    screenshot(page.locator("form.upload-form"), "upload-hardware-fields")
    page.set_input_files("[name=archive]", str(tarball))
    for name, value in {
        "system_name": "Reported Nodes",
        "institution_name": "Plausibility Lab",
        "filesystem_type": "Lustre",
        "client_nodes": "10",
        "procs_per_node": "32",
        "client_network_gbps": "200",
    }.items():
        page.fill(f"[name={name}]", value)
    page.click("button:has-text('Upload and verify')")
    page.wait_for_url("**/submissions/*/")
    page.wait_for_selector("[data-final='true']", timeout=60_000)
    page.reload()
    body = page.locator("body").inner_text()
    assert "6.1.0-runner" in body
    assert "reported by the runner on 2026-11-20" in body
    findings = page.locator("ul.findings").inner_text()
    assert (
        "plausibility-cache" in findings and "memory from the client facts reported by the runner" in findings
    )
    assert "runner-facts-read" in findings
    screenshot(page, "runner-facts")
    screenshot(page.locator("section:has(> h2:text-is('System description'))"), "runner-facts-system")
    assert problems == []
