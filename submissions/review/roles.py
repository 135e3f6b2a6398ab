"""The three roles: submitter (any active account), committee (a group with permissions), admin
(superuser). Views and services ask these functions, never a group name or a permission string."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse

COMMITTEE_GROUP = "committee"
REVIEW_PERMISSION = "submissions.review_submission"
PUBLISH_PERMISSION = "submissions.publish_lists"
# What the committee may do: see every submission (the visibility selector asks for the first),
# decide on them, build and publish lists, and read the audit trail.
COMMITTEE_PERMISSIONS = (
    "submissions.view_submission",
    REVIEW_PERMISSION,
    PUBLISH_PERMISSION,
    "submissions.view_historicalsubmission",
    "registry.view_listsnapshot",
)


def committee_group_ensure() -> Group:
    """The committee group with its permissions (idempotent; run after every migrate)."""
    group, _ = Group.objects.get_or_create(name=COMMITTEE_GROUP)
    wanted = Q(pk__in=[])
    for name in COMMITTEE_PERMISSIONS:
        app_label, codename = name.split(".")
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.add(*Permission.objects.filter(wanted))
    return group


def _committee_group() -> Group:
    # The group and its permissions are ensured after every migrate; adding a member only needs it.
    return Group.objects.filter(name=COMMITTEE_GROUP).first() or committee_group_ensure()


def committee_member_add(*, user: User) -> None:
    user.groups.add(_committee_group())


def committee_member_remove(*, user: User) -> None:
    user.groups.remove(_committee_group())


def is_committee(user: User | AnonymousUser) -> bool:
    """Committee members and admins (a superuser holds every permission)."""
    return bool(user.is_authenticated and user.has_perm(REVIEW_PERMISSION))


def may_publish(user: User | AnonymousUser) -> bool:
    return bool(user.is_authenticated and user.has_perm(PUBLISH_PERMISSION))


def ensure_committee_group_after_migrate(sender: Any, **kwargs: Any) -> None:
    committee_group_ensure()


View = Callable[..., HttpResponse]


def committee_required(view: View) -> View:
    """Anonymous visitors are sent to log in; logged-in non-members get 403."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_committee(request.user):
            raise PermissionDenied("Only the IO500 committee can open the review pages.")
        return view(request, *args, **kwargs)

    return wrapped
