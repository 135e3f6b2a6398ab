from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied


def authenticated_user(user: User | AnonymousUser) -> User:
    """The logged-in user of a view that requires one (narrows the type for the services)."""
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied("Log in to do this.")
    return user
