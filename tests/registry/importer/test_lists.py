"""The imported history reproduces every published list of ../shared/io500-data/lists exactly."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from registry.models import ListEntry, ListSnapshot, Release
from submissions.models import Institution, StorageSystem, Submission, SystemDescription

KIND_OF_TYPE = {"io500": "io500", "ten": "ten-node", "full": "full", "historical": "historical", "scc": "scc"}


def published_tables(data: Path) -> dict[str, list[dict[str, str]]]:
    """Each list_<release>_<type>.csv table on its own, with the ranks listings_submissions.csv derives."""
    tables: dict[str, list[dict[str, str]]] = defaultdict(list)
    with (data / "lists" / "listings_submissions.csv").open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            tables[row["source_table"]].append(row)
    return tables


def snapshot_for(release_acronym: str, list_type: str) -> ListSnapshot:
    if release_acronym.endswith("*"):
        return ListSnapshot.objects.get(
            release__name=release_acronym[:-1], kind=KIND_OF_TYPE[list_type], version=2
        )
    return ListSnapshot.objects.get(release__name=release_acronym, kind=KIND_OF_TYPE[list_type], version=1)


def test_every_imported_list_has_the_published_ranks_scores_and_submissions(imported_history):
    tables = published_tables(imported_history)
    assert len(tables) == 26
    for table, rows in tables.items():
        snapshot = snapshot_for(rows[0]["release_acronym"], rows[0]["list_type"])
        imported = list(
            snapshot.entries.order_by("rank").values_list("rank", "submission__io500_id", "score")
        )
        expected = sorted((int(r["rank"]), int(r["submission_id"]), float(r["score"])) for r in rows)
        assert imported == expected, table


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_list_table_file_is_reproduced_row_for_row(imported_history):
    # The per-table CSVs are the source of listings_submissions.csv; check the import against them too.
    lists = imported_history / "lists"
    releases = {row["id"]: row["acronym"] for row in read_rows(lists / "releases.csv")}
    types = {row["id"]: row["url"] for row in read_rows(lists / "types.csv")}
    listings = {
        row["id"]: (releases[row["release_id"]], types[row["type_id"]])
        for row in read_rows(lists / "listings.csv")
    }
    files = sorted(lists.glob("list_*.csv"))
    assert len(files) == 26
    for path in files:
        rows = read_rows(path)
        (listing_id,) = {row["listing_id"] for row in rows}
        snapshot = snapshot_for(*listings[listing_id])
        imported = sorted(snapshot.entries.values_list("submission__io500_id", "score"))
        assert imported == sorted((int(row["submission_id"]), float(row["score"])) for row in rows), path.name


def test_sc18_and_its_correction_are_two_versions_of_the_same_list(imported_history):
    versions = ListSnapshot.objects.filter(release__name="SC18", kind="io500").order_by("version")
    assert [(s.version, s.label, s.status) for s in versions] == [
        (1, "SC18", ListSnapshot.Status.SUPERSEDED),
        (2, "SC18*", ListSnapshot.Status.PUBLISHED),
    ]
    assert "mdtest" in versions[1].correction_reason
    assert versions[0].entries.count() == 26
    assert versions[1].entries.count() == 25
    assert not Release.objects.filter(name="SC18*").exists()


def test_lists_that_name_a_submission_twice_keep_both_rows(imported_history):
    snapshot = ListSnapshot.objects.get(release__name="ISC21", kind="full")
    assert snapshot.entries.count() == 197
    assert snapshot.entries.values("submission").distinct().count() == 153


def test_removed_submissions_that_lists_still_name_are_imported(imported_history):
    for io500_id in (259, 222, 225, 234, 243, 313):
        submission = Submission.objects.get(io500_id=io500_id)
        assert submission.published_record["removed_by_sql_file"]
        assert submission.entries.exists()


def test_releases_cover_sc17_to_sc26_with_their_kinds(imported_history):
    releases = {release.slug: release for release in Release.objects.all()}
    assert list(releases) == [
        "sc17", "isc18", "sc18", "isc19", "sc19", "isc20", "sc20", "isc21", "sc21", "isc22",
        "sc22", "isc23", "sc23", "isc24", "sc24", "isc25", "sc25", "isc26", "sc26",
    ]  # fmt: skip
    assert releases["sc17"].list_kinds == ["io500"]
    assert releases["sc18"].list_kinds == ["io500", "ten-node"]
    assert releases["sc19"].list_kinds == ["io500", "ten-node", "full", "historical", "scc"]
    assert releases["sc22"].list_kinds == ["io500", "ten-node", "full", "historical"]
    # ISC23's own kinds, and the 10-node list the registry reconstructs from the runs' node counts.
    assert releases["isc23"].list_kinds == [
        "production", "research", "ten-node-production", "ten-node-research", "ten-node", "full",
        "historical",
    ]  # fmt: skip
    # A release no public run belongs to gets no reconstructed 10-node list, so no such tab.
    assert "ten-node" not in releases["sc26"].list_kinds
    assert releases["isc20"].rules_from == releases["sc19"]
    assert releases["isc19"].rules_from == releases["isc18"]


def test_imported_rows_carry_the_record_identity_and_system_description(imported_history):
    submission = Submission.objects.select_related("storage_system__institution", "release").get(io500_id=1)
    assert submission.source == Submission.Source.IMPORT
    assert submission.release is not None and submission.storage_system is not None
    assert submission.release.name == "ISC20"
    assert (submission.storage_system.name, submission.storage_system.institution.name) == ("Wolf", "Intel")
    assert submission.storage_system.filesystem_type == "DAOS"
    assert submission.score == pytest.approx(1792.98)
    assert submission.published_record["information_list_name"] == "isc20"
    description = SystemDescription.objects.get(submission=submission)
    assert (description.client_nodes, description.procs_per_node) == (52, 32)
    assert description.filesystem_version == "1.1"
    assert description.ds_servers == 30


def test_isc21_rows_without_a_published_score_get_sqrt_bw_times_md(imported_history):
    submission = Submission.objects.get(io500_id=533)
    assert submission.score == pytest.approx((3421.624277 * 396872.816100) ** 0.5)


def test_running_the_import_twice_changes_nothing(imported_history):
    counts = (
        Release.objects.count(),
        Institution.objects.count(),
        StorageSystem.objects.count(),
        Submission.objects.count(),
        SystemDescription.objects.count(),
        ListSnapshot.objects.count(),
        ListEntry.objects.count(),
    )
    snapshot_state = list(ListSnapshot.objects.values_list("pk", "status", "published_at").order_by("pk"))
    output = io.StringIO()
    call_command("import_io500", str(imported_history), "--skip-raw", stdout=output)
    assert "0 new snapshots" in output.getvalue()
    assert counts == (
        Release.objects.count(),
        Institution.objects.count(),
        StorageSystem.objects.count(),
        Submission.objects.count(),
        SystemDescription.objects.count(),
        ListSnapshot.objects.count(),
        ListEntry.objects.count(),
    )
    assert snapshot_state == list(
        ListSnapshot.objects.values_list("pk", "status", "published_at").order_by("pk")
    )


@pytest.mark.django_db
def test_a_wrong_data_folder_is_refused_with_a_clear_sentence(tmp_path):
    with pytest.raises(CommandError, match="is not the IO500 list data"):
        call_command("import_io500", str(tmp_path), "--skip-raw")
    with pytest.raises(CommandError, match="does not exist"):
        call_command("import_io500", str(tmp_path / "nowhere"), "--skip-raw")


def test_links_inside_imported_list_descriptions_open_the_same_lists_here(imported_history, client):
    descriptions = ListSnapshot.objects.exclude(description="").values_list("description", flat=True)
    local = [href for text in descriptions for href in re.findall(r'href="(/[^"]*)"', text)]
    assert len(local) == 6  # io500.org's six /list/... links, none left pointing at its paths
    assert not [href for href in local if href.startswith("/list/")]
    for href in local:
        assert client.get(href).status_code == 200, href
