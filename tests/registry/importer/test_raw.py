"""Raw submission folders go through the upload pipeline, attached to their io500.org rows."""

from __future__ import annotations

import datetime
import gzip
import io
import tarfile
from pathlib import Path

import pytest

from registry.importer.raw import import_raw, infer_release, pack_folder
from registry.importer.source import IO500Data, RawFolder
from registry.models import Release
from submissions.models import Archive, Submission

RELEASE_DATES = {
    "SC20": datetime.date(2020, 11, 18),
    "ISC21": datetime.date(2021, 7, 2),
    "SC21": datetime.date(2021, 11, 17),
    "ISC23": datetime.date(2023, 5, 23),
    "SC23": datetime.date(2023, 11, 15),
}


def releases() -> list[Release]:
    return [
        Release(name=name, slug=name.lower(), publication_date=day) for name, day in RELEASE_DATES.items()
    ]


def folder(tmp_path: Path, files: dict[str, str], year: int = 2023) -> RawFolder:
    root = tmp_path / "submission-900"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return RawFolder(io500_id=900, institution="Lab", system="Sys", filesystem="Lustre", year=year, path=root)


def test_the_release_is_the_first_one_after_the_run_timestamp(tmp_path):
    raw = folder(tmp_path, {"results/2023.04.26-13.56.52/result.txt": "[run]\n"})
    assert infer_release(raw, releases()).name == "ISC23"


def test_a_timestamp_inside_result_txt_counts_when_no_folder_is_named_after_the_run(tmp_path):
    raw = folder(tmp_path, {"result.txt": "[run]\ntimestamp = 2021.08.30-10.00.00\n"}, year=2021)
    assert infer_release(raw, releases()).name == "SC21"


def test_without_any_timestamp_the_year_folder_picks_its_first_release(tmp_path):
    raw = folder(tmp_path, {"io500.sh": "#!/bin/bash\n"}, year=2021)
    assert infer_release(raw, releases()).name == "ISC21"


def test_a_run_after_the_newest_release_goes_to_the_newest_release(tmp_path):
    raw = folder(tmp_path, {"results/2024.02.01-00.00.00/result.txt": ""}, year=2024)
    assert infer_release(raw, releases()).name == "SC23"


def test_packing_a_folder_gives_the_same_bytes_every_time(tmp_path):
    raw = folder(tmp_path, {"b.txt": "second", "a/x.txt": "first"})
    packed = pack_folder(raw.path)
    (raw.path / "b.txt").touch()  # a new modification time must not change the archive
    assert pack_folder(raw.path) == packed
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(packed))) as archive:
        assert archive.getnames() == ["submission-900/a/x.txt", "submission-900/b.txt"]
        member = archive.extractfile("submission-900/a/x.txt")
        assert member is not None and member.read() == b"first"


def test_raw_folders_attach_to_their_rows_or_become_new_rows_once(
    imported_history, settings, tmp_path, django_capture_on_commit_callbacks
):
    # tests/conftest.py runs the ingest task in-process; the after-commit hooks are captured and run here.
    settings.MEDIA_ROOT = tmp_path / "media"
    data = IO500Data(imported_history)
    # submission-6 is an io500.org row (ISC20); submission-639 is a 2023 folder without list data.
    chosen = [raw for raw in data.raw_folders() if raw.io500_id in (6, 639)]
    all_releases = list(Release.objects.all())
    before = Submission.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        result = import_raw(chosen, all_releases)

    assert (result.ingested, result.rows_created, result.already_present) == (2, 1, 0)
    assert Submission.objects.count() == before + 1
    attached = Submission.objects.get(io500_id=6)
    assert attached.source == Submission.Source.IMPORT
    assert attached.status in Submission.FINAL_STATUSES
    assert attached.archives.get().original_name == "submission-6.tgz"
    new = Submission.objects.select_related("release", "storage_system__institution").get(io500_id=639)
    assert new.release is not None and new.storage_system is not None
    assert new.release.name == "ISC23"
    assert new.storage_system.institution.name == next(
        raw.institution for raw in chosen if raw.io500_id == 639
    )
    assert new.status in Submission.FINAL_STATUSES

    with django_capture_on_commit_callbacks(execute=True):
        again = import_raw(chosen, all_releases)
    assert (again.ingested, again.rows_created, again.already_present) == (0, 0, 2)
    assert Submission.objects.count() == before + 1
    assert Archive.objects.filter(submission__io500_id__in=(6, 639)).count() == 2


@pytest.mark.django_db
def test_a_folder_listed_in_the_index_but_absent_is_reported(tmp_path):
    missing = RawFolder(
        io500_id=901, institution="Lab", system="S", filesystem="F", year=2023, path=tmp_path / "gone"
    )
    result = import_raw([missing], releases())
    assert result.missing_folders == [901]
    assert not Submission.objects.filter(io500_id=901).exists()
