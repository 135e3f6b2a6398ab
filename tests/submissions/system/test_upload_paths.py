"""A community-schema description through every door: the upload form (text and file), the token API
(field, file part, plain form fields) and a file inside the tarball, read at ingest."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from submissions.models import Finding, Submission, SystemDescription
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.submissions.system.documents import (
    REAL_2021_DOCUMENT,
    VALID,
    as_bytes,
    with_unit_and_type_errors,
    with_unknown_fields,
)
from tests.support.data import submission_folder

pytestmark = pytest.mark.django_db
API = "/api/v1/submissions/"
IDENTITY = ("SuperMUC-NG Phase2", "LRZ", "DAOS")


@pytest.fixture
def alice_client(client: Any, submitter: Any) -> Any:
    client.force_login(submitter)
    return client


@pytest.fixture
def alice_api(api_client_for: Any, submitter: Any) -> Any:
    return api_client_for(submitter)


def _identity(description: SystemDescription) -> tuple[str, str, str]:
    return description.system_name, description.institution_name, description.filesystem_type


def tarball_with(number: int, members: dict[str, bytes]) -> ContentFile[bytes]:
    """A real result folder packed with extra files at the archive's top (as the runner packs
    system.json beside the result folder)."""
    folder = submission_folder(number)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(folder, arcname=folder.name)
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return ContentFile(gzip.compress(buffer.getvalue(), mtime=0), name=f"s{number}-with-system.tgz")


class TestUploadForm:
    def test_a_document_file_alone_is_a_complete_description(self, alice_client: Any) -> None:
        upload = SimpleUploadedFile("site.json", as_bytes(VALID), content_type="application/json")
        response = alice_client.post(
            reverse("submissions:upload"), {"archive": real_tarball(33), "system_file": upload}
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        description = SystemDescription.objects.get()
        assert _identity(description) == IDENTITY
        assert (description.client_nodes, description.procs_per_node, description.ds_servers) == (10, 112, 42)
        assert description.data == VALID and description.origin == "upload form"
        storage_system = description.submission.storage_system
        assert storage_system is not None and storage_system.name == "SuperMUC-NG Phase2"

    def test_fields_filled_in_win_over_the_document(self, alice_client: Any) -> None:
        response = alice_client.post(
            reverse("submissions:upload"),
            {"archive": real_tarball(33), "system_json": json.dumps(VALID), "client_nodes": "12"},
        )
        assert response.status_code == 302
        description = SystemDescription.objects.get()
        assert description.client_nodes == 12 and description.procs_per_node == 112
        assert description.data == VALID  # the document is kept whole

    def test_unit_and_type_errors_come_back_on_the_form_naming_each_field(self, alice_client: Any) -> None:
        upload = SimpleUploadedFile("site.json", as_bytes(with_unit_and_type_errors()))
        response = alice_client.post(
            reverse("submissions:upload"), {"archive": real_tarball(33), "system_file": upload}
        )
        html = response.content.decode()
        assert response.status_code == 400
        for path in (
            "Site.IO500.storage net capacity",
            "Site.IO500.number_clientNodes",
            "StorageMedia[0].net capacity",
        ):
            assert path in html
        assert not Submission.objects.exists()

    def test_unknown_fields_come_back_on_the_form(self, alice_client: Any) -> None:
        response = alice_client.post(
            reverse("submissions:upload"),
            {"archive": real_tarball(33), "system_json": json.dumps(with_unknown_fields())},
        )
        html = response.content.decode()
        assert response.status_code == 400
        assert "Site.IO500.cooling" in html and "Site.Datacenter" in html and "COMMENT" in html
        assert not Submission.objects.exists()

    def test_a_system_information_txt_file_is_read_too(self, alice_client: Any) -> None:
        text = (submission_folder(66) / "system-information.txt").read_bytes()
        response = alice_client.post(
            reverse("submissions:upload"),
            {"archive": real_tarball(33), "system_file": SimpleUploadedFile("system-information.txt", text)},
        )
        assert response.status_code == 302
        description = SystemDescription.objects.get()
        assert (description.system_name, description.filesystem_type, description.client_nodes) == (
            "AI400X",
            "Lustre",
            10,
        )
        assert description.data["io500_info_submitter"] == "Shuichi Ihara"

    def test_a_broken_file_is_refused_with_the_reason(self, alice_client: Any) -> None:
        response = alice_client.post(
            reverse("submissions:upload"),
            {
                "archive": real_tarball(33),
                "system_file": SimpleUploadedFile("site.json", REAL_2021_DOCUMENT.read_bytes()),
            },
        )
        assert response.status_code == 400
        assert "line breaks fall inside strings" in response.content.decode()

    def test_without_a_document_the_identity_fields_stay_required(self, alice_client: Any) -> None:
        response = alice_client.post(reverse("submissions:upload"), {"archive": real_tarball(33)})
        assert response.status_code == 400
        assert response.context["form"].errors["system_name"]


class TestApi:
    def test_the_system_field_takes_a_community_document(self, alice_api: Any) -> None:
        response = alice_api.post(
            API, {"archive": real_tarball(33), "system": json.dumps(VALID)}, format="multipart"
        )
        assert response.status_code == 202, response.content
        description = SystemDescription.objects.get()
        assert _identity(description) == IDENTITY and description.origin == "API"
        detail = alice_api.get(response.json()["url"]).json()
        assert detail["system"]["storage_capacity_bytes"] == pytest.approx(1.2 * 2**50)
        assert detail["system"]["data"] == VALID

    def test_the_system_field_may_be_a_file_part(self, alice_api: Any) -> None:
        upload = SimpleUploadedFile("site.json", as_bytes(VALID), content_type="application/json")
        response = alice_api.post(API, {"archive": real_tarball(33), "system": upload}, format="multipart")
        assert response.status_code == 202, response.content
        assert SystemDescription.objects.get().ds_servers == 42

    def test_unit_type_and_unknown_errors_are_a_400_listing_every_path(self, alice_api: Any) -> None:
        for document, paths in (
            (
                with_unit_and_type_errors(),
                {"Site.IO500.clients network bandwidth", "Site.IO500.procsPerNode"},
            ),
            (with_unknown_fields(), {"Site.IO500.cooling", "Site.Datacenter", "COMMENT"}),
        ):
            response = alice_api.post(
                API, {"archive": real_tarball(33), "system": json.dumps(document)}, format="multipart"
            )
            assert response.status_code == 400
            assert paths <= set(response.json()["system"])
        assert not Submission.objects.exists()

    def test_system_fields_sent_as_plain_form_fields_are_kept(self, alice_api: Any) -> None:
        fields = {name: str(value) for name, value in SYSTEM.items()}
        response = alice_api.post(API, {"archive": real_tarball(33), **fields}, format="multipart")
        assert response.status_code == 202, response.content
        description = SystemDescription.objects.get()
        assert (description.system_name, description.client_nodes, description.client_network_gbps) == (
            "Wolf",
            10,
            200.0,
        )

    def test_plain_form_fields_the_upload_does_not_know_are_a_400_naming_them(self, alice_api: Any) -> None:
        response = alice_api.post(
            API,
            {"archive": real_tarball(33), "system_name": "Wolf", "io500_info_submitter": "me", "nodes": "10"},
            format="multipart",
        )
        assert response.status_code == 400
        body = response.json()
        assert body["unknown_fields"] == ["io500_info_submitter", "nodes"]
        assert "io500_info_submitter" in body["detail"]
        assert not Submission.objects.exists()

    def test_a_flat_description_with_an_unknown_name_is_a_400(self, alice_api: Any) -> None:
        system = json.dumps({**SYSTEM, "cooling": "water"})
        response = alice_api.post(API, {"archive": real_tarball(33), "system": system}, format="multipart")
        assert response.status_code == 400
        assert "cooling" in response.json()["system"]


class TestArchiveFile:
    def test_a_valid_system_json_in_the_tarball_becomes_the_description(
        self, alice_api: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        archive = tarball_with(33, {"system.json": as_bytes(VALID)})
        with django_capture_on_commit_callbacks(execute=True):
            response = alice_api.post(API, {"archive": archive}, format="multipart")
        assert response.status_code == 202
        submission = Submission.objects.get()
        assert submission.status == Submission.Status.VERIFIED, submission.error
        description = SystemDescription.objects.get()
        assert _identity(description) == IDENTITY
        assert description.origin == "archive file system.json" and description.data == VALID
        assert submission.storage_system is not None
        read = Finding.objects.get(submission=submission, code="system-description-read")
        assert "system.json" in read.message

    def test_an_ill_typed_system_json_in_the_tarball_is_named_field_by_field_without_invalidating_the_run(
        self, alice_api: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        archive = tarball_with(33, {"system.json": as_bytes(with_unit_and_type_errors())})
        with django_capture_on_commit_callbacks(execute=True):
            alice_api.post(API, {"archive": archive}, format="multipart")
        submission = Submission.objects.get()
        # The benchmark outputs decide the verdict; the description's faults are a warning to fix.
        assert submission.status == Submission.Status.VERIFIED, submission.error
        finding = Finding.objects.get(submission=submission, code="system-description-invalid")
        assert finding.severity == Finding.Severity.WARNING
        assert (
            "Site.IO500.storage net capacity" in finding.message
            and "StorageMedia[0].net capacity" in finding.message
            and "was not used" in finding.message
        )
        # Nothing dropped: the file is kept as read, the errors listed with the description.
        description = SystemDescription.objects.get()
        assert description.data == with_unit_and_type_errors()
        assert any("number_clientNodes" in problem for problem in description.problems)

    def test_an_unknown_field_in_the_tarball_file_is_named(
        self, alice_api: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        archive = tarball_with(33, {"system.json": as_bytes(with_unknown_fields())})
        with django_capture_on_commit_callbacks(execute=True):
            alice_api.post(API, {"archive": archive}, format="multipart")
        finding = Finding.objects.get(code="system-description-invalid")
        assert "Site.IO500.cooling" in finding.message and "Site.Datacenter" in finding.message

    def test_beside_a_description_given_with_the_upload_the_file_only_fills_blanks(
        self, alice_api: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        info = (submission_folder(66) / "system-information.txt").read_bytes()
        archive = tarball_with(33, {"system-information.txt": info})
        with django_capture_on_commit_callbacks(execute=True):
            alice_api.post(API, {"archive": archive, "system": json.dumps(SYSTEM)}, format="multipart")
        description = SystemDescription.objects.get()
        assert (description.system_name, description.client_nodes) == ("Wolf", 10)  # given wins
        assert description.client_kernel == "4.18.0-147.8.1.el8_1.x86_64"  # blank, filled
        assert description.field_sources["client_kernel"] == "archive file system-information.txt"
        assert description.archive_data["io500_info_submitter"] == "Shuichi Ihara"
        # A second ingest (re-verification) takes back what the first filled, and fills it again.
        from submissions.ingest.pipeline import submission_ingest

        Submission.objects.filter(pk=description.submission_id).update(status=Submission.Status.RECEIVED)
        submission_ingest(submission_id=description.submission_id)
        again = SystemDescription.objects.get()
        assert again.field_sources == description.field_sources | again.field_sources
        assert again.client_kernel == description.client_kernel and again.system_name == "Wolf"
