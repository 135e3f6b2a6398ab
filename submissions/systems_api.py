"""The storage systems by API: the list (searchable) and one system with its submissions. A system is
shown to whoever may see at least one of its submissions, and with those submissions only."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from submissions.models import StorageSystem
from submissions.selectors import (
    storage_system_get_visible,
    storage_system_submissions,
    storage_systems_visible,
)
from submissions.serializers import SubmissionSummarySerializer

MAX_SEARCH_CHARS = 100


class StorageSystemSerializer(serializers.ModelSerializer[StorageSystem]):
    institution = serializers.CharField(source="institution.name", read_only=True)
    submission_count = serializers.IntegerField(
        read_only=True, help_text="Its submissions you may see (public ones, and your own)."
    )
    best_score = serializers.FloatField(
        read_only=True, allow_null=True, help_text="The best IO500 score among them."
    )
    url = serializers.SerializerMethodField(help_text="This system in the API.")
    page = serializers.SerializerMethodField(help_text="The system's web page.")

    class Meta:
        model = StorageSystem
        fields = [
            "id",
            "name",
            "institution",
            "filesystem_type",
            "vendor",
            "submission_count",
            "best_score",
            "url",
            "page",
        ]

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, system: StorageSystem) -> str:
        return self._absolute(reverse("submissions-api:system-detail", args=[system.pk]))

    def get_page(self, system: StorageSystem) -> str:
        return self._absolute(reverse("pages:system", args=[system.pk]))


class StorageSystemDetailSerializer(StorageSystemSerializer):
    submissions = serializers.SerializerMethodField()

    class Meta(StorageSystemSerializer.Meta):
        fields = [*StorageSystemSerializer.Meta.fields, "submissions"]

    @extend_schema_field(SubmissionSummarySerializer(many=True))
    def get_submissions(self, system: StorageSystem) -> list[dict[str, Any]]:
        rows = self.context["submissions"]
        return list(SubmissionSummarySerializer(rows, many=True, context=self.context).data)


class SystemPagination(PageNumberPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"


class StorageSystemListApi(ListAPIView[StorageSystem]):
    """The storage systems with at least one submission you may see, by name; `q` searches the name,
    institution, vendor and file system."""

    permission_classes = [AllowAny]
    serializer_class = StorageSystemSerializer
    pagination_class = SystemPagination
    queryset = StorageSystem.objects.none()  # for the schema; requests use the selector
    filter_backends: list[type] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        search = self.request.query_params.get("q", "")[:MAX_SEARCH_CHARS]
        return storage_systems_visible(user=self.request.user, search=search)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q", OpenApiTypes.STR, description="Search name, institution, vendor, file system."
            )
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class StorageSystemDetailApi(GenericAPIView[StorageSystem]):
    """One storage system and its submissions you may see, oldest release first."""

    permission_classes = [AllowAny]
    serializer_class = StorageSystemDetailSerializer

    def get(self, request: Request, pk: int) -> Response:
        system = storage_system_get_visible(user=request.user, pk=pk)
        rows = storage_system_submissions(user=request.user, system=system)
        context = {"request": request, "submissions": rows}
        return Response(StorageSystemDetailSerializer(system, context=context).data)
