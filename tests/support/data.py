"""The shared IO500 data: where it is, and small copies of it for tests that need only a few runs.

It lives next to the repository, `<repo>/../shared/io500-data`, on the development machine as in
CI's clean clone; this is the one place that says so. Missing data is a broken setup, never a reason
to skip: every accessor fails the test that asks, naming the path it expected.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
IO500_DATA = REPO.parent / "shared" / "io500-data"


def _missing(what: Path) -> None:
    pytest.fail(
        f"The shared IO500 data is missing: expected {what} (the data lives at {IO500_DATA}, "
        "../shared/io500-data next to the repository).",
        pytrace=False,
    )


def data_root() -> Path:
    """The data folder (lists/ and submissions/), or the test fails."""
    for needed in (IO500_DATA / "submissions" / "index.csv", IO500_DATA / "lists"):
        if not needed.exists():
            _missing(needed)
    return IO500_DATA


def submissions_root() -> Path:
    """The folder of the real raw submissions (submission-<n>/), or the test fails."""
    return data_root() / "submissions"


def submission_folder(number: int | str) -> Path:
    """One real raw submission, submission-<number>, or the test fails."""
    folder = submissions_root() / f"submission-{number}"
    if not folder.is_dir():
        _missing(folder)
    return folder


def shared_subset(data: Path, tmp_path: Path, numbers: set[str]) -> Path:
    """A data folder with every list file and only these raw submissions."""
    subset = tmp_path / "data"
    (subset / "submissions").mkdir(parents=True)
    (subset / "lists").symlink_to(data / "lists")
    with (data / "submissions" / "index.csv").open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = [row for row in reader if row["submission_id"] in numbers]
        fields = reader.fieldnames
    assert fields is not None and len(rows) == len(numbers)
    with (subset / "submissions" / "index.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    for number in numbers:
        shutil.copytree(
            data / "submissions" / f"submission-{number}", subset / "submissions" / f"submission-{number}"
        )
    return subset


def io500_org_download_columns(data: Path) -> list[str]:
    """The columns of io500.org's list download (io500.org/download/<bof>/<type>), from its sources.

    IO500/webpage src/Controller/ListingsController.php, download(): the header is every column of
    the `submissions` table except SubmissionsTable::PRIVATE_FIELDS (`information_submitter`), then
    `score`. The table's columns are the header of lists/submissions.csv of the shared IO500 data
    (IO500/webpage sql/*.sql replayed; its README), less `inserted_by_sql_file`, which that
    extraction adds, and `information_submitter`, which it leaves out as well.
    """
    with (data / "lists" / "submissions.csv").open(newline="", encoding="utf-8") as handle:
        table = next(csv.reader(handle))
    return [name for name in table if name not in ("inserted_by_sql_file", "information_submitter")] + [
        "score"
    ]
