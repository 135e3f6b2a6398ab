"""`manage.py reverify`: every stored archive verified again, changed verdicts reported, published
snapshots untouched."""

from __future__ import annotations

import errno
import io
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

import scoring
from registry.lists.services import list_build, list_publish
from scoring.model import BasisLevel, EvidenceBasis, Severity, Verification
from scoring.model import Finding as ScoringFinding
from submissions.ingest.unpack import ExtractionRejected
from submissions.models import ReverifyRun, ReviewState, Submission
from submissions.review.reverify import reverify_start
from submissions.services import submission_create
from tests.submissions.helpers import SYSTEM, real_tarball, wait_for_final
from tests.submissions.review.helpers import open_release

# Transactional: the ingest and the re-verification tasks are queued when their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def accepted_real(submitter: Any) -> Submission:
    release = open_release()
    submission, _ = submission_create(
        submitter=submitter, archive=real_tarball(33), original_name="s33.tgz", system=SYSTEM, release=release
    )
    submission = wait_for_final(submission.pk)
    assert submission.status == Submission.Status.VERIFIED
    Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.ACCEPTED)
    return submission


def new_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scoring engine that gained a rule every run breaks."""
    original = scoring.verify

    def stricter(path: Path) -> list[Verification]:
        found = original(path)
        rule = ScoringFinding(code="new-rule", severity=Severity.ERROR, message="Breaks the new rule.")
        return [replace(v, findings=[*v.findings, rule]) for v in found]

    monkeypatch.setattr("submissions.ingest.verify.scoring.verify", stricter)


def test_an_unchanged_engine_changes_no_verdict(accepted_real: Submission) -> None:
    out = io.StringIO()
    call_command("reverify", "--wait", stdout=out)
    run = ReverifyRun.objects.get()
    assert (run.total, run.done, run.changed, run.failed) == (1, 1, 0, 0)
    assert run.is_finished
    assert "1 verified again, 0 changed, 0 failed" in out.getvalue()


def test_a_new_rule_is_reported_and_published_snapshots_keep_their_scores(
    accepted_real: Submission, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = accepted_real.release
    assert release is not None
    snapshot = list_publish(snapshot=list_build(release=release, kind="historical"), early=True)
    frozen = list(snapshot.entries.values_list("submission_id", "rank", "score"))
    new_rule(monkeypatch)
    out = io.StringIO()
    call_command("reverify", "--release", release.slug, "--wait", stdout=out)
    run = ReverifyRun.objects.get()
    assert (run.done, run.changed) == (1, 1)
    item = run.items.get()
    assert (item.before["status"], item.after["status"]) == ("verified", "invalid")
    assert "new-rule" in item.after["errors"]
    assert f"submission {accepted_real.pk}: status: verified -> invalid" in out.getvalue()
    assert "new errors: new-rule" in out.getvalue()
    snapshot.refresh_from_db()
    assert list(snapshot.entries.values_list("submission_id", "rank", "score")) == frozen
    assert Submission.objects.get(pk=accepted_real.pk).review_state == ReviewState.ACCEPTED


def test_a_run_whose_evidence_weakened_is_a_changed_verdict(
    accepted_real: Submission, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = scoring.verify

    def weaker(path: Path) -> list[Verification]:
        # The same findings, but the engine now finds no raw output behind find's value.
        lost = EvidenceBasis(BasisLevel.SUMMARIES, ("find",))
        return [replace(v, basis=lost) for v in original(path)]

    monkeypatch.setattr("submissions.ingest.verify.scoring.verify", weaker)
    out = io.StringIO()
    call_command("reverify", "--wait", stdout=out)
    run = ReverifyRun.objects.get()
    assert (run.done, run.changed) == (1, 1)
    assert "evidence: cross-phase -> summaries" in out.getvalue()
    assert "phases without raw output: find" in out.getvalue()


def test_the_committee_follows_the_run_on_its_page(
    accepted_real: Submission, committee_member: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    new_rule(monkeypatch)
    client = Client()
    client.force_login(committee_member)
    started = client.post("/review/reverify/", {"release": ""})
    run = ReverifyRun.objects.get()
    assert started["Location"] == f"/review/reverify/{run.pk}/"
    page = client.get(started["Location"]).content.decode()
    assert "1 of 1 verified again (100 %)" in page
    assert "new errors: new-rule" in page


def test_a_disk_fault_of_ours_during_reverification_keeps_the_verdict_and_reports_the_error(
    accepted_real: Submission, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unpacker calls unreadable bytes damage; an EIO of our scratch disk is behind it here.
    def failing_disk(archive: Path, destination: Path) -> None:
        try:
            raise OSError(errno.EIO, "Input/output error")
        except OSError as exc:
            raise ExtractionRejected(f"The archive is damaged or truncated ({exc}).") from exc

    monkeypatch.setattr("submissions.ingest.verify.extract_archive", failing_disk)
    call_command("reverify", "--wait", stdout=io.StringIO())
    run = ReverifyRun.objects.get()
    assert (run.done, run.changed, run.failed) == (1, 0, 1)
    accepted_real.refresh_from_db()
    assert accepted_real.status == Submission.Status.VERIFIED


def test_an_unknown_release_is_a_clear_error() -> None:
    from django.core.management import CommandError

    with pytest.raises(CommandError, match='There is no release "nope"'):
        call_command("reverify", "--release", "nope", stdout=io.StringIO())


@pytest.mark.worker
def test_a_real_worker_reverifies_in_the_background(accepted_real: Submission, worker: Any) -> None:
    run = reverify_start(user=None, release=accepted_real.release)
    deadline = time.monotonic() + 60
    while not run.is_finished:
        assert time.monotonic() < deadline, f"re-verification still at {run.done} of {run.total}"
        time.sleep(0.1)
        run.refresh_from_db()
    assert (run.total, run.done, run.changed, run.failed) == (1, 1, 0, 0)
