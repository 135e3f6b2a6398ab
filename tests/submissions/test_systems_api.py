"""The storage systems by API (issue 28, item 4): listed and shown to whoever may see one of their
submissions, with those submissions only; an embargoed or unpublished system is nobody else's."""

from __future__ import annotations

from typing import Any

import pytest

from submissions.models import ReviewState, Submission
from tests.factories import make_release, make_storage_system, make_submission
from tests.submissions.review.helpers import storage

pytestmark = pytest.mark.django_db


@pytest.fixture
def systems(submitter: Any) -> dict[str, Any]:
    public = storage("Aurora", "ANL", "DAOS")
    make_submission(storage_system=public, score=30.0)
    make_submission(storage_system=public, score=50.0)
    draft_only = storage("Secret", "Lab", "Lustre")
    mine = make_submission(
        storage_system=draft_only,
        source=Submission.Source.UPLOAD,
        submitter=submitter,
        review_state=ReviewState.DRAFT,
    )
    make_storage_system(name="Unused")  # no submission at all
    return {"public": public, "draft_only": draft_only, "mine": mine}


def test_anyone_lists_the_public_systems_with_counts_and_links(client: Any, systems: dict[str, Any]) -> None:
    body = client.get("/api/v1/systems/").json()
    assert [row["name"] for row in body["results"]] == ["Aurora"]
    row = body["results"][0]
    assert row["submission_count"] == 2 and row["best_score"] == 50.0
    assert row["institution"] == "ANL" and row["filesystem_type"] == "DAOS"
    assert row["url"].endswith(f"/api/v1/systems/{systems['public'].pk}/")
    assert row["page"].endswith(f"/systems/{systems['public'].pk}/")


def test_the_search_matches_name_institution_vendor_and_file_system(
    client: Any, systems: dict[str, Any]
) -> None:
    assert client.get("/api/v1/systems/?q=anl").json()["count"] == 1
    assert client.get("/api/v1/systems/?q=daos").json()["count"] == 1
    assert client.get("/api/v1/systems/?q=nothing-like-it").json()["count"] == 0


def test_a_system_with_only_a_draft_is_its_submitters_alone(
    client: Any, api_client_for: Any, submitter: Any, other_submitter: Any, systems: dict[str, Any]
) -> None:
    secret = f"/api/v1/systems/{systems['draft_only'].pk}/"
    assert client.get(secret).status_code == 404
    assert api_client_for(other_submitter).get(secret).status_code == 404
    mine = api_client_for(submitter).get(secret)
    assert mine.status_code == 200
    assert [row["id"] for row in mine.json()["submissions"]] == [systems["mine"].pk]
    names = [row["name"] for row in api_client_for(submitter).get("/api/v1/systems/").json()["results"]]
    assert names == ["Aurora", "Secret"]


def test_the_detail_lists_the_visible_submissions_oldest_release_first(
    client: Any, systems: dict[str, Any]
) -> None:
    public = systems["public"]
    # After every release the factory makes however long the run (its dates grow with its sequence), and
    # a name the factory never makes (it makes SCnn only; it would return an existing release of that name).
    later = make_release(name="ISC90", publication_date="2999-06-15")
    newest = make_submission(storage_system=public, release=later, score=70.0)
    body = client.get(f"/api/v1/systems/{public.pk}/").json()
    assert body["submission_count"] == 3 and body["best_score"] == 70.0
    assert body["submissions"][-1]["id"] == newest.pk
    assert {"score", "status", "review_state", "url", "page"} <= set(body["submissions"][0])


def test_an_embargoed_release_hides_the_system(client: Any, systems: dict[str, Any]) -> None:
    import datetime

    from django.utils import timezone

    embargoed = make_release(name="SC91", embargo_end=timezone.now() + datetime.timedelta(days=3))
    hidden = storage("Hidden", "Site", "GPFS")
    make_submission(
        storage_system=hidden,
        release=embargoed,
        source=Submission.Source.UPLOAD,
        review_state=ReviewState.PUBLISHED,
    )
    assert client.get(f"/api/v1/systems/{hidden.pk}/").status_code == 404
    assert "Hidden" not in [row["name"] for row in client.get("/api/v1/systems/").json()["results"]]
