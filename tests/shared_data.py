"""Small copies of the shared IO500 data for tests that need only a few raw submissions."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path


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
