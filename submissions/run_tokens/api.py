"""The token API of run tokens: list yours, ask for a new one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from submissions.permissions import authenticated_user
from submissions.run_tokens.models import RunToken
from submissions.run_tokens.selectors import run_tokens_of
from submissions.run_tokens.serializers import RunTokenRequestSerializer, RunTokenSerializer
from submissions.run_tokens.services import run_token_issue

_ERROR = inline_serializer(
    name="RunTokenError",
    fields={"detail": serializers.CharField(help_text="Why no token was issued.")},
)


class RunTokenPagination(PageNumberPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"


class RunTokenListCreateApi(ListAPIView[RunToken]):
    """Your run tokens, or a new one for one run: `io500 config.ini --timestamp=<token>`."""

    permission_classes = [IsAuthenticated]
    serializer_class = RunTokenSerializer
    pagination_class = RunTokenPagination
    queryset = RunToken.objects.none()  # for the schema; requests use the selector

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return run_tokens_of(user=authenticated_user(self.request.user))

    @extend_schema(
        summary="Ask for a run token",
        description=(
            "A single-use token for one run of a system for a release, bound to your account and "
            "valid for RUN_TOKEN_LIFETIME_HOURS (default 168). Run `io500 config.ini "
            "--timestamp=<token>` and upload the result directory it makes."
        ),
        request=RunTokenRequestSerializer,
        responses={
            201: OpenApiResponse(RunTokenSerializer, description="The new token."),
            400: OpenApiResponse(_ERROR, description="The release is closed or the system is not named."),
        },
    )
    def post(self, request: Request) -> Response:
        given = RunTokenRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            token = run_token_issue(
                user=authenticated_user(request.user),
                release=given.validated_data["release"],
                system_name=given.validated_data["system_name"],
            )
        except DjangoValidationError as error:
            return Response({"detail": " ".join(error.messages)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(RunTokenSerializer(token).data, status=status.HTTP_201_CREATED)
