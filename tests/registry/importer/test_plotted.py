"""io500.org's lists of SC21 .. SC24 from lists/plotted_io500_lists.csv: recorded, joined, reconstructed."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils.html import escape

from registry.importer.plotted import KnownRun, PlottedRow, candidates_for, same_run
from registry.models import ListEntry, ListSnapshot, RecordedListChange
from submissions.models import Archive, Submission
from tests.support.data import shared_subset

PLOTTED_RELEASES = {
    "SC21": "io500",
    "ISC22": "io500",
    "SC22": "io500",
    "ISC23": "research",
    "SC23": "research",
}
PLOTTED_RELEASES |= {"ISC24": "research", "SC24": "research"}


def plotted(data: Path) -> dict[str, list[dict[str, str]]]:
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    with (data / "lists" / "plotted_io500_lists.csv").open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            rows[row["release"]].append(row)
    return {name: sorted(found, key=lambda row: int(row["position"])) for name, found in rows.items()}


def significant(value: float, digits: int = 4) -> str:
    return f"{value:.{digits}g}"


def list_json(client: Client, release: str, kind: str) -> dict[str, Any]:
    response = client.get(f"/lists/{release.lower()}/{kind}.json")
    assert response.status_code == 200, response.content[:200]
    payload: dict[str, Any] = json.loads(response.content)
    return payload


@pytest.mark.parametrize("release", sorted(PLOTTED_RELEASES))
def test_each_plotted_release_is_io500_orgs_list_entry_for_entry(imported_history, client, release):
    expected = plotted(imported_history)[release]
    payload = list_json(client, release, PLOTTED_RELEASES[release])
    assert payload["provenance"] == "recorded" and payload["official"] is True
    assert "plotted_io500_lists.csv" in payload["data_source"]
    got = [
        (row["rank"], row["institution"], row["system"], row["filesystem"], significant(row["score"]))
        for row in payload["rows"]
    ]
    want = [
        (
            int(row["position"]),
            row["institution"],
            row["system"],
            row["filesystem"],
            significant(float(row["score"])),
        )
        for row in expected
    ]
    assert got == want


def test_the_plotted_lists_of_sc17_to_isc21_equal_the_lists_of_the_sql_tables(imported_history, client):
    """The plots and the SQL tables are two public copies of the same lists; the rank-ordered ones
    agree entry by entry, the others (SC17, ISC18, SC18 tables are not in rank order and name rows a
    later SQL file deleted) hold the same scores."""
    rows = plotted(imported_history)
    for release in ("ISC19", "SC19", "ISC20", "SC20", "ISC21", "SC18*"):
        snapshot_release, version = (release[:-1], 2) if release.endswith("*") else (release, 1)
        snapshot = ListSnapshot.objects.get(release__name=snapshot_release, kind="io500", version=version)
        entries = list(snapshot.entries.order_by("rank").values_list("rank", "score"))
        assert [(rank, significant(score)) for rank, score in entries] == [
            (int(row["position"]), significant(float(row["score"]))) for row in rows[release]
        ], release
    for release in ("SC17", "ISC18", "SC18"):
        snapshot = ListSnapshot.objects.get(release__name=release, kind="io500", version=1)
        listed = {
            significant(score, 3)
            for score in snapshot.entries.exclude(
                submission__published_record__has_key="removed_by_sql_file"
            ).values_list("score", flat=True)
        }
        assert {significant(float(row["score"]), 3) for row in rows[release]} == listed, release


def test_a_run_on_several_cumulative_lists_is_one_submission(imported_history):
    def submission_on(release: str, system: str, filesystem: str) -> int:
        kind = PLOTTED_RELEASES.get(release, "io500")
        return ListEntry.objects.get(
            snapshot__release__name=release,
            snapshot__kind=kind,
            recorded__system=system,
            recorded__filesystem=filesystem,
        ).submission_id

    janelia = {submission_on(name, "Janelia", "Weka.io") for name in ("SC21", "ISC22", "SC23", "SC24")}
    assert len(janelia) == 1
    # ... and it is the io500.org row that the ISC21 SQL table lists.
    assert Submission.objects.get(pk=janelia.pop()).io500_id is not None


def test_entries_without_a_known_run_become_recorded_submissions_with_every_value(imported_history):
    entry = ListEntry.objects.get(snapshot__release__name="SC24", snapshot__kind="research", rank=1)
    submission = entry.submission
    row = plotted(imported_history)["SC24"][0]
    assert entry.recorded["system"] == row["system"]
    assert set(entry.recorded["phases"]) == {
        "ior-easy-write", "ior-easy-read", "ior-hard-write", "ior-hard-read", "mdtest-easy-write",
        "mdtest-easy-stat", "mdtest-easy-delete", "mdtest-hard-write", "mdtest-hard-stat",
        "mdtest-hard-read", "mdtest-hard-delete", "find",
    }  # fmt: skip
    assert submission.status in (Submission.Status.RECORDED, Submission.Status.VERIFIED)
    assert submission.score == pytest.approx(float(row["score"]), rel=2e-5)


def test_the_import_prints_entries_links_and_ambiguous_ones_per_release(db, io500_data):
    out = io.StringIO()
    call_command("import_io500", str(io500_data), "--skip-raw", stdout=out)
    text = out.getvalue()
    for release, kind in PLOTTED_RELEASES.items():
        line = next(
            line for line in text.splitlines() if line.startswith(f"io500.org's {release} {kind} list")
        )
        assert "entries" in line and "linked to raw data" in line and "ambiguous" in line


def test_two_equal_runs_are_listed_as_ambiguous_never_guessed():
    row = PlottedRow("SC22", 3, "Lab", "Sys", "Lustre", 100.0, 10.0, 1000.0, {"find": 500.0})
    twins = [
        KnownRun(pk, 100.0, 10.0, 1000.0, {"find": 500.0}, ("other", "names"), False, False) for pk in (7, 8)
    ]
    assert [run.submission_id for run in candidates_for(row, twins, taken=set(), previous_list=set())] == [
        7,
        8,
    ]
    # The list before carried one of them: that one is the entry.
    assert [run.submission_id for run in candidates_for(row, twins, set(), previous_list={8})] == [8]


def test_a_run_with_the_same_score_but_other_phases_is_not_the_same_run():
    row = PlottedRow("SC22", 3, "Lab", "Sys", "Lustre", 12.54, 10.0, 15.7, {"find": 500.0})
    close_score = KnownRun(1, 12.5496, 10.0, 15.7, {"find": 500.0}, ("lab", "sys"), True, False)
    other_find = KnownRun(2, 12.54, 10.0, 15.7, {"find": 420.0}, ("lab", "sys"), True, False)
    same = KnownRun(3, 12.54, 10.01, 15.69, {"find": 501.0}, ("lab", "sys"), True, False)
    assert not same_run(row, close_score)
    assert not same_run(row, other_find)
    assert same_run(row, same)


def test_lists_no_public_file_holds_are_reconstructed_and_say_so(imported_history, client):
    payload = list_json(client, "SC24", "full")
    assert payload["provenance"] == "reconstructed" and payload["official"] is False
    assert "not published by io500.org" in payload["data_source"]
    page = client.get("/lists/sc24/full/").content.decode()
    assert 'data-provenance="reconstructed"' in page
    assert "Reconstructed here, not an official IO500 list." in page
    csv_text = client.get("/lists/sc24/full.csv").content.decode()
    header, first = list(csv.reader(io.StringIO(csv_text)))[:2]
    # Every row says so, in the column that follows the page's columns (more columns follow it).
    assert header[15] == "list_provenance" and first[15] == "reconstructed"
    assert first[header.index("list_official")] == "False"
    api = client.get("/api/v1/lists/sc24/full/").json()
    assert api["provenance"] == "reconstructed" and api["official"] is False
    # Without the raw folders no public run belongs to ISC25: no list carries its name (before issue
    # 26 its Full list was SC24's, rank for rank), and its page says what is public instead.
    assert not ListSnapshot.objects.filter(release__name="ISC25").exists()
    page = client.get("/lists/isc25/full/").content.decode()
    assert "No public run belongs to ISC25, so no list is shown under its name." in page
    assert "but the public list data ends with SC24 and holds none of them" in page
    # A list that needs a committee decision stays unpublished, with the reason.
    assert not ListSnapshot.objects.filter(release__name="ISC25", kind="research").exists()
    page = client.get("/lists/isc25/research/").content.decode()
    assert "decided it is not a Production run" in page


def test_the_isc23_production_list_says_what_the_public_sql_patch_did_to_it(imported_history, client):
    page = client.get("/lists/isc23/production/").content.decode()
    assert "only the committee&#x27;s decisions put a run on it" in page
    assert "DELETE FROM list_isc23_production WHERE submission_id = 603;" in page
    assert "2023-08-01-updates-isc23-production-list.sql" in page
    research = RecordedListChange.objects.get(release__name="ISC23", kind="research")
    assert research.io500_submission_id == 600 and research.action == "added"


def test_home_shows_the_newest_official_list_and_names_the_newer_reconstructed_ones(imported_history, client):
    page = client.get("/").content.decode()
    assert "The newest IO500 list: SC24 Research" in page
    assert 'data-provenance="recorded"' in page
    assert 'data-role="newer-releases"' in page
    # One sentence per newer release, the same the release's own tabs show; no list is linked under
    # the name of a release no public run belongs to (without the raw folders, none does).
    assert escape("io500.org's SC26 lists were due at its BoF of 18 November 2026") in page
    assert escape("io500.org published its ISC26 lists at its BoF of 24 June 2026") in page
    assert "/lists/sc26/full/" not in page and "not in any public file" not in page


@pytest.mark.django_db(transaction=True)
def test_entries_whose_run_is_public_link_to_the_re_verified_raw_submission(io500_data, tmp_path, settings):
    # The ingest runs after each folder's transaction commits, as in `make demo`.
    settings.MEDIA_ROOT = tmp_path / "media"
    # Pegasus (Tsukuba, CHFS) is #28 of io500.org's ISC23 Research list and stays on the later ones.
    subset = shared_subset(io500_data, tmp_path, {"639"})
    call_command("import_io500", str(subset), stdout=io.StringIO())
    raw = Submission.objects.get(io500_id=639)
    assert Archive.objects.filter(submission=raw, kind=Archive.Kind.RESULT).exists()
    entry = ListEntry.objects.get(snapshot__release__name="ISC23", snapshot__kind="research", rank=28)
    assert entry.submission_id == raw.pk and entry.recorded["match"] == {"linked": "raw"}
    later = ListEntry.objects.filter(snapshot__kind="research", submission=raw)
    assert set(later.values_list("snapshot__release__name", flat=True)) == {"ISC23", "SC23", "ISC24", "SC24"}
    assert raw.release is not None and raw.release.name == "ISC23"


@pytest.mark.django_db(transaction=True)
def test_a_checkout_of_submission_data_in_its_own_layout_is_imported(io500_data, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    checkout = tmp_path / "submission-data"
    nested = checkout / "University of Tsukuba" / "Pegasus" / "CHFS" / "2023" / "submission-639"
    shutil.copytree(io500_data / "submissions" / "submission-639", nested)
    (checkout / "README.md").write_text("IO500 submission data\n")
    out = io.StringIO()
    call_command("import_io500", str(io500_data), "--raw-from", str(checkout), stdout=out)
    assert "Raw submission folders: 1 in the checkout" in out.getvalue()
    raw = Submission.objects.select_related("storage_system__institution").get(io500_id=639)
    assert raw.storage_system is not None and raw.storage_system.institution.name == "University of Tsukuba"
    assert Archive.objects.filter(submission=raw, kind=Archive.Kind.RESULT).exists()
    entry = ListEntry.objects.get(snapshot__release__name="ISC23", snapshot__kind="research", rank=28)
    assert entry.submission_id == raw.pk


def test_the_checkout_itself_passed_as_data_is_refused_with_the_way_to_pass_it(db, tmp_path):
    (tmp_path / "Lab" / "Sys" / "Lustre" / "2024" / "submission-5").mkdir(parents=True)
    with pytest.raises(CommandError, match="--raw-from"):
        call_command("import_io500", str(tmp_path), stdout=io.StringIO())
