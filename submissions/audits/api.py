"""The token API of audits and objections, beside the review API: each view calls the service the
pages call."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from registry.models import ListSnapshot, Release
from submissions.audits.models import AuditRequest, Objection, ObjectionAnswer
from submissions.audits.objections import objection_answer, objection_answer_revoke, objection_file
from submissions.audits.selectors import audits_for_user, objections_visible, release_audit_draw
from submissions.audits.serializers import (
    AuditAnswerSerializer,
    AuditDrawSerializer,
    AuditSerializer,
    ObjectionAnswerCreateSerializer,
    ObjectionAnswerSerializer,
    ObjectionCreateSerializer,
    ObjectionSerializer,
    ReasonSerializer,
)
from submissions.audits.services import audit_answer_upload, audit_draw
from submissions.permissions import authenticated_user
from submissions.review.api_base import ObjectStepApi
from submissions.review.roles import is_committee
from submissions.serializers import SubmissionCreatedSerializer
from submissions.throttles import UploadThrottle


def _release(slug: str) -> Release:
    release = Release.objects.filter(slug=slug).first()
    if release is None:
        raise NotFound(f'There is no release "{slug}".')
    return release


class AuditListApi(GenericAPIView[AuditRequest]):
    """Your audit requests (the committee: every one), newest first, with the run token to use."""

    permission_classes = [IsAuthenticated]
    serializer_class = AuditSerializer

    def get(self, request: Request) -> Response:
        rows = audits_for_user(user=authenticated_user(request.user)).order_by("-created_at")
        return Response(AuditSerializer(rows, many=True, context={"show_token": True}).data)


class AuditAnswerApi(GenericAPIView[Any]):
    """Upload the audit re-run (multipart `archive`); it is checked at ingest, never listed."""

    permission_classes = [IsAuthenticated]
    serializer_class = AuditAnswerSerializer
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [UploadThrottle]
    queryset = AuditRequest.objects.none()

    @extend_schema(request=AuditAnswerSerializer, responses={201: SubmissionCreatedSerializer})
    def post(self, request: Request, pk: int) -> Response:
        user = authenticated_user(request.user)
        audit = AuditRequest.objects.filter(pk=pk, submission__submitter=user).first()
        if audit is None:
            raise NotFound(f"You have no audit {pk}.")
        form = AuditAnswerSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        archive = form.validated_data["archive"]
        answer = audit_answer_upload(user=user, audit=audit, archive=archive, original_name=archive.name)
        return Response(SubmissionCreatedSerializer(answer).data, status=status.HTTP_201_CREATED)


class AuditDrawApi(GenericAPIView[Any]):
    """A release's audit draw (seed, candidates, drawn; the committee's); POST draws it after the
    deadline when the scheduled task has not yet."""

    permission_classes = [IsAuthenticated]
    serializer_class = AuditDrawSerializer
    queryset = AuditRequest.objects.none()

    def get(self, request: Request, release: str) -> Response:
        if not is_committee(request.user):
            raise PermissionDenied("Only the IO500 committee sees the audit draw.")
        draw = release_audit_draw(_release(release))
        if draw is None:
            raise NotFound("No audit draw yet.")
        return Response(AuditDrawSerializer(draw).data)

    @extend_schema(request=None, responses={201: AuditDrawSerializer})
    def post(self, request: Request, release: str) -> Response:
        draw = audit_draw(release=_release(release), user=authenticated_user(request.user))
        return Response(AuditDrawSerializer(draw).data, status=status.HTTP_201_CREATED)


class ObjectionListApi(GenericAPIView[Objection]):
    """The objections of a release you may read (yours, those against your runs; the committee: all);
    POST files one against an entry of a draft list."""

    permission_classes = [IsAuthenticated]
    serializer_class = ObjectionSerializer
    parser_classes = [JSONParser, FormParser]

    def get(self, request: Request, release: str) -> Response:
        rows = objections_visible(user=authenticated_user(request.user), release=_release(release))
        return Response(ObjectionSerializer(rows, many=True).data)

    @extend_schema(request=ObjectionCreateSerializer, responses={201: ObjectionSerializer})
    def post(self, request: Request, release: str) -> Response:
        found = _release(release)
        form = ObjectionCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        draft = ListSnapshot.objects.filter(
            release=found, kind=data["kind"], status=ListSnapshot.Status.DRAFT
        ).first()
        if draft is None:
            raise NotFound(f"{found.name} has no draft {data['kind']} list.")
        objection = objection_file(
            user=authenticated_user(request.user),
            snapshot=draft,
            submission_id=data["submission"],
            reason=data["reason"],
        )
        return Response(ObjectionSerializer(objection).data, status=status.HTTP_201_CREATED)


class ObjectionAnswerApi(ObjectStepApi):
    """The committee answers an objection: upheld or dismissed, with its text."""

    serializer_class = ObjectionAnswerCreateSerializer
    queryset = Objection.objects.none()
    model = Objection
    missing = "There is no objection {pk}."

    @extend_schema(request=ObjectionAnswerCreateSerializer, responses={201: ObjectionAnswerSerializer})
    def post(self, request: Request, pk: int) -> Response:
        user, objection, data = self.step(request, pk)
        answer = objection_answer(user=user, objection=objection, outcome=data["outcome"], text=data["text"])
        return Response(ObjectionAnswerSerializer(answer).data, status=status.HTTP_201_CREATED)


class ObjectionAnswerRevokeApi(ObjectStepApi):
    """The committee revokes an answer with a reason; it stays on record and the objection reopens."""

    serializer_class = ReasonSerializer
    queryset = ObjectionAnswer.objects.none()
    model = ObjectionAnswer
    missing = "There is no objection answer {pk}."

    @extend_schema(request=ReasonSerializer, responses={200: ObjectionAnswerSerializer})
    def post(self, request: Request, pk: int) -> Response:
        user, answer, data = self.step(request, pk)
        revoked = objection_answer_revoke(user=user, answer=answer, reason=data["reason"])
        return Response(ObjectionAnswerSerializer(revoked).data)
