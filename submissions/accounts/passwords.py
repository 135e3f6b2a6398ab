"""A new password revokes the account's API tokens.

A password reset is how someone who fears their account is taken over gets it back; a token issued
by whoever held the account before must not keep uploading in its name. Django calls
`password_changed` of every entry of AUTH_PASSWORD_VALIDATORS after a user's password is saved,
and only for a password set by a person (a reset, a change, the admin, `changepassword`), never for
the re-hashing of an unchanged password at log-in: the one hook that sees every way a password
changes and nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from registry.core.site import site_url
from submissions.accounts.models import ApiToken

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REVOKED_NOTICE = "A new password revokes the account's API tokens; issue a new one on the token page."


def api_tokens_revoke(*, user: User) -> int:
    """Delete the user's API tokens and, when there were any, tell the user by mail; the count."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    if deleted and user.email:
        body = (
            f"Hello {user.get_username()},\n\n"
            "the password of your IO500 registry account was changed, so its API token was revoked: "
            "scripts that upload with it now get 401. Issue a new token here:\n\n"
            f"{site_url(reverse('accounts:api-token'))}\n\n"
            "If you did not change the password, reset it at once and tell the IO500 committee.\n"
        )
        address = user.email
        transaction.on_commit(lambda: send_mail("[IO500] Your API token was revoked", body, None, [address]))
    return deleted


class RevokeApiTokensOnPasswordChange:
    """Not a rule on passwords: an AUTH_PASSWORD_VALIDATORS entry for its `password_changed` hook."""

    def validate(self, password: str, user: User | None = None) -> None:
        """Every password is acceptable to this entry."""

    def password_changed(self, password: str, user: User | None = None) -> None:
        if user is not None and user.pk is not None:
            api_tokens_revoke(user=user)

    def get_help_text(self) -> str:
        return "Setting a new password revokes your API tokens."
