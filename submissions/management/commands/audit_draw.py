"""python manage.py audit_draw RELEASE [--seed SEED]: draw a release's audits after its deadline (the
beat task does it by itself; this is for the committee, and for a draw in the open with a given seed)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from registry.models import Release
from submissions.audits.services import audit_draw


class Command(BaseCommand):
    help = "Draw the audits of a release whose submission deadline has passed (Anywhere on Earth)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("release", help="The release, e.g. isc27.")
        parser.add_argument("--seed", default=None, help="The seed (default: a fresh random one).")

    def handle(self, *args: Any, **options: Any) -> None:
        release = Release.objects.filter(slug=options["release"].lower()).first()
        if release is None:
            raise CommandError(f'There is no release "{options["release"]}".')
        try:
            draw = audit_draw(release=release, seed=options["seed"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            f"{release.name}: seed {draw.seed}, algorithm {draw.algorithm}, {len(draw.candidates)} "
            f"candidate(s): {draw.candidates}"
        )
        for row in draw.drawn:
            self.stdout.write(f"  drawn: submission {row['submission']}, phase {row['phase']}")
