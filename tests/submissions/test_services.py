"""The pipeline services with tasks run in-process (the real worker is in test_worker.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from registry.models import Release
from submissions.ingest.pipeline import submission_ingest, submission_requeue_stuck
from submissions.models import Archive, Finding, Submission, SystemDescription
from submissions.services import DuplicateArchive, submission_create, system_description_record
from tests.submissions.archives import file_member, special_member, tar_of
from tests.submissions.helpers import SYSTEM, counts, published_score, real_tarball

pytestmark = pytest.mark.django_db


@pytest.fixture
def create(django_capture_on_commit_callbacks: Any) -> Callable[..., tuple[Submission, bool]]:
    """submission_create as a request runs it: the queued ingest runs once the transaction commits."""

    def run(user: Any, archive: ContentFile[bytes], **kwargs: Any) -> tuple[Submission, bool]:
        with django_capture_on_commit_callbacks(execute=True):
            return submission_create(
                submitter=user, archive=archive, original_name=archive.name or "a.tgz", **kwargs
            )

    return run


def test_a_real_tarball_is_verified_with_the_published_score(submitter: Any, create: Any) -> None:
    submission, created = create(submitter, real_tarball(33), system=SYSTEM)
    submission.refresh_from_db()
    assert created
    assert submission.status == Submission.Status.VERIFIED, submission.error
    assert submission.progress == 100
    assert submission.valid is True
    assert submission.score == pytest.approx(published_score(33), abs=0.01)
    primary = submission.results.get(is_primary=True)
    assert primary.phases.filter(scored=True).count() == 12


def test_the_archive_is_stored_content_addressed_and_unchanged(submitter: Any, create: Any) -> None:
    upload = real_tarball(33)
    submission, _ = create(submitter, upload)
    archive = submission.archives.get(kind=Archive.Kind.RESULT)
    assert archive.file.name == f"archives/{archive.sha256[:2]}/{archive.sha256}/s33.tgz"
    upload.seek(0)
    with default_storage.open(archive.file.name, "rb") as stored:
        assert stored.read() == upload.read()
    assert archive.size == upload.size


def test_the_same_bytes_from_the_same_submitter_answer_the_existing_submission(
    submitter: Any, create: Any
) -> None:
    first, created = create(submitter, real_tarball(33))
    again, created_again = create(submitter, real_tarball(33))
    assert created and not created_again
    assert again.pk == first.pk
    assert Submission.objects.count() == 1


def test_the_same_bytes_from_another_account_are_refused_without_revealing_the_other(
    submitter: Any, other_submitter: Any, create: Any
) -> None:
    first, _ = create(submitter, real_tarball(33), system=SYSTEM)
    with pytest.raises(DuplicateArchive) as refused:
        create(other_submitter, real_tarball(33))
    message = " ".join(refused.value.messages)
    assert isinstance(refused.value, ValidationError)
    for secret in (str(first.pk), submitter.username, "Wolf", "Intel"):
        assert secret not in message
    assert Submission.objects.count() == 1


def test_a_corrupt_archive_ends_rejected_with_its_reason_and_its_bytes_kept(
    submitter: Any, create: Any
) -> None:
    broken = real_tarball(33).read()[:5000]
    submission, _ = create(submitter, ContentFile(broken, name="broken.tgz"))
    submission.refresh_from_db()
    assert submission.status == Submission.Status.REJECTED
    assert "damaged or truncated" in submission.error
    archive = submission.archives.get()
    with default_storage.open(archive.file.name, "rb") as stored:
        assert stored.read() == broken
    assert submission.findings.get().code == "archive-rejected"


def test_an_attack_archive_is_rejected_with_a_clear_reason(submitter: Any, create: Any) -> None:
    hostile = tar_of(
        file_member("run/result_summary.txt"), special_member("run/x", b"2", linkname="/etc/passwd")
    )
    submission, _ = create(submitter, ContentFile(hostile, name="hostile.tgz"))
    submission.refresh_from_db()
    assert submission.status == Submission.Status.REJECTED
    assert "symbolic link" in submission.error


def test_an_archive_without_results_is_rejected_with_the_scoring_reason(submitter: Any, create: Any) -> None:
    submission, _ = create(submitter, ContentFile(tar_of(file_member("notes/readme.txt")), name="n.tgz"))
    submission.refresh_from_db()
    assert submission.status == Submission.Status.REJECTED
    assert "n.tgz" in submission.error  # the reason names the upload, not a scratch folder
    assert "Traceback" not in submission.error


def test_a_too_big_archive_is_kept_and_rejected_without_being_processed(
    submitter: Any, settings: Any, django_capture_on_commit_callbacks: Any, create: Any
) -> None:
    settings.ARCHIVE_MAX_BYTES = 1000
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submission, _ = create(submitter, real_tarball(33))
    assert callbacks == []  # no ingest was queued
    submission.refresh_from_db()
    assert submission.status == Submission.Status.REJECTED
    assert "accepts archives up to" in submission.error
    assert default_storage.exists(submission.archives.get().file.name)


def test_a_duplicate_message_for_a_finished_submission_changes_nothing(submitter: Any, create: Any) -> None:
    submission, _ = create(submitter, real_tarball(585), system=SYSTEM, ten_node=True)
    before = counts(submission)
    assert before["results"] == 1 and before["phases"] >= 12 and before["findings"] > 0
    for _ in range(2):
        again = submission_ingest(submission_id=submission.pk)
        assert again.status == Submission.Status.VERIFIED
    assert counts(submission) == before


def test_job_files_are_stored_next_to_the_archive(submitter: Any, create: Any) -> None:
    submission, _ = create(
        submitter,
        real_tarball(33),
        extra_files={
            "job-script": ContentFile(b"#!/bin/bash\nsrun io500 config.ini\n", name="job.sh"),
            "job-output": ContentFile(b"[RESULT] ...\n", name="slurm-1.out"),
        },
    )
    kinds = {a.kind: a.original_name for a in submission.archives.all()}
    assert kinds == {"result": "s33.tgz", "job-script": "job.sh", "job-output": "slurm-1.out"}


def test_unknown_kinds_of_extra_files_are_refused(submitter: Any, create: Any) -> None:
    with pytest.raises(ValidationError, match="Unknown kind of extra file: notes"):
        create(submitter, real_tarball(33), extra_files={"notes": ContentFile(b"x", name="n.txt")})
    assert not Submission.objects.exists()


def test_existing_attaches_the_archive_to_an_imported_row(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    imported = Submission.objects.create(source=Submission.Source.IMPORT, io500_id=33, score=148.08)
    with django_capture_on_commit_callbacks(execute=True):
        submission, created = submission_create(
            submitter=None,
            archive=real_tarball(33),
            original_name="submission-33.tgz",
            source=Submission.Source.IMPORT,
            existing=imported,
        )
    assert created and submission.pk == imported.pk
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED
    assert Submission.objects.count() == 1
    # Importing again recognises the bytes.
    again, created_again = submission_create(
        submitter=None,
        archive=real_tarball(33),
        original_name="x",
        source=Submission.Source.IMPORT,
        existing=imported,
    )
    assert again.pk == imported.pk and not created_again


def test_a_closed_release_is_refused_for_uploads(submitter: Any, create: Any) -> None:
    past = Release.objects.create(name="SC19", slug="sc19", publication_date=date(2019, 11, 19))
    with pytest.raises(ValidationError, match="closed on 2019-11-19"):
        create(submitter, real_tarball(33), release=past)


def test_an_open_release_is_accepted(submitter: Any, create: Any) -> None:
    upcoming = Release.objects.create(
        name="ISC99", slug="isc99", publication_date=timezone.localdate() + timedelta(days=30)
    )
    submission, _ = create(submitter, real_tarball(33), release=upcoming)
    assert submission.release == upcoming


class TestSystemDescription:
    def test_it_stores_typed_fields_and_the_full_json_and_links_the_storage_system(
        self, submitter: Any
    ) -> None:
        submission = Submission.objects.create(submitter=submitter)
        data = {**SYSTEM, "client_network_gbps": "200 Gbit/s", "io500_info_comment": "water cooled"}
        description = system_description_record(submission=submission, data=data)
        assert description.client_nodes == 10
        assert description.client_network_gbps == 200.0
        assert description.data["io500_info_comment"] == "water cooled"
        submission.refresh_from_db()
        assert submission.storage_system is not None
        assert (submission.storage_system.name, submission.storage_system.filesystem_type) == ("Wolf", "DAOS")

    def test_it_accepts_the_names_of_the_io500_system_information_file(self, submitter: Any) -> None:
        submission = Submission.objects.create(submitter=submitter)
        data = {
            "io500_info_system": "SharedScratch",
            "io500_info_client_nodes": "48",
            "information_ds_nodes": 20,
        }
        description = system_description_record(submission=submission, data=data)
        assert (description.system_name, description.client_nodes, description.ds_servers) == (
            "SharedScratch",
            48,
            20,
        )

    def test_it_names_every_wrong_field(self, submitter: Any) -> None:
        submission = Submission.objects.create(submitter=submitter)
        with pytest.raises(ValidationError) as wrong:
            system_description_record(
                submission=submission,
                data={"client_nodes": "lots", "client_network_gbps": "fast", "md_servers": -1},
            )
        errors = wrong.value.message_dict
        assert set(errors) == {"client_nodes", "client_network_gbps", "md_servers"}
        assert 'not "lots"' in errors["client_nodes"][0]
        assert not SystemDescription.objects.exists()

    def test_it_refuses_anything_but_an_object(self, submitter: Any) -> None:
        with pytest.raises(ValidationError, match="must be a JSON object"):
            system_description_record(submission=Submission.objects.create(submitter=submitter), data=[1, 2])  # type: ignore[arg-type]


class TestSystemFindings:
    def test_a_ten_node_run_on_more_nodes_is_flagged_for_the_committee(
        self, submitter: Any, create: Any
    ) -> None:
        # submission-585 ran on 640 client nodes according to its IOR and mdtest outputs. The run is
        # still valid; only its place on the 10-node lists is in doubt.
        submission, _ = create(submitter, real_tarball(585), system=SYSTEM, ten_node=True)
        submission.refresh_from_db()
        findings = {f.code: f for f in submission.findings.all()}
        assert {"ten-node-count", "nodes-mismatch"} <= set(findings)
        assert findings["ten-node-count"].severity == Finding.Severity.WARNING
        assert "exactly 10 client nodes" in findings["ten-node-count"].message
        assert submission.status == Submission.Status.VERIFIED

    def test_a_ten_node_submission_declaring_other_than_ten_nodes_is_invalid(
        self, submitter: Any, create: Any
    ) -> None:
        submission, _ = create(
            submitter, real_tarball(585), system={**SYSTEM, "client_nodes": 640}, ten_node=True
        )
        submission.refresh_from_db()
        assert submission.status == Submission.Status.INVALID
        assert "declares 640" in submission.error

    def test_a_declared_node_count_that_matches_gives_no_node_finding(
        self, submitter: Any, create: Any
    ) -> None:
        submission, _ = create(submitter, real_tarball(33), system=SYSTEM, ten_node=True)
        codes = set(Finding.objects.filter(submission=submission).values_list("code", flat=True))
        assert not codes & {"ten-node-count", "ten-node-declared", "nodes-mismatch"}

    def test_bandwidth_above_the_declared_client_network_is_flagged(
        self, submitter: Any, create: Any
    ) -> None:
        # 640 nodes on a 0.001 Gbit/s network can move about 0.07 GiB/s; the run reports far more.
        system = {**SYSTEM, "client_nodes": 640, "client_network_gbps": 0.001}
        submission, _ = create(submitter, real_tarball(585), system=system)
        flagged = submission.findings.filter(code="bandwidth-above-network")
        assert set(flagged.values_list("phase", flat=True)) >= {"ior-easy-write", "ior-easy-read"}
        assert all(f.severity == "warning" for f in flagged)


class TestRecovery:
    def _stuck(self, submitter: Any, create: Any, attempts: int) -> Submission:
        submission: Submission = create(submitter, real_tarball(33))[0]
        # Its worker died an hour ago: its attempt began then and its heartbeat stopped then.
        an_hour_ago = timezone.now() - timedelta(hours=1)
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.PROCESSING,
            attempts=attempts,
            processing_started_at=an_hour_ago,
            heartbeat_at=an_hour_ago,
        )
        return submission

    def test_a_submission_stuck_in_processing_is_requeued_and_finishes(
        self, submitter: Any, create: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=1)
        with django_capture_on_commit_callbacks(execute=True):
            assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 1
        submission.refresh_from_db()
        assert submission.status == Submission.Status.VERIFIED
        assert submission.attempts == 0

    def test_a_recent_processing_submission_is_left_alone(self, submitter: Any, create: Any) -> None:
        submission, _ = create(submitter, real_tarball(33))
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.PROCESSING, processing_started_at=timezone.now()
        )
        assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 0

    def test_a_processing_row_with_a_fresh_heartbeat_is_neither_requeued_nor_run_twice(
        self, submitter: Any, create: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=1)
        Submission.objects.filter(pk=submission.pk).update(heartbeat_at=timezone.now())
        assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 0
        # A duplicate message arrives while the live attempt holds the lease: it does nothing.
        again = submission_ingest(submission_id=submission.pk)
        assert again.status == Submission.Status.PROCESSING and again.attempts == 1

    def test_a_worker_that_stopped_beating_is_noticed_after_the_default_lease(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        assert (
            settings.INGEST_STUCK_AFTER_MINUTES * 60
            + settings.CELERY_BEAT_SCHEDULE["requeue-stuck-submissions"]["schedule"]
            <= 120
        ), "recovery must come within 2 minutes"
        submission = self._stuck(submitter, create, attempts=1)
        Submission.objects.filter(pk=submission.pk).update(
            heartbeat_at=timezone.now() - timedelta(seconds=70)
        )
        assert (
            submission_requeue_stuck(older_than=timedelta(minutes=settings.INGEST_STUCK_AFTER_MINUTES)) == 1
        )

    def test_a_lost_broker_message_is_sent_again(self, submitter: Any, create: Any) -> None:
        submission: Submission = create(submitter, real_tarball(33))[0]
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.RECEIVED, updated_at=timezone.now() - timedelta(minutes=2)
        )
        assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 1

    def test_a_poison_archive_ends_rejected_instead_of_looping(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=settings.INGEST_MAX_ATTEMPTS)
        assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 0
        submission.refresh_from_db()
        assert submission.status == Submission.Status.REJECTED
        assert f"tried to process this archive {settings.INGEST_MAX_ATTEMPTS} times" in submission.error

    def test_a_redelivered_task_of_an_exhausted_submission_rejects_it(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=settings.INGEST_MAX_ATTEMPTS)
        assert submission_ingest(submission_id=submission.pk).status == Submission.Status.REJECTED

    def test_the_ingest_task_ignores_a_submission_that_no_longer_exists(self, db: None) -> None:
        from submissions.tasks import submission_ingest as task

        assert task.delay(987654).get() is None


def test_the_beat_schedule_runs_a_registered_requeue_task_every_half_minute(settings: Any) -> None:
    from registry.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stuck-submissions"]
    assert entry["schedule"] == 30.0
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks


def repacked(number: int) -> ContentFile[bytes]:
    """The same real run in other bytes: a note added and the gzip stream written anew."""
    import gzip
    import io
    import tarfile

    buffer = io.BytesIO()
    source = io.BytesIO(real_tarball(number).read())
    with tarfile.open(fileobj=source, mode="r:gz") as original, tarfile.open(fileobj=buffer, mode="w") as out:
        for member in original.getmembers():
            out.addfile(member, original.extractfile(member) if member.isfile() else None)
        note = b"re-packed by someone else\n"
        info = tarfile.TarInfo("NOTES.txt")
        info.size = len(note)
        out.addfile(info, io.BytesIO(note))
    return ContentFile(gzip.compress(buffer.getvalue(), compresslevel=9), name=f"copy-{number}.tgz")


def test_a_known_run_in_new_bytes_is_flagged_for_the_committee_with_a_link_to_the_first(
    submitter: Any, other_submitter: Any, create: Any
) -> None:
    first, _ = create(submitter, real_tarball(33))
    copy, created = create(other_submitter, repacked(33))
    assert created and copy.pk != first.pk
    flagged = Finding.objects.get(submission=copy, code="run-already-submitted")
    assert flagged.severity == "warning" and f"/submissions/{first.pk}/" in flagged.message
    assert not Finding.objects.filter(submission=first, code="run-already-submitted").exists()
    # Another run is not flagged.
    other, _ = create(other_submitter, real_tarball(585))
    assert not Finding.objects.filter(submission=other, code="run-already-submitted").exists()
