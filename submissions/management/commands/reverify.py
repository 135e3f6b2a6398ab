"""python manage.py reverify [--release R] [--wait]: verify every stored archive again in the
background and report whose verdict changed; published list snapshots are never touched."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from registry.models import Release
from submissions.models import ReverifyRun
from submissions.review.reverify import reverify_start, verdict_differences

POLL_SECONDS = 1.0


class Command(BaseCommand):
    help = "Run every stored result archive through the current scoring engine again and report changes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--release", help="Only the submissions of this release (e.g. isc26).")
        parser.add_argument(
            "--wait", action="store_true", help="Wait for the workers to finish and print the changes."
        )
        parser.add_argument("--timeout", type=float, default=3600.0, help="Seconds to wait at most.")

    def handle(self, *args: Any, **options: Any) -> None:
        release = None
        if options["release"]:
            release = Release.objects.filter(slug=options["release"].lower()).first()
            if release is None:
                names = ", ".join(Release.objects.values_list("slug", flat=True)) or "none"
                raise CommandError(f'There is no release "{options["release"]}" (releases: {names}).')
        run = reverify_start(user=None, release=release)
        scope = f" of {release.name}" if release else ""
        self.stdout.write(
            f"Re-verification {run.pk}: {run.total} stored archive(s){scope} queued. "
            f"Progress: {reverify_page(run)}"
        )
        if options["wait"]:
            self._wait_and_report(run.pk, options["timeout"])

    def _wait_and_report(self, run_id: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        run = ReverifyRun.objects.get(pk=run_id)
        while not run.is_finished:
            if time.monotonic() > deadline:
                raise CommandError(
                    f"Re-verification {run_id} is still running ({run.done} of {run.total} done); "
                    "follow it on its page."
                )
            time.sleep(POLL_SECONDS)
            run.refresh_from_db()
        self.stdout.write(f"Done: {run.done} verified again, {run.changed} changed, {run.failed} failed.")
        for item in run.items.filter(changed=True).select_related("submission"):
            changes = "; ".join(verdict_differences(item.before, item.after))
            self.stdout.write(f"  submission {item.submission_id}: {changes}")
        for item in run.items.exclude(error=""):
            self.stdout.write(f"  submission {item.submission_id} failed: {item.error}")


def reverify_page(run: ReverifyRun) -> str:
    return reverse("publishing:reverify-detail", args=[run.pk])
