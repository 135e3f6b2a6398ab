"""The one shape of the token API's step views (submissions.review.api, submissions.audits.api): a
logged-in user acts on one object (a submission they may see, an objection, an answer), with a
validated form, through the service the web pages call. A service's refusal (Django's
ValidationError or PermissionDenied) is answered by the API's exception handler
(registry.core.api_errors): 400 with the reason, per field when the service named fields, or 403;
a missing object is DRF's NotFound, 404. Every one carries "detail" and "status"."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request

from submissions.models import Submission
from submissions.permissions import authenticated_user
from submissions.review.selectors import may_follow_review
from submissions.selectors import submission_get_visible


class StepApi(GenericAPIView[Any]):
    """What every step view shares: a logged-in user and the request's validated form."""

    permission_classes = [IsAuthenticated]

    def form(
        self, request: Request, serializer: type[serializers.BaseSerializer[Any]] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The request's data validated by `serializer` (the view's own by default); 400 otherwise."""
        form = (serializer or self.get_serializer_class())(data=request.data, **kwargs)
        form.is_valid(raise_exception=True)
        data: dict[str, Any] = form.validated_data
        return data


class ObjectStepApi(StepApi):
    """A step on one object found by its pk among `model`'s rows; the service called decides who may
    take it (the committee, mostly), so the lookup itself filters nothing."""

    model: ClassVar[type[Model]]
    # The 404's reason, with "{pk}" for the pk asked for.
    missing: ClassVar[str]

    def step(self, request: Request, pk: int) -> tuple[User, Any, dict[str, Any]]:
        """The user, the object (404 when there is none) and the validated form (400 otherwise)."""
        found = self.model._default_manager.filter(pk=pk).first()
        if found is None:
            raise NotFound(self.missing.format(pk=pk))
        return authenticated_user(request.user), found, self.form(request)


class SubmissionStepApi(StepApi):
    """A view of one submission's review, by token."""

    def submission(self, request: Request, pk: int, *, followers_only: str = "") -> tuple[User, Submission]:
        """The user and the submission they may see (404 otherwise). With `followers_only` (what is
        read, as "see its decisions"), only its submitter and the committee get it (403 otherwise)."""
        user = authenticated_user(request.user)
        submission = submission_get_visible(user=user, pk=pk)
        if followers_only and not may_follow_review(user, submission):
            raise PermissionDenied(f"Only the submitter and the IO500 committee {followers_only}.")
        return user, submission
