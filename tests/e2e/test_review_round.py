"""A full round in headless chromium: a submitter uploads a real tarball, fills the questionnaire and
submits; the committee reviews, assigns Fully Reproducible, accepts, builds and publishes the
Production list; an anonymous visitor then finds the entry ranked. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from submissions.models import ReviewState, Submission
from submissions.review.models import QUESTIONNAIRE_SECTIONS
from submissions.review.roles import committee_member_add
from tests.conftest import IO500_DATA, PASSWORD
from tests.e2e.browser import ARTIFACTS, open_page
from tests.submissions.archives import pack_folder
from tests.submissions.review.helpers import open_release

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SYSTEM = {
    "system_name": "Wolf",
    "institution_name": "Intel",
    "filesystem_type": "DAOS",
    "client_nodes": "10",
    "procs_per_node": "32",
    "client_network_gbps": "200",
}


def new_page(browser: Any, problems: list[str]) -> Any:
    return open_page(browser, problems).page


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("[name=username]", username)
    page.fill("[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_load_state()


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"), full_page=True)


def test_a_full_round_from_upload_to_the_published_production_list(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    release = open_release("ISC40")
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    carol = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    committee_member_add(user=carol)
    tarball = tmp_path / "submission-33.tgz"
    tarball.write_bytes(pack_folder(IO500_DATA / "submissions" / "submission-33"))
    base = live_server.url
    problems: list[str] = []

    # The submitter uploads, fills the questionnaire and submits.
    alice = new_page(browser, problems)
    log_in(alice, base, "alice")
    alice.goto(f"{base}/submissions/upload/")
    alice.set_input_files("[name=archive]", str(tarball))
    for name, value in SYSTEM.items():
        alice.fill(f"[name={name}]", value)
    alice.select_option("[name=release]", release.slug)
    alice.click("button:has-text('Upload and verify')")
    alice.wait_for_url("**/submissions/*/")
    alice.wait_for_selector("[data-role=status]:has-text('Verified')")
    submission = Submission.objects.get()
    assert submission.status == Submission.Status.VERIFIED
    alice.click("text=Fill in the questionnaire")
    for name in QUESTIONNAIRE_SECTIONS:
        alice.fill(f"[name={name}]", f"Our answer on {name} has more than ten words in it for the committee.")
    alice.click("button:has-text('Save the questionnaire')")
    alice.wait_for_selector("[data-role=questionnaire]")
    alice.click("[data-role=submit-link]")
    for name in ("reviewed", "followed_rules", "permission_to_publish"):
        alice.check(f"[name={name}]")
    alice.click("button:has-text('Submit for review')")
    alice.wait_for_selector("[data-role=review-state]:has-text('Submitted for review')")
    shot(alice, "1-submitted")

    # The committee reviews, assesses, accepts, builds and publishes the Production list.
    carol_page = new_page(browser, problems)
    log_in(carol_page, base, "carol")
    carol_page.goto(f"{base}/review/")
    carol_page.click(f"#review-queue a:text-is('{submission.pk}')")
    carol_page.wait_for_selector("#diff")
    carol_page.select_option("[name=reproducibility]", "fully_reproducible")
    carol_page.select_option("[name=category]", "production")
    carol_page.click("#assess-form button[type=submit]")
    carol_page.wait_for_selector("text=Fully Reproducible, Production")
    carol_page.click("[data-action=start_review]")
    carol_page.fill("#decision-reason", "Complete disclosure; open-source DAOS on commodity hardware.")
    carol_page.click("[data-action=accept]")
    carol_page.wait_for_selector("[data-role=review-state]:has-text('Accepted')")
    shot(carol_page, "2-reviewed")
    carol_page.goto(f"{base}/review/releases/{release.slug}/")
    carol_page.click("[data-role=build-all]")
    carol_page.click("#release-lists tr[data-kind=production] a")
    carol_page.wait_for_selector(f"#draft-table tr[data-submission='{submission.pk}']")
    shot(carol_page, "3-draft")
    carol_page.click("[data-role=publish]")
    carol_page.wait_for_selector("text=Published")
    assert Submission.objects.get().review_state == ReviewState.PUBLISHED

    # An anonymous visitor finds the entry ranked.
    visitor = new_page(browser, problems)
    visitor.goto(f"{base}/lists/{release.slug}/production/")
    row = visitor.locator(f"#list-table tr[data-submission='{submission.pk}']")
    assert row.locator("td.rank").inner_text().strip() == "1"
    assert "Wolf" in row.inner_text() and "Fully Reproducible" in row.inner_text()
    assert "alice" in row.inner_text()
    shot(visitor, "4-published-list")
    visitor.click(f"#list-table tr[data-submission='{submission.pk}'] td.rank a")
    visitor.wait_for_selector("[data-role=questionnaire]")
    assert "Published" in visitor.locator("[data-role=review-state]").inner_text()
    # The timeline and the discussion stay between the submitter and the committee.
    assert visitor.locator("[data-role=timeline], #comments").count() == 0
    assert problems == []
