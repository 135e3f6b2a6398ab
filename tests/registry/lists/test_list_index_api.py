"""The list index by API (issue 28, item 4): every release x list kind anyone may read, its entry
count, provenance and links; drafts and lists under embargo are not in it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from registry.models import ListSnapshot
from tests.factories import make_release, make_submission, publish_list

pytestmark = pytest.mark.django_db


def test_the_index_has_every_readable_list_with_counts_provenance_and_links(client: Any) -> None:
    older = make_release(name="SC70", publication_date="2070-11-15")
    newer = make_release(name="ISC71", publication_date="2071-06-15")
    publish_list(older, "io500", [make_submission(release=older) for _ in range(3)])
    publish_list(
        older,
        "historical",
        [make_submission(release=older)],
        provenance=ListSnapshot.Provenance.RECONSTRUCTED,
    )
    publish_list(newer, "production", [make_submission(release=newer) for _ in range(2)])
    # A correction: the index shows the newer version, and that there are two.
    corrected = publish_list(newer, "research", [make_submission(release=newer)])
    corrected.status = ListSnapshot.Status.SUPERSEDED
    corrected.save()
    publish_list(
        newer, "research", [make_submission(release=newer) for _ in range(4)], version=2, label="ISC71*"
    )
    ListSnapshot.objects.create(release=newer, kind="full", status=ListSnapshot.Status.DRAFT)
    embargoed = make_release(
        name="SC72", publication_date="2072-11-15", embargo_end=timezone.now() + datetime.timedelta(days=2)
    )
    publish_list(embargoed, "io500", [make_submission(release=embargoed)])

    response = client.get("/api/v1/lists/")
    assert response.status_code == 200
    rows = response.json()
    assert [(row["release"], row["kind"], row["entries"]) for row in rows] == [
        ("isc71", "production", 2),
        ("isc71", "research", 4),
        ("sc70", "io500", 3),
        ("sc70", "historical", 1),
    ]
    research = rows[1]
    assert research["version"] == 2 and research["versions"] == 2 and research["title"] == "ISC71*"
    assert rows[3]["provenance"] == "reconstructed" and rows[3]["official"] is False
    assert rows[2]["official"] is True and rows[2]["provenance_label"]
    links = rows[2]["links"]
    assert links["api"].endswith("/api/v1/lists/sc70/io500/") and links["page"].endswith("/lists/sc70/io500/")
    assert links["csv"].endswith("/lists/sc70/io500.csv") and links["json"].endswith("/lists/sc70/io500.json")
    assert client.get(links["api"]).status_code == 200


def test_the_index_costs_the_same_queries_whatever_the_number_of_lists(
    client: Any, django_assert_max_num_queries: Any
) -> None:
    for year in range(2060, 2066):
        release = make_release(name=f"SC{year % 100}", publication_date=f"{year}-11-15")
        for kind in ("io500", "production", "research"):
            publish_list(release, kind, [make_submission(release=release)])
    with django_assert_max_num_queries(2):
        assert len(client.get("/api/v1/lists/").json()) == 18
