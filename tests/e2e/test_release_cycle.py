"""A whole release cycle in headless chromium, through the pages only, walked on a phone's screen
(375 px), each page on the way also looked at on a desktop's (1400 px; issue 25's proof). Three
submitters upload eleven real runs of the shared corpus through the upload form (ten runs, one of
them twice, packed otherwise); one run is withdrawn by its submitter, the duplicate is refused then
resolved, a description is fixed after the committee's finding, a run is moved to another release,
the production list is published, one entry is excluded afterwards by a correction whose changes
panel shows it removed with its reason (the correction's draft carries over the version it
corrects), the public page of the excluded run says so, the awards are shown on the list and on the
release's public page, and the committee revokes the exclusion, which the next correction's draft
reflects. With E2E_SCREENSHOTS=1 every step lands in test-artifacts/cycle-WIDTH-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from submissions.models import ReviewState, Submission
from submissions.review.models import QUESTIONNAIRE_SECTIONS
from submissions.review.roles import committee_member_add
from tests.conftest import PASSWORD
from tests.e2e.browser import WIDTHS, build_and_open_draft, log_in, misfits_at_each_width, open_page
from tests.submissions.archives import pack_folder
from tests.support.data import submission_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Who uploads which run of the shared corpus; every run on a storage system of its own, so that each
# accepted run has its row on the ranked lists (a system keeps only its best score there).
RUNS = {"ann": (33, 66, 102, 111), "bob": (114, 72, 105, 138), "cid": (153, 156)}
DUPLICATED = 33  # cid uploads ann's run 33 a second time


def fits_each_width(page: Any, name: str) -> bool:
    return misfits_at_each_width(page, name, prefix="cycle") == []


def upload(page: Any, base: str, tarball: Path, system: str, release: str) -> Submission:
    """One run through the upload form, waited for until verified; the next step is then shown."""
    page.goto(f"{base}/submissions/upload/")
    page.set_input_files("[name=archive]", str(tarball))
    fields = {
        "system_name": system,
        "institution_name": "Cycle Lab",
        "filesystem_type": "Lustre",
        "client_nodes": "10",
        "procs_per_node": "32",
        "client_network_gbps": "100",
    }
    for name, value in fields.items():
        page.fill(f"[name={name}]", value)
    page.select_option("[name=release]", release)
    page.click("button:has-text('Upload and verify')")
    page.wait_for_url("**/submissions/*/")
    page.wait_for_selector("[data-role=status]:has-text('Checked here')", timeout=120_000)
    page.wait_for_selector("[data-role=next-step][data-kind=act]")
    pk = int(page.url.rstrip("/").rsplit("/", 1)[1])
    return Submission.objects.get(pk=pk)


def submit_for_review(page: Any, base: str, submission: Submission) -> None:
    page.goto(f"{base}/submissions/{submission.pk}/")
    page.click("[data-role=next-step] >> text=Fill in the questionnaire")
    for name in QUESTIONNAIRE_SECTIONS:
        page.fill(f"[name={name}]", f"Our answer on {name} has more than ten words in it for the committee.")
    page.click("button:has-text('Save the questionnaire')")
    page.wait_for_selector("[data-role=questionnaire]")
    page.click("[data-role=submit-link]")
    confirm_submission(page)


def confirm_submission(page: Any) -> None:
    for name in ("reviewed", "followed_rules", "permission_to_publish"):
        page.check(f"[name={name}]")
    page.click("button:has-text('Submit for review')")
    page.wait_for_selector("[data-role=review-state]:has-text('Submitted for review')")


def open_review(page: Any, base: str, submission: Submission) -> None:
    page.goto(f"{base}/review/{submission.pk}/")
    page.wait_for_selector("[data-role=review-state]")


def assess_and_start(page: Any, base: str, submission: Submission) -> None:
    open_review(page, base, submission)
    page.select_option("[name=reproducibility]", "fully_reproducible")
    page.select_option("[name=category]", "production")
    page.click("#assess-form button[type=submit]")
    page.wait_for_selector("text=Fully Reproducible, Production")
    page.click("[data-action=start_review]")
    page.wait_for_selector("[data-role=review-state]:has-text('Under review')")


def accept(page: Any) -> None:
    page.fill("#decision-reason", "Complete disclosure of a real run.")
    page.click("[data-action=accept]")


def confirm_decision(page: Any, reason: str) -> None:
    """The confirm page of a per-entry decision: the consequence shown, the reason given."""
    page.wait_for_selector("[data-role=consequence]")
    page.fill("#decision-reason", reason)
    page.click("[data-role=confirm]")
    page.wait_for_load_state()


def open_a_release(page: Any, base: str, name: str, published: str, deadline: str) -> None:
    page.goto(f"{base}/review/releases/")
    page.click("text=Open a release")
    page.fill("[name=name]", name)
    page.fill("[name=publication_date]", published)
    page.fill("[name=submission_deadline]", deadline)
    page.click("button:has-text('Open for submissions')")
    page.wait_for_selector(f"text={name} is open for submissions until {deadline}")


def publish_early(page: Any) -> None:
    page.click("[data-role=publish]")
    page.wait_for_selector("[data-role=confirm-early]")
    page.click("[data-role=confirm-early]")


def test_a_whole_release_cycle_with_withdrawal_duplicate_fix_move_correction_and_awards(
    live_server: Any, browser: Any, tmp_path: Path
) -> None:
    viewport = WIDTHS["phone"]
    base = live_server.url
    problems: list[str] = []
    carol = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    committee_member_add(user=carol)
    for name in RUNS:
        User.objects.create_user(name, f"{name}@example.org", PASSWORD)

    # The committee opens this release and the next one.
    committee = open_page(browser, problems, viewport=viewport).page
    log_in(committee, base, "carol")
    open_a_release(committee, base, "ISC40", "2040-06-20", "2040-06-01")
    open_a_release(committee, base, "SC40", "2040-11-20", "2040-11-01")
    assert fits_each_width(committee, "01-releases-opened")

    # Three submitters upload eleven runs through the upload form: ten runs, cid's last one a second
    # copy of ann's run 33; each is submitted for review.
    pages: dict[str, Any] = {}
    runs: dict[tuple[str, int], Submission] = {}
    for name, numbers in RUNS.items():
        page = open_page(browser, problems, viewport=viewport).page
        log_in(page, base, name)
        pages[name] = page
        for number in numbers + ((DUPLICATED,) if name == "cid" else ()):
            # cid's copy is packed otherwise: other bytes (the same bytes from another account are
            # refused at upload), the same run inside.
            again = (name, number) == ("cid", DUPLICATED)
            tarball = tmp_path / f"{name}-submission-{number}.tar.{'bz2' if again else 'gz'}"
            tarball.write_bytes(pack_folder(submission_folder(number), "bz2" if again else "gz"))
            runs[name, number] = upload(page, base, tarball, f"{name}-{number}", "isc40")
            if (name, number) == ("ann", 33):
                assert fits_each_width(page, "02-uploaded-next-step")
            submit_for_review(page, base, runs[name, number])
    assert Submission.objects.filter(status=Submission.Status.VERIFIED).count() == 11
    original, copy = runs["ann", DUPLICATED], runs["cid", DUPLICATED]
    pages["ann"].goto(f"{base}/submissions/mine/")
    assert pages["ann"].locator("tr[data-submission] [data-role=review-state]").count() == 4
    assert fits_each_width(pages["ann"], "03-mine")

    # ann withdraws one of hers, through its confirm page.
    ann = pages["ann"]
    withdrawn = runs["ann", 111]
    ann.goto(f"{base}/submissions/{withdrawn.pk}/")
    ann.click("[data-role=withdraw-link]")
    ann.wait_for_selector("[data-role=consequence]")
    ann.fill("[name=reason]", "A rerun on the same system supersedes this one.")
    assert fits_each_width(ann, "04-withdraw-confirm")
    ann.click("[data-role=confirm]")
    ann.wait_for_selector("[data-role=next-step]:has-text('you withdrew')")
    assert Submission.objects.get(pk=withdrawn.pk).review_state == ReviewState.WITHDRAWN

    # The committee finds a wrong node count on one of bob's runs; bob sees the finding as his next
    # step, fixes the description and submits again; the committee sees the change.
    bob = pages["bob"]
    fixed = runs["bob", 114]
    open_review(committee, base, fixed)
    committee.fill("#decision-reason", "The description says 10 client nodes; the run used 12.")
    committee.click("[data-action=request_changes]")
    committee.wait_for_selector("[data-role=review-state]:has-text('Changes requested')")
    bob.goto(f"{base}/submissions/{fixed.pk}/")
    step = bob.locator("[data-role=next-step]")
    assert "the run used 12" in step.inner_text()
    assert fits_each_width(bob, "05-changes-requested")
    bob.click("[data-role=next-step] [data-role=edit-system]")
    bob.fill("[name=client_nodes]", "12")
    bob.click("button:has-text('Save the description')")
    bob.wait_for_selector("text=saved as version 1")
    bob.click("[data-role=next-step] [data-role=submit-link]")
    confirm_submission(bob)
    open_review(committee, base, fixed)
    change = committee.locator("[data-role=revision][data-kind=system] tr[data-field=client_nodes]")
    assert change.locator(".before").inner_text() == "10" and change.locator(".after").inner_text() == "12"
    assert fits_each_width(committee, "06-description-fixed")

    # The same run twice: accepting either copy is refused until the committee says which counts.
    assess_and_start(committee, base, original)
    accept(committee)
    committee.wait_for_selector("text=Decide which copy counts first")
    assert Submission.objects.get(pk=original.pk).review_state == ReviewState.UNDER_REVIEW
    assert committee.locator(f"#same-run li[data-submission='{copy.pk}']").count() == 1
    assert fits_each_width(committee, "07-duplicate-refused")
    committee.click(f"#same-run li[data-submission='{copy.pk}'] [data-action=duplicate-other]")
    confirm_decision(committee, "cid uploaded ann's run 33 again; ann's upload counts.")
    committee.wait_for_selector("[data-role=review-state]")
    assert committee.url.endswith(f"/review/{original.pk}/")
    accept(committee)
    committee.wait_for_selector("[data-role=review-state]:has-text('Accepted')")
    open_review(committee, base, copy)
    assert "ann's upload counts" in committee.locator("[data-role=marked-duplicate]").inner_text()
    # The copy that does not count has left the queue, and says which copy counts.
    assert "Duplicate of another copy" in committee.locator("[data-role=review-state]").first.inner_text()
    assert committee.locator(f"[data-role=duplicate-of] a[href='/submissions/{original.pk}/']").count() >= 1
    assert fits_each_width(committee, "08-duplicate-resolved")

    # One of bob's runs belongs to the next release: the committee moves it there.
    moved = runs["bob", 138]
    assess_and_start(committee, base, moved)
    committee.select_option("#move-release", "sc40")
    committee.click("[data-action=move]")
    confirm_decision(committee, "Run after the ISC40 deadline; it belongs to SC40.")
    committee.wait_for_selector("[data-role=entry-decisions]")
    moved_to = Submission.objects.get(pk=moved.pk).release
    assert moved_to is not None and moved_to.slug == "sc40"
    accept(committee)
    committee.wait_for_selector("[data-role=review-state]:has-text('Accepted')")

    # Every other run is accepted, the ISC40 lists built and the production list published early.
    counted = [s for s in runs.values() if s.pk not in (withdrawn.pk, copy.pk, original.pk, moved.pk)]
    for submission in counted:
        assess_and_start(committee, base, submission)
        accept(committee)
        committee.wait_for_selector("[data-role=review-state]:has-text('Accepted')")
    build_and_open_draft(committee, base, "isc40", every=True)
    # Run 102 is verified from its summaries only: the draft leaves it out and says why.
    gap = runs["ann", 102]
    assert committee.locator(f"[data-role=evidence-gaps] tr[data-submission='{gap.pk}']").count() == 1
    listed = {original.pk} | {s.pk for s in counted if s.pk != gap.pk}
    shown = committee.locator("#draft-table tr[data-submission]")
    assert {int(shown.nth(i).get_attribute("data-submission")) for i in range(shown.count())} == listed
    for absent in (withdrawn, copy, moved, gap):
        assert committee.locator(f"#draft-table tr[data-submission='{absent.pk}']").count() == 0
    assert fits_each_width(committee, "09-draft")
    publish_early(committee)
    committee.wait_for_selector("text=Published")

    # The moved run is on SC40's draft, not on ISC40's.
    build_and_open_draft(committee, base, "sc40")
    assert committee.locator(f"#draft-table tr[data-submission='{moved.pk}']").count() == 1
    assert fits_each_width(committee, "10-moved-on-sc40-draft")

    # After publication, one entry is excluded; the correction's draft shows it removed with its
    # reason, and publishing it records the change on the public list.
    excluded = runs["bob", 105]
    open_review(committee, base, excluded)
    committee.select_option("#exclude-kind", "production")
    committee.select_option("#exclude-release", "isc40")
    committee.click("[data-action=exclude]")
    confirm_decision(committee, "The run used a modified benchmark.")
    committee.wait_for_selector("[data-role=entry-decisions]")
    build_and_open_draft(committee, base, "isc40")
    # The correction's draft carries over the version it corrects and is compared with it.
    assert "A correction of" in committee.locator("#carried-from").inner_text()
    origins = committee.locator("#draft-table [data-role=origin]")
    assert {origins.nth(i).inner_text() for i in range(origins.count())} == {"carried"}
    correction = committee.locator("[data-role=correction]")
    assert "version 1 of this list" in correction.locator("h2").inner_text()
    removed = correction.locator(f"[data-role=removed] li[data-submission='{excluded.pk}']")
    assert "The run used a modified benchmark." in removed.inner_text()
    assert correction.locator("[data-role=added] li").count() == 0
    assert fits_each_width(committee, "11-correction-draft")
    committee.fill("[name=reason]", "Submission excluded: the run used a modified benchmark.")
    publish_early(committee)
    committee.wait_for_selector("text=Published")

    # A visitor sees the corrected list without the excluded entry, what changed, and the awards.
    visitor = open_page(browser, problems, viewport=viewport).page
    visitor.goto(f"{base}/lists/isc40/production/")
    assert visitor.locator(f"#list-table tr[data-submission='{excluded.pk}']").count() == 0
    assert visitor.locator("#list-table tr[data-submission]").count() == len(listed) - 1
    assert visitor.locator("[data-role=awards] li").count() == 3
    assert "Submission excluded: the run used a modified benchmark." in visitor.content()
    assert "version 1 of this list" in visitor.locator("[data-role=correction] h2").inner_text()
    assert fits_each_width(visitor, "12-published-correction")
    # The excluded run's public page stays, and says what the committee did after publication.
    visitor.goto(f"{base}/submissions/{excluded.pk}/")
    notice = visitor.locator("[data-role=taken-off]")
    assert "Excluded from the production lists from ISC40 on" in notice.inner_text()
    assert "IO500 committee" in notice.inner_text() and "modified benchmark" in notice.inner_text()
    assert fits_each_width(visitor, "12b-public-excluded-notice")
    # The release's public page: each list, what is new on it, and its awards.
    visitor.goto(f"{base}/lists/isc40/")
    assert visitor.locator("[data-role=release-lists] li[data-kind=production]").count() == 1
    assert visitor.locator("[data-role=awards] li").count() >= 3
    assert fits_each_width(visitor, "12c-public-release-awards")
    committee.goto(f"{base}/review/releases/isc40/")
    assert committee.locator("[data-role=release-published] [data-role=awards]").count() == 1
    assert fits_each_width(committee, "13-release-awards")

    # The committee revokes the exclusion, with a reason; the next correction's draft takes the entry back.
    open_review(committee, base, excluded)
    revoke = committee.locator("[data-role=entry-decisions] li:has([data-action=revoke])").first
    revoke.locator("[name=reason]").fill("The benchmark was the official one after all.")
    revoke.locator("[data-action=revoke]").click()
    committee.wait_for_selector("[data-role=revoked]")
    assert "official one after all" in committee.locator("[data-role=revoked]").inner_text()
    assert fits_each_width(committee, "14-exclusion-revoked")
    build_and_open_draft(committee, base, "isc40")
    back = committee.locator(f"[data-role=correction] [data-role=added] li[data-submission='{excluded.pk}']")
    assert back.count() == 1
    assert fits_each_width(committee, "15-revoked-back-on-draft")
    visitor.goto(f"{base}/submissions/{excluded.pk}/")
    assert visitor.locator("[data-role=taken-off]").count() == 0
    assert problems == []
