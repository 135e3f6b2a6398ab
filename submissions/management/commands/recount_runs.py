"""python manage.py recount_runs [--submission ID ...]: read every stored archive's node and task
counts, the outputs that printed them and the run's start clock again (verdicts stay as they are)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from submissions.ingest.recount import recount_stored_runs


class Command(BaseCommand):
    help = "Read the node and task counts and the start clock of every stored run again from its archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--submission", type=int, action="append", help="Only this submission (repeatable)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        summary = recount_stored_runs(submission_ids=options["submission"], report=self.stdout.write)
        self.stdout.write(
            f"{summary.archives} archive(s) read, {summary.results} run(s) matched, {summary.changed} updated"
            + (f", {len(summary.unreadable)} not readable" if summary.unreadable else "")
            + "."
        )
