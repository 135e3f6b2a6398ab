"""python manage.py import_io500 ../shared/io500-data [--skip-raw] [--raw-from SUBMISSION_DATA_CHECKOUT]

Loads the published IO500 history: releases, institutions, storage systems, the io500.org submission
rows, the published lists (frozen snapshots with their recorded ranks), ingests every raw
submission folder through the upload pipeline, then records io500.org's plotted lists of SC21 ..
SC24 joined to those runs and reconstructs the Full and Historical lists no public file holds.
Running it again adds only what is missing (a list already imported keeps its entries).
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from registry.importer.corpus_tree import looks_like_submission_data, nested_raw_folders
from registry.importer.history import import_history
from registry.importer.lists import import_lists
from registry.importer.plotted import ReleaseLink, import_plotted
from registry.importer.raw import import_raw, wait_until_verified
from registry.importer.reconstructed import import_reconstructed, import_recorded_changes
from registry.importer.releases import import_releases
from registry.importer.source import ImportSourceError, IO500Data
from registry.signals import lists_changed_now, lists_changes_held

# The workers verify a raw folder in about a second; the whole public corpus fits well within this.
RAW_VERIFY_TIMEOUT_S = 30 * 60


class Command(BaseCommand):
    help = "Import the published IO500 releases, lists and raw submissions from the shared data folder."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("data", type=Path, help="The folder holding lists/ and submissions/.")
        parser.add_argument(
            "--skip-raw", action="store_true", help="Import releases and lists only, no raw folders."
        )
        parser.add_argument(
            "--raw-from",
            type=Path,
            default=None,
            help=(
                "Read the raw submissions from a checkout of IO500/submission-data as it is "
                "(<institution>/<system>/<filesystem>/<year>/submission-N/) instead of the data "
                "folder's submissions/."
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Every release saved and list published sends `lists_changed`: one refresh at the end does.
        with lists_changes_held():
            self._import(**options)

    def _import(self, **options: Any) -> None:
        started = time.monotonic()
        if looks_like_submission_data(options["data"]):
            raise CommandError(
                f"{options['data']} is a checkout of IO500/submission-data. Pass the list data as DATA "
                f"(e.g. ../shared/io500-data) and this checkout with --raw-from {options['data']}."
            )
        try:
            data = IO500Data(options["data"])
        except ImportSourceError as error:
            raise CommandError(str(error)) from error
        raw_from: Path | None = options["raw_from"]
        if raw_from is not None and not raw_from.is_dir():
            raise CommandError(f"--raw-from {raw_from}: no such folder.")

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
            changes = import_recorded_changes(releases)
            self.stdout.write(f"List changes of public SQL patches after ISC21: {changes} new.")
        self._refresh_derived_data()

        if not options["skip_raw"]:
            if raw_from is not None:
                corpus = nested_raw_folders(raw_from)
                folders = corpus.folders
                for problem in corpus.problems:
                    self.stderr.write(f"Left out: {problem}")
                self.stdout.write(f"Raw submission folders: {len(folders)} in the checkout {raw_from}.")
            else:
                folders = data.raw_folders()
                self.stdout.write(f"Raw submission folders: {len(folders)} in {data.submissions}.")
            result = import_raw(folders, list(releases.values()), report=self.stdout.write)
            statuses = ", ".join(f"{count} {status}" for status, count in sorted(result.statuses.items()))
            self.stdout.write(
                f"Raw folders: {result.ingested} ingested ({statuses or 'none'}), "
                f"{result.already_present} already present, {result.rows_created} new rows."
            )
            pending = wait_until_verified(
                result.submission_ids, timeout_s=RAW_VERIFY_TIMEOUT_S, report=self.stdout.write
            )
            if pending:
                self.stderr.write(
                    f"{len(pending)} raw folders were not verified within {RAW_VERIFY_TIMEOUT_S} s; "
                    "the lists imported next cannot link to them (run the import again later)."
                )
            if result.missing_folders:
                self.stderr.write(
                    "These folders are listed in index.csv but absent: "
                    + ", ".join(f"submission-{number}" for number in result.missing_folders)
                )

        with transaction.atomic():
            self._report_plotted(import_plotted(data, releases))
            for built in import_reconstructed(data, releases):
                if built.skipped:
                    self.stdout.write(
                        f"No public run belongs to {built.release}: no {built.kind} list reconstructed "
                        "under its name."
                    )
                    continue
                self.stdout.write(
                    f"Reconstructed {built.release} {built.kind} list: {built.entries} entries "
                    "(marked reconstructed, not io500.org's list)."
                )
        # The raw folders and lists brought measured phases: the lists' phase medians change with them.
        self._refresh_derived_data()
        self.stdout.write(self.style.SUCCESS(f"Import finished in {time.monotonic() - started:.1f} s."))

    def _report_plotted(self, report: list[ReleaseLink]) -> None:
        for link in report:
            if link.skipped:
                continue
            self.stdout.write(
                f"io500.org's {link.release} {link.kind} list (plotted): {link.entries} entries, "
                f"{link.linked_raw} linked to raw data, {link.linked_recorded_row} to io500.org rows without "
                f"raw files, {link.carried_over} carried over from an earlier plotted list, "
                f"{link.new_recorded} new recorded entries, {len(link.ambiguous)} ambiguous."
            )
            for line in link.ambiguous:
                self.stdout.write(f"  ambiguous, recorded without a link: {line}")

    def _refresh_derived_data(self) -> None:
        """The charts' digests of the lists, then every cached list page and chart: the import may
        have added lists, entries and phase values that all of them show."""
        lists_changed_now(everything=True)
        self.stdout.write("Chart data of the published ranked lists recomputed, cached pages dropped.")
