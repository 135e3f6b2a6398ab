"""The one sentence per release on what is public of its lists (issue 26)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from registry.lists.public_record import presented_lists, record_sentence, release_public_records
from registry.models import ListSnapshot, Release
from tests.factories import make_release, make_submission

TODAY = datetime.date(2026, 11, 28)
SC24 = Release(name="SC24", slug="sc24", publication_date=datetime.date(2024, 11, 19))
KINDS = ["production", "research", "ten-node-production", "ten-node-research", "full", "historical"]


def sentence(name: str, day: datetime.date, **given: object) -> str:
    release = Release(name=name, slug=name.lower(), publication_date=day, list_kinds=KINDS)
    facts: dict[str, object] = {
        "recorded_kinds": [],
        "committee_published": False,
        "public_runs": 0,
        "data_ends_with": SC24,
        "presented_source": "",
        "newest_with_runs": "",
        "today": TODAY,
    }
    facts.update(given)
    return record_sentence(release, **facts)  # type: ignore[arg-type]


def test_a_release_after_the_public_data_whose_lists_were_presented_says_so_with_its_runs():
    text = sentence("ISC25", datetime.date(2025, 6, 11), public_runs=7, presented_source="slides")
    assert text.startswith(
        "io500.org published its ISC25 lists at its BoF of 11 June 2025, but the public list data "
        "ends with SC24 and holds none of them."
    )
    assert "7 public runs belong to ISC25: its Full and Historical lists are reconstructed here" in text


def test_a_release_without_a_public_run_gets_no_list_under_its_name_and_names_what_exists():
    text = sentence("ISC26", datetime.date(2026, 6, 24), presented_source="slides", newest_with_runs="SC25")
    assert "No public run belongs to ISC26, so no list is shown under its name." in text
    assert text.endswith("The newest public runs are SC25's.")


def test_a_past_bof_no_public_file_shows_was_due_not_published():
    text = sentence("SC26", datetime.date(2026, 11, 18))
    assert text.startswith("io500.org's SC26 lists were due at its BoF of 18 November 2026;")
    assert "published its" not in text


def test_a_partly_public_release_names_what_is_public_and_what_is_not():
    release = Release(name="SC24", slug="sc24", publication_date=SC24.publication_date, list_kinds=KINDS)
    text = record_sentence(
        release,
        recorded_kinds=["research"],
        committee_published=False,
        public_runs=6,
        data_ends_with=SC24,
        presented_source="",
        newest_with_runs="ISC24",
        today=TODAY,
    )
    assert text.startswith("Of io500.org's lists of SC24 only the Research list is in a public file")
    assert "its Full and Historical lists are reconstructed here (not official)" in text


def test_a_future_release_and_a_committee_release_say_so():
    future = sentence("ISC27", datetime.date(2027, 6, 1))
    assert future == "The lists of ISC27 are due at its BoF of 1 June 2027."
    published = sentence("ISC26", datetime.date(2026, 6, 24), committee_published=True)
    assert published == "The lists of ISC26 were published here by this registry's committee."


def test_the_presented_releases_name_their_public_file():
    presented = presented_lists()
    assert set(presented) == {"ISC25", "SC25", "ISC26"}
    assert all(source.startswith("IO500/webpage ") for source in presented.values())


@pytest.mark.django_db
def test_records_read_the_newest_recorded_list_and_each_release_s_public_runs(django_assert_num_queries):
    sc24 = make_release(name="SC24", publication_date=datetime.date(2024, 11, 19), list_kinds=KINDS)
    isc25 = make_release(name="ISC25", publication_date=datetime.date(2025, 6, 11), list_kinds=KINDS)
    isc26 = make_release(name="ISC26", publication_date=datetime.date(2026, 6, 24), list_kinds=KINDS)
    ListSnapshot.objects.create(
        release=sc24,
        kind="research",
        status=ListSnapshot.Status.PUBLISHED,
        provenance=ListSnapshot.Provenance.RECORDED,
        published_at=timezone.now(),
    )
    make_submission(release=isc25)
    make_submission(release=isc25)
    with django_assert_num_queries(2):
        records = release_public_records([isc25, isc26])
    assert records[isc25.pk].public_runs == 2 and records[isc25.pk].data_ends_with == "SC24"
    assert "2 public runs belong to ISC25" in records[isc25.pk].sentence
    assert records[isc26.pk].public_runs == 0 and records[isc26.pk].after_public_data
    assert records[isc26.pk].newest_with_runs == "ISC25"
    assert "No public run belongs to ISC26" in records[isc26.pk].sentence
