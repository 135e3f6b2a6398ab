"""Chart data is cached under a generation number that a publish bumps."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from frontend.charts.cache import charts_cached
from registry.core.generations import CHARTS_GENERATION_KEY, charts_generation, charts_invalidate
from tests.factories import make_submission, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db


def test_a_cached_chart_answers_without_any_query(client, django_assert_num_queries):
    build_history()
    first = client.get("/charts/history/points.json").content
    with django_assert_num_queries(0):
        again = client.get("/charts/history/points.json")
    assert again.content == first


def test_a_new_list_shows_once_the_charts_are_invalidated(client):
    history = build_history()
    before = client.get("/charts/history/points.json").json()
    newcomer = make_submission(release=history.new, bw=7.0, md=7.0)
    publish_list(history.new, "io500", [newcomer], version=2)
    # Until invalidated, the cached answer stands (published lists never change on their own).
    assert client.get("/charts/history/points.json").json() == before
    charts_invalidate()
    after = client.get("/charts/history/points.json").json()
    assert len(after["points"]) == len(before["points"]) + 1
    assert newcomer.pk in {p["id"] for p in after["points"]}


def test_invalidation_bumps_the_generation_even_after_the_key_was_evicted():
    generation = charts_generation()
    charts_invalidate()
    assert charts_generation() == generation + 1
    cache.delete(CHARTS_GENERATION_KEY)
    charts_invalidate()
    # Not a restart at a small number: copies kept under an earlier generation must stay unreachable.
    assert charts_generation() > generation + 1


def test_cached_values_are_built_once_per_generation():
    calls: list[int] = []

    def build() -> int:
        calls.append(1)
        return len(calls)

    assert charts_cached("probe", ("a",), build) == 1
    assert charts_cached("probe", ("a",), build) == 1
    assert charts_cached("probe", ("b",), build) == 2
    charts_invalidate()
    assert charts_cached("probe", ("a",), build) == 3


def test_a_cached_none_is_not_rebuilt():
    calls: list[int] = []

    def build() -> None:
        calls.append(1)

    charts_cached("nothing", (), build)
    charts_cached("nothing", (), build)
    assert calls == [1]


def test_an_updated_submission_gets_fresh_charts(client):
    history = build_history()
    submission = history.submissions[0]
    url = f"/charts/submissions/{submission.pk}/phases.json"
    assert client.get(url).json()["label"].endswith("SC40")
    submission.release = history.new
    submission.save()  # updated_at moves, and the key with it
    assert client.get(url).json()["label"].endswith("ISC41")
