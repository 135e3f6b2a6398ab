"""Citations of results and lists (frontend.lists.citation): what they name, as text and as BibTeX,
on the submission and list pages, and how long a page printing the retrieval date is kept."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client, RequestFactory
from django.utils import timezone
from django.utils.html import escape

from frontend.lists.citation import bibtex_escape, retrieval_date
from registry.core import public_cache
from registry.core.public_cache import seconds_until_next_day
from registry.models import ListEntry, ListSnapshot
from submissions.models import ReviewState, Submission
from tests.factories import make_release, make_storage_system, make_submission, publish_list


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def test_bibtex_fields_print_every_character_as_typed() -> None:
    assert bibtex_escape("R&D_lab {x} #1 50% $ ~ ^ \\") == (
        r"R\&D\_lab \{x\} \#1 50\% \$ \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    assert bibtex_escape("Pengcheng Cloudbrain-II on Atlas 900") == "Pengcheng Cloudbrain-II on Atlas 900"


def test_a_list_page_offers_its_citation_as_text_and_bibtex(client: Client, imported_history: Path) -> None:
    html = page(client, "/lists/sc19/io500/")
    today = retrieval_date().isoformat()
    assert 'data-role="citation"' in html and "Cite this list" in html
    text = (
        "IO500 SC19 IO500 list, version 1, published 2019-11-19 (recorded as io500.org published it). "
        f"IO500 results registry, http://127.0.0.1:8000/lists/sc19/io500/?version=1, retrieved {today}. "
        "io500.org&#x27;s archive of the SC19 lists: https://doi.org/10.5281/zenodo.6462493."
    )
    assert text in html
    assert "@misc{io500-sc19-io500-v1," in html
    assert "  title = {{IO500 SC19 IO500 list}}" in html and "  month = nov" in html
    assert f"  urldate = {{{today}}}" in html
    # The verdicts and reproducibility levels of its entries (no raw files in this import).
    # io500.org's public data records no level: "not recorded", not the committee level "Undefined".
    assert "Published record 22" in html and "not recorded 22" in html
    # What the IO500 Messaging Policy asks, in its words.
    assert escape("must be listed as “verified”") in html
    assert "Specify the List Instance" in html and "templates/Pages/rules_messaging.php" in html


def test_a_superseded_list_is_cited_as_such(client: Client, imported_history: Path) -> None:
    html = page(client, "/lists/sc18/io500/?version=1")
    assert "@misc{io500-sc18-io500-v1," in html
    assert "superseded by a corrected version" in html


@pytest.mark.django_db
def test_a_reconstructed_list_is_cited_as_not_official(client: Client) -> None:
    release = make_release(name="SC45")
    publish_list(
        release,
        "full",
        [make_submission(release=release)],
        provenance=ListSnapshot.Provenance.RECONSTRUCTED,
    )
    html = page(client, "/lists/sc45/full/")
    assert (
        "Reconstructed here from the public data by the registry&#x27;s rules; not an official IO500 list"
        in html
    )
    assert "doi.org" not in html


def test_a_submission_page_cites_its_first_placement_with_verdict_and_reproducibility(
    client: Client, imported_history: Path
) -> None:
    entry = ListEntry.objects.select_related("submission").get(
        snapshot__release__slug="isc20", snapshot__kind="io500", rank=1
    )
    submission = entry.submission
    html = page(client, f"/submissions/{submission.pk}/")
    today = retrieval_date().isoformat()
    assert 'href="#cite"' in html and "Cite this result" in html
    text = (
        f"Wolf (Intel, DAOS): IO500 submission {submission.pk}, #1 on the IO500 list at ISC20 "
        "(verified; list entry io500-isc20-io500-v1-1). Registry verdict: Published record; "
        f"reproducibility: not recorded. IO500 results registry, "
        f"http://127.0.0.1:8000/submissions/{submission.pk}/, retrieved {today}."
    )
    assert text in html
    assert f"@misc{{io500-submission-{submission.pk}," in html
    # The institution is credited as a corporate author (kept whole) and as the organization, and the
    # entry names the list, release, rank, permalink and access date.
    assert "  author = {{Intel}}" in html and "  organization = {Intel}" in html
    assert "#1 on the IO500 list at ISC20" in html.split(f"@misc{{io500-submission-{submission.pk},")[1]
    assert f"  url = {{http://127.0.0.1:8000/submissions/{submission.pk}/}}" in html
    assert f"  urldate = {{{today}}}" in html
    assert "  year = {2020}" in html and "  month = jul" in html
    assert f"io500.org submission {submission.io500_id}." in html
    # Every list it is on, each with its citable entry id.
    assert "published lists this result is on" in html and "io500-isc20-full-v1-" in html


@pytest.mark.django_db
def test_a_result_only_on_a_reconstructed_list_is_unverified(client: Client) -> None:
    release = make_release(name="SC46")
    submission = make_submission(
        release=release, storage_system=make_storage_system(name="Kestrel", institution__name="NREL")
    )
    publish_list(release, "full", [submission], provenance=ListSnapshot.Provenance.RECONSTRUCTED)
    html = page(client, f"/submissions/{submission.pk}/")
    assert "  author = {{NREL}}" in html and "<dd>NREL</dd>" in html
    assert "#1 on the Full list at SC46, a list reconstructed by this registry that is no IO500 list" in html
    assert "(unverified; list entry io500-sc46-full-v1-1)" in html


@pytest.mark.django_db
def test_an_unpublished_upload_cannot_be_cited_yet(client: Client, submitter: User) -> None:
    upload = make_submission(
        source=Submission.Source.UPLOAD, submitter=submitter, review_state=ReviewState.SUBMITTED
    )
    client.force_login(submitter)
    html = page(client, f"/submissions/{upload.pk}/")
    assert 'data-role="citation-unavailable"' in html and "not public yet" in html
    assert "@misc{" not in html


def at(moment: datetime.datetime) -> Any:
    return lambda: moment


def test_a_page_printing_todays_date_is_kept_until_midnight_utc_at_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    late = datetime.datetime(2026, 7, 20, 23, 59, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr("django.utils.timezone.now", at(late))
    assert seconds_until_next_day(cap=3600) == 30
    early = datetime.datetime(2026, 7, 20, 1, 0, tzinfo=datetime.UTC)
    monkeypatch.setattr("django.utils.timezone.now", at(early))
    assert seconds_until_next_day(cap=3600) == 3600


def test_pages_with_a_citation_are_marked_public_until_midnight_at_most(
    imported_history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from frontend.lists.views import list_page
    from frontend.pages.views import submission_page

    late = timezone.now().astimezone(datetime.UTC).replace(hour=23, minute=59, second=0, microsecond=0)
    monkeypatch.setattr("django.utils.timezone.now", at(late))
    request = RequestFactory().get("/lists/sc19/io500/")
    request.user = AnonymousUser()
    marked = getattr(list_page(request, release="sc19", kind="io500"), public_cache._MARK)
    assert 0 < marked <= 60
    entry = ListEntry.objects.filter(snapshot__release__slug="sc19").first()
    assert entry is not None
    request = RequestFactory().get(f"/submissions/{entry.submission_id}/")
    request.user = AnonymousUser()
    marked = getattr(submission_page(request, pk=entry.submission_id), public_cache._MARK)
    assert 0 < marked <= 60
