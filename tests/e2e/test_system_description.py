"""In headless chromium: a submitter uploads a real tarball with the system description as a
community-schema file (site.json); the submission page shows it grouped as the schema groups it,
and the whole document below. Screenshots go to test-artifacts/system-description-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from submissions.models import Submission
from tests.conftest import PASSWORD
from tests.e2e.browser import log_in, open_page, screenshot
from tests.submissions.archives import pack_folder
from tests.submissions.system.documents import VALID, as_bytes, with_unknown_fields
from tests.support.data import submission_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_uploaded_schema_document_is_shown_grouped(browser: Any, live_server: Any, tmp_path: Path) -> None:
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    tarball = tmp_path / "submission-774.tgz"
    tarball.write_bytes(pack_folder(submission_folder(774)))
    wrong = tmp_path / "wrong-site.json"
    wrong.write_bytes(as_bytes(with_unknown_fields()))
    site = tmp_path / "site.json"
    site.write_bytes(as_bytes(VALID))
    problems: list[str] = []
    page = open_page(browser, problems).page
    base = live_server.url
    log_in(page, base, "alice")

    # A document with unknown fields is refused on the form, each field named.
    page.goto(f"{base}/submissions/upload/")
    page.set_input_files("[name=archive]", str(tarball))
    page.set_input_files("[name=system_file]", str(wrong))
    page.click("button:has-text('Upload and verify')")
    page.wait_for_load_state()
    errors = page.inner_text(".upload-form")
    assert "Site.IO500.cooling" in errors and "Site.Datacenter" in errors
    screenshot(page, "system-description-refused")
    assert not Submission.objects.exists()

    page.set_input_files("[name=archive]", str(tarball))
    page.set_input_files("[name=system_file]", str(site))
    page.click("button:has-text('Upload and verify')")
    page.wait_for_url("**/submissions/*/")
    page.wait_for_selector("[data-final='true']", timeout=60_000)
    page.reload()
    section = page.locator("#system-description")
    text = section.inner_text()
    for part in (
        "Site",
        "IO500",
        "StorageSystem",
        "Metadata servers",
        "Data servers",
        "Supercomputer",
        "Nodes",
    ):
        assert part in text
    assert "SuperMUC-NG Phase2" in text and "1.2 PiB" in text and "200 Gbit/s" in text
    legends = section.locator(".system-groups legend").all_inner_texts()
    assert legends[:3] == ["Site", "IO500", "StorageSystem"]
    section.locator("summary").click()
    assert "Optane DC PMem 200" in section.locator(".system-document").inner_text()
    screenshot(section, "system-description-grouped", full_page=False)
    # The one console error is the refused form's own answer (400), which the browser reports.
    assert [problem for problem in problems if "status of 400" not in problem] == []
    assert len(problems) == 1


def test_an_imported_run_shows_what_its_broken_2021_document_held_and_what_it_did_not(
    browser: Any, live_server: Any
) -> None:
    from django.core.files.base import ContentFile

    from submissions.services import submission_create

    archive = ContentFile(pack_folder(submission_folder(585)), name="submission-585.tgz")
    submission, _ = submission_create(
        submitter=None,
        archive=archive,
        original_name="submission-585.tgz",
        source=Submission.Source.IMPORT,
        io500_id=585,
    )
    problems: list[str] = []
    page = open_page(browser, problems).page
    page.goto(f"{live_server.url}/submissions/{submission.pk}/")
    section = page.locator("#system-description")
    text = section.inner_text()
    assert "Narval" in text and "Calcul Quebec" in text and "lustre06" in text
    assert "What could not be read" in text and "line breaks fall inside strings" in text
    # Filled from the run, with its evidence: the IO500 version the tools printed.
    assert "from the version the IO500 tools printed" in text
    section.locator("summary").click()
    document = section.locator(".system-document").inner_text()
    assert "Rocky 8" in document and "not one of the choices" in document
    screenshot(section, "system-description-imported-585", full_page=False)
    assert problems == []
