"""The public page of one submission (frontend.pages.views.submission_page): phases, findings, the
system, its files, and who may see it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from submissions.models import Finding, Submission
from tests.submissions.helpers import upload_with_job_files

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client: Any, submitter: Any) -> Any:
    client.force_login(submitter)
    return client


@pytest.fixture
def verified(submitter: Any, django_capture_on_commit_callbacks: Any) -> Submission:
    return upload_with_job_files(submitter, django_capture_on_commit_callbacks)


def test_the_submission_page_shows_phases_findings_errors_first_and_the_system(
    alice_client: Any, verified: Submission
) -> None:
    response = alice_client.get(reverse("submissions:detail", args=[verified.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for phase in ("ior-easy-write", "mdtest-hard-delete", "find"):
        assert f"<code>{phase}</code>" in html
    errors = Finding.objects.filter(submission=verified, severity="error")
    infos = Finding.objects.filter(submission=verified, severity="info")
    assert errors.exists() and infos.exists()
    assert html.index(errors.first().message) < html.index(infos.first().message)  # type: ignore[union-attr]
    assert "Client nodes" in html and "640" in html
    assert "narval.tgz" in html and "job.html" in html
    assert verified.storage_system_id is not None
    assert f'href="/systems/{verified.storage_system_id}/" data-role="system-link"' in html


def test_a_page_of_someone_else_is_not_found(client: Any, other_submitter: Any, verified: Submission) -> None:
    client.force_login(other_submitter)
    assert client.get(reverse("submissions:detail", args=[verified.pk])).status_code == 404
    assert client.get(reverse("submissions:status", args=[verified.pk])).status_code == 404


def test_an_unpublished_submission_tells_a_visitor_why_it_cannot_be_seen(
    client: Any, verified: Submission
) -> None:
    page = client.get(reverse("submissions:detail", args=[verified.pk]))
    assert page.status_code == 404
    text = page.content.decode()
    assert "not published yet" in text
    assert "Its submitter and the IO500 committee see it once logged in." in text
