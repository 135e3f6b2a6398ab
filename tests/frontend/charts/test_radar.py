"""The top-5 radar of a published list: io500.org's five axes, each logarithmic up to its maximum."""

from __future__ import annotations

import math

import pytest
from django.template import engines

from frontend.charts.shapes import radar_position
from tests.factories import make_submission, make_system_description, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db


def test_the_radar_holds_the_top_five_on_log_axes_ending_at_their_maximum(client):
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
    # Half the leader's bandwidth: a tenth of a decade below the top, not half way to the centre.
    assert second["bw"]["normalised"] == pytest.approx(1 + math.log10(100.0 / 200.0) / 3)
    # Blue ran on 10 client nodes with 16 processes each, the others on 32.
    assert second["client_nodes"]["value"] == 10 and second["client_nodes"]["normalised"] == pytest.approx(
        1 + math.log10(10 / 32) / 3
    )
    assert data["decades"] == 3
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


def test_an_entry_a_hundred_times_below_the_leader_is_a_shape_and_far_below_sits_at_the_centre():
    assert radar_position(2.0, 200.0) == pytest.approx(1 / 3)
    assert radar_position(0.001, 200.0) == 0.0
    assert radar_position(None, 200.0) is None


def test_the_radar_snippet_points_at_its_list():
    release = build_history().new
    html = (
        engines["django"]
        .from_string('{% include "frontend/charts/_radar.html" %}')
        .render({"release": release, "kind": "io500"})
    )
    assert 'data-src="/charts/radar/isc41/io500.json"' in html
    assert "radar.js" in html
