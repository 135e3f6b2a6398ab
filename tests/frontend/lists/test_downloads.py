"""The complete list downloads (CSV and JSON), citable entry ids, and the bulk download of every
public list: what they hold, that they read back to what the API answers, and that nothing private
gets in."""

from __future__ import annotations

import csv
import datetime
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from frontend.lists import bulk
from frontend.lists.csv_cells import safe_cell
from registry.core.generations import list_cache_invalidate
from registry.lists.complete import complete_fields
from registry.lists.selectors import visible_snapshots
from registry.models import ListEntry, ListSnapshot
from scoring.model import PHASE_ORDER
from submissions.models import ReviewState, Submission
from tests.factories import make_release, make_submission, publish_list
from tests.support.data import io500_org_download_columns


def get(client: Client, url: str, **headers: str) -> Any:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content[:500]
    return response


def test_the_list_csv_has_io500_orgs_columns_every_phase_and_units(
    client: Client, imported_history: Path, io500_data: Path
) -> None:
    text = get(client, "/lists/sc19/io500.csv").content.decode()
    header = next(csv.reader(io.StringIO(text)))
    # io500.org's download column names, from its source (tests.support.data says which files).
    assert [name for name in io500_org_download_columns(io500_data) if name not in header] == []
    for phase in (name for name in PHASE_ORDER if name != "timestamp"):
        assert f"{phase} recomputed ({'GiB/s' if phase.startswith('ior') else 'kIOPS'})" in header
        assert f"{phase} time (seconds)" in header
    assert {
        "ior-easy-write recomputed (GiB/s)",
        "mdtest-easy-write recomputed (kIOPS)",
        "find time (seconds)",
    } <= set(header)
    # The columns the CSV had before keep their place.
    assert header[:16] == ["rank", "id", "io500_id", "release", "institution", "system",
                           "storage_vendor", "filesystem", "client_nodes", "total_procs", "score", "bw",
                           "md", "reproducibility", "submitter", "list_provenance"]  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 22
    assert rows[0]["list_entry_id"] == "io500-sc19-io500-v1-1"
    assert rows[0]["information_system"] == rows[0]["system"] and rows[0]["release_id"] == "SC19"


def test_the_json_download_describes_its_columns_with_units(client: Client, imported_history: Path) -> None:
    payload = get(client, "/lists/sc19/io500.json").json()
    columns = {column["name"]: column for column in payload["columns"]}
    assert [column["name"] for column in payload["columns"]] == list(complete_fields(with_custom=False))
    assert columns["ior-easy-write recomputed (GiB/s)"]["unit"] == "GiB/s"
    assert columns["ior_easy_write"]["io500_org"] is True and columns["ior_easy_write"]["unit"] == "GiB/s"
    assert columns["mdtest_hard_read"]["unit"] == "kIOPS"
    assert columns["find time (seconds)"]["unit"] == "seconds"
    assert set(payload["rows"][0]) == set(columns)


def test_the_two_sets_of_phase_columns_say_which_is_authoritative_for_what(
    client: Client, imported_history: Path
) -> None:
    """io500.org's recorded phase values and the ones recomputed here are named apart, and the README
    every download points at says which one the official ranks rest on and which the raw files back."""
    csv_download = get(client, "/lists/sc19/io500.csv")
    header = next(csv.reader(io.StringIO(csv_download.content.decode())))
    # The recorded one keeps io500.org's name, the registry's says "recomputed"; the order is unchanged.
    assert header.index("ior_easy_write") < header.index("ior-easy-write recomputed (GiB/s)")
    assert "ior-easy-write (GiB/s)" not in header
    readme_url = "http://127.0.0.1:8000/lists/README.txt"
    assert csv_download["Link"] == f'<{readme_url}>; rel="describedby"; type="text/plain"'
    columns = {column["name"]: column for column in get(client, "/lists/sc19/io500.json").json()["columns"]}
    assert "Recorded by io500.org" in columns["ior_easy_write"]["description"]
    assert "authoritative for the official IO500 lists" in columns["ior_easy_write"]["description"]
    assert "recomputed here" in columns["ior-easy-write recomputed (GiB/s)"]["description"]
    readme = get(client, "/lists/README.txt")
    assert readme["Content-Type"] == "text/plain; charset=utf-8"
    text = readme.content.decode()
    assert "Which phase values are authoritative" in text
    assert "Recorded by io500.org" in text and "Recomputed here" in text
    # Every column of the download is described, in the CSV's order.
    described = [
        line.split(" [")[0] for line in text.splitlines() if line and not line[0].isspace() and " [" in line
    ]
    assert [name for name in header if name not in described] == []
    page = get(client, "/lists/sc19/io500/").content.decode()
    assert 'href="/lists/README.txt" data-download="readme"' in page


def test_custom_weights_add_their_columns_to_the_download(client: Client, imported_history: Path) -> None:
    text = get(client, "/lists/sc19/io500.csv?w_bw=2&w_md=1").content.decode()
    header = next(csv.reader(io.StringIO(text)))
    assert header[15:18] == ["custom_score", "custom_rank", "list_provenance"]


def test_a_list_entry_id_leads_to_its_submission(client: Client, imported_history: Path) -> None:
    entry = ListEntry.objects.get(snapshot__release__slug="isc20", snapshot__kind="io500", rank=1)
    response = client.get("/entries/io500-isc20-io500-v1-1/")
    assert response.status_code == 302 and response["Location"] == f"/submissions/{entry.submission_id}/"
    # A superseded version stays citable: SC18's first io500 list.
    assert client.get("/entries/io500-sc18-io500-v1-1/").status_code == 302
    missing = client.get("/entries/io500-isc20-io500-v1-999/")
    assert missing.status_code == 404 and "No published list has the entry" in missing.content.decode()
    assert "looks like io500-sc19-io500-v1-3" in client.get("/entries/sc19-3/").content.decode()


def read_bulk(client: Client, fmt: str) -> bytes:
    response = get(client, f"/lists/all.{fmt}.gz")
    assert response["Content-Type"] == "application/gzip"
    # The README saying which phase columns are authoritative for what goes with every bulk file.
    assert response["Link"].startswith("<http://127.0.0.1:8000/lists/README.txt>")
    assert f'filename="io500-registry-all-lists.{fmt}.gz"' in response["Content-Disposition"]
    return gzip.decompress(response.content)


def as_written(value: Any) -> Any:
    """A JSON value as the CSV writes it and csv.QUOTE_NONNUMERIC reads it back: numbers as floats,
    the rest as (spreadsheet-safe) text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return safe_cell(value) if value is not None else ""
    return float(value)


def test_the_bulk_download_reads_back_to_what_the_api_answers(client: Client, imported_history: Path) -> None:
    document = json.loads(read_bulk(client, "json"))
    visible = visible_snapshots()
    assert len(document["rows"]) == ListEntry.objects.filter(snapshot__in=visible).count() > 5000
    assert len(document["lists"]) == visible.count()
    assert [column["name"] for column in document["columns"]] == list(complete_fields(with_custom=False))
    assert "authoritative for the official IO500 lists" in document["phase_values"]
    assert document["readme"] == "http://127.0.0.1:8000/lists/README.txt"

    text = read_bulk(client, "csv").decode()
    reader = csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC)
    header = next(reader)
    assert header == list(complete_fields(with_custom=False))
    csv_rows = [dict(zip(header, row, strict=True)) for row in reader]
    assert len(csv_rows) == len(document["rows"])

    by_list: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in document["rows"]:
        by_list.setdefault((row["list_url"], row["list_version"]), []).append(row)
    for summary in document["lists"]:
        snapshot = ListSnapshot.objects.get(
            release__name=summary["release"], kind=summary["kind"], version=summary["version"]
        )
        answer = get(
            client, f"/api/v1/lists/{snapshot.release.slug}/{snapshot.kind}/?version={snapshot.version}"
        )
        api = answer.json()
        assert {key: api[key] for key in summary} == summary
        rows = by_list[(api["rows"][0]["list_url"], snapshot.version)] if api["rows"] else []
        assert rows == api["rows"], f"{snapshot}: the bulk rows differ from the API's"
    for written, row in zip(csv_rows, document["rows"], strict=True):
        assert written == {name: as_written(value) for name, value in row.items()}


@pytest.mark.django_db
def test_the_bulk_download_holds_only_what_everyone_may_see(client: Client, settings: Any) -> None:
    public = make_release(name="SC50")
    publish_list(public, "io500", [make_submission(release=public)])
    embargoed = make_release(name="SC51", embargo_end=timezone.now() + datetime.timedelta(days=3))
    hidden_list = make_submission(
        release=embargoed, source=Submission.Source.UPLOAD, review_state=ReviewState.PUBLISHED
    )
    publish_list(embargoed, "io500", [hidden_list])
    draft = make_submission(
        release=public, source=Submission.Source.UPLOAD, review_state=ReviewState.ACCEPTED
    )
    ListSnapshot.objects.create(release=public, kind="full").entries.create(
        rank=1, submission=draft, score=1.0
    )
    unlisted = make_submission(
        release=public, source=Submission.Source.UPLOAD, review_state=ReviewState.SUBMITTED
    )

    document = json.loads(read_bulk(client, "json"))
    ids = {row["id"] for row in document["rows"]}
    assert [summary["release"] for summary in document["lists"]] == ["SC50"]
    assert not ids & {hidden_list.pk, draft.pk, unlisted.pk}
    text = read_bulk(client, "csv").decode()
    assert "SC51" not in text and f"/submissions/{hidden_list.pk}/" not in text

    # The embargo ends: the release's list is in the next file built.
    embargoed.embargo_end = timezone.now() - datetime.timedelta(minutes=1)
    embargoed.save(update_fields=["embargo_end"])
    list_cache_invalidate()
    document = json.loads(read_bulk(client, "json"))
    assert [summary["release"] for summary in document["lists"]] == ["SC50", "SC51"]


@pytest.mark.django_db
def test_the_bulk_download_is_built_once_and_then_served_from_the_cache(
    client: Client, django_assert_num_queries: Any
) -> None:
    release = make_release(name="SC52")
    publish_list(release, "io500", [make_submission(release=release) for _ in range(3)])
    first = get(client, "/lists/all.csv.gz")
    with django_assert_num_queries(0):
        again = get(client, "/lists/all.csv.gz")
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert first["X-Rows"] == "3" and first["X-Lists"] == "1"
    not_modified = client.get("/lists/all.csv.gz", headers={"If-None-Match": first["ETag"]})
    assert not_modified.status_code == 304

    # A publish moves the list generation on: the next request builds the file anew.
    publish_list(release, "full", [make_submission(release=release)])
    list_cache_invalidate()
    assert get(client, "/lists/all.csv.gz")["X-Rows"] == "4"


@pytest.mark.django_db
def test_while_the_queued_build_has_not_run_the_client_is_asked_to_come_back(client: Client) -> None:
    # A build queued already (by another request) is not queued again, and this request builds nothing.
    cache.add(bulk._queued_key(), "queued by another request", 60)
    response = client.get("/lists/all.json.gz")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "being prepared" in response.json()["detail"]


@pytest.mark.django_db
def test_the_openapi_schema_documents_the_bulk_download_and_the_columns(client: Client) -> None:
    schema = get(client, "/api/schema/", Accept="application/json").content.decode()
    assert "/lists/all.{fmt}.gz" in schema and "application/gzip" in schema
    assert (
        "ior-easy-write recomputed (GiB/s)" in schema
        and "list_entry_id" in schema
        and "information_system" in schema
    )


@pytest.mark.bulk_downloads
@pytest.mark.django_db
def test_a_change_of_the_lists_builds_the_files_in_a_task_and_requests_never_build(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from frontend.lists import tasks
    from registry.signals import lists_changed

    release = make_release(name="SC53")
    snapshot = publish_list(release, "io500", [make_submission(release=release) for _ in range(2)])
    built: list[str] = []
    real_build = bulk.bulk_build

    def counted_build(fmt: str, lists: bulk.BulkLists | None = None) -> bulk.BulkFile:
        built.append(fmt)
        return real_build(fmt, lists)

    monkeypatch.setattr(bulk, "bulk_build", counted_build)
    # What a publish sends after its commit: the receivers move the generation on and queue the task
    # (run in-process here), which stores both files.
    lists_changed.send(sender=None, snapshot_ids=[snapshot.pk])
    assert sorted(built) == ["csv", "json"]
    assert not bulk.bulk_needs_build()

    def no_build(fmt: str, lists: bulk.BulkLists | None = None) -> None:
        raise AssertionError("a request built the bulk file")

    monkeypatch.setattr(bulk, "bulk_build", no_build)
    for fmt in bulk.BULK_FORMATS:
        response = get(client, f"/lists/all.{fmt}.gz")
        assert response["X-Rows"] == "2"
    assert tasks.bulk_downloads_refresh() is False  # nothing missing, nothing stale


@pytest.mark.django_db
def test_without_a_worker_a_missing_file_is_a_503_and_one_queued_build(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from frontend.lists import tasks

    queued: list[bool] = []
    monkeypatch.setattr(tasks.bulk_downloads_build, "delay", lambda: queued.append(True))
    list_cache_invalidate()
    for _ in range(3):
        response = client.get("/lists/all.csv.gz")
        assert response.status_code == 503 and response["Retry-After"] == "30"
    assert queued == [True]


@pytest.mark.django_db
def test_after_an_embargo_ends_the_old_file_is_served_and_the_beat_task_rebuilds_it(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from frontend.lists import tasks

    public = make_release(name="SC54")
    publish_list(public, "io500", [make_submission(release=public)])
    embargoed = make_release(name="SC55", embargo_end=timezone.now() + datetime.timedelta(hours=1))
    publish_list(embargoed, "io500", [make_submission(release=embargoed)])
    list_cache_invalidate()
    tasks.bulk_downloads_build()
    assert get(client, "/lists/all.csv.gz")["X-Lists"] == "1"

    # Two hours on: the embargo has ended, which sends no signal and moves no generation.
    later = timezone.now() + datetime.timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert bulk.bulk_needs_build()
    queued: list[bool] = []
    monkeypatch.setattr(tasks.bulk_downloads_build, "delay", lambda: queued.append(True))
    assert get(client, "/lists/all.csv.gz")["X-Lists"] == "1"  # served as it is, a rebuild queued
    assert queued == [True]
    assert tasks.bulk_downloads_refresh() is True
    assert get(client, "/lists/all.csv.gz")["X-Lists"] == "2"


@pytest.mark.django_db
def test_the_files_of_earlier_lists_are_deleted_after_a_build() -> None:
    from django.core.files.storage import default_storage

    from frontend.lists import tasks

    release = make_release(name="SC56")
    publish_list(release, "io500", [make_submission(release=release)])
    tasks.bulk_downloads_build()
    list_cache_invalidate()
    tasks.bulk_downloads_build()
    _folders, files = default_storage.listdir(bulk.STORAGE_DIR)
    assert len(files) == 2 * len(bulk.BULK_FORMATS)  # one body and one description per format
