"""The submission pipeline's pages: upload form, my submissions, the status a page polls, the files,
login (the public page of one submission is tested in tests/frontend/pages/test_submission.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone

from submissions.models import Submission
from submissions.services import submission_create
from tests.submissions.helpers import SYSTEM, real_tarball, upload_with_job_files
from tests.submissions.review.helpers import open_release

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client: Any, submitter: Any) -> Any:
    client.force_login(submitter)
    return client


@pytest.fixture
def verified(submitter: Any, django_capture_on_commit_callbacks: Any) -> Submission:
    return upload_with_job_files(submitter, django_capture_on_commit_callbacks)


def _form(**overrides: Any) -> dict[str, Any]:
    fields = {**SYSTEM, "archive": real_tarball(33), "client_network_gbps": "200 Gbit/s"}
    fields.update(overrides)
    return fields


def test_the_upload_form_needs_a_login(client: Any) -> None:
    response = client.get(reverse("submissions:upload"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_upload_form_renders_every_questionnaire_field(alice_client: Any) -> None:
    response = alice_client.get(reverse("submissions:upload"))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("archive", "job_script", "job_output", "client_nodes", "client_network_gbps", "system_json"):
        assert f'name="{name}"' in html


def test_uploading_through_the_form_leads_to_the_submission_page(
    alice_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            reverse("submissions:upload"), _form(job_script=ContentFile(b"x", name="j.sh"))
        )
    submission = Submission.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("submissions:detail", args=[submission.pk])
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED
    assert submission.system.client_network_gbps == 200.0
    assert submission.archives.count() == 2


def test_the_form_shows_validation_errors_next_to_the_fields(alice_client: Any) -> None:
    response = alice_client.post(reverse("submissions:upload"), _form(client_network_gbps="fast"))
    assert response.status_code == 400
    assert "per-node bandwidth in Gbit/s" in response.content.decode()
    assert not Submission.objects.exists()


def test_the_form_refuses_another_accounts_bytes(alice_client: Any, other_submitter: Any) -> None:
    submission_create(submitter=other_submitter, archive=real_tarball(33), original_name="b.tgz")
    response = alice_client.post(reverse("submissions:upload"), _form())
    assert response.status_code == 400
    assert "another account" in response.content.decode()


def test_my_submissions_lists_only_mine_with_a_live_status(
    alice_client: Any, verified: Submission, other_submitter: Any
) -> None:
    other, _ = submission_create(
        submitter=other_submitter, archive=real_tarball(3), original_name="other.tgz"
    )
    response = alice_client.get(reverse("submissions:mine"))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("submissions:status", args=[verified.pk]) in html
    assert reverse("submissions:status", args=[other.pk]) not in html
    assert "submissions/js/status-poll.js" in html
    assert 'data-final="true"' in html


def test_the_status_endpoint_returns_the_row_as_json(alice_client: Any, verified: Submission) -> None:
    body = alice_client.get(reverse("submissions:status", args=[verified.pk])).json()
    assert body["status"] == verified.status and body["final"] is True and body["progress"] == 100


def test_the_original_archive_downloads_as_an_attachment(alice_client: Any, verified: Submission) -> None:
    archive = verified.archives.get(kind="result")
    response = alice_client.get(reverse("submissions:download", args=[verified.pk, archive.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert 'filename="narval.tgz"' in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Type"] == "application/octet-stream"
    assert b"".join(response.streaming_content) == real_tarball(585).read()


def test_an_uploaded_html_file_is_never_served_as_a_page(alice_client: Any, verified: Submission) -> None:
    script = verified.archives.get(kind="job-script")
    response = alice_client.get(reverse("submissions:download", args=[verified.pk, script.pk]))
    assert response["Content-Type"] == "application/octet-stream"
    assert "sandbox" in response["Content-Security-Policy"]


def test_the_login_page_renders_on_the_site_layout(client: Any) -> None:
    response = client.get(reverse("login"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="username"' in html and "site-header" in html


def test_logging_in_leads_to_my_submissions(client: Any, submitter: Any) -> None:
    from tests.conftest import PASSWORD

    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("submissions:mine")


def _selected_release(html: str) -> str | None:
    select = html.split('name="release"', 1)[1].split("</select>", 1)[0]
    chosen = re.search(r'<option value="([^"]*)" selected>', select)
    return chosen.group(1) if chosen else None


def test_the_upload_form_preselects_the_open_release(alice_client: Any) -> None:
    today = timezone.localdate()
    open_release(
        name="SC40",
        submission_deadline=today + timedelta(days=10),
        publication_date=today + timedelta(days=20),
    )
    open_release(
        name="ISC41",
        submission_deadline=today + timedelta(days=100),
        publication_date=today + timedelta(days=120),
    )
    open_release(
        name="SC39", submission_deadline=today - timedelta(days=1), publication_date=today + timedelta(days=5)
    )
    url = reverse("submissions:upload")
    # The soonest open call by default, the one a link names (the call page's) when it is open.
    assert _selected_release(alice_client.get(url).content.decode()) == "sc40"
    assert _selected_release(alice_client.get(url, {"release": "isc41"}).content.decode()) == "isc41"
    assert _selected_release(alice_client.get(url, {"release": "sc39"}).content.decode()) == "sc40"


def test_the_upload_form_links_the_rules_and_the_call(alice_client: Any) -> None:
    html = alice_client.get(reverse("submissions:upload")).content.decode()
    assert 'href="/rules/"' in html and 'href="/call/"' in html and 'href="/how-to-run/"' in html
