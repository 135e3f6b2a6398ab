"""Site, vendor and file-system pages: every entry of one canonical name across releases."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frontend.charts.entities import entity_detail, entity_index
from registry.core.generations import charts_invalidate
from submissions.models import Submission
from tests.factories import make_storage_system, make_submission, make_system_description, publish_list
from tests.support.chart_data import History, build_history

pytestmark = pytest.mark.django_db


def _spelled_history() -> tuple[History, list[Submission]]:
    """build_history plus one ISC41 entry whose file system is spelled "lustre" and one "GPFS" and
    one "Spectrum Scale" run."""
    history = build_history()
    lower = make_storage_system(name="Green", filesystem_type="lustre", vendor="DDN")
    gpfs = make_storage_system(name="Old", filesystem_type="GPFS", vendor="IBM")
    scale = make_storage_system(name="New", filesystem_type="SpectrumScale", vendor="IBM")
    runs = [
        make_submission(release=history.new, storage_system=s, bw=5.0, md=5.0) for s in (lower, gpfs, scale)
    ]
    for run in runs:
        make_system_description(submission=run)
    publish_list(history.new, "ten-node", runs)
    return history, runs


def test_spellings_of_one_file_system_share_one_page_that_shows_each_as_recorded(client):
    history, _runs = _spelled_history()
    response = client.get("/file-systems/lustre/")
    assert response.status_code == 200
    entity = response.context["entity"]
    assert entity["spellings"] == ["Lustre", "lustre"]
    assert {row["system"] for row in entity["entries"]} == {"Blue", "Green"}
    assert [(row["release"], row["kind"]) for row in entity["entries"]] == [
        ("ISC41", "ten-node"),
        ("ISC41", "io500"),
        ("SC40", "io500"),
    ]
    html = response.content.decode()
    assert f'href="/systems/{history.lustre.pk}/"' in html
    assert 'data-chart="trend"' in html and "/charts/file-systems/lustre/trends.json" in html


def test_gpfs_and_spectrum_scale_are_one_renamed_product():
    _spelled_history()
    entity = entity_detail("filesystem", "ibm-storage-scale-gpfs")
    assert entity is not None
    assert entity["spellings"] == ["GPFS", "SpectrumScale"]
    assert {system["name"] for system in entity["systems"]} == {"Old", "New"}


def test_the_index_counts_entries_systems_and_releases_per_canonical_name():
    _spelled_history()
    by_slug = {item["slug"]: item for item in entity_index("filesystem")}
    assert by_slug["lustre"]["entries"] == 3
    assert by_slug["lustre"]["systems"] == 2
    assert by_slug["lustre"]["releases"] == 2
    assert "beegfs" in by_slug and "daos" in by_slug


def test_the_best_score_per_release_counts_only_the_main_lists_once_per_run(client):
    _spelled_history()
    data = client.get("/charts/file-systems/lustre/trends.json").json()
    assert [(row["release"], row["count"]) for row in data["releases"]] == [("SC40", 1), ("ISC41", 1)]
    assert data["releases"][1]["score"]["top_system"] == "Blue"
    assert data["reconstructed"] == []


def test_a_name_no_entry_has_is_not_found(client):
    build_history()
    assert client.get("/vendors/nobody/").status_code == 404
    assert client.get("/charts/vendors/nobody/trends.json").status_code == 404


def test_list_rows_and_the_system_page_link_to_the_entity_pages(client):
    history = build_history()
    list_html = client.get("/lists/isc41/io500/").content.decode()
    assert 'href="/file-systems/lustre/"' in list_html and 'href="/vendors/thinkparq/"' in list_html
    system_html = client.get(f"/systems/{history.lustre.pk}/").content.decode()
    assert 'href="/file-systems/lustre/"' in system_html and 'href="/vendors/ddn/"' in system_html


@pytest.mark.parametrize("url", ["/sites/", "/vendors/", "/file-systems/", "/file-systems/beegfs/"])
def test_entity_pages_run_a_fixed_number_of_queries_however_many_entries(client, url):
    history = build_history()
    counts = []
    for more in (0, 30):
        if more:
            extra = [
                make_submission(
                    release=history.new, storage_system=make_storage_system(filesystem_type="BeeGFS")
                )
                for _ in range(more)
            ]
            publish_list(history.new, "ten-node", extra)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert counts[0] <= 3


def test_an_entity_pages_rows_link_the_pages_of_their_other_facets_but_not_their_own(client):
    _spelled_history()
    html = client.get("/file-systems/ibm-storage-scale-gpfs/").content.decode()
    assert '<a href="/vendors/ibm/"><bdi>IBM</bdi></a>' in html
    assert '<a href="/file-systems/ibm-storage-scale-gpfs/">' not in html
    assert "<td><bdi>SpectrumScale</bdi></td>" in html  # its own facet: the recorded spelling, as text


def test_a_list_published_after_an_entity_page_was_read_shows_on_it():
    # The grouped rows are kept in the process per chart generation: a publication moves the
    # generation on, and the next read groups the new entries too, even with nothing else cached.
    history = build_history()
    assert _lustre_systems() == {"Blue"}
    newcomer = make_storage_system(name="Teal", filesystem_type="Lustre", vendor="DDN")
    run = make_submission(release=history.new, storage_system=newcomer, bw=5.0, md=5.0)
    make_system_description(submission=run)
    publish_list(history.new, "ten-node", [run])
    charts_invalidate()  # what a publication's lists_changed signal does (publish_list sends none)
    assert "Teal" in _lustre_systems()
    cache.clear()  # a flushed cache starts a generation no earlier one equals
    assert "Teal" in _lustre_systems()


def _lustre_systems() -> set[str]:
    detail = entity_detail("filesystem", "lustre")
    assert detail is not None
    return {row["system"] for row in detail["entries"]}
