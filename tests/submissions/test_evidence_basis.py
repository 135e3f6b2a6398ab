"""What a verdict rests on, end to end: a real run ingested with two scored phases' raw outputs
deleted is valid with a warning, says "checked from summaries only" (naming the phases) on its page
and in the API, stays off the ranked lists the registry builds (the build says why), and enters once
a committee decision names the gap; a complete run shows its own level."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.test import Client

from registry.importer.raw import import_raw
from registry.importer.source import RawFolder
from registry.lists.complete import run_columns, run_details
from registry.lists.publishing_selectors import list_evidence_gaps
from registry.lists.services import list_build
from registry.models import Release
from submissions.evidence_basis import gap_covered, submission_basis
from submissions.models import Finding, Result, ReviewEvent, ReviewState, Submission
from submissions.review.services import submission_accept, submission_gap_accept
from submissions.services import submission_create
from tests.submissions.archives import pack_folder
from tests.submissions.helpers import SYSTEM
from tests.submissions.review.helpers import open_release, storage
from tests.support.data import submission_folder

pytestmark = pytest.mark.django_db

# A real c-isc20 run whose twelve scored phases all have their tool's output (level tool-outputs).
COMPLETE_RUN = 33
DELETED = ("ior-easy-write.txt", "mdtest-hard-write.txt")
GAP = ["ior-easy-write", "mdtest-hard-write"]


def _tarball(tmp_path: Path, deleted: tuple[str, ...] = ()) -> ContentFile[bytes]:
    folder = tmp_path / f"submission-{COMPLETE_RUN}"
    shutil.copytree(submission_folder(COMPLETE_RUN), folder)
    for name in deleted:
        (folder / name).unlink()
    return ContentFile(pack_folder(folder), name=f"s{COMPLETE_RUN}-{len(deleted)}.tgz")


@pytest.fixture
def upload(
    django_capture_on_commit_callbacks: Any, submitter: Any, tmp_path: Path
) -> Callable[..., Submission]:
    """Upload the real run (some raw outputs deleted) for a release; the ingest runs on commit."""

    def run(release: Release, deleted: tuple[str, ...] = DELETED) -> Submission:
        archive = _tarball(tmp_path, deleted)
        with django_capture_on_commit_callbacks(execute=True):
            submission, _ = submission_create(
                submitter=submitter,
                archive=archive,
                original_name=archive.name or "a.tgz",
                system=SYSTEM,
                release=release,
            )
        submission.refresh_from_db()
        return submission

    return run


@pytest.fixture
def release() -> Release:
    return open_release("ISC40")


def _accepted(submission: Submission) -> Submission:
    # The committee's acceptance, without the questionnaire steps tests/submissions/review covers.
    Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.ACCEPTED)
    submission.refresh_from_db()
    return submission


def _listed(release: Release, kind: str) -> list[int]:
    snapshot = list_build(release=release, kind=kind)
    return list(snapshot.entries.values_list("submission_id", flat=True))


class TestIngest:
    def test_a_run_without_two_raw_outputs_is_valid_with_a_warning_and_rests_on_summaries(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        submission = upload(release)
        assert submission.status == Submission.Status.VERIFIED, submission.error
        assert submission.valid is True
        primary = Result.objects.get(submission=submission, is_primary=True)
        assert primary.basis_level == "summaries"
        assert primary.summary_only_phases == GAP
        missing = Finding.objects.filter(submission=submission, code="evidence-raw-missing")
        assert {f.severity for f in missing} == {"warning"}
        # Never silent: a warning names each missing file.
        for name in DELETED:
            assert any(name in f.message for f in missing), name
        assert not Finding.objects.filter(submission=submission, severity="error").exists()

    def test_a_complete_run_records_its_own_level_and_no_gap(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        submission = upload(release, deleted=())
        primary = Result.objects.get(submission=submission, is_primary=True)
        assert primary.basis_level == "cross-phase"
        assert primary.summary_only_phases == []


class TestShown:
    def test_the_submission_page_says_summaries_only_and_names_the_phases(
        self, upload: Callable[..., Submission], release: Release, submitter: Any
    ) -> None:
        submission = upload(release)
        client = Client()
        client.force_login(submitter)
        page = client.get(f"/submissions/{submission.pk}/").content.decode()
        assert "checked from summaries only" in page
        assert 'data-role="summary-only"' in page
        for phase in GAP:
            assert f"<code>{phase}</code>" in page
        assert "enters no ranked list" in page
        assert "gap not accepted" in page
        # The registry's check is kept apart from the Messaging Policy's "verified".
        assert "officially listed on a published IO500 list" in page

    def test_the_submission_page_of_a_complete_run_shows_its_level(
        self, upload: Callable[..., Submission], release: Release, submitter: Any
    ) -> None:
        submission = upload(release, deleted=())
        client = Client()
        client.force_login(submitter)
        page = client.get(f"/submissions/{submission.pk}/").content.decode()
        assert "checked against the tools&#x27; outputs and across phases" in page
        assert 'data-role="summary-only"' not in page

    def test_the_api_gives_the_level_the_phases_and_whether_the_gap_is_accepted(
        self, upload: Callable[..., Submission], release: Release, submitter: Any, api_client_for: Any
    ) -> None:
        submission = upload(release)
        body = api_client_for(submitter).get(f"/api/v1/submissions/{submission.pk}/").json()
        assert body["evidence_basis"]["level"] == "summaries"
        assert body["evidence_basis"]["text"] == "checked from summaries only"
        assert body["evidence_basis"]["summary_only_phases"] == GAP
        assert body["evidence_basis"]["gap_accepted"] is False
        primary = next(r for r in body["results"] if r["is_primary"])
        assert primary["basis"] == {
            "level": "summaries",
            "text": "checked from summaries only",
            "summary_only_phases": GAP,
        }

    def test_the_list_download_says_what_each_entry_rests_on(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        gapped = _accepted(upload(release))
        details = run_details([gapped.pk])
        # Not public yet (accepted, not published): the download holds nothing of it.
        assert details == {}
        Submission.objects.filter(pk=gapped.pk).update(review_state=ReviewState.PUBLISHED)
        Release.objects.filter(pk=release.pk).update(embargo_end=None)
        columns = run_columns(run_details([gapped.pk])[gapped.pk])
        assert columns["evidence_basis"] == "summaries"
        assert columns["phases_without_raw_output"] == "ior-easy-write, mdtest-hard-write"

    def test_my_submissions_and_the_system_page_show_each_level(
        self, upload: Callable[..., Submission], release: Release, submitter: Any
    ) -> None:
        gapped = upload(release)
        Submission.objects.filter(pk=gapped.pk).update(review_state=ReviewState.PUBLISHED)
        client = Client()
        client.force_login(submitter)
        mine = client.get("/submissions/mine/").content.decode()
        assert "checked from summaries only" in mine
        assert "no raw output: ior-easy-write, mdtest-hard-write" in mine
        assert gapped.storage_system_id is not None
        system = Client().get(f"/systems/{gapped.storage_system_id}/").content.decode()
        assert 'data-level="summaries"' in system
        assert "no raw output: ior-easy-write, mdtest-hard-write" in system

    def test_the_citation_says_what_the_verdict_rests_on(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        gapped = upload(release)
        Submission.objects.filter(pk=gapped.pk).update(review_state=ReviewState.PUBLISHED)
        page = Client().get(f"/submissions/{gapped.pk}/").content.decode()
        assert "What the verdict rests on" in page
        assert "checked from summaries only (no raw output of ior-easy-write, mdtest-hard-write)" in page

    def test_the_review_queue_and_page_show_the_gap(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = upload(release)
        Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.SUBMITTED)
        client = Client()
        client.force_login(committee_member)
        queue = client.get("/review/").content.decode()
        assert "checked from summaries only" in queue
        assert "no raw output: ior-easy-write, mdtest-hard-write" in queue
        page = client.get(f"/review/{submission.pk}/").content.decode()
        assert "Accept despite missing raw outputs of: ior-easy-write, mdtest-hard-write" in page


class TestLists:
    def test_the_build_leaves_the_run_out_and_says_why(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        submission = _accepted(upload(release))
        assert submission.pk not in _listed(release, "research")
        gaps = list_evidence_gaps(release=release, kind="research")
        assert [g["submission_id"] for g in gaps] == [submission.pk]
        assert gaps[0]["summary_only"] == GAP
        assert "checked from summaries only" in gaps[0]["reason"]
        out = io.StringIO()
        call_command("build_list", release.slug, "research", stdout=out)
        assert "Left out for missing raw outputs: 1." in out.getvalue()
        assert f"submission {submission.pk}" in out.getvalue()
        assert "ior-easy-write, mdtest-hard-write" in out.getvalue()

    def test_full_and_historical_keep_the_run(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        submission = _accepted(upload(release))
        assert submission.pk in _listed(release, "full")
        assert submission.pk in _listed(release, "historical")

    def test_the_draft_page_lists_the_run_left_out(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = _accepted(upload(release))
        list_build(release=release, kind="research")
        client = Client()
        client.force_login(committee_member)
        page = client.get(f"/review/releases/{release.slug}/lists/research/").content.decode()
        assert 'data-role="evidence-gaps"' in page
        assert f'data-submission="{submission.pk}"' in page
        assert "<code>mdtest-hard-write</code>" in page

    def test_a_committee_decision_naming_the_gap_brings_the_run_in(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = _accepted(upload(release))
        event = submission_gap_accept(
            user=committee_member, submission=submission, gap_phases=GAP, reason="Lost to the size limit."
        )
        assert event.gap_phases == GAP
        assert event.gap_archive_sha256 == submission.archives.get(kind="result").sha256
        assert "Accepted despite missing raw outputs of: ior-easy-write, mdtest-hard-write." in event.reason
        assert submission.pk in _listed(release, "research")
        assert list_evidence_gaps(release=release, kind="research") == []
        shown = submission_basis(Submission.objects.get(pk=submission.pk))
        assert shown is not None and shown.gap_accepted == event

    def test_accept_with_the_gap_named_records_it_with_the_decision(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = upload(release)
        Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.UNDER_REVIEW)
        submission_accept(user=committee_member, submission=submission, gap_phases=list(reversed(GAP)))
        event = ReviewEvent.objects.get(submission=submission, action="accept")
        assert event.gap_phases == GAP
        assert submission.pk in _listed(release, "research")

    def test_the_decision_must_name_the_gap_as_it_is(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = _accepted(upload(release))
        with pytest.raises(
            ValidationError, match="missing now are those of ior-easy-write, mdtest-hard-write"
        ):
            submission_gap_accept(user=committee_member, submission=submission, gap_phases=["ior-easy-write"])
        assert submission.pk not in _listed(release, "research")

    def test_a_decision_no_longer_covers_a_gap_that_grew(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = _accepted(upload(release))
        submission_gap_accept(user=committee_member, submission=submission, gap_phases=GAP)
        # A re-verification finds one more phase without its raw output: the decision did not name it.
        Result.objects.filter(submission=submission, is_primary=True).update(
            summary_only_phases=[*GAP, "find"]
        )
        assert submission.pk not in _listed(release, "research")

    def test_a_complete_run_needs_no_decision(
        self, upload: Callable[..., Submission], release: Release
    ) -> None:
        submission = _accepted(upload(release, deleted=()))
        assert submission.pk in _listed(release, "research")
        assert list_evidence_gaps(release=release, kind="research") == []


class TestDecisionPages:
    def test_the_committee_accepts_the_gap_on_the_review_page(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = _accepted(upload(release))
        client = Client()
        client.force_login(committee_member)
        page = client.get(f"/review/{submission.pk}/").content.decode()
        assert 'id="accept-gap-form"' in page
        client.post(
            f"/review/{submission.pk}/accept-gap/", {"gap_phases": ",".join(GAP), "reason": "Size limit."}
        )
        event = ReviewEvent.objects.get(submission=submission, action="accept_gap")
        assert event.gap_phases == GAP
        assert event.reason.endswith("Size limit.")
        shown = client.get(f"/submissions/{submission.pk}/").content.decode()
        assert 'data-role="gap-accepted"' in shown

    def test_accept_with_the_box_ticked_names_the_gap_in_the_decision(
        self, upload: Callable[..., Submission], release: Release, committee_member: Any
    ) -> None:
        submission = upload(release)
        Submission.objects.filter(pk=submission.pk).update(review_state=ReviewState.UNDER_REVIEW)
        client = Client()
        client.force_login(committee_member)
        client.post(
            f"/review/{submission.pk}/decide/",
            {"action": "accept", "accept_gap": "on", "gap_phases": ",".join(GAP), "reason": ""},
        )
        event = ReviewEvent.objects.get(submission=submission, action="accept")
        assert event.gap_phases == GAP
        assert Submission.objects.get(pk=submission.pk).review_state == ReviewState.ACCEPTED

    def test_only_the_committee_accepts_a_gap(
        self, upload: Callable[..., Submission], release: Release, submitter: Any
    ) -> None:
        submission = _accepted(upload(release))
        client = Client()
        client.force_login(submitter)
        response = client.post(f"/review/{submission.pk}/accept-gap/", {"gap_phases": ",".join(GAP)})
        assert response.status_code == 403
        assert not ReviewEvent.objects.filter(submission=submission).exists()


class TestImportedHistory:
    def test_a_raw_folder_imported_without_two_raw_outputs_gets_the_level_its_files_support(
        self, tmp_path: Path, release: Release, django_capture_on_commit_callbacks: Any
    ) -> None:
        folder = tmp_path / "raw" / f"submission-{COMPLETE_RUN}"
        shutil.copytree(submission_folder(COMPLETE_RUN), folder)
        for name in DELETED:
            (folder / name).unlink()
        raw = RawFolder(
            io500_id=990001, institution="Lab", system="Wolf", filesystem="Lustre", year=2020, path=folder
        )
        with django_capture_on_commit_callbacks(execute=True):
            result = import_raw([raw], [release])
        submission = Submission.objects.get(pk=result.submission_ids[0])
        primary = Result.objects.get(submission=submission, is_primary=True)
        assert (primary.basis_level, primary.summary_only_phases) == ("summaries", GAP)

    def test_a_published_record_without_raw_files_rests_on_io500_orgs_values_and_is_not_left_out(
        self, release: Release
    ) -> None:
        recorded = Submission.objects.create(
            source=Submission.Source.IMPORT,
            status=Submission.Status.RECORDED,
            review_state=ReviewState.PUBLISHED,
            release=release,
            storage_system=storage("Old"),
            score=12.0,
            bw=12.0,
            md=12.0,
            valid=True,
        )
        shown = submission_basis(recorded)
        assert shown is not None
        assert (shown.level, shown.label) == ("summaries", "io500.org's published values only")
        # No run of it is held here, so no raw output of it can be missing: io500.org's committee
        # published it, and the evidence rule leaves it where it was.
        assert recorded.pk in _listed(release, "research")


class TestGapCovered:
    def test_the_same_archive_and_every_missing_phase_named_covers(self) -> None:
        assert gap_covered(["find"], "a" * 64, [(["find", "ior-easy-write"], "a" * 64)])

    def test_another_archive_does_not_cover(self) -> None:
        assert not gap_covered(["find"], "a" * 64, [(["find"], "b" * 64)])

    def test_a_phase_not_named_is_not_covered(self) -> None:
        assert not gap_covered(["find", "ior-hard-read"], "a" * 64, [(["find"], "a" * 64)])

    def test_no_gap_needs_no_cover(self) -> None:
        assert not gap_covered([], "a" * 64, [(["find"], "a" * 64)])
