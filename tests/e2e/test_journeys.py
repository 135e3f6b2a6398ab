"""The four journeys of the site in headless chromium, walked on a phone's screen (375 px), each
page on the way also looked at on a desktop's (1400 px, the page resized by
`misfits_at_each_width`): a visitor (home, a list, a submission, its system, comparing, history, a
download), a newcomer who signs up and submits while the committee opens the release, reviews,
publishes and tries to correct the list with a version that changes nothing (refused), and an API
user (token, upload, poll, download). Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import mail

from submissions.models import ReviewState, Submission
from submissions.review.models import QUESTIONNAIRE_SECTIONS
from submissions.review.roles import committee_member_add
from tests.conftest import PASSWORD
from tests.e2e.browser import (
    ARTIFACTS,
    WIDTHS,
    build_and_open_draft,
    log_in,
    misfits_at_each_width,
    open_page,
    screenshot,
    settle,
)
from tests.submissions.archives import pack_folder
from tests.submissions.review.helpers import open_release, verified_upload
from tests.support.chart_data import rich_history
from tests.support.data import submission_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SYSTEM = {
    "system_name": "Wolf",
    "institution_name": "Intel",
    "filesystem_type": "DAOS",
    "client_nodes": "10",
    "procs_per_node": "32",
    "client_network_gbps": "200",
}


def shot(page: Any, width: str, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot(page, f"journey-{width}-{name}")


def as_opened(page: Any) -> None:
    """Scrolled as if opened at its present width: to its URL's #anchor, else to the top (a resize,
    and a reload too, keep the scroll position the other width gave)."""
    page.evaluate(
        """() => {
            const target = location.hash && document.getElementById(location.hash.slice(1));
            if (target) target.scrollIntoView(); else window.scrollTo(0, 0);
        }"""
    )


def above_the_fold(page: Any, selector: str) -> bool:
    """The element is wholly inside the first screen, without scrolling."""
    box = page.locator(selector).first.bounding_box()
    if box is None:
        return False
    height = page.viewport_size["height"]
    inside = bool(box["y"] >= 0 and box["y"] + box["height"] <= height)
    if not inside:
        sys.stderr.write(f"{selector} is at {box['y']:.0f}-{box['y'] + box['height']:.0f}px of {height}px\n")
    return inside


def test_a_visitor_goes_from_home_to_a_list_a_system_a_comparison_history_and_a_download(
    live_server: Any, browser: Any
) -> None:
    history, leader = rich_history()
    problems: list[str] = []
    page = open_page(browser, problems, viewport=WIDTHS["phone"]).page
    base = live_server.url
    page.goto(base + "/")
    assert misfits_at_each_width(page, "visitor-1-home") == []
    page.goto(f"{base}/lists/isc41/io500/")
    table = page.locator("#list-table")
    assert table.is_visible()

    def score_in_sight(width: str) -> None:
        # The score is in sight without scrolling sideways, on a phone too.
        box = page.locator("#list-table thead th", has_text="Score").first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= WIDTHS[width]["width"], width
        # Every column shown fits the table's box: nothing is cut off at the right edge.
        assert page.evaluate(
            "(() => { const box = document.querySelector('#list-table').parentElement;"
            " return box.scrollWidth <= box.clientWidth + 1; })()"
        ), width

    assert misfits_at_each_width(page, "visitor-2-list", score_in_sight) == []
    page.click(f"#list-table tr[data-submission='{leader.pk}'] td.rank a")
    page.wait_for_selector("[data-role=system-link]")
    # The link is below the page's charts, each drawn once its data came: clicked before they are
    # all drawn, the click could land where the link was before they pushed it down (seen once).
    settle(page)
    page.click("[data-role=system-link]")
    page.wait_for_url(f"**/systems/{history.daos.pk}/")
    assert misfits_at_each_width(page, "visitor-3-system") == []
    page.click("text=Compare its latest submissions side by side")
    page.wait_for_url("**/compare/?ids=*")
    assert page.locator("#config-diff").count() == 1
    assert misfits_at_each_width(page, "visitor-4-compare") == []
    # Comparing from a list: tick two rows, one click.
    page.goto(f"{base}/lists/isc41/io500/")
    for submission in (leader, history.submissions[-1]):
        page.check(f"#list-table tr[data-submission='{submission.pk}'] input[name=id]")
    page.click("button:has-text('Compare the ticked entries')")
    page.wait_for_url(f"**/compare/?ids={leader.pk}%2C{history.submissions[-1].pk}")
    assert page.locator("#config-diff").count() == 1
    page.goto(f"{base}/history/")
    page.wait_for_selector(".chart svg")
    assert misfits_at_each_width(page, "visitor-5-history") == []
    page.goto(f"{base}/lists/isc41/io500/")
    with page.expect_download() as download:
        page.click("a[href$='io500.csv']")
    rows = Path(download.value.path()).read_text().splitlines()
    assert len(rows) == 1 + history.new_list.entries.count()
    assert problems == []


def test_a_newcomer_submits_and_the_committee_reviews_publishes_and_cannot_publish_an_empty_correction(
    live_server: Any, browser: Any, tmp_path: Path
) -> None:
    carol = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    committee_member_add(user=carol)
    tarball = tmp_path / "submission-33.tgz"
    tarball.write_bytes(pack_folder(submission_folder(33)))
    base = live_server.url
    problems: list[str] = []

    # The committee opens the next release with its dates.
    committee = open_page(browser, problems, viewport=WIDTHS["phone"]).page
    log_in(committee, base, "carol")
    # The committee lands on its review queue, and the navigation leads back to it.
    assert urlsplit(committee.url).path == "/review/"
    assert committee.locator("[data-nav=review]").count() == 1
    committee.goto(f"{base}/review/releases/")
    committee.click("text=Open a release")
    committee.fill("[name=name]", "ISC40")
    committee.fill("[name=publication_date]", "2040-06-20")
    committee.fill("[name=submission_deadline]", "2040-06-01")
    committee.click("button:has-text('Open for submissions')")
    committee.wait_for_selector("text=ISC40 is open for submissions until 2040-06-01")
    assert misfits_at_each_width(committee, "committee-1-opened") == []

    # A newcomer signs up, activates the account from the mail, uploads and submits.
    newcomer = open_page(browser, problems, viewport=WIDTHS["phone"]).page
    newcomer.goto(f"{base}/accounts/signup/")
    newcomer.fill("[name=username]", "dana")
    newcomer.fill("[name=email]", "dana@example.org")
    newcomer.fill("[name=password1]", PASSWORD)
    newcomer.fill("[name=password2]", PASSWORD)
    newcomer.click("button:has-text('Sign up')")
    newcomer.wait_for_selector("text=dana@example.org")
    link = re.search(r"https?://\S+/accounts/activate/\S+", str(mail.outbox[-1].body))
    assert link is not None
    # The mail links to SITE_URL; the test's server listens elsewhere.
    newcomer.goto(base + urlsplit(link[0]).path)
    log_in(newcomer, base, "dana")
    newcomer.goto(f"{base}/submissions/upload/")
    newcomer.set_input_files("[name=archive]", str(tarball))
    for name, value in SYSTEM.items():
        newcomer.fill(f"[name={name}]", value)
    newcomer.select_option("[name=release]", "isc40")
    newcomer.click("button:has-text('Upload and verify')")
    newcomer.wait_for_url("**/submissions/*/")
    newcomer.wait_for_selector("[data-role=status]:has-text('Checked here')")
    # Once verified, the page says what to do next, and "Submit for review" is on the first screen.
    newcomer.wait_for_selector("[data-role=next-step][data-kind=act]")

    def next_step_on_the_first_screen(width: str) -> None:
        as_opened(newcomer)
        assert above_the_fold(newcomer, "[data-role=next-step]"), width
        assert above_the_fold(newcomer, "[data-role=next-step] [data-role=submit-link]"), width
        screenshot(newcomer, f"journey-{width}-submitter-1-first-screen", full_page=False)

    assert misfits_at_each_width(newcomer, "submitter-1-verified", next_step_on_the_first_screen) == []
    newcomer.click("[data-role=next-step] >> text=Fill in the questionnaire")
    for name in QUESTIONNAIRE_SECTIONS:
        newcomer.fill(
            f"[name={name}]", f"Our answer on {name} has more than ten words in it for the committee."
        )
    newcomer.click("button:has-text('Save the questionnaire')")
    newcomer.wait_for_selector("[data-role=questionnaire]")
    newcomer.click("[data-role=submit-link]")
    for name in ("reviewed", "followed_rules", "permission_to_publish"):
        newcomer.check(f"[name={name}]")
    newcomer.click("button:has-text('Submit for review')")
    newcomer.wait_for_selector("[data-role=review-state]:has-text('Submitted for review')")
    assert "Wait for the committee" in newcomer.locator("[data-role=next-step]").inner_text()
    submission = Submission.objects.get()

    # The committee asks for a fix; the submitter sees the request as the next step, fixes the
    # description (a version the committee sees) and submits again.
    committee.goto(f"{base}/review/")
    committee.click(f"#review-queue a:text-is('{submission.pk}')")
    committee.fill("#decision-reason", "Please fix the node count.")
    committee.click("[data-action=request_changes]")
    committee.wait_for_selector("[data-role=review-state]:has-text('Changes requested')")
    newcomer.goto(f"{base}/submissions/mine/")
    row = newcomer.locator(f"tr[data-submission='{submission.pk}']")
    assert "Changes requested" in row.locator("[data-role=review-state]").inner_text()
    shot(newcomer, "phone", "submitter-2-mine")
    row.locator("[data-role=next-step] a").click()
    assert "Please fix the node count." in newcomer.locator("[data-role=next-step]").inner_text()

    def submit_link_on_the_first_screen(width: str) -> None:
        as_opened(newcomer)
        assert above_the_fold(newcomer, "[data-role=next-step] [data-role=submit-link]"), width

    assert (
        misfits_at_each_width(newcomer, "submitter-3-changes-requested", submit_link_on_the_first_screen)
        == []
    )
    newcomer.click("[data-role=next-step] [data-role=edit-system]")
    newcomer.fill("[name=client_nodes]", "12")
    newcomer.click("button:has-text('Save the description')")
    newcomer.wait_for_selector("text=saved as version 1")
    newcomer.click("[data-role=next-step] [data-role=submit-link]")
    for name in ("reviewed", "followed_rules", "permission_to_publish"):
        newcomer.check(f"[name={name}]")
    newcomer.click("button:has-text('Submit for review')")
    newcomer.wait_for_selector("[data-role=review-state]:has-text('Submitted for review')")

    # The committee reviews what changed, accepts, builds and publishes; a correction listing exactly
    # the same is refused.
    committee.goto(f"{base}/review/")
    committee.click(f"#review-queue a:text-is('{submission.pk}')")
    fix = committee.locator("[data-role=revision][data-kind=system] tr[data-field=client_nodes]")
    assert fix.locator(".before").inner_text() == "10" and fix.locator(".after").inner_text() == "12"
    # The destructive decision is drawn in red, apart from the others.
    reject_colour = committee.locator("[data-action=reject]").evaluate("(e) => getComputedStyle(e).color")
    assert reject_colour == "rgb(180, 35, 24)"
    assert misfits_at_each_width(committee, "committee-1b-review") == []
    committee.select_option("[name=reproducibility]", "fully_reproducible")
    committee.select_option("[name=category]", "production")
    committee.click("#assess-form button[type=submit]")
    committee.wait_for_selector("text=Fully Reproducible, Production")
    committee.click("[data-action=start_review]")
    committee.fill("#decision-reason", "Complete disclosure; open-source DAOS on commodity hardware.")
    committee.click("[data-action=accept]")
    committee.wait_for_selector("[data-role=review-state]:has-text('Accepted')")
    build_and_open_draft(committee, base, "isc40", every=True)
    committee.click("[data-role=publish]")
    # ISC40 is not due yet: the committee confirms an early publish, the dates stated.
    committee.wait_for_selector("[data-role=confirm-early]")
    assert "Its lists are due on 2040-06-20" in committee.content()
    assert misfits_at_each_width(committee, "committee-confirm-early") == []
    committee.click("[data-role=confirm-early]")
    committee.wait_for_selector("text=Published")
    assert Submission.objects.get().review_state == ReviewState.PUBLISHED
    build_and_open_draft(committee, base, "isc40")
    committee.fill("[name=reason]", "The system name was corrected by the submitter.")
    committee.click("[data-role=publish]")
    committee.click("[data-role=confirm-early]")
    committee.wait_for_selector("text=there is nothing to correct")
    assert committee.locator("[data-role=no-change]").count() == 1
    shot(committee, "phone", "committee-2-correction-refused")

    visitor = open_page(browser, problems, viewport=WIDTHS["phone"]).page
    visitor.goto(f"{base}/lists/isc40/production/")
    row = visitor.locator(f"#list-table tr[data-submission='{submission.pk}']")
    assert row.locator("td.rank").inner_text().strip() == "1"
    assert "Wolf" in row.inner_text()
    assert visitor.locator("text=The system name was corrected by the submitter.").count() == 0

    def wide_columns_on_a_desktop(width: str) -> None:
        if width == "desktop":  # the submitter and reproducibility columns are shown at this width
            assert "Fully Reproducible" in row.inner_text() and "dana" in row.inner_text()

    assert misfits_at_each_width(visitor, "visitor-published", wide_columns_on_a_desktop) == []
    visitor.click(f"#list-table tr[data-submission='{submission.pk}'] td.rank a")
    visitor.wait_for_selector("[data-role=questionnaire]")
    assert "Published" in visitor.locator("[data-role=review-state]").inner_text()
    # The timeline and the discussion stay between the submitter and the committee.
    assert visitor.locator("[data-role=timeline], #comments").count() == 0
    assert problems == []


def _multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, (filename, data) in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/gzip\r\n\r\n".encode()
            + data
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _call(url: str, token: str, body: bytes | None = None, content_type: str = "") -> Any:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    request.add_header("Authorization", f"Token {token}")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def test_an_api_user_takes_a_token_uploads_polls_and_downloads(
    live_server: Any, browser: Any, submitter: Any
) -> None:
    history, _ = rich_history()
    base = live_server.url
    problems: list[str] = []
    page = open_page(browser, problems, viewport=WIDTHS["phone"]).page
    log_in(page, base, submitter.username)
    page.goto(f"{base}/accounts/token/")
    page.click("button:has-text('Create a token')")
    token = page.locator("#api-token-value").inner_text().strip()
    assert misfits_at_each_width(page, "api-1-token") == []

    body, content_type = _multipart(
        {"system": json.dumps(SYSTEM)},
        {"archive": ("submission-33.tgz", pack_folder(submission_folder(33)))},
    )
    created = _call(f"{base}/api/v1/submissions/", token, body, content_type)
    deadline = time.monotonic() + 60
    state = created
    while state["status"] in ("received", "processing") and time.monotonic() < deadline:
        time.sleep(0.5)
        state = _call(f"{base}/api/v1/submissions/{created['id']}/", token)
    assert state["status"] == "verified", state
    listed = _call(f"{base}/api/v1/lists/isc41/io500/", token)
    assert listed["count"] == len(listed["rows"]) == history.new_list.entries.count()
    assert problems == []


def test_a_submitter_withdraws_a_draft_through_the_confirmation_page_without_javascript(
    live_server: Any, browser: Any, submitter: Any
) -> None:
    draft = verified_upload(submitter, open_release())
    base = live_server.url
    # No JavaScript at all: the confirmation is a page of its own, not a dialog.
    page = browser.new_context(viewport=WIDTHS["phone"], java_script_enabled=False).new_page()
    log_in(page, base, submitter.username)
    page.goto(f"{base}/submissions/{draft.pk}/")
    page.click("[data-role=withdraw-link]")
    # The confirm page says what withdrawing does and takes the reason; nothing happens before.
    page.wait_for_selector("[data-role=consequence]")
    assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.DRAFT
    page.fill("[name=reason]", "The run was filed under the wrong release.")
    assert misfits_at_each_width(page, "submitter-withdraw-confirm") == []
    page.click("[data-role=confirm]")
    page.wait_for_selector("[data-role=next-step]:has-text('you withdrew')")
    assert Submission.objects.get(pk=draft.pk).review_state == ReviewState.WITHDRAWN
    assert "The run was filed under the wrong release." in page.locator("[data-role=timeline]").inner_text()
    shot(page, "phone", "submitter-withdrawn")
    page.context.close()
