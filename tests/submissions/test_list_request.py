"""The lists a submission asks for (Production or Research, the 10-node lists): chosen at upload,
through the form and the API, then confirmed or changed by the committee, and read by the lists."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from registry.lists.services import list_build
from submissions.models import ListCategory, Result, ReviewState, Submission
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.submissions.review.helpers import open_release, verified_upload

pytestmark = pytest.mark.django_db


def test_the_upload_form_stores_the_lists_the_run_asks_for(client: Client, submitter: Any) -> None:
    client.force_login(submitter)
    form = client.get(reverse("submissions:upload")).content.decode()
    assert 'name="category" value="production"' in form and 'name="category" value="research"' in form
    fields = {**SYSTEM, "archive": real_tarball(33), "category": "production", "ten_node": "on"}
    assert client.post(reverse("submissions:upload"), fields).status_code == 302
    assert Submission.objects.values_list("category", "ten_node").get() == ("production", True)


def test_an_upload_without_a_choice_asks_for_the_research_list(client: Client, submitter: Any) -> None:
    client.force_login(submitter)
    client.post(reverse("submissions:upload"), {**SYSTEM, "archive": real_tarball(33)})
    assert Submission.objects.values_list("category", "ten_node").get() == ("research", False)


def test_the_api_stores_the_lists_the_run_asks_for(api_client_for: Any, submitter: Any) -> None:
    api = api_client_for(submitter)
    fields = {"archive": real_tarball(33), "category": "production", "ten_node": "true"}
    response = api.post("/api/v1/submissions/", fields, format="multipart")
    assert response.status_code == 202
    assert Submission.objects.values_list("category", "ten_node").get() == ("production", True)
    refused = api.post(
        "/api/v1/submissions/", {"archive": real_tarball(33), "category": "weekly"}, format="multipart"
    )
    assert refused.status_code == 400 and "category" in refused.json()


def test_the_committee_confirms_or_changes_the_ten_node_request(
    submitter: Any, committee_member: Any
) -> None:
    release = open_release()
    run = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED, ten_node=True)
    Result.objects.create(submission=run, path="run", is_primary=True, era="sc24", nodes=10, valid=True)
    assert list(
        list_build(release=release, kind="ten-node-research").entries.values_list("submission_id")
    ) == [(run.pk,)]
    client = Client()
    client.force_login(committee_member)
    url = reverse("review:assess", args=[run.pk])
    page = client.get(reverse("review:detail", args=[run.pk])).content.decode()
    assert 'name="ten_node"' in page and "This run is for the Research list and the 10-node lists" in page

    # Posted without the 10-node choice (an older form): the request stands.
    client.post(url, {"reproducibility": "undefined", "category": "research"})
    assert Submission.objects.get(pk=run.pk).ten_node is True
    client.post(url, {"reproducibility": "proprietary", "category": "research", "ten_node": "no"})

    run.refresh_from_db()
    assert (run.ten_node, run.category) == (False, ListCategory.RESEARCH)
    event = run.review_events.filter(action="assess").order_by("pk").last()
    assert event is not None
    assert event.reason.startswith("Proprietary, Research, not the 10-node lists")
    assert not list_build(release=release, kind="ten-node-research").entries.exists()
