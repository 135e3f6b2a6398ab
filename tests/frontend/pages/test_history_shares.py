"""The history page's shares over time: a CSV of every release's entries by canonical file system,
vendor and country (spellings of one name counted together, nothing folded into "Other"), linked from
the page; shares by country only where a site names one, else a plain sentence saying none does; and
the file-system filter by canonical name."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.test import Client

from submissions.models import Institution, StorageSystem
from tests.factories import (
    make_release,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)

pytestmark = pytest.mark.django_db

# (file system, vendor) as io500.org recorded them (tests/registry/lists/real_facet_values.json).
RECORDED = (("BeeGFS", "ThinkparQ"), ("beegfs", "ThinkparQ"), ("GPFS", "IBM"), ("Spectrum Scale", "IBM"))


def build_releases() -> None:
    systems = [
        make_storage_system(name=f"Machine {n}", filesystem_type=fs, vendor=vendor)
        for n, (fs, vendor) in enumerate(RECORDED)
    ]
    for year in (2060, 2061):
        release = make_release(name=f"SC{year - 2000}", publication_date=datetime.date(year, 11, 15))
        ranked = [
            make_submission(release=release, storage_system=system, bw=10.0 - n, md=10.0)
            for n, system in enumerate(systems)
        ]
        for submission in ranked:
            make_system_description(submission=submission, client_nodes=10)
        publish_list(release, "io500", ranked)


def shares_csv(client: Client) -> list[dict[str, str]]:
    response = client.get("/charts/history/shares.csv", {"kind": "io500"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_shares_csv_counts_every_spelling_of_a_name_under_its_canonical_name(client: Client) -> None:
    build_releases()
    rows = shares_csv(client)
    sc60 = [
        (r["dimension"], r["name"], r["entries"], r["counted_entries"], r["share_percent"])
        for r in rows
        if r["release"] == "SC60"
    ]
    assert sc60 == [
        ("file system", "BeeGFS", "2", "4", "50.0"),
        ("file system", "IBM Storage Scale (GPFS)", "2", "4", "50.0"),
        ("storage vendor", "IBM", "2", "4", "50.0"),
        ("storage vendor", "ThinkParQ", "2", "4", "50.0"),
    ]
    assert {r["release"] for r in rows} == {"SC60", "SC61"}
    assert rows[0]["release_date"] == "2060-11-15"


def test_the_history_page_links_the_csv_and_says_plainly_that_no_record_names_a_country(
    client: Client,
) -> None:
    build_releases()
    html = client.get("/history/", {"kind": "io500"}).content.decode()
    assert 'href="/charts/history/shares.csv?kind=io500"' in html
    assert "No country statistics: none of the imported records names a country" in html
    assert 'data-fallback="shares-country"' not in html


def test_where_a_site_names_a_country_the_page_and_csv_count_those_entries_only(client: Client) -> None:
    build_releases()
    site = Institution.objects.create(name="Lab in the US", country="USA")
    StorageSystem.objects.filter(name="Machine 0").update(institution=site)
    html = client.get("/history/", {"kind": "io500"}).content.decode()
    assert 'data-fallback="shares-country"' in html
    assert "Counted: the 2 of 8 entries whose site record here names a country" in html
    assert "No country statistics" not in html
    countries = [
        (r["release"], r["name"], r["entries"]) for r in shares_csv(client) if r["dimension"] == "country"
    ]
    assert countries == [("SC60", "United States", "1"), ("SC61", "United States", "1")]


def test_the_history_file_system_filter_offers_canonical_names_and_matches_every_spelling(
    client: Client,
) -> None:
    build_releases()
    response = client.get("/history/", {"kind": "io500", "filesystem": "spectrumscale"})
    assert response.context["points"]["filesystems"] == ["BeeGFS", "IBM Storage Scale (GPFS)"]
    assert response.context["points"]["count"] == 4  # GPFS and Spectrum Scale, in both releases
    assert "<option selected>IBM Storage Scale (GPFS)</option>" in response.content.decode()
    points = client.get("/charts/history/points.json", {"kind": "io500", "filesystem": "beegfs"}).json()[
        "points"
    ]
    assert sorted(point["filesystem"] for point in points) == ["BeeGFS", "BeeGFS", "beegfs", "beegfs"]
