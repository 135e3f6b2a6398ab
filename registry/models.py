"""Releases and list snapshots: the registry's own model of what was published when."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ListKind(models.TextChoices):
    IO500 = "io500", "IO500"
    TEN_NODE = "ten-node", "10 Node Challenge"
    PRODUCTION = "production", "Production"
    RESEARCH = "research", "Research"
    TEN_NODE_PRODUCTION = "ten-node-production", "10 Node Production"
    TEN_NODE_RESEARCH = "ten-node-research", "10 Node Research"
    FULL = "full", "Full"
    HISTORICAL = "historical", "Historical"
    SCC = "scc", "Student Cluster Competition"


RANKED_KINDS = (
    ListKind.IO500,
    ListKind.TEN_NODE,
    ListKind.PRODUCTION,
    ListKind.RESEARCH,
    ListKind.TEN_NODE_PRODUCTION,
    ListKind.TEN_NODE_RESEARCH,
    ListKind.SCC,
)


class Release(models.Model):
    """One list release (ISC or SC of a year), e.g. name "SC19", slug "sc19"."""

    name = models.CharField(max_length=16, unique=True)
    slug = models.SlugField(max_length=16, unique=True)
    publication_date = models.DateField(help_text="The day the lists are released (the conference).")
    submission_deadline = models.DateField(null=True, blank=True)
    list_kinds = models.JSONField(default=list, help_text="The ListKind values this release publishes.")

    class Meta:
        ordering = ["publication_date"]

    def __str__(self) -> str:
        return self.name


class ListSnapshot(models.Model):
    """A frozen list: publishing stores every entry with the rank and score it had then.

    A correction after publication is a new snapshot (a higher `version`, with its reason), as the
    re-issued "SC18*" lists were, so history is never rewritten.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        SUPERSEDED = "superseded", "Superseded"

    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="snapshots")
    kind = models.CharField(max_length=32, choices=ListKind.choices)
    version = models.PositiveIntegerField(default=1)
    label = models.CharField(max_length=32, blank=True, help_text='Display name, e.g. "SC18*".')
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    description = models.TextField(blank=True)
    correction_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["release__publication_date", "kind", "version"]
        constraints = [
            models.UniqueConstraint(fields=["release", "kind", "version"], name="unique_snapshot_version")
        ]

    def __str__(self) -> str:
        return self.label or f"{self.release.name} {self.get_kind_display()} v{self.version}"


class ListEntry(models.Model):
    snapshot = models.ForeignKey(ListSnapshot, on_delete=models.CASCADE, related_name="entries")
    rank = models.PositiveIntegerField()
    submission = models.ForeignKey("submissions.Submission", on_delete=models.PROTECT, related_name="entries")
    score = models.FloatField()
    bw = models.FloatField(null=True)
    md = models.FloatField(null=True)

    class Meta:
        ordering = ["snapshot", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "submission"], name="unique_entry_per_snapshot")
        ]

    def __str__(self) -> str:
        return f"{self.snapshot} #{self.rank}"
