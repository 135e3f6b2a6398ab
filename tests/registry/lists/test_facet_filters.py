"""The file-system and vendor facets of a list group io500.org's spelling variants under one canonical
name (registry.lists.facet_names): the drop-down offers each name once with its entry count, and any
spelling, the canonical name or its slug selects every entry recorded under any spelling of it, on
the page, the CSV and the API alike. Rows keep the value as recorded."""

from __future__ import annotations

import csv
import datetime
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from registry.lists.facet_names import canonical, slug
from registry.models import ListSnapshot
from submissions.models import Submission
from tests.factories import (
    make_release,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)

pytestmark = pytest.mark.django_db

REAL = json.loads((Path(__file__).parent / "real_facet_values.json").read_text())
URL = "/lists/sc51/io500/"
# (file system, vendor) as io500.org recorded them, rank 1 first: spellings taken from the real data.
RECORDED = (
    ("BeeGFS", "ThinkparQ"),
    ("beegfs", "ThinkparQ"),
    ("Spectrum Scale", "Intel Corporation"),
    ("GPFS", "Intel"),
    ("Weka.io", "Weka.io"),
    ("wekafs", "WekaIO"),
    ("wekaio", "WekaIO"),
    ("IBM Storage Scale", "Intel"),
)


def build_list() -> tuple[ListSnapshot, list[Submission]]:
    for filesystem, vendor in RECORDED:  # the test data is real, not made up
        assert filesystem in REAL["filesystems"]
        assert vendor in REAL["vendors"]
    release = make_release(name="SC51", publication_date=datetime.date(2051, 11, 15))
    made = []
    for number, (filesystem, vendor) in enumerate(RECORDED):
        system = make_storage_system(name=f"Machine {number}", filesystem_type=filesystem, vendor=vendor)
        submission = make_submission(release=release, storage_system=system, bw=100.0 - number, md=10.0)
        make_system_description(submission=submission, client_nodes=10)
        made.append(submission)
    return publish_list(release, "io500", made), made


def recorded(client: Client, url: str = URL, **params: str) -> list[tuple[str, str]]:
    response = client.get(url, params)
    assert response.status_code == 200, response.content[:400]
    return [(row["filesystem"], row["storage_vendor"]) for row in response.context["rows"]]


WEKA = [("Weka.io", "Weka.io"), ("wekafs", "WekaIO"), ("wekaio", "WekaIO")]
SCALE = [("Spectrum Scale", "Intel Corporation"), ("GPFS", "Intel"), ("IBM Storage Scale", "Intel")]


@pytest.mark.parametrize(
    "asked",
    ["WekaFS", "wekafs", "Weka.io", "WekaIO", "wekaio", slug("WekaFS")],
)
def test_any_spelling_of_a_file_system_selects_every_entry_recorded_under_any_of_its_spellings(
    client: Client, asked: str
) -> None:
    build_list()
    assert recorded(client, filesystem=asked) == WEKA


@pytest.mark.parametrize(
    "asked", ["IBM Storage Scale (GPFS)", "GPFS", "SpectrumScale", "ibm-storage-scale-gpfs"]
)
def test_an_old_name_of_spectrum_scale_selects_all_three_of_its_names(client: Client, asked: str) -> None:
    build_list()
    assert recorded(client, filesystem=asked) == SCALE


def test_beegfs_in_either_case_selects_both_spellings_and_rows_keep_them_as_recorded(client: Client) -> None:
    build_list()
    assert recorded(client, filesystem="BeeGFS") == [("BeeGFS", "ThinkparQ"), ("beegfs", "ThinkparQ")]


def test_a_vendor_matches_its_company_suffixes_and_aliases(client: Client) -> None:
    build_list()
    assert recorded(client, vendor="Intel") == SCALE
    assert recorded(client, vendor="WekaIO") == WEKA
    assert recorded(client, vendor="weka-io") == WEKA


def test_an_unknown_file_system_matches_nothing(client: Client) -> None:
    build_list()
    assert recorded(client, filesystem="Lustre") == []


def test_the_drop_downs_offer_each_canonical_name_once_with_its_entry_count(client: Client) -> None:
    build_list()
    response = client.get(URL, {"filesystem": "gpfs"})
    options = [
        (option.value, option.label, option.selected) for option in response.context["filesystem_options"]
    ]
    assert options == [
        ("BeeGFS", "BeeGFS (2)", False),
        ("IBM Storage Scale (GPFS)", "IBM Storage Scale (GPFS) (3)", True),
        ("WekaFS", "WekaFS (3)", False),
    ]
    vendors = [(option.value, option.label) for option in response.context["vendor_options"]]
    assert vendors == [("Intel", "Intel (3)"), ("ThinkParQ", "ThinkParQ (2)"), ("WekaIO", "WekaIO (3)")]
    html = response.content.decode()
    assert '<option value="IBM Storage Scale (GPFS)" selected>IBM Storage Scale (GPFS) (3)</option>' in html
    assert ">beegfs<" not in html and ">Weka.io<" not in html
    assert "each row still shows the name as recorded" in html


def test_a_name_from_a_shared_link_that_this_list_lacks_stays_selected(client: Client) -> None:
    build_list()
    options = client.get(URL, {"filesystem": "Lustre"}).context["filesystem_options"]
    assert options[-1].value == "Lustre" and options[-1].selected


def test_the_csv_and_the_api_filter_by_the_canonical_name_too(client: Client) -> None:
    build_list()
    csv_text = client.get("/lists/sc51/io500.csv", {"filesystem": "WekaFS"}).content.decode()
    assert [row["filesystem"] for row in csv.DictReader(io.StringIO(csv_text))] == [
        "Weka.io",
        "wekafs",
        "wekaio",
    ]
    payload: dict[str, Any] = client.get("/api/v1/lists/sc51/io500/", {"filesystem": "gpfs"}).json()
    assert [row["filesystem"] for row in payload["rows"]] == ["Spectrum Scale", "GPFS", "IBM Storage Scale"]


def test_the_sublist_statistics_count_spellings_of_one_name_together(client: Client) -> None:
    build_list()
    response = client.get(URL, {"vendor": "Intel"})
    shares = {share["key"]: share["items"] for share in response.context["result"].statistics["shares"]}
    assert shares["filesystem"] == [{"name": canonical("filesystem", "GPFS"), "count": 3, "percent": 100.0}]


def test_a_chosen_facet_links_the_page_of_every_entry_of_that_name(client: Client) -> None:
    build_list()
    html = client.get(URL, {"filesystem": "wekaio", "vendor": "Intel Corporation"}).content.decode()
    assert (
        '<a href="/file-systems/wekafs/" data-role="facet-entity">Every WekaFS entry across releases</a>'
        in html
    )
    assert '<a href="/vendors/intel/" data-role="facet-entity">Every Intel entry across releases</a>' in html
    assert client.get("/file-systems/wekafs/").status_code == 200
