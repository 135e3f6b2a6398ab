"""Staff views of releases and lists. Releases are edited here or on the committee's release page;
lists are built and published on the committee's pages (never edited here: a published list is frozen)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest

from registry.models import ListSnapshot, Release


@admin.register(Release)
class ReleaseAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "submission_deadline", "publication_date", "embargo_end", "rules_from")
    search_fields = ("name",)
    ordering = ("-publication_date",)
    prepopulated_fields = {"slug": ("name",)}

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The audit settings are kept once the audits are drawn: the draw is recorded with them (as
        on the committee's release form, registry.lists.releases)."""
        fields = list(super().get_readonly_fields(request, obj))
        try:
            drawn = obj is not None and obj.audit_draw is not None
        except ObjectDoesNotExist:
            drawn = False
        if drawn:
            fields += ["audit_share_percent", "audit_answer_days"]
        return fields


@admin.register(ListSnapshot)
class ListSnapshotAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("release", "kind", "version", "status", "provenance", "published_at")
    list_filter = ("status", "provenance", "kind")
    readonly_fields = [field.name for field in ListSnapshot._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
