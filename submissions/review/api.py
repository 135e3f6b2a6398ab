"""The token API of the per-entry decisions: read a submission's decisions, take one (the submitter
withdraws their own before publication; the committee excludes, moves, withdraws after publication
and marks duplicates). Parses input, calls the one service, answers."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from registry.models import Release
from submissions.models import EntryDecision, Submission
from submissions.permissions import authenticated_user
from submissions.review.decisions import entry_decisions
from submissions.review.selectors import may_follow_review
from submissions.review.services import entry_decision_take
from submissions.selectors import submission_get_visible

_ERROR = inline_serializer(
    name="EntryDecisionError",
    fields={"detail": serializers.CharField(help_text="Why the decision was refused.")},
)


class EntryDecisionSerializer(serializers.ModelSerializer[EntryDecision]):
    actor = serializers.SerializerMethodField()
    release: serializers.SlugRelatedField[Release] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    from_release: serializers.SlugRelatedField[Release] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    summary = serializers.CharField(read_only=True)

    class Meta:
        model = EntryDecision
        fields = [
            "id",
            "kind",
            "reason",
            "list_kind",
            "release",
            "from_release",
            "duplicate_of",
            "actor",
            "created_at",
            "summary",
        ]

    def get_actor(self, decision: EntryDecision) -> str:
        return decision.actor.get_username() if decision.actor else ""


class EntryDecisionCreateSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=EntryDecision.Kind.choices)
    reason = serializers.CharField(max_length=10_000)
    list_kind = serializers.CharField(required=False, default="", allow_blank=True, max_length=32)
    release = serializers.SlugRelatedField(
        slug_field="slug", queryset=Release.objects.all(), required=False, allow_null=True, default=None
    )
    duplicate_of = serializers.PrimaryKeyRelatedField(
        queryset=Submission.objects.all(), required=False, allow_null=True, default=None
    )


class EntryDecisionApi(GenericAPIView[EntryDecision]):
    """A submission's per-entry decisions, oldest first; POST takes one (a reason is required)."""

    permission_classes = [IsAuthenticated]
    serializer_class = EntryDecisionSerializer

    def get(self, request: Request, pk: int) -> Response:
        user = authenticated_user(request.user)
        submission = submission_get_visible(user=user, pk=pk)
        if not may_follow_review(user, submission):
            raise PermissionDenied("Only the submitter and the IO500 committee see its decisions.")
        rows = entry_decisions(submission=submission)
        return Response(EntryDecisionSerializer(rows, many=True).data)

    @extend_schema(
        request=EntryDecisionCreateSerializer,
        responses={
            201: EntryDecisionSerializer,
            400: OpenApiResponse(_ERROR, description="The decision does not fit the submission's state."),
            403: OpenApiResponse(_ERROR, description="Not yours to take (the committee's, or another's)."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        user = authenticated_user(request.user)
        submission = submission_get_visible(user=user, pk=pk)
        form = EntryDecisionCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        try:
            decision = entry_decision_take(
                user=user,
                submission=submission,
                kind=data["kind"],
                reason=data["reason"],
                list_kind=data["list_kind"],
                release=data["release"],
                duplicate_of=data["duplicate_of"],
            )
        except DjangoValidationError as exc:
            return Response({"detail": " ".join(exc.messages)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(EntryDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)
