"""The history trend compares like with like (issue 26): a reconstructed list (the runs new in a
release whose official lists are not public) is a series of its own, never a point of the official
line, whose lists are cumulative."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from frontend.charts.data import history_trends_data
from registry.models import ListSnapshot
from tests.factories import make_release, make_storage_system, make_submission, publish_list

pytestmark = pytest.mark.django_db


def official_then_reconstructed() -> None:
    """SC44: an official list of 20 systems, the best scoring 400; ISC45: no official list, its Full
    list reconstructed from the 20 earlier runs and 2 new ones, the best new one scoring 4."""
    sc44 = make_release(name="SC44", publication_date=datetime.date(2044, 11, 15))
    isc45 = make_release(name="ISC45", publication_date=datetime.date(2045, 6, 20))
    earlier = [
        make_submission(release=sc44, storage_system=make_storage_system(), bw=400.0 - n, md=400.0 - n)
        for n in range(20)
    ]
    publish_list(sc44, "io500", earlier, provenance=ListSnapshot.Provenance.RECORDED)
    new = [
        make_submission(release=isc45, storage_system=make_storage_system(), bw=4.0, md=4.0),
        make_submission(release=isc45, storage_system=make_storage_system(), bw=2.0, md=2.0),
    ]
    publish_list(isc45, "full", [*earlier, *new], provenance=ListSnapshot.Provenance.RECONSTRUCTED)


def test_a_reconstructed_release_is_a_series_of_its_own_with_its_entry_count():
    official_then_reconstructed()
    data = history_trends_data(kind="main")
    assert [row["release"] for row in data["releases"]] == ["SC44"]
    assert data["releases"][0]["score"]["top"] == pytest.approx(400.0)
    # Before: "ISC25 (reconstructed)" was the next point of the official line, its best a hundredth.
    assert [(row["release"], row["count"]) for row in data["reconstructed"]] == [("ISC45", 2)]
    assert data["reconstructed"][0]["score"]["top"] == pytest.approx(4.0)


def test_the_history_page_tells_the_two_series_apart_without_javascript(client: Client) -> None:
    official_then_reconstructed()
    html = client.get("/history/").content.decode()
    assert 'data-role="trend-reconstructed-note"' in html and "ISC45: 2 entries" in html
    assert 'data-fallback="trends-reconstructed"' in html
    official_table = html.split('data-fallback="trends"', 1)[1].split("</table>", 1)[0]
    assert "ISC45" not in official_table and "SC44" in official_table
