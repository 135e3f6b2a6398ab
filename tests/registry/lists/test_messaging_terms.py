"""The IO500 Messaging Policy's "verified" and "unverified" (registry.core.messaging) in every API
record, download and citation, with the real lists io500.org published."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from django.test import Client
from django.utils.html import escape

from registry.core.messaging import UNVERIFIED, VERIFIED, list_messaging_status, messaging_status
from registry.models import ListEntry, ListSnapshot
from submissions.models import Submission


def recorded_entry() -> ListEntry:
    found = ListEntry.objects.filter(snapshot__provenance=ListSnapshot.Provenance.RECORDED).first()
    assert found is not None
    return found


def only_reconstructed() -> Submission:
    """A submission on reconstructed lists and on no recorded one."""
    recorded = ListEntry.objects.filter(snapshot__provenance=ListSnapshot.Provenance.RECORDED)
    found = (
        Submission.objects.filter(entries__snapshot__provenance=ListSnapshot.Provenance.RECONSTRUCTED)
        .exclude(pk__in=recorded.values("submission_id"))
        .first()
    )
    assert found is not None
    return found


def test_the_terms_follow_the_policys_definitions() -> None:
    assert messaging_status(on_official_list=True).term == VERIFIED
    assert messaging_status(on_official_list=False).term == UNVERIFIED
    assert list_messaging_status("recorded").term == VERIFIED
    assert list_messaging_status("published_here").term == VERIFIED
    assert list_messaging_status("reconstructed").term == UNVERIFIED


def test_a_submission_on_a_recorded_list_is_verified_in_the_api(
    client: Client, imported_history: Path
) -> None:
    body = client.get(f"/api/v1/submissions/{recorded_entry().submission_id}/").json()
    assert body["messaging_status"]["term"] == VERIFIED
    assert body["messaging_status"]["policy"] == "https://io500.org/pages/rules-messaging"


def test_a_submission_only_on_reconstructed_lists_is_unverified_in_the_api(
    client: Client, imported_history: Path
) -> None:
    body = client.get(f"/api/v1/submissions/{only_reconstructed().pk}/").json()
    assert body["messaging_status"]["term"] == UNVERIFIED


def test_a_systems_submissions_carry_their_term(client: Client, imported_history: Path) -> None:
    entry = recorded_entry()
    system = entry.submission.storage_system
    assert system is not None
    body = client.get(f"/api/v1/systems/{system.pk}/").json()
    terms = {row["id"]: row["messaging_status"]["term"] for row in body["submissions"]}
    assert terms[entry.submission_id] == VERIFIED


def test_list_rows_in_the_api_and_downloads_carry_the_term_of_their_list(
    client: Client, imported_history: Path
) -> None:
    api = client.get("/api/v1/lists/sc20/io500/").json()
    assert {row["messaging_term"] for row in api["rows"]} == {VERIFIED}
    described = {column["name"]: column["description"] for column in api["columns"]}
    assert "audited by the committee" in described["messaging_term"]
    reconstructed = ListSnapshot.objects.filter(provenance=ListSnapshot.Provenance.RECONSTRUCTED).exclude(
        entries=None
    )[0]
    url = f"/lists/{reconstructed.release.slug}/{reconstructed.kind}.csv"
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert rows and {row["messaging_term"] for row in rows} == {UNVERIFIED}


def test_a_citation_gives_the_term_with_its_sentence(client: Client, imported_history: Path) -> None:
    body = client.get(f"/submissions/{recorded_entry().submission_id}/").content.decode()
    citation = body.split('data-role="citation"')[1]
    assert escape(messaging_status(on_official_list=True).sentence) in citation
    other = client.get(f"/submissions/{only_reconstructed().pk}/").content.decode()
    assert escape(messaging_status(on_official_list=False).sentence) in other.split('data-role="citation"')[1]


def test_a_custom_ranking_or_sublist_is_labelled_a_derived_view_on_page_and_api(
    client: Client, imported_history: Path
) -> None:
    plain = client.get("/api/v1/lists/sc20/io500/").json()
    assert plain["derived_view"] is None and plain["messaging_term"] == VERIFIED
    custom = client.get("/api/v1/lists/sc20/io500/", {"formula": "bw*md"}).json()
    assert "not an IO500 metric" in custom["derived_view"]
    assert "You cannot invent metrics" in custom["derived_view"]
    page = client.get("/lists/sc20/io500/", {"filesystem": "Lustre"}).content.decode()
    assert 'data-role="derived-view"' in page
    assert 'data-role="derived-view"' not in client.get("/lists/sc20/io500/").content.decode()


def test_the_submission_and_list_pages_show_the_term_near_the_result(
    client: Client, imported_history: Path
) -> None:
    verified = client.get(f"/submissions/{recorded_entry().submission_id}/").content.decode()
    assert 'data-role="messaging-term" data-term="verified"' in verified
    unverified = client.get(f"/submissions/{only_reconstructed().pk}/").content.decode()
    assert 'data-role="messaging-term" data-term="unverified"' in unverified
    assert 'data-term="verified"' in client.get("/lists/sc20/io500/").content.decode()
    reconstructed = ListSnapshot.objects.filter(provenance=ListSnapshot.Provenance.RECONSTRUCTED)[0]
    page = client.get(f"/lists/{reconstructed.release.slug}/{reconstructed.kind}/").content.decode()
    assert 'data-role="messaging-term" data-term="unverified"' in page


def test_a_system_page_and_its_chart_give_each_submission_its_term(
    client: Client, imported_history: Path
) -> None:
    entry = recorded_entry()
    system = entry.submission.storage_system
    assert system is not None
    page = client.get(f"/systems/{system.pk}/").content.decode()
    assert 'data-role="messaging-term" title="Officially listed' in page
    points = client.get(f"/charts/systems/{system.pk}/balance.json").json()["points"]
    assert {p["id"]: p["messaging_term"] for p in points}.get(entry.submission_id) in {VERIFIED, None}
    assert any(p["messaging_term"] == VERIFIED for p in points)
