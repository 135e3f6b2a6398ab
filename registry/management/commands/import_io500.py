"""python manage.py import_io500 ../shared/io500-data [--skip-raw]

Loads the published IO500 history: releases, institutions, storage systems, the io500.org submission
rows, the published lists (frozen snapshots with their recorded ranks) and then ingests every raw
submission folder through the upload pipeline. Running it again adds only what is missing.
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from frontend.cache import charts_invalidate
from frontend.snapshot_digest import digests_refresh
from registry.importer.history import import_history
from registry.importer.lists import import_lists
from registry.importer.raw import import_raw
from registry.importer.releases import import_releases
from registry.importer.source import ImportSourceError, IO500Data
from registry.services import CHARTED_KINDS, list_cache_invalidate


class Command(BaseCommand):
    help = "Import the published IO500 releases, lists and raw submissions from the shared data folder."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("data", type=Path, help="The folder holding lists/ and submissions/.")
        parser.add_argument(
            "--skip-raw", action="store_true", help="Import releases and lists only, no raw folders."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            data = IO500Data(options["data"])
        except ImportSourceError as error:
            raise CommandError(str(error)) from error

        with transaction.atomic():
            releases, releases_created = import_releases(data)
            self.stdout.write(f"Releases: {len(releases)} known, {releases_created} new.")
            history = import_history(data, releases)
            self.stdout.write(
                f"Submissions: {history.submissions_created} new imported rows, "
                f"{history.institutions_created} new institutions, "
                f"{history.systems_created} new storage systems."
            )
            snapshots, entries = import_lists(data, releases)
            self.stdout.write(f"Published lists: {snapshots} new snapshots with {entries} entries.")
        self._refresh_derived_data()

        if not options["skip_raw"]:
            folders = data.raw_folders()
            self.stdout.write(f"Raw submission folders: {len(folders)} in {data.submissions}.")
            result = import_raw(folders, list(releases.values()), report=self.stdout.write)
            statuses = ", ".join(f"{count} {status}" for status, count in sorted(result.statuses.items()))
            self.stdout.write(
                f"Raw folders: {result.ingested} ingested ({statuses or 'none'}), "
                f"{result.already_present} already present, {result.rows_created} new rows."
            )
            if result.missing_folders:
                self.stderr.write(
                    "These folders are listed in index.csv but absent: "
                    + ", ".join(f"submission-{number}" for number in result.missing_folders)
                )
            # The raw folders brought measured phases: the lists' phase medians change with them.
            self._refresh_derived_data()
        self.stdout.write(self.style.SUCCESS(f"Import finished in {time.monotonic() - started:.1f} s."))

    def _refresh_derived_data(self) -> None:
        """The charts' digests of the lists, then every cached list page and chart: the import may
        have added lists, entries and phase values that all of them show."""
        refreshed = digests_refresh(kinds=CHARTED_KINDS)
        self.stdout.write(f"Chart data of {refreshed} published ranked lists recomputed.")
        list_cache_invalidate()
        charts_invalidate()
