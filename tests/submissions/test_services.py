"""The upload service (submission_create) and the ingest it queues, with tasks run in-process (the real
worker is in ingest/test_worker.py)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from registry.models import Release
from submissions.ingest.pipeline import submission_ingest
from submissions.models import Archive, Submission, SystemDescription
from submissions.services import DuplicateArchive, submission_create, system_description_record
from tests.submissions.archives import file_member, special_member, tar_of
from tests.submissions.helpers import SYSTEM, counts, published_score, real_tarball

pytestmark = pytest.mark.django_db


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
