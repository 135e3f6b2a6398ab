"""The one shape of the review API's views (submissions.review.api): a logged-in user acts on one
submission they may see, with a validated form, through the service the web pages call. A service's
refusal (Django's ValidationError or PermissionDenied) is answered by the API's exception handler
(registry.core.api_errors): 400 with the reason, per field when the service named fields, or 403."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request

from submissions.models import Submission
from submissions.permissions import authenticated_user
from submissions.review.selectors import may_follow_review
from submissions.selectors import submission_get_visible


class SubmissionStepApi(GenericAPIView[Any]):
    """A view of one submission's review, by token."""

    permission_classes = [IsAuthenticated]

    def submission(self, request: Request, pk: int, *, followers_only: str = "") -> tuple[User, Submission]:
        """The user and the submission they may see (404 otherwise). With `followers_only` (what is
        read, as "see its decisions"), only its submitter and the committee get it (403 otherwise)."""
        user = authenticated_user(request.user)
        submission = submission_get_visible(user=user, pk=pk)
        if followers_only and not may_follow_review(user, submission):
            raise PermissionDenied(f"Only the submitter and the IO500 committee {followers_only}.")
        return user, submission

    def form(
        self, request: Request, serializer: type[serializers.BaseSerializer[Any]] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The request's data validated by `serializer` (the view's own by default); 400 otherwise."""
        form = (serializer or self.get_serializer_class())(data=request.data, **kwargs)
        form.is_valid(raise_exception=True)
        data: dict[str, Any] = form.validated_data
        return data
