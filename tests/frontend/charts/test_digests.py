"""The charts' digest of each published list: stored on publish, filled on first read, and giving
exactly the datasets the charts computed from every entry before."""

from __future__ import annotations

import json
import statistics

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frontend.charts.digests import (
    LEADERS_TOP,
    digest_overview,
    digest_rows,
    digest_shares,
    digest_trends,
    list_phase_medians,
    points_json,
)
from frontend.charts.kinds import kinds_for
from frontend.charts.selectors import ranked_entries
from frontend.charts.shapes import history_points, release_shares, release_trends
from registry.lists.services import list_build, list_publish
from registry.models import ListSnapshot
from tests.factories import add_phases, make_result, make_submission, publish_list
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db

MAIN = kinds_for("main")


def with_unplottable_entry(entries_per_release: int = 3) -> None:
    """A history whose newer list also holds an entry without a metadata rate (not on log axes)."""
    history = build_history(entries_per_release=entries_per_release)
    lonely = make_submission(release=history.new, bw=7.0, md=None, score=None)
    publish_list(history.new, "research", [lonely])


def test_the_spliced_points_equal_the_points_built_from_every_entry():
    with_unplottable_entry()
    spliced = json.loads(points_json(kinds=MAIN, name="main"))
    built = history_points(ranked_entries(kinds=MAIN))
    assert spliced["points"] == built["points"]
    assert spliced["left_out"] == built["left_out"] == 1
    for key in ("releases", "filesystems", "isolines"):
        assert spliced[key] == built[key], key
    assert (spliced["kind"], spliced["filesystem"]) == ("main", "")


def test_trends_and_shares_from_the_digests_equal_those_from_every_entry():
    with_unplottable_entry()
    rows = ranked_entries(kinds=MAIN)
    assert digest_trends(kinds=MAIN) == release_trends(rows)
    for by in ("filesystem", "vendor"):
        assert digest_shares(kinds=MAIN, by=by) == release_shares(rows, by=by)


def test_the_rows_of_the_digests_carry_what_the_history_page_reads():
    with_unplottable_entry()
    rows = digest_rows(kinds=MAIN)
    entries = ranked_entries(kinds=MAIN)
    assert len(rows) == len(entries) == 11
    key = ("submission_id", "release", "release_date", "kind", "rank", "score", "bw", "md", "system")
    assert sorted(tuple(r[k] for k in key) for r in rows) == sorted(tuple(e[k] for k in key) for e in entries)


def test_publishing_stores_the_digest_with_the_phase_medians(django_capture_on_commit_callbacks):
    history = build_history()
    for position, submission in enumerate(history.submissions[:5]):
        add_phases(make_result(submission=submission), {"ior-easy-write": float(position + 1)})
    draft = list_build(release=history.old, kind="io500")
    with django_capture_on_commit_callbacks(execute=True):
        published = list_publish(
            snapshot=draft, reason="phases were read after the first version", early=True
        )
    stored = ListSnapshot.objects.get(pk=published.pk)
    assert stored.chart_digest is not None
    assert stored.chart_digest["phase_medians"]["ior-easy-write"] == statistics.median([1, 2, 3, 4, 5])
    assert len(json.loads(stored.chart_points)) == published.entries.count()


def test_a_list_published_before_digests_existed_gets_one_on_its_first_read():
    history = build_history()
    ListSnapshot.objects.filter(pk=history.new_list.pk).update(chart_digest=None, chart_points="")
    assert len(json.loads(points_json(kinds=MAIN, name="main"))["points"]) == 10
    stored = ListSnapshot.objects.get(pk=history.new_list.pk)
    assert stored.chart_digest is not None and stored.chart_points
    # The next reader finds it stored: one query for the versions, one for the points.
    with CaptureQueriesContext(connection) as queries:
        points_json(kinds=MAIN, name="main")
    assert len(queries) == 2


def test_a_digest_of_an_older_shape_is_computed_again():
    history = build_history()
    old_shape = {"version": 0, "unplotted": [], "filesystems": [], "score_range": None}
    ListSnapshot.objects.filter(pk=history.old_list.pk).update(chart_digest=old_shape)
    assert list_phase_medians(history.old_list.pk) is not None
    refreshed = ListSnapshot.objects.get(pk=history.old_list.pk).chart_digest
    assert refreshed is not None and refreshed["version"] >= 1
    assert len(digest_trends(kinds=MAIN)) == 2


def test_the_overview_tells_what_the_points_of_every_entry_would():
    with_unplottable_entry(entries_per_release=LEADERS_TOP + 3)
    expected = history_points(ranked_entries(kinds=MAIN))
    overview = digest_overview(kinds=MAIN)
    assert overview["count"] == len(expected["points"])
    assert overview["left_out"] == expected["left_out"] >= 1
    assert overview["filesystems"] == expected["filesystems"]
    leaders = [p for p in expected["points"] if p["rank"] <= LEADERS_TOP]
    assert overview["leaders"] == leaders
    assert len(leaders) < len(expected["points"])
