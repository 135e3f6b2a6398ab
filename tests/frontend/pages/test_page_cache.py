"""Submission and system pages and a submission's chart data are answered from the public cache for
anonymous readers of public content only (registry.core.public_cache, fingerprinted paths), and rendered
again when what they show changes."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from registry.core import public_cache
from registry.core.generations import charts_invalidate
from registry.models import Release
from submissions.models import Submission
from tests.factories import make_release, make_storage_system, make_submission, make_system_description

pytestmark = pytest.mark.django_db


def _public() -> Submission:
    submission = make_submission(bw=25.0, md=64.0)
    make_system_description(submission=submission, client_nodes=16)
    return submission


def _embargoed_upload(owner: User) -> Submission:
    release = make_release(embargo_end=timezone.now() + datetime.timedelta(days=30))
    return make_submission(
        source=Submission.Source.UPLOAD,
        review_state="published",
        submitter=owner,
        release=release,
        storage_system=make_storage_system(name="Hidden Machine"),
    )


# Only the visibility fingerprint is read (one query for a submission, two for a system); the
# answer itself comes from the public cache.
STORED_PAGES = {
    "submission page": ("/submissions/{submission}/", 1),
    "submission phases": ("/charts/submissions/{submission}/phases.json", 1),
    "submission timeline": ("/charts/submissions/{submission}/timeline.json", 1),
    "system page": ("/systems/{system}/", 2),
}


@pytest.mark.parametrize("page", list(STORED_PAGES))
def test_an_anonymous_reader_gets_the_stored_answer_after_its_visibility_queries(
    page, django_assert_num_queries
):
    submission = _public()
    template, queries = STORED_PAGES[page]
    url = template.format(submission=submission.pk, system=submission.storage_system_id)
    first = Client().get(url)
    assert first.status_code == 200
    with django_assert_num_queries(queries):
        again = Client().get(url)
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]


def test_a_logged_in_reader_gets_a_page_of_their_own_not_the_anonymous_one(submitter):
    submission = _public()
    Client().get(f"/submissions/{submission.pk}/")
    logged_in = Client()
    logged_in.force_login(submitter)
    page = logged_in.get(f"/submissions/{submission.pk}/").content.decode()
    assert "Log out" in page
    assert "Log in" not in page


def test_an_owners_view_of_a_private_submission_is_never_served_to_others(submitter, other_submitter):
    draft = make_submission(source=Submission.Source.UPLOAD, submitter=submitter)
    owner = Client()
    owner.force_login(submitter)
    assert owner.get(f"/submissions/{draft.pk}/").status_code == 200
    assert Client().get(f"/submissions/{draft.pk}/").status_code == 404
    other = Client()
    other.force_login(other_submitter)
    assert other.get(f"/submissions/{draft.pk}/").status_code == 404


def test_an_embargoed_submission_stays_hidden_until_the_embargo_ends(submitter):
    submission = _embargoed_upload(submitter)
    assert Client().get(f"/submissions/{submission.pk}/").status_code == 404
    release = submission.release
    assert release is not None
    release.embargo_end = timezone.now() - datetime.timedelta(minutes=1)
    release.save()
    assert Client().get(f"/submissions/{submission.pk}/").status_code == 200


def test_a_cached_page_is_not_served_once_the_submission_falls_under_embargo_again(submitter):
    submission = _embargoed_upload(submitter)
    release = submission.release
    assert release is not None
    Release.objects.filter(pk=release.pk).update(embargo_end=None)
    assert Client().get(f"/submissions/{submission.pk}/").status_code == 200
    # An update that bypasses every signal: the visibility check on each request still hides it.
    Release.objects.filter(pk=release.pk).update(embargo_end=timezone.now() + datetime.timedelta(days=1))
    assert Client().get(f"/submissions/{submission.pk}/").status_code == 404


def test_the_submission_page_is_rendered_again_after_the_submission_changes():
    submission = _public()
    assert "1234.50" not in Client().get(f"/submissions/{submission.pk}/").content.decode()
    # Re-verification saves the row with its new values, as ingest does.
    submission.score = 1234.5
    submission.save()
    assert "1234.50" in Client().get(f"/submissions/{submission.pk}/").content.decode()


def test_the_submission_page_is_rendered_again_after_a_publish():
    submission = _public()
    Client().get(f"/submissions/{submission.pk}/")
    charts_invalidate()
    with CaptureQueriesContext(connection) as queries:
        Client().get(f"/submissions/{submission.pk}/")
    assert len(queries) > 1


def test_a_request_with_a_cookie_is_rendered_not_read_from_the_cache():
    submission = _public()
    Client().get(f"/submissions/{submission.pk}/")
    with_cookie = Client()
    with_cookie.cookies["sessionid"] = "not-a-session"
    with CaptureQueriesContext(connection) as queries:
        assert with_cookie.get(f"/submissions/{submission.pk}/").status_code == 200
    assert len(queries) > 1


def test_the_system_page_shows_a_new_submission_of_the_system():
    submission = _public()
    url = f"/systems/{submission.storage_system_id}/"
    Client().get(url)
    newer = make_submission(storage_system=submission.storage_system, bw=30.0, md=70.0)
    assert f"/submissions/{newer.pk}/" in Client().get(url).content.decode()


def test_the_system_page_of_an_embargoed_system_is_not_cached_or_shown(submitter):
    submission = _embargoed_upload(submitter)
    url = f"/systems/{submission.storage_system_id}/"
    owner = Client()
    owner.force_login(submitter)
    assert "Hidden Machine" in owner.get(url).content.decode()
    assert Client().get(url).status_code == 404


def test_stored_chart_data_is_not_served_once_the_submission_falls_under_embargo(submitter):
    submission = _embargoed_upload(submitter)
    release = submission.release
    assert release is not None
    Release.objects.filter(pk=release.pk).update(embargo_end=None)
    url = f"/charts/submissions/{submission.pk}/phases.json"
    assert Client().get(url).status_code == 200
    Release.objects.filter(pk=release.pk).update(embargo_end=timezone.now() + datetime.timedelta(days=1))
    assert Client().get(url).status_code == 404


def test_a_submission_page_is_sent_to_its_view_when_the_visibility_query_fails(monkeypatch):
    submission = _public()

    def database_down(*, pk: int) -> None:
        raise OperationalError("connection refused")

    routes = tuple(
        dataclasses.replace(route, fingerprint=database_down) if route.fingerprint else route
        for route in public_cache.PUBLIC_ROUTES
    )
    monkeypatch.setattr(public_cache, "PUBLIC_ROUTES", routes)
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(f"/submissions/{submission.pk}/").status_code == 200
    # Rendered by the view, not stored: the next reader is rendered for again.
    with CaptureQueriesContext(connection) as again:
        assert Client().get(f"/submissions/{submission.pk}/").status_code == 200
    assert len(queries) > 1 and len(again) > 1
