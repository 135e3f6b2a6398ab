"""python manage.py demo_setup: what `make demo` needs beyond the imported history, so that a
newcomer can go through every journey on their own machine.

- The next release after today is opened for submissions (when no release is open), with
  provisional dates (ISC in late June, SC in mid-November, submissions closing three weeks before)
  that the committee changes on /review/releases/<release>/edit/.
- Two accounts to log in with: a submitter and a committee member (passwords printed, and in the
  README). Refused on anything but the embedded SQLite database: known passwords have no place in
  a deployment.
"""

from __future__ import annotations

import datetime
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from registry.lists.releases import ReleaseDates, ReleaseSettings, release_open
from registry.models import Release
from submissions.review.roles import committee_member_add

DEMO_ACCOUNTS = (
    ("submitter", "submitter@example.org", "demo-submitter", False),
    ("committee", "committee@example.org", "demo-committee", True),
)
CLOSES_BEFORE = datetime.timedelta(days=21)


def next_conference(after: datetime.date) -> tuple[str, datetime.date]:
    """The next ISC (late June) or SC (mid-November) after `after`, with a provisional date."""
    for year in (after.year, after.year + 1):
        for prefix, month, day in (("ISC", 6, 24), ("SC", 11, 18)):
            day_of = datetime.date(year, month, day)
            if day_of - CLOSES_BEFORE > after:
                return f"{prefix}{year % 100:02d}", day_of
    raise AssertionError("unreachable: a conference falls within every year")


class Command(BaseCommand):
    help = "Open the next release and create the demo's submitter and committee accounts (demo only)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--any-database", action="store_true", help="Allow a database other than the demo's SQLite."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "sqlite" and not options["any_database"]:
            raise CommandError(
                "demo_setup creates accounts with known passwords: it only runs on the demo's SQLite."
            )
        self._open_next_release()
        for username, email, password, committee in DEMO_ACCOUNTS:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username, email, password)
            if committee:
                committee_member_add(user=user)
            role = "committee member" if committee else "submitter"
            self.stdout.write(f"Log in as the {role}: {username} / {password}")

    def _open_next_release(self) -> None:
        open_now = Release.objects.open_for_submissions().first()
        if open_now is not None:
            self.stdout.write(f"{open_now.name} is open for submissions until {open_now.closes_on:%Y-%m-%d}.")
            return
        today = timezone.localdate()
        name, publication = next_conference(today)
        existing = Release.objects.filter(name=name).first()
        if existing is not None:
            self.stdout.write(f"{name} exists and is closed; the committee reopens it on its page.")
            return
        release = release_open(
            name=name,
            settings=ReleaseSettings(
                dates=ReleaseDates(
                    publication_date=publication, submission_deadline=publication - CLOSES_BEFORE
                )
            ),
        )
        self.stdout.write(
            f"{release.name} opened for submissions until {release.closes_on:%Y-%m-%d} (provisional dates: "
            f"change them on /review/releases/{release.slug}/edit/)."
        )
