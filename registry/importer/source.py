"""Reading the shared IO500 data folder: list tables (CSV) and the raw submission index.

Only reads; nothing here touches the database. Errors are phrased for the person running the import.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

LISTS_DIR = "lists"
SUBMISSIONS_DIR = "submissions"
REQUIRED_LIST_FILES = (
    "releases.csv",
    "types.csv",
    "listings.csv",
    "listings_submissions.csv",
    "submissions.csv",
    "submissions_removed.csv",
)
CALENDAR_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "release_calendar.json"

# types.csv url -> our list kind slug.
TYPE_URL_TO_KIND = {
    "io500": "io500",
    "ten": "ten-node",
    "full": "full",
    "historical": "historical",
    "scc": "scc",
}


class ImportSourceError(Exception):
    """The data folder is missing or does not look like the shared IO500 data."""


@dataclass(frozen=True)
class ListingRow:
    listing_id: int
    release_acronym: str
    kind: str
    description: str


@dataclass(frozen=True)
class ListMemberRow:
    listing_id: int
    row_id: int
    submission_id: int
    score: float
    rank: int


@dataclass(frozen=True)
class RawFolder:
    io500_id: int
    institution: str
    system: str
    filesystem: str
    year: int
    path: Path


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


class IO500Data:
    """The shared data folder (the README of ../shared/io500-data describes every file)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.lists = self.root / LISTS_DIR
        self.submissions = self.root / SUBMISSIONS_DIR
        if not self.root.is_dir():
            raise ImportSourceError(f"The data folder {root} does not exist.")
        missing = [name for name in REQUIRED_LIST_FILES if not (self.lists / name).is_file()]
        if missing:
            raise ImportSourceError(
                f"{self.lists} is not the IO500 list data: {', '.join(missing)} "
                "missing. Pass the folder that holds lists/ and submissions/ (e.g. ../shared/io500-data)."
            )

    def releases(self) -> list[dict[str, str]]:
        return read_csv(self.lists / "releases.csv")

    def submission_rows(self) -> list[dict[str, str]]:
        return read_csv(self.lists / "submissions.csv")

    def removed_submission_rows(self) -> list[dict[str, str]]:
        return read_csv(self.lists / "submissions_removed.csv")

    def listings(self) -> list[ListingRow]:
        kinds = {row["id"]: TYPE_URL_TO_KIND[row["url"]] for row in read_csv(self.lists / "types.csv")}
        acronyms = {row["id"]: row["acronym"] for row in self.releases()}
        return [
            ListingRow(
                listing_id=int(row["id"]),
                release_acronym=acronyms[row["release_id"]],
                kind=kinds[row["type_id"]],
                description=row["description"].strip(),
            )
            for row in read_csv(self.lists / "listings.csv")
        ]

    def list_members(self) -> list[ListMemberRow]:
        return [
            ListMemberRow(
                listing_id=int(row["listing_id"]),
                row_id=int(row["row_id"]),
                submission_id=int(row["submission_id"]),
                score=float(row["score"]),
                rank=int(row["rank"]),
            )
            for row in read_csv(self.lists / "listings_submissions.csv")
        ]

    def raw_folders(self) -> list[RawFolder]:
        index = self.submissions / "index.csv"
        if not index.is_file():
            return []
        return [
            RawFolder(
                io500_id=int(row["submission_id"]),
                institution=row["institution"].strip(),
                system=row["system"].strip(),
                filesystem=row["filesystem"].strip(),
                year=int(row["year"]),
                path=self.submissions / f"submission-{row['submission_id']}",
            )
            for row in read_csv(index)
        ]


def read_calendar() -> dict[str, object]:
    with CALENDAR_FIXTURE.open(encoding="utf-8") as handle:
        calendar: dict[str, object] = json.load(handle)
    return calendar
