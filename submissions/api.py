"""The token API for uploads and their outcome. Parses input, calls a service or selector, answers."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from submissions.archives import ArchiveStorageUnavailable
from submissions.json_input import clip
from submissions.models import EXTRA_FILE_FIELDS, ListCategory, Submission
from submissions.permissions import authenticated_user
from submissions.selectors import submission_get_visible, submission_list_for_user
from submissions.serializers import (
    SubmissionCreatedSerializer,
    SubmissionCreateSerializer,
    SubmissionDetailSerializer,
    SubmissionSummarySerializer,
)
from submissions.services import DuplicateArchive, submission_create
from submissions.system.description import FORM_FIELD_NAMES
from submissions.system.files import MAX_PROBLEMS_LISTED
from submissions.throttles import UploadThrottle

_ERROR = inline_serializer(
    name="SubmissionError",
    fields={"detail": serializers.CharField(help_text="What went wrong, in words a submitter understands.")},
)


def _validation_body(exc: DjangoValidationError) -> dict[str, Any]:
    if hasattr(exc, "error_dict"):
        return {"system": exc.message_dict}
    return {"detail": " ".join(exc.messages)}


def _plain_system_fields(data: Any, known: set[str]) -> tuple[dict[str, Any], list[str]]:
    """The registry's system fields sent as form fields of their own, and the names that are no field
    of the upload at all (refused by name: nothing a client sends is dropped without a word)."""
    fields = {name: data.get(name) for name in data if name in FORM_FIELD_NAMES}
    unknown = sorted(name for name in data if name not in known and name not in FORM_FIELD_NAMES)
    return fields, unknown


class SubmissionPagination(PageNumberPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"


class SubmissionListCreateApi(ListAPIView[Submission]):
    """List your own submissions, or upload a new result archive."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UploadThrottle]
    parser_classes = [MultiPartParser, FormParser]
    serializer_class = SubmissionSummarySerializer
    pagination_class = SubmissionPagination

    queryset = Submission.objects.none()  # for the schema; requests use the selector

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return submission_list_for_user(user=authenticated_user(self.request.user))

    @extend_schema(
        summary="Upload a result archive",
        request={"multipart/form-data": SubmissionCreateSerializer},
        responses={
            202: OpenApiResponse(SubmissionCreatedSerializer, description="Stored; verification is queued."),
            200: OpenApiResponse(
                SubmissionCreatedSerializer,
                description="You uploaded these exact bytes before: that submission.",
            ),
            400: OpenApiResponse(_ERROR, description="The upload or the system description is not valid."),
            409: OpenApiResponse(
                _ERROR, description="These exact bytes were submitted from another account."
            ),
            507: OpenApiResponse(
                _ERROR, description="The registry's storage is full or unavailable; nothing was kept."
            ),
            429: OpenApiResponse(
                _ERROR, description="Too many uploads from this account in a short time; retry later."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        form = SubmissionCreateSerializer(data=request.data)
        system_fields, unknown = _plain_system_fields(request.data, set(form.fields))
        if unknown:
            # Named, each cut short and at most MAX_PROBLEMS_LISTED of them: an answer never repeats
            # the whole of what a client sent.
            named = [clip(name) for name in unknown[:MAX_PROBLEMS_LISTED]]
            more = f" and {len(unknown) - len(named):,} more" if len(unknown) > len(named) else ""
            return Response(
                {
                    "unknown_fields": named,
                    "detail": f"The upload has fields the registry does not know: {', '.join(named)}{more}. "
                    "Send the system description in the `system` field (JSON, flat or in the IO500 "
                    f"community schema); of its fields only {', '.join(FORM_FIELD_NAMES)} may also be "
                    "sent as form fields of their own.",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        form.is_valid(raise_exception=True)
        data = form.validated_data
        extra = {
            kind: data[field] for field, kind in EXTRA_FILE_FIELDS.items() if data.get(field) is not None
        }
        try:
            submission, created = submission_create(
                submitter=authenticated_user(request.user),
                archive=data["archive"],
                original_name=data["archive"].name or "archive",
                system=data.get("system"),
                system_fields=system_fields,
                system_origin="API",
                release=data.get("release"),
                ten_node=data.get("ten_node", False),
                category=data.get("category", ListCategory.RESEARCH),
                extra_files=extra,
            )
        except DuplicateArchive as exc:
            return Response({"detail": " ".join(exc.messages)}, status=status.HTTP_409_CONFLICT)
        except ArchiveStorageUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_507_INSUFFICIENT_STORAGE)
        except DjangoValidationError as exc:
            return Response(_validation_body(exc), status=status.HTTP_400_BAD_REQUEST)
        body = SubmissionCreatedSerializer(submission, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class SubmissionDetailApi(GenericAPIView[Submission]):
    """One submission: its status while it is verified, then its scores, phases and findings."""

    permission_classes = [AllowAny]
    serializer_class = SubmissionDetailSerializer

    def get(self, request: Request, pk: int) -> Response:
        submission = submission_get_visible(user=request.user, pk=pk)
        return Response(SubmissionDetailSerializer(submission, context={"request": request}).data)
