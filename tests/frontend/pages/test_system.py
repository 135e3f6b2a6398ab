"""A storage system's page: its submissions, its rank in every list over time, its balance."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from submissions.models import Submission
from tests.factories import make_release, make_submission, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db


def test_the_page_lists_every_submission_of_the_system_across_releases(client):
    history = build_history()
    response = client.get(f"/systems/{history.lustre.pk}/")
    assert response.status_code == 200
    assert [row["release_name"] for row in response.context["submissions"]] == ["SC40", "ISC41"]
    assert response.context["best"]["score"] == pytest.approx(100.0)
    html = response.content.decode()
    assert "Blue" in html and 'data-chart="rank-history"' in html and 'data-mode="path"' in html
    assert response.context["compare_latest_url"] == (
        "/compare/?ids=" + "%2C".join(str(row["pk"]) for row in response.context["submissions"])
    )


def test_the_rank_history_gives_rank_and_list_size_per_release(client):
    history = build_history()
    publish_list(history.new, "ten-node", [history.submissions[6]])
    data = client.get(f"/charts/systems/{history.lustre.pk}/history.json").json()
    series = {s["kind"]: s for s in data["series"]}
    assert [(p["release"], p["rank"], p["list_size"]) for p in series["io500"]["points"]] == [
        ("SC40", 2, 5),
        ("ISC41", 2, 5),
    ]
    assert series["ten-node"]["label"] == "10 Node Challenge"
    assert series["ten-node"]["points"][0]["rank"] == 1


def test_the_balance_follows_the_releases_in_order(client):
    history = build_history()
    data = client.get(f"/charts/systems/{history.daos.pk}/balance.json").json()
    assert [(p["release"], p["bw"], p["md"]) for p in data["points"]] == [
        ("SC40", 100.0, 400.0),
        ("ISC41", 200.0, 800.0),
    ]
    assert data["units"] == {"bw": "GiB/s", "md": "kIOPS"}
    assert data["isolines"]


def test_someone_elses_unpublished_upload_is_not_shown(client):
    history = build_history()
    hidden = make_submission(
        storage_system=history.lustre,
        source=Submission.Source.UPLOAD,
        submitter=User.objects.create_user("z"),
    )
    rows = client.get(f"/systems/{history.lustre.pk}/").context["submissions"]
    assert hidden.pk not in [row["pk"] for row in rows]
    client.force_login(hidden.submitter)
    rows = client.get(f"/systems/{history.lustre.pk}/").context["submissions"]
    assert hidden.pk in [row["pk"] for row in rows]


def test_a_system_never_ranked_says_so(client):
    lone = make_submission(release=make_release(name="SC50"))
    html = client.get(f"/systems/{lone.storage_system_id}/").content.decode()
    assert "has not appeared on a published ranked list yet" in html
    assert client.get(f"/charts/systems/{lone.storage_system_id}/history.json").json()["series"] == []


def test_an_unknown_system_is_not_found(client):
    assert client.get("/systems/987654/").status_code == 404
    assert client.get("/charts/systems/987654/history.json").json() == {
        "error": "There is no storage system 987654."
    }


def test_the_page_costs_the_same_queries_for_two_or_twenty_submissions(client):
    history = build_history()
    counts = []
    for more in (0, 18):
        for _ in range(more):
            submission = make_submission(storage_system=history.lustre, release=history.new, bw=2.0, md=2.0)
            publish_list(make_release(), "io500", [submission])
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            client.get(f"/systems/{history.lustre.pk}/")
            client.get(f"/charts/systems/{history.lustre.pk}/history.json")
        counts.append(len(queries))
    assert counts[0] == counts[1]
