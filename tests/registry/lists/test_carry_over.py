"""The carry-over rule (docs/list-rules.md R1-R3) on io500.org's real lists, imported: a list of a
later release is io500.org's last list of its lineage plus the runs this committee accepted."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from registry.lists.services import list_build
from registry.models import ListEntry, ListSnapshot, Release
from submissions.models import Result, ReviewState, Submission

pytestmark = pytest.mark.django_db

Row = tuple[int, int, float, float | None, float | None, dict[str, Any]]


def entries(snapshot: ListSnapshot) -> list[Row]:
    return [
        (e.rank, e.submission_id, e.score, e.bw, e.md, e.recorded)
        for e in ListEntry.objects.filter(snapshot=snapshot).order_by("rank")
    ]


def official(release: str, kind: str) -> ListSnapshot:
    return ListSnapshot.objects.get(release__name=release, kind=kind, status=ListSnapshot.Status.PUBLISHED)


def accepted_upload(release: Release, like: Submission, score: float) -> Submission:
    """An upload the committee accepted for `release`, of the same storage system as `like`."""
    row = Submission.objects.create(
        source=Submission.Source.UPLOAD,
        release=release,
        storage_system=like.storage_system,
        status=Submission.Status.VERIFIED,
        score=score,
        bw=score,
        md=score,
        valid=True,
        review_state=ReviewState.ACCEPTED,
    )
    Result.objects.create(submission=row, path="run", is_primary=True, era="sc24", nodes=32, valid=True)
    return row


def test_a_research_list_without_new_accepted_runs_is_the_previous_official_one_entry_for_entry(
    imported_history: Path,
) -> None:
    sc24 = official("SC24", "research")
    release = Release.objects.get(name="ISC25")
    # A run of the public raw data for ISC25, imported as import_io500 does without --skip-raw:
    # io500.org's committee never listed it, and this one never accepted it, so it is not added.
    Submission.objects.create(
        source=Submission.Source.IMPORT, release=release, status=Submission.Status.VERIFIED,
        score=1e9, bw=1e9, md=1e9, valid=True, review_state=ReviewState.PUBLISHED,
    )  # fmt: skip
    isc25 = list_build(release=release, kind="research")
    assert len(entries(sc24)) > 100
    assert entries(isc25) == entries(sc24)
    assert isc25.carried_from_id == sc24.pk
    assert set(isc25.entries.values_list("carried", flat=True)) == {True}
    assert isc25.left_out == []


def test_an_accepted_run_is_added_and_replaces_its_systems_lower_entry(imported_history: Path) -> None:
    sc24 = official("SC24", "research")
    top, second, *_ = ListEntry.objects.filter(snapshot=sc24).order_by("rank").select_related("submission")
    isc25 = Release.objects.get(name="ISC25")
    better = accepted_upload(isc25, second.submission, top.score + 1.0)
    lower = accepted_upload(isc25, top.submission, top.score / 2)

    draft = list_build(release=isc25, kind="research")

    rows = list(ListEntry.objects.filter(snapshot=draft).order_by("rank"))
    assert (rows[0].submission_id, rows[0].carried) == (better.pk, False)
    assert (rows[1].submission_id, rows[1].score, rows[1].carried) == (top.submission_id, top.score, True)
    listed = {row.submission_id for row in rows}
    assert second.submission_id not in listed and lower.pk not in listed
    assert len(rows) == sc24.entries.count()
    assert [(row["submission_id"], row["rule"]) for row in draft.left_out] == [
        (second.submission_id, "replaced")
    ]
    assert f"replaced by submission {better.pk}" in draft.left_out[0]["reason"]


def test_a_later_release_carries_the_newest_published_list_and_adds_every_run_accepted_since(
    imported_history: Path,
) -> None:
    sc24 = official("SC24", "research")
    first = ListEntry.objects.filter(snapshot=sc24).select_related("submission").first()
    assert first is not None
    # A run accepted for ISC25, whose lists were never built: SC25 takes it with SC24's list.
    late = accepted_upload(Release.objects.get(name="ISC25"), first.submission, 1e9)
    draft = list_build(release=Release.objects.get(name="SC25"), kind="research")
    assert draft.carried_from_id == sc24.pk
    assert draft.entries.get(rank=1).submission_id == late.pk
    assert draft.entries.filter(carried=True).count() == sc24.entries.count() - 1


def test_build_list_says_what_it_carried_over(imported_history: Path) -> None:
    output = io.StringIO()
    call_command("build_list", "isc25", "research", "--limit", "1", stdout=output)
    count = official("SC24", "research").entries.count()
    assert "Carried over from SC24" in output.getvalue()
    assert f"{count} entries; added 0 accepted since." in output.getvalue()


def test_the_draft_page_names_the_list_carried_and_each_entry_s_origin(
    imported_history: Path, committee_member: Any
) -> None:
    sc24 = official("SC24", "research")
    top = ListEntry.objects.filter(snapshot=sc24).select_related("submission").get(rank=1)
    isc25 = Release.objects.get(name="ISC25")
    added = accepted_upload(isc25, top.submission, top.score * 2)
    list_build(release=isc25, kind="research")
    client = Client()
    client.force_login(committee_member)
    page = client.get(f"/review/releases/{isc25.slug}/lists/research/").content.decode()
    carried = sc24.entries.count() - 1
    assert f"Carried over from SC24: {carried} entries" in page
    assert "added 1 run the committee accepted since" in page
    assert f'<tr data-submission="{added.pk}" id="entry-{added.pk}">' in page
    assert page.count('<td data-role="origin">carried</td>') == carried
    assert f"replaced by submission {added.pk}" in page
