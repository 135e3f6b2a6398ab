"""Audits and objections in headless chromium, as the committee and two submitters (issue 27, item 4):
the deadline passes, the committee draws the audits, submitter ann sees her audit request, re-runs the
phase with the bundled runner under the audit's run token and uploads it, and sees the outcome;
submitter bob objects to ann's draft entry, the committee cannot publish, answers, and publishes.
With E2E_SCREENSHOTS=1 every step lands in test-artifacts/audits-*.png."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile

from registry.models import Release
from submissions.audits.models import AuditRequest
from submissions.models import ListCategory, Reproducibility, ReviewState, Submission
from submissions.review.roles import committee_member_add
from submissions.services import submission_create
from tests.conftest import PASSWORD
from tests.e2e.browser import log_in, open_page, screenshot
from tests.submissions.archives import pack_folder
from tests.support.data import submission_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "runner" / "build" / "io500-runner"
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


def _handed_in(user: User, release: Release, number: int) -> Submission:
    """A real run of the shared corpus, uploaded while the call was open and accepted for Production."""
    archive = ContentFile(pack_folder(submission_folder(number), "gz"), name=f"run-{number}.tgz")
    submission, _ = submission_create(
        submitter=user, archive=archive, original_name=f"run-{number}.tgz", release=release
    )
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED, submission.error
    Submission.objects.filter(pk=submission.pk).update(
        review_state=ReviewState.ACCEPTED,
        category=ListCategory.PRODUCTION,
        reproducibility=Reproducibility.FULLY,
    )
    return submission


def _rerun(root: Path, token: str) -> Path:
    """The bundled runner under mpirun -np 2 with the audit's token, packed as the runner packs."""
    ini = root / "config.ini"
    ini.write_text(
        f"[global]\ndatadir = {root}/data\nresultdir = {root}/results\n[debug]\nstonewall-time = 2\n"
        "[ior-easy]\ntransferSize = 1m\nblockSize = 8m\n[mdtest-easy]\nn = 500\n"
        "[ior-hard]\nsegmentCount = 200\n[mdtest-hard]\nn = 200\n"
    )
    env = {**os.environ, **MPI_ENV, "OMPI_MCA_orte_tmpdir_base": str(root)}
    command = ["mpirun", "--oversubscribe", "-np", "2", str(RUNNER), str(ini), f"--timestamp={token}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = root / "packed"
    out.mkdir()
    pack = [str(RUNNER), "--pack", str(root / "results" / token), "--output", str(out)]
    packed = subprocess.run(pack, capture_output=True, text=True, check=False)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    (archive,) = out.glob("*.tgz")
    return archive


def test_audit_draw_rerun_outcome_and_an_objection_that_holds_the_publish(
    live_server: Any, browser: Any, tmp_path: Path
) -> None:
    make = subprocess.run(["make", "-C", str(REPO / "runner")], capture_output=True, text=True, check=False)
    assert make.returncode == 0, make.stdout + make.stderr
    base = live_server.url
    problems: list[str] = []
    carol = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    committee_member_add(user=carol)
    ann = User.objects.create_user("ann", "ann@example.org", PASSWORD)
    bob = User.objects.create_user("bob", "bob@example.org", PASSWORD)
    today = dt.date.today()
    release = Release.objects.create(
        name="ISC40", slug="isc40", publication_date=today + dt.timedelta(days=30),
        submission_deadline=today + dt.timedelta(days=5), list_kinds=["production"],
        audit_share_percent=100.0, audit_answer_days=7,
    )  # fmt: skip
    mine = _handed_in(ann, release, 33)
    _handed_in(bob, release, 114)
    # The deadline passes (it was a week ago, Anywhere on Earth).
    Release.objects.filter(pk=release.pk).update(submission_deadline=today - dt.timedelta(days=7))

    committee = open_page(browser, problems).page
    log_in(committee, base, "carol")
    committee.goto(f"{base}/review/releases/isc40/audit/")
    committee.click("[data-action=draw]")
    committee.wait_for_selector("[data-role=audit-seed]")
    seed = committee.inner_text("[data-role=audit-seed]")
    assert seed and str(mine.pk) in committee.inner_text("[data-role=audit-candidates]")
    screenshot(committee, "audits-01-draw")

    page_a = open_page(browser, problems).page
    log_in(page_a, base, "ann")
    page_a.goto(f"{base}/submissions/{mine.pk}/")
    page_a.wait_for_selector("[data-role=audit][data-outcome=pending]")
    screenshot(page_a, "audits-02-request-on-submission")
    page_a.click("[data-role=audit-link]")
    token = page_a.inner_text("[data-role=audit-token]").rsplit("--timestamp=", 1)[1].strip()
    audit = AuditRequest.objects.get(submission=mine)
    assert token == audit.run_token.token
    screenshot(page_a, "audits-03-audit-page")
    archive = _rerun(tmp_path, token)
    page_a.set_input_files("[name=archive]", str(archive))
    page_a.click("button:has-text('Upload the audit re-run')")
    for _ in range(60):
        page_a.reload()
        outcome = page_a.get_attribute("[data-role=audit-request] [data-role=audit-outcome]", "data-outcome")
        if outcome not in ("pending", "checking"):
            break
        page_a.wait_for_timeout(2000)
    # The token checked out: the outcome is the comparison with the claim, with its numbers.
    assert outcome in ("passed", "failed"), page_a.inner_text("[data-role=audit-request]")
    assert "tolerance ±15%" in page_a.inner_text("[data-role=audit-detail]")
    screenshot(page_a, "audits-04-outcome")
    page_a.goto(f"{base}/submissions/{mine.pk}/")
    assert page_a.get_attribute("[data-role=audit]", "data-outcome") == outcome
    # The re-run is never listed: the draft is built from the accepted uploads only.
    committee.goto(f"{base}/review/releases/isc40/")
    committee.click("button:has-text('Build draft')")
    committee.wait_for_selector("text=Built 1 draft list(s)")
    committee.goto(f"{base}/review/releases/isc40/lists/production/")
    assert committee.locator(f"#draft-table tr[data-submission='{audit.answer_id}']").count() == 0
    assert committee.locator(f"#draft-table tr[data-submission='{mine.pk}']").count() == 1

    page_b = open_page(browser, problems).page
    log_in(page_b, base, "bob")
    page_b.goto(f"{base}/submissions/objections/isc40/")
    row = page_b.locator(f"[data-role=draft] tr[data-submission='{mine.pk}']")
    row.locator("[data-action=object]").click()
    row.locator("textarea[name=reason]").fill("The random 4 KiB read is above the sequential read: caches?")
    row.locator("button:has-text('File the objection')").click()
    page_b.wait_for_selector("[data-role=objection] [data-role=objection-open]")
    screenshot(page_b, "audits-05-objection-filed")

    committee.goto(f"{base}/review/releases/isc40/lists/production/")
    committee.wait_for_selector("#draft-objections [data-role=objection][data-answered=no]")
    committee.click("[data-role=publish]")
    committee.wait_for_load_state()
    if committee.locator("[data-role=confirm-early]").count():
        committee.click("[data-role=confirm-early]")
        committee.wait_for_load_state()
    assert "wait for the committee's answer" in committee.content()
    screenshot(committee, "audits-06-publish-refused")
    committee.check("#draft-objections input[value=dismissed]")
    committee.fill(
        "#draft-objections textarea[name=text]", "The phases were run with O_DIRECT; see the job script."
    )
    committee.click("[data-action=answer-objection]")
    committee.wait_for_selector("#draft-objections [data-role=objection][data-answered=yes]")
    committee.click("[data-role=publish]")
    committee.wait_for_load_state()
    if committee.locator("[data-role=confirm-early]").count():
        committee.click("[data-role=confirm-early]")
        committee.wait_for_load_state()
    screenshot(committee, "audits-07-published")
    assert Submission.objects.get(pk=mine.pk).review_state == ReviewState.PUBLISHED

    page_a.goto(f"{base}/submissions/objections/isc40/")
    assert "O_DIRECT" in page_a.inner_text("#objections")
    anonymous = open_page(browser, problems).page
    anonymous.goto(f"{base}/submissions/{mine.pk}/")
    assert anonymous.get_attribute("[data-role=audit]", "data-outcome") == outcome
    assert "caches?" not in anonymous.content()
    screenshot(anonymous, "audits-08-public-outcome")
    assert not problems, problems
