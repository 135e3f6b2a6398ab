"""Staff views of the pipeline. Raw archives are read-only here: nothing stored may be altered."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from submissions.audits.models import AuditDraw, AuditRequest, Objection, ObjectionAnswer
from submissions.models import (
    Archive,
    Finding,
    Institution,
    PhaseResult,
    Result,
    RunToken,
    StorageSystem,
    Submission,
    SystemDescription,
)


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ArchiveInline(ReadOnlyInline):
    model = Archive
    fields = readonly_fields = ("kind", "original_name", "size", "sha256", "file", "uploaded_at")


class ResultInline(ReadOnlyInline):
    model = Result
    fields = readonly_fields = (
        "path",
        "is_primary",
        "era",
        "version",
        "claimed_score",
        "computed_score",
        "score_matches",
        "valid",
    )
    show_change_link = True


class FindingInline(ReadOnlyInline):
    model = Finding
    fields = readonly_fields = ("severity", "code", "phase", "message")


class SystemDescriptionInline(admin.StackedInline):  # type: ignore[type-arg]
    model = SystemDescription
    extra = 0


@admin.register(Submission)
class SubmissionAdmin(SimpleHistoryAdmin):  # type: ignore[misc]
    list_display = [
        "id",
        "status",
        "progress",
        "source",
        "submitter",
        "storage_system",
        "release",
        "score",
        "valid",
    ]
    list_filter = ["status", "source", "ten_node", "release"]
    search_fields = ["id", "io500_id", "storage_system__name", "storage_system__institution__name"]
    readonly_fields = ["created_at", "updated_at", "processing_started_at", "attempts"]
    raw_id_fields = ["submitter", "storage_system"]
    inlines = [SystemDescriptionInline, ArchiveInline, ResultInline, FindingInline]


@admin.register(Institution)
class InstitutionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "country"]
    search_fields = ["name"]


@admin.register(StorageSystem)
class StorageSystemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "institution", "filesystem_type", "vendor"]
    search_fields = ["name", "institution__name", "filesystem_type"]
    list_filter = ["filesystem_type"]


@admin.register(Archive)
class ArchiveAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["original_name", "kind", "size", "sha256", "submission", "uploaded_at"]
    search_fields = ["sha256", "original_name"]
    readonly_fields = ["submission", "kind", "file", "sha256", "size", "original_name", "uploaded_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RunToken)
class RunTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: a token is issued by its submitter and used up by the ingest, never edited by hand."""

    list_display = ["token", "user", "release", "system_name", "issued_at", "expires_at", "used_by"]
    search_fields = ["token", "user__username", "system_name"]
    readonly_fields = [
        "token",
        "user",
        "release",
        "system_name",
        "issued_at",
        "expires_at",
        "used_by",
        "used_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PhaseResultInline(ReadOnlyInline):
    model = PhaseResult
    fields = readonly_fields = ("name", "value", "unit", "time_s", "scored", "invalid_marker")


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["submission", "path", "era", "version", "computed_score", "valid", "is_primary"]
    list_filter = ["era", "valid"]
    inlines = [PhaseResultInline]


@admin.register(AuditDraw)
class AuditDrawAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["release", "seed", "share_percent", "drawn_at"]
    readonly_fields = [
        "release",
        "seed",
        "algorithm",
        "share_percent",
        "candidates",
        "drawn",
        "drawn_at",
        "drawn_by",
    ]


@admin.register(AuditRequest)
class AuditRequestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["submission", "phase", "deadline", "outcome"]
    list_filter = ["outcome"]
    raw_id_fields = ["submission", "answer", "run_token", "draw"]


@admin.register(Objection)
class ObjectionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "release", "kind", "submission", "objector", "created_at"]
    raw_id_fields = ["submission", "objector"]


@admin.register(ObjectionAnswer)
class ObjectionAnswerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["objection", "outcome", "answered_by", "answered_at", "revoked_at"]
    raw_id_fields = ["objection", "answered_by", "revoked_by"]
