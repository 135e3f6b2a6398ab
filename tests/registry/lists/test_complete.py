"""Complete list rows (registry.lists.complete): io500.org's download columns, every phase with its
unit, the system fields, the provenance and the stable ids of every entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from registry.lists.columns import PAGE_COLUMNS, PHASES, phase_time_column, phase_value_column
from registry.lists.complete import COMPLETE_COLUMNS, complete_fields, complete_rows
from registry.lists.io500_org import IO500_ORG_NAMES
from registry.lists.rows import CUSTOM_FIELDS, ROW_FIELDS, list_row_values
from registry.lists.selectors import list_entries
from registry.models import ListEntry, ListSnapshot
from scoring.model import PHASE_ORDER
from submissions.models import Archive, PhaseResult, ReviewState, Submission
from tests.factories import (
    add_phases,
    make_release,
    make_result,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)
from tests.support.data import io500_org_download_columns


def rows_of(snapshot: ListSnapshot) -> list[dict[str, Any]]:
    return complete_rows(snapshot, list_row_values(list_entries(snapshot=snapshot)))


def test_the_header_names_every_column_of_io500_orgs_download(io500_data: Path) -> None:
    header = complete_fields(with_custom=False)
    expected = io500_org_download_columns(io500_data)
    assert len(expected) == 68
    assert [name for name in expected if name not in header] == []
    # Only `id` and `score` come before io500.org's block: the page's columns of the same name.
    assert [name for name in expected if name not in IO500_ORG_NAMES] == ["id", "score"]


def test_the_header_has_every_phase_with_its_unit_and_time() -> None:
    header = complete_fields(with_custom=False)
    for phase in (name for name in PHASE_ORDER if name != "timestamp"):
        unit = "GiB/s" if phase.startswith("ior") else "kIOPS"
        assert f"{phase} recomputed ({unit})" in header
        assert f"{phase} time (seconds)" in header
    for extended in ("ior-rnd4K-write", "ior-rnd1MB-read", "mdworkbench-bench", "find-easy", "find-hard"):
        assert phase_value_column(extended) in header
    assert "ior-easy-write recomputed (GiB/s)" in header and "mdtest-hard-read recomputed (kIOPS)" in header
    assert "other_phases" in header


def test_the_page_columns_keep_their_place_for_existing_consumers() -> None:
    assert [column.name for column in PAGE_COLUMNS] == list(ROW_FIELDS)
    assert complete_fields(with_custom=False)[: len(ROW_FIELDS) + 1] == (*ROW_FIELDS, "list_provenance")
    with_custom = complete_fields(with_custom=True)
    assert with_custom[: len(ROW_FIELDS) + 3] == (*ROW_FIELDS, *CUSTOM_FIELDS, "list_provenance")


def test_every_column_is_named_once() -> None:
    names = [column.name for column in COMPLETE_COLUMNS]
    assert len(names) == len(set(names))


def test_an_entry_from_io500_org_carries_what_io500_org_published(imported_history: Path) -> None:
    snapshot = ListSnapshot.objects.get(release__slug="isc20", kind="io500")
    first = rows_of(snapshot)[0]
    # io500.org's row of submission 1 (lists/submissions.csv), under io500.org's names.
    assert (first["information_system"], first["information_institution"]) == ("Wolf", "Intel")
    assert first["information_filesystem_type"] == "DAOS"
    assert first["io500_score"] == pytest.approx(1792.98)
    assert first["io500_bw"] == pytest.approx(371.67) and first["io500_md"] == pytest.approx(8649.57)
    assert first["ior_easy_write"] == pytest.approx(243.64)
    assert first["find_easy"] == first["find_mixed"] == pytest.approx(8838.0)
    assert first["status"] == "VALID" and first["include_in_io500"] == 1
    assert first["information_client_nodes"] == 52
    assert first["repository_url"].endswith("/Intel/Wolf/DAOS/2020/submission-1")
    # io500.org's download writes the release's acronym, not its internal id.
    assert first["release_id"] == "ISC20"
    # Ids and provenance.
    assert first["io500_id"] == 1
    assert first["list_entry_id"] == "io500-isc20-io500-v1-1"
    assert first["list_provenance"] == "recorded" and first["list_official"] is True
    assert first["submission_url"].endswith(f"/submissions/{first['id']}/")
    assert first["list_url"].endswith("/lists/isc20/io500/?version=1")
    # Without raw files (the import skipped them) nothing was measured here.
    assert first["verdict"] == "recorded" and first["values_source"] == "published_record"
    assert first["ior-easy-write recomputed (GiB/s)"] is None


def test_an_entry_of_a_plotted_list_takes_the_plotted_phase_values(imported_history: Path) -> None:
    snapshot = ListSnapshot.objects.get(release__slug="sc24", kind="research")
    entry = ListEntry.objects.filter(snapshot=snapshot, recorded__has_key="phases").order_by("rank").first()
    assert entry is not None
    row = next(row for row in rows_of(snapshot) if row["rank"] == entry.rank)
    assert row["ior_easy_write"] == pytest.approx(entry.recorded["phases"]["ior-easy-write"])
    assert row["find_mixed"] == pytest.approx(entry.recorded["phases"]["find"])


@pytest.mark.django_db
def test_a_run_uploaded_here_fills_io500_orgs_columns_with_its_own_values() -> None:
    release = make_release(name="SC40")
    submission = make_submission(
        release=release,
        source=Submission.Source.UPLOAD,
        review_state=ReviewState.PUBLISHED,
        ten_node=True,
        submitted_at=timezone.now(),
        storage_system=make_storage_system(name="Deep", institution__name="Lab", filesystem_type="BeeGFS"),
    )
    make_system_description(
        submission=submission,
        filesystem_name="scratch",
        client_nodes=10,
        procs_per_node=32,
        client_os="Rocky Linux 9.4",
        client_network="InfiniBand NDR",
        client_network_gbps=400.0,
        md_servers=4,
        md_devices="8 NVMe",
    )
    result = make_result(submission=submission, version="io500-sc24", era="c-isc25", mode="standard")
    add_phases(result, {"ior-easy-write": 123.5, "find": 900.0})
    PhaseResult.objects.create(
        result=result,
        name="ior-rnd4K-easy-read",
        order=13,
        value=2.5,
        unit="GiB/s",
        time_s=60.0,
        scored=False,
    )
    PhaseResult.objects.create(
        result=result, name="ior-crazy", order=20, value=7.0, unit="GiB/s", scored=False
    )
    Archive.objects.create(
        submission=submission,
        kind=Archive.Kind.RESULT,
        file="x.tgz",
        sha256="a" * 64,
        size=1,
        original_name="x.tgz",
    )
    snapshot = publish_list(release, "io500", [submission])

    row = rows_of(snapshot)[0]
    assert (row["information_system"], row["information_institution"]) == ("Deep", "Lab")
    assert row["information_filesystem_name"] == "scratch"
    assert row["information_client_procs_per_node"] == "32"
    assert row["information_client_operating_system"] == "Rocky Linux 9.4"
    assert row["information_md_nodes"] == "4" and row["information_10_node_challenge"] == 1
    assert row["information_submission_date"] == timezone.now().date().isoformat()
    assert row["ior_easy_write"] == 123.5 and row["find_mixed"] == 900.0
    assert row["io500_score"] == pytest.approx(submission.score)
    assert row["ior-easy-write recomputed (GiB/s)"] == 123.5 and row["ior-easy-write time (seconds)"] == 300.0
    assert (
        row["ior-rnd4K-easy-read recomputed (GiB/s)"] == 2.5
        and row["ior-rnd4K-easy-read time (seconds)"] == 60.0
    )
    # A phase under a name no column has is kept, not dropped.
    assert row["other_phases"] == "ior-crazy=7 GiB/s"
    assert row["system_client_network"] == "InfiniBand NDR" and row["system_client_network (Gbit/s)"] == 400.0
    assert row["system_md_devices"] == "8 NVMe"
    assert (row["verdict"], row["values_source"], row["raw_files_public"]) == ("verified", "raw_files", True)
    assert (row["io500_version"], row["output_format"], row["run_mode"]) == (
        "io500-sc24",
        "c-isc25",
        "standard",
    )
    # io500.org's own columns that only its history holds stay empty.
    assert row["status"] is None and row["storage_data"] is None and row["repository_url"] is None
    assert set(row) == {column.name for column in COMPLETE_COLUMNS}


@pytest.mark.django_db
def test_a_submission_not_public_shows_nothing_beyond_the_list_row() -> None:
    release = make_release(name="SC41")
    hidden = make_submission(
        release=release, source=Submission.Source.UPLOAD, review_state=ReviewState.ACCEPTED
    )
    add_phases(make_result(submission=hidden), {"ior-easy-write": 55.0})
    snapshot = publish_list(release, "io500", [hidden])

    row = rows_of(snapshot)[0]
    assert row["score"] == pytest.approx(hidden.score)
    assert (
        row["ior-easy-write recomputed (GiB/s)"] is None
        and row["verdict"] is None
        and row["values_source"] is None
    )


def test_phases_follow_the_applications_order() -> None:
    assert PHASES[:13] == tuple(name for name in PHASE_ORDER if name != "timestamp")
    assert phase_time_column("find") == "find time (seconds)"
