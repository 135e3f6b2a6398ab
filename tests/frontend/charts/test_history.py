"""The history endpoints: BW/MD points, trends and shares of every published ranked list."""

from __future__ import annotations

import datetime
import math
import statistics
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from frontend.charts.shapes import release_shares
from registry.models import Release
from tests.factories import make_submission, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db


def get_json(client: Client, url: str, status: int = 200) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    data: dict[str, Any] = response.json()
    return data


def test_points_hold_every_ranked_entry_with_its_published_values(client):
    history = build_history()
    data = get_json(client, "/charts/history/points.json")
    assert data["releases"] == ["SC40", "ISC41"]
    assert len(data["points"]) == 10
    first = data["points"][0]
    assert (first["release"], first["rank"], first["system"], first["filesystem"]) == (
        "SC40",
        1,
        "Red",
        "DAOS",
    )
    assert (first["bw"], first["md"]) == (100.0, 400.0)
    assert first["score"] == pytest.approx(200.0)
    assert first["id"] == history.submissions[0].pk
    assert data["units"] == {"bw": "GiB/s", "md": "kIOPS"}
    assert data["filesystems"] == ["BeeGFS", "DAOS", "Lustre"]


def test_isolines_are_round_scores_spanning_the_points(client):
    build_history()
    isolines = get_json(client, "/charts/history/points.json")["isolines"]
    scores = [math.sqrt(p["bw"] * p["md"]) for p in get_json(client, "/charts/history/points.json")["points"]]
    assert isolines == sorted(isolines)
    assert min(isolines) <= min(scores) and max(isolines) >= max(scores)
    assert all(round(s / 10 ** math.floor(math.log10(s))) in (1, 2, 5) for s in isolines)


def test_the_file_system_filter_ignores_case(client):
    build_history()
    points = get_json(client, "/charts/history/points.json?filesystem=lustre")["points"]
    assert [(p["release"], p["system"]) for p in points] == [("SC40", "Blue"), ("ISC41", "Blue")]


def test_the_kind_filter_shows_only_that_kind_of_list(client):
    history = build_history()
    publish_list(history.new, "ten-node", [history.submissions[6]])
    points = get_json(client, "/charts/history/points.json?kind=ten-node")["points"]
    assert [(p["kind"], p["system"]) for p in points] == [("ten-node", "Blue")]
    assert len(get_json(client, "/charts/history/points.json?kind=main")["points"]) == 10


def test_an_unknown_kind_is_refused_with_the_choices(client):
    error = get_json(client, "/charts/history/points.json?kind=best", status=400)["error"]
    assert '"best" is not a ranked list kind' in error
    assert "ten-node" in error


def test_entries_without_bandwidth_cannot_sit_on_log_axes_and_are_counted(client):
    history = build_history()
    broken = make_submission(release=history.new, bw=0.0, md=5.0, score=0.0)
    publish_list(history.new, "io500", [broken], version=2)
    data = get_json(client, "/charts/history/points.json")
    assert data["left_out"] == 1
    assert all(p["bw"] > 0 for p in data["points"])


def test_trends_give_the_median_and_the_best_entry_of_each_release(client):
    history = build_history()
    releases = get_json(client, "/charts/history/trends.json")["releases"]
    assert [r["release"] for r in releases] == ["SC40", "ISC41"]
    new_entries = [s for s in history.submissions if s.release == history.new]
    newest = releases[1]
    assert newest["count"] == len(new_entries)
    assert newest["score"]["median"] == pytest.approx(statistics.median(s.score or 0.0 for s in new_entries))
    assert newest["bw"]["top"] == 200.0
    assert (newest["bw"]["top_system"], newest["bw"]["top_id"]) == ("Red", new_entries[0].pk)
    assert newest["md"]["median"] == pytest.approx(statistics.median(s.md or 0.0 for s in new_entries))


def test_shares_count_entries_per_release_by_file_system_and_vendor(client):
    build_history()
    data = get_json(client, "/charts/history/shares.json")
    filesystems = data["filesystem"]
    assert filesystems["categories"] == ["BeeGFS", "DAOS", "Lustre"]
    sc40 = filesystems["releases"][0]
    assert sc40["counts"] == {"BeeGFS": 3, "DAOS": 1, "Lustre": 1}
    assert sc40["shares"]["BeeGFS"] == pytest.approx(0.6)
    assert data["vendor"]["releases"][1]["counts"]["Intel"] == 1


def test_rare_categories_fold_into_other_and_spellings_merge():
    rows = [
        {"release": "A", "release_date": datetime.date(2040, 1, 1), "filesystem": name}
        for name in ("Lustre", "lustre", "Lustre", "GPFS", "BeeGFS", "")
    ]
    shares = release_shares(rows, by="filesystem", limit=2)
    # Ties keep the order first seen: GPFS before BeeGFS and the unnamed entry.
    assert shares["categories"] == ["Lustre", "IBM Storage Scale (GPFS)", "Other"]
    counts = shares["releases"][0]["counts"]
    assert counts == {"Lustre": 3, "IBM Storage Scale (GPFS)": 1, "Other": 2}
    assert sum(counts.values()) == 6


def test_shares_group_spelling_variants_and_renamed_products_under_one_canonical_name():
    rows = [
        {"release": "A", "release_date": datetime.date(2040, 1, 1), "filesystem": name}
        for name in ("GPFS", "Spectrum Scale", "SpectrumScale", "wekafs", "Weka.io", "beegfs")
    ]
    counts = release_shares(rows, by="filesystem")["releases"][0]["counts"]
    assert counts == {"IBM Storage Scale (GPFS)": 3, "WekaFS": 2, "BeeGFS": 1}


def test_history_endpoints_run_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    build_history(entries_per_release=2)
    counts = []
    for more in (0, 40):
        if more:
            release = Release.objects.get(name="ISC41")
            extra = [make_submission(release=release, bw=3.0, md=3.0) for _ in range(more)]
            publish_list(release, "ten-node", extra)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            for url in ("/charts/history/points.json?kind=ten-node-all", "/charts/history/trends.json",
                        "/charts/history/shares.json"):  # fmt: skip
                assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(2):
        client.get("/charts/history/points.json?kind=main&filesystem=daos")
