"""The list index (/lists/): every release and list kind with its entry count and provenance, in a
fixed number of queries; the release picker still submits there."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from frontend.lists.selectors import IndexedList, list_index
from registry.models import ListSnapshot
from tests.factories import make_release, make_submission, publish_list

pytestmark = pytest.mark.django_db


def _past(days: int) -> datetime.date:
    return timezone.localdate() - datetime.timedelta(days=days)


def _by_kind(release_slug: str) -> dict[str, IndexedList]:
    found = next(item for item in list_index() if item.release.slug == release_slug)
    return {item.kind: item for item in found.lists}


def test_every_release_and_kind_is_indexed_with_counts_and_provenance():
    older = make_release(name="SC30", publication_date=_past(400), list_kinds=["io500", "full", "historical"])
    newer = make_release(
        name="ISC31", publication_date=_past(200), list_kinds=["production", "research", "full"]
    )
    runs = [make_submission() for _ in range(3)]
    publish_list(older, "io500", runs[:2], provenance=ListSnapshot.Provenance.RECORDED)
    publish_list(older, "full", runs, provenance=ListSnapshot.Provenance.RECONSTRUCTED)
    publish_list(newer, "research", runs[2:], provenance=ListSnapshot.Provenance.PUBLISHED_HERE)
    index = list_index()
    names = [item.release.name for item in index]
    assert names.index("ISC31") < names.index("SC30")  # newest first
    sc30 = _by_kind("sc30")
    assert list(sc30) == ["io500", "full", "historical"]  # tab order
    assert (sc30["io500"].entries, sc30["io500"].provenance) == (2, "recorded")
    assert (sc30["full"].entries, sc30["full"].provenance) == (3, "reconstructed")
    assert not sc30["historical"].published
    isc31 = _by_kind("isc31")
    assert list(isc31) == ["production", "research", "full"]
    assert isc31["research"].published and not isc31["production"].published


def test_a_correction_shows_as_the_current_version_and_drafts_and_embargoes_stay_out():
    release = make_release(name="SC30", publication_date=_past(400), list_kinds=["io500", "full"])
    runs = [make_submission() for _ in range(3)]
    first = publish_list(release, "io500", runs[:1])
    publish_list(release, "io500", runs, version=2, correction_reason="a duplicate", label="SC30*")
    first.status = ListSnapshot.Status.SUPERSEDED
    first.save()
    ListSnapshot.objects.create(release=release, kind="full", status=ListSnapshot.Status.DRAFT)
    hidden = make_release(
        name="ISC31", publication_date=_past(1), embargo_end=timezone.now() + datetime.timedelta(days=1)
    )
    publish_list(hidden, "io500", runs)
    sc30 = _by_kind("sc30")
    assert (sc30["io500"].version, sc30["io500"].entries) == (2, 3)
    assert not sc30["full"].published
    assert not any(item.published for item in _by_kind("isc31").values())


def test_the_index_is_a_fixed_number_of_queries(django_assert_max_num_queries):
    for n in range(4):
        release = make_release(name=f"SC{40 + n}", publication_date=_past(100 + n))
        publish_list(release, "io500", [make_submission()])
    with django_assert_max_num_queries(2):
        list_index()


def test_the_index_page_links_each_published_list_and_the_newest_list_stays_home(client):
    release = make_release(name="SC30", publication_date=_past(400), list_kinds=["io500", "full"])
    publish_list(release, "io500", [make_submission(), make_submission()], provenance="recorded")
    page = client.get("/lists/").content.decode()
    assert 'href="/lists/sc30/io500/"' in page
    html = page.split('data-release="sc30"', 1)[1].split("</section>", 1)[0]
    row = html.split('data-kind="io500"', 1)[1].split("</tr>", 1)[0]
    assert '<td class="num">2</td>' in row and "Recorded as io500.org published it" in row
    full = html.split('data-kind="full"', 1)[1].split("</tr>", 1)[0]
    assert "not published" in full and "href" not in full
    assert 'href="/"' in page  # the newest list keeps its address: home


def test_the_release_picker_still_opens_a_release_and_an_empty_choice_the_index(client):
    make_release(name="SC30", publication_date=_past(400))
    assert client.get("/lists/", {"release": "sc30"}).url == "/lists/sc30/"
    assert client.get("/lists/", {"release": " "}).url == "/lists/"
