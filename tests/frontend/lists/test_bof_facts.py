"""The BoF facts of ISC25 and SC25 on their release pages: the slides' words with their source."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from tests.factories import make_release

pytestmark = pytest.mark.django_db
KINDS = ["production", "research", "ten-node-production", "ten-node-research", "full", "historical"]


def test_the_sc25_pages_show_its_slide_counts_and_awards_with_their_source(client: Client) -> None:
    make_release(name="SC25", slug="sc25", publication_date=datetime.date(2025, 11, 20), list_kinds=KINDS)
    for kind in ("production", "full"):
        response = client.get(f"/lists/sc25/{kind}/")
        assert response.status_code == 200
        section = response.content.decode().split('data-role="bof-facts"', 1)[1].split("</section>", 1)[0]
        assert "webroot/files/SC25_IO500_Presentation.pdf" in section and "3e9750744f9b" in section
        assert (
            '<li class="bof-level-0">22 new submissions added</li><li class="bof-level-1">3 new on Prod list'
            in section
        )
        assert (
            '<li class="bof-level-1">1 new on Research list</li><li class="bof-level-2">1 was not accepted'
            in section
        )
        assert '<li class="bof-level-0">Around 300 list entries</li>' in section
        assert "(slide 26)" in section and "(slide 24)" in section
        assert "<dt>Research</dt>" in section
        assert "Bandwidth: Argonne National Laboratory, DAOS, 11,362.27 GB/s;" in section
        assert "Overall: Pengcheng Laboratory, SuperFS, 210,255.00 score" in section
        # Facts, not a list: sentences and a definition list, no table rows or ranks.
        assert "<table" not in section and "<td" not in section and 'data-role="rank"' not in section


def test_the_isc25_page_shows_its_own_slides(client: Client) -> None:
    make_release(name="ISC25", slug="isc25", publication_date=datetime.date(2025, 6, 11), list_kinds=KINDS)
    html = client.get("/lists/isc25/research/").content.decode()
    assert "webroot/files/ISC25_IO500_Presentation.pdf" in html and "147d04b46f77" in html
    assert "19 submissions (2 rejected)" in html and "Around 285 list entries" in html
    assert "Bandwidth: Argonne National Laboratory, DAOS, 6,048.49 GB/s" in html
    assert "files/SC25_IO500_Presentation" not in html


def test_a_release_without_recorded_slides_shows_none(client: Client) -> None:
    make_release(name="ISC24", slug="isc24", publication_date=datetime.date(2024, 5, 14), list_kinds=KINDS)
    html = client.get("/lists/isc24/production/").content.decode()
    assert 'data-role="bof-facts"' not in html
