"""Issuing and checking API tokens. Only a digest is stored; the plain token exists in one answer.

Tokens look like `io500_<43 url-safe characters>`; clients send `Authorization: Token <token>`, the
header the bundled runner and earlier scripts already use.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from submissions.accounts.models import ApiToken
from submissions.accounts.token_format import token_digest, token_new, token_shown_prefix

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# token_digest is also this module's: the tests compare stored digests with it.
__all__ = ["api_token_issue", "api_token_user", "api_token_user_id", "token_digest"]

_KEYWORD = b"token"
# Recording every use would turn each API read into a write; once per interval tells enough.
_LAST_USED_RESOLUTION = timedelta(minutes=5)


@transaction.atomic
def api_token_issue(*, user: User) -> str:
    """A new API token for `user`, replacing any earlier one; the only time the plain token is seen."""
    ApiToken.objects.filter(user=user).delete()
    token = token_new()
    ApiToken.objects.create(user=user, digest=token_digest(token), prefix=token_shown_prefix(token))
    return token


def api_token_user(*, token: str) -> User | None:
    """The active user a token belongs to, None for an unknown token or an inactive account."""
    found = ApiToken.objects.select_related("user").filter(digest=token_digest(token)).first()
    if found is None or not found.user.is_active:
        return None
    now = timezone.now()
    if found.last_used_at is None or now - found.last_used_at > _LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found.user


def api_token_user_id(*, token: str) -> int | None:
    """The id of the active account a token belongs to, by one read (no `last_used_at` update): for
    the check nginx makes before it accepts an upload's body, which the upload itself then repeats."""
    found = ApiToken.objects.filter(digest=token_digest(token), user__is_active=True)
    return found.values_list("user_id", flat=True).first()


def token_in_header(header: str) -> str | None:
    """The token of an `Authorization: Token <token>` header; None for any other or malformed one."""
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != _KEYWORD.decode() or not parts[1].isascii():
        return None
    return parts[1]


class HashedTokenAuthentication(BaseAuthentication):
    """DRF authentication by `Authorization: Token <token>`, checked against the stored digests."""

    def authenticate(self, request: Request) -> tuple[User, str] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != _KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                'Give the token after "Token", separated by one space and without spaces inside it.'
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            message = "The API token may only contain ASCII characters."
            raise exceptions.AuthenticationFailed(message) from None
        user = api_token_user(token=token)
        if user is None:
            raise exceptions.AuthenticationFailed(
                "This API token is not valid: it may have been replaced by a newer one. "
                "Create a new token and try again."
            )
        return user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class HashedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Describes the token header in the OpenAPI schema (drf-spectacular finds it by its target)."""

    target_class = "submissions.accounts.tokens.HashedTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                'Token-based authentication: "Authorization: Token io500_...". Log in and create '
                "your token on the token page, /accounts/token/."
            ),
        }
