"""The list page body and anonymous pages are cached until a publish, an import or a release change;
rows are rendered without the template engine but escaped as it would."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from frontend.lists.table import rows_html, two_decimals
from registry.core.generations import charts_generation, list_cache_generation
from registry.lists.services import list_build
from registry.models import ListSnapshot
from tests.factories import make_release
from tests.support.chart_data import build_history

ROW = {
    "rank": 3,
    "id": 42,
    "release": "SC19",
    "institution": "Lab <R&D>",
    "system": '<script>alert("x")</script>',
    "storage_vendor": None,
    "filesystem": "Lustre",
    "client_nodes": 10,
    "total_procs": 320,
    "score": 12.345,
    "bw": 1.005,
    "md": None,
    "reproducibility": "limited",
    "reproducibility_label": "Limited",
    "submitter": None,
}


def test_rows_escape_every_value_and_link_the_submission_page():
    html = rows_html([ROW], detail_prefix="/submissions/", with_custom=False)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "Lab &lt;R&amp;D&gt;" in html
    assert html.count('href="/submissions/42/"') == 2
    assert '<tr data-submission="42">' in html
    assert "repro-limited" in html and ">Limited</span>" in html
    assert "custom-col" not in html


def test_custom_columns_appear_only_with_custom_weights():
    row = {**ROW, "custom_score": 2.5, "custom_rank": 1}
    html = rows_html([row], detail_prefix="/submissions/", with_custom=True)
    assert html.count("custom-col") == 2
    assert '<td class="num custom-col col-custom_score">2.50</td>' in html


@pytest.mark.parametrize("value", [12.345, 1.005, 0.125, 2.675, 1792.98, 0.0, 3.0, 1e-05, 123456.789])
def test_numbers_read_as_the_floatformat_filter_shows_them(value):
    assert two_decimals(value) == floatformat(value, 2)


def test_a_missing_number_is_an_empty_cell():
    assert two_decimals(None) == ""


@pytest.mark.django_db
def test_an_anonymous_reader_gets_the_stored_page_without_a_query(client, django_assert_num_queries):
    build_history()
    first = client.get("/lists/isc41/io500/")
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get("/lists/isc41/io500/")
    assert again.content == first.content
    assert "Log in" in again.content.decode()


@pytest.mark.django_db
def test_the_tab_of_a_list_never_published_is_stored_until_a_draft_changes_what_it_says(
    client, django_assert_num_queries, django_capture_on_commit_callbacks
):
    # Home links every tab of its release, published or not (SC24's Production list is not public).
    release = make_release(name="SC20", publication_date=datetime.date(2020, 11, 17))
    first = client.get("/lists/sc20/ten-node/")
    assert "The registry does not rebuild the 10 Node Challenge list" in first.content.decode()
    with django_assert_num_queries(0):
        again = client.get("/lists/sc20/ten-node/")
    assert again.content == first.content
    with django_capture_on_commit_callbacks(execute=True):
        list_build(release=release, kind="ten-node")
    after = client.get("/lists/sc20/ten-node/").content.decode()
    assert "The 10 Node Challenge list of SC20 has not been published yet." in after


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("release_fields", "query"),
    [
        # Time alone ends an embargo or brings a publication date: no generation bump says so.
        ({"embargo_end": timezone.now() + datetime.timedelta(days=1)}, {}),
        ({"publication_date": timezone.localdate() + datetime.timedelta(days=1)}, {}),
        # A version or a filter of a list that is not there: answered, never kept.
        ({}, {"version": "2"}),
        ({}, {"q": "Lustre"}),
    ],
)
def test_a_list_not_published_is_looked_up_again_when_time_or_the_query_may_change_it(
    client, release_fields, query
):
    make_release(**{"name": "SC20", "publication_date": datetime.date(2020, 11, 17), **release_fields})
    assert client.get("/lists/sc20/ten-node/", query).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/lists/sc20/ten-node/", query).status_code == 200
    assert len(queries) > 0


@pytest.mark.django_db
def test_a_logged_in_reader_sees_the_cached_list_under_their_own_header(client):
    build_history()
    anonymous = client.get("/lists/isc41/io500/").content.decode()
    reader = User.objects.create_user("reader", password="a-long-password-1")
    signed_in = Client()
    signed_in.force_login(reader)
    page = signed_in.get("/lists/isc41/io500/").content.decode()
    assert "reader" in page and "Log out" in page
    assert "reader" not in anonymous
    # The same list body, under another header.
    assert page.count("<tr data-submission=") == anonymous.count("<tr data-submission=") == 5


@pytest.mark.django_db
def test_tracking_parameters_share_the_cached_page_and_stay_out_of_links(client):
    build_history()
    page = client.get("/lists/isc41/io500/", {"o": "bw", "utm_source": "mail"}).content.decode()
    assert "utm_source" not in page
    assert "o=bw" in page


@pytest.mark.django_db
def test_a_release_moved_under_embargo_leaves_the_cached_home_at_once(
    client, django_capture_on_commit_callbacks
):
    # Set-up commits on its own in production; here the test's transaction holds it.
    with django_capture_on_commit_callbacks(execute=True):
        history = build_history()
    assert "ISC41" in client.get("/").content.decode()
    history.new.embargo_end = timezone.now() + datetime.timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        history.new.save(update_fields=["embargo_end"])
    home = client.get("/").content.decode()
    assert "The newest IO500 list: SC40" in home


@pytest.mark.django_db
def test_the_home_page_is_cached_no_longer_than_the_next_embargo_lasts(client):
    from registry.lists.selectors import seconds_until_next_embargo_end

    history = build_history()
    assert seconds_until_next_embargo_end(cap=3600) == 3600
    history.new.embargo_end = timezone.now() + datetime.timedelta(seconds=90)
    history.new.save(update_fields=["embargo_end"])
    assert 80 <= seconds_until_next_embargo_end(cap=3600) <= 90


@pytest.mark.django_db
def test_import_io500_drops_cached_lists_and_charts_and_stores_chart_digests(io500_data: Path) -> None:
    lists_before, charts_before = list_cache_generation(), charts_generation()
    output = io.StringIO()
    call_command("import_io500", str(io500_data), "--skip-raw", stdout=output)
    assert list_cache_generation() != lists_before
    assert charts_generation() != charts_before
    ranked = ListSnapshot.objects.filter(kind__in=["io500", "ten-node"]).exclude(status="draft")
    assert ranked.exists() and not ranked.filter(chart_digest__isnull=True).exists()
    assert "Chart data of" in output.getvalue()
