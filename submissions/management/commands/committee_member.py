"""python manage.py committee_member USERNAME [--remove]

Adds an account to the IO500 committee (review, decide, build and publish lists), or removes it.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from submissions.review.roles import committee_member_add, committee_member_remove, is_committee


class Command(BaseCommand):
    help = "Add an account to the IO500 committee, or remove it with --remove."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="Take the account off the committee.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f'There is no account "{options["username"]}"; it signs up first.')
        if options["remove"]:
            committee_member_remove(user=user)
        else:
            committee_member_add(user=user)
        user = User.objects.get(pk=user.pk)  # permissions are cached on the instance
        member = "is on" if is_committee(user) else "is not on"
        note = " (as a superuser it keeps every permission)" if user.is_superuser else ""
        self.stdout.write(f"{user.username} {member} the committee{note}.")
