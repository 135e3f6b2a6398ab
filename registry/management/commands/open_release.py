"""python manage.py open_release NAME --publication-date YYYY-MM-DD [--deadline YYYY-MM-DD]
[--embargo-end YYYY-MM-DDTHH:MM] [--kinds production,research,...] [--versions isc26_v2,...]

Opens a release for submissions, as the committee's "Open a release" page does.
"""

from __future__ import annotations

import datetime
from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from registry.lists.releases import CURRENT_KINDS, ReleaseDates, ReleaseSettings, release_open


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f'"{text}" is not a date; write YYYY-MM-DD.') from error


def _moment(text: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f'"{text}" is not a date and time; write YYYY-MM-DDTHH:MM (UTC).') from error
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())


class Command(BaseCommand):
    help = "Open a release for submissions (e.g. open_release ISC27 --publication-date 2027-06-22)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("name", help="ISC or SC and the two-digit year, e.g. ISC27.")
        parser.add_argument("--publication-date", required=True, help="The day the lists are released.")
        parser.add_argument(
            "--deadline", default="", help="Last day of submissions (default: publication day)."
        )
        parser.add_argument("--embargo-end", default="", help="Lists stay committee-only until then (UTC).")
        parser.add_argument(
            "--kinds",
            default=",".join(kind.value for kind in CURRENT_KINDS),
            help="The lists it publishes, separated by commas.",
        )
        parser.add_argument(
            "--versions", default="", help="Accepted IO500 version tags, separated by commas."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        settings = ReleaseSettings(
            dates=ReleaseDates(
                publication_date=_date(options["publication_date"]),
                submission_deadline=_date(options["deadline"]) if options["deadline"] else None,
                embargo_end=_moment(options["embargo_end"]) if options["embargo_end"] else None,
            ),
            list_kinds=_names(options["kinds"]),
            accepted_versions=_names(options["versions"]),
        )
        try:
            release = release_open(name=options["name"], settings=settings)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        state = "open" if release.is_open_for_submissions() else "closed already"
        self.stdout.write(
            f"{release.name}: {state} for submissions until {release.closes_on:%Y-%m-%d}, lists published "
            f"{release.publication_date:%Y-%m-%d} ({', '.join(release.list_kinds)}); today is "
            f"{timezone.localdate():%Y-%m-%d}."
        )
