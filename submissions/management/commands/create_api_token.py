"""python manage.py create_api_token USERNAME: an API token for scripts (the user is created if new)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from submissions.accounts.tokens import api_token_issue


class Command(BaseCommand):
    help = (
        "Create the user if needed and print a new API token as the last line. Tokens are stored hashed, "
        "so each run issues a new one and the user's earlier token stops working."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"].strip()
        if not username:
            raise CommandError("Give a user name, e.g. `python manage.py create_api_token alice`.")
        user_model = get_user_model()
        lookup: dict[str, Any] = {user_model.USERNAME_FIELD: username}
        user, created = user_model._default_manager.get_or_create(defaults=None, **lookup)
        if created:
            # Token-only accounts: no password login until an administrator sets one.
            user.set_unusable_password()
            user.save()
            self.stderr.write(f"Created user {username}.")
        else:
            self.stderr.write(f"Issued a new token for {username}; the earlier one no longer works.")
        self.stdout.write(api_token_issue(user=user))
