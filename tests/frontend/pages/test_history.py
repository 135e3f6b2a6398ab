"""The history page: balance of every release, trends and statistics, with tables for no-JS readers."""

from __future__ import annotations

import pytest

from registry.core.generations import charts_invalidate
from tests.factories import make_submission, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db


def test_the_page_renders_every_chart_with_its_table(client):
    build_history()
    response = client.get("/history/")
    assert response.status_code == 200
    html = response.content.decode()
    for chart in ('data-chart="balance"', 'data-chart="trend"', 'data-chart="shares"'):
        assert chart in html
    for table in ('data-fallback="balance"', 'data-fallback="trends"', 'data-fallback="shares-filesystem"'):
        assert table in html
    assert 'data-src="/charts/history/points.json?kind=main"' in html
    assert "10 entries" in html
    assert "vendor/d3/d3.min.js" in html


def test_filters_travel_in_the_url_to_the_chart_data(client):
    build_history()
    response = client.get("/history/", {"kind": "io500", "filesystem": "DAOS"})
    assert response.status_code == 200
    assert response.context["points_src"] == "/charts/history/points.json?kind=io500&filesystem=DAOS"
    assert [p["system"] for p in response.context["points_table"]] == ["Red", "Red"]
    assert response.context["points"]["count"] == 2
    assert "<option selected>DAOS</option>" in response.content.decode()


def test_an_unknown_kind_shows_a_sentence_and_the_main_lists(client):
    build_history()
    response = client.get("/history/", {"kind": "fastest"})
    assert response.status_code == 400
    assert '"fastest" is not a ranked list kind' in response.context["error"]
    assert response.context["points"]["count"] == 10


def test_without_any_published_list_the_charts_say_so(client):
    response = client.get("/history/")
    assert response.status_code == 200
    assert response.context["points"]["count"] == 0
    assert "No ranked entry matches these lists and file system." in response.content.decode()


def test_the_cached_page_follows_a_publish_once_the_charts_are_invalidated(client):
    history = build_history()
    assert "10 entries" in client.get("/history/").content.decode()
    newcomer = make_submission(release=history.new, bw=3.0, md=3.0)
    publish_list(history.new, "io500", [newcomer], version=2)
    assert "10 entries" in client.get("/history/").content.decode()
    charts_invalidate()
    assert "11 entries" in client.get("/history/").content.decode()
