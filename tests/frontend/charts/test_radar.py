"""The top-5 radar of a published list: io500.org's five axes, each normalised to its maximum."""

from __future__ import annotations

import pytest
from django.template import engines

from tests.factories import make_submission, make_system_description, publish_list
from tests.frontend.chart_data import build_history

pytestmark = pytest.mark.django_db


def test_the_radar_holds_the_top_five_normalised_to_their_maximum(client):
    history = build_history(entries_per_release=5)  # seven entries per list
    data = client.get("/charts/radar/isc41/io500.json").json()
    assert [s["rank"] for s in data["series"]] == [1, 2, 3, 4, 5]
    assert [a["key"] for a in data["axes"]] == ["score", "bw", "md", "client_nodes", "total_procs"]
    assert data["title"] == "ISC41 IO500"
    leader = data["series"][0]
    assert leader["system"] == "Red"
    bw = {v["axis"]: v for v in leader["values"]}["bw"]
    assert (bw["value"], bw["normalised"]) == (200.0, 1.0)
    second = {v["axis"]: v for v in data["series"][1]["values"]}
    assert second["bw"]["normalised"] == pytest.approx(100.0 / 200.0)
    # Blue ran on 10 client nodes with 16 processes each, the others on 32.
    assert second["client_nodes"]["value"] == 10 and second["client_nodes"]["normalised"] == pytest.approx(
        10 / 32
    )
    assert second["total_procs"]["value"] == 160
    assert history.new_list.entries.count() == 7


def test_a_list_that_was_not_published_has_no_radar(client):
    build_history()
    response = client.get("/charts/radar/isc41/ten-node.json")
    assert response.status_code == 404
    assert response.json()["error"] == "No ten-node list of ISC41 has been published."


def test_complete_lists_are_not_ranked_and_have_no_radar(client):
    response = client.get("/charts/radar/isc41/full.json")
    assert response.status_code == 404
    assert "not a ranked list" in response.json()["error"]


def test_missing_values_stay_empty_instead_of_zero(client):
    history = build_history()
    lone = make_submission(release=history.new, bw=3.0, md=3.0)
    make_system_description(submission=lone, client_nodes=None, procs_per_node=None)
    publish_list(history.new, "ten-node", [lone])
    values = {
        v["axis"]: v for v in client.get("/charts/radar/isc41/ten-node.json").json()["series"][0]["values"]
    }
    assert values["client_nodes"] == {"axis": "client_nodes", "value": None, "normalised": None}


def test_the_radar_snippet_points_at_its_list():
    release = build_history().new
    html = (
        engines["django"]
        .from_string('{% include "frontend/charts/_radar.html" %}')
        .render({"release": release, "kind": "io500"})
    )
    assert 'data-src="/charts/radar/isc41/io500.json"' in html
    assert "radar.js" in html
