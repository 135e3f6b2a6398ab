"""Log-in by user name as people type it: ALICE in fullwidth letters and "Alice" are alice's account.

Django looks a user name up exactly, after NFKC (its log-in form does that much), while the log-in
lock counted the name as typed: a fullwidth or other-case spelling was a fresh lock for the same
account. Both now use registry.core.text.username_key; sign-up refuses a name whose key another
account has (submissions.accounts.names), so the key names one account.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest

from registry.core.text import username_key


def user_by_name(name: str) -> User | None:
    """The account a typed user name means: the exact name first, else the one account whose name
    has the same key (two older accounts differing only in case match none)."""
    typed = unicodedata.normalize("NFKC", name)
    exact = User.objects.filter(username=typed).first()
    if exact is not None:
        return exact
    key = username_key(typed)
    candidates = User.objects.filter(username__iexact=typed)[:2]
    matches = [user for user in candidates if username_key(user.username) == key]
    return matches[0] if len(matches) == 1 else None


class NormalisedUsernameBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_by_name(username)
        if user is None:
            # As ModelBackend does: hash anyway, so that the time taken does not tell which names exist.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def inactive_user_with_password(name: str, password: str) -> User | None:
    """The not-yet-activated account a failed log-in meant, only when its password was right.

    Only the right password earns the "not activated yet" answer: anyone else learns no more than
    "wrong name or password", so the answer tells nobody which names exist. Unknown names hash a
    password too, so a known name does not take longer to refuse.
    """
    user = user_by_name(name)
    if user is None:
        User().set_password(password)
        return None
    if user.is_active or not user.check_password(password):
        return None
    return user
