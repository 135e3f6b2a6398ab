"""Releases and list snapshots: the registry's own model of what was published when."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


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


# The kind families, defined here once. The main ranked list of each era: "IO500" until SC22,
# "Production" and "Research" from ISC23.
MAIN_KINDS = (ListKind.IO500, ListKind.PRODUCTION, ListKind.RESEARCH)
TEN_NODE_KINDS = (ListKind.TEN_NODE, ListKind.TEN_NODE_PRODUCTION, ListKind.TEN_NODE_RESEARCH)
PRODUCTION_KINDS = (ListKind.PRODUCTION, ListKind.TEN_NODE_PRODUCTION)
RESEARCH_KINDS = (ListKind.RESEARCH, ListKind.TEN_NODE_RESEARCH)
# Ranked lists hold one entry per storage system and are the ones the charts show; the Full and
# Historical lists hold every valid submission.
RANKED_KINDS = (*MAIN_KINDS, *TEN_NODE_KINDS, ListKind.SCC)
RANKED_KIND_VALUES = frozenset(kind.value for kind in RANKED_KINDS)


def kind_label(kind: str) -> str:
    """The name a list kind is shown by; an unknown value (an old URL) as it is."""
    return ListKind(kind).label if kind in ListKind.values else kind


# The order of the tabs on a release's list page: ranked lists first, then the complete lists.
KIND_ORDER = (
    ListKind.PRODUCTION,
    ListKind.RESEARCH,
    ListKind.IO500,
    ListKind.TEN_NODE_PRODUCTION,
    ListKind.TEN_NODE_RESEARCH,
    ListKind.TEN_NODE,
    ListKind.FULL,
    ListKind.HISTORICAL,
    ListKind.SCC,
)


class FrozenSnapshotError(Exception):
    """A published list was about to change; corrections must be a new snapshot version instead."""


def default_bundled_runner_kinds() -> list[str]:
    return [ListKind.HISTORICAL.value]


class ReleaseQuerySet(models.QuerySet["Release"]):
    def open_for_submissions(self) -> ReleaseQuerySet:
        """The releases still taking submissions (see Release.closes_on), soonest first."""
        today = timezone.localdate()
        without_deadline = models.Q(submission_deadline__isnull=True, publication_date__gte=today)
        return self.filter(models.Q(submission_deadline__gte=today) | without_deadline).order_by(
            "publication_date"
        )


class Release(models.Model):
    """One list release (ISC or SC of a year), e.g. name "SC19", slug "sc19"."""

    name = models.CharField(max_length=16, unique=True)
    slug = models.SlugField(max_length=16, unique=True)
    publication_date = models.DateField(help_text="The day the lists are released (the conference).")
    submission_deadline = models.DateField(null=True, blank=True)
    embargo_end = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Until then the release's new submissions and lists are visible to the committee only.",
    )
    list_kinds = models.JSONField(default=list, help_text="The ListKind values this release publishes.")
    accepted_versions = models.JSONField(
        default=list,
        blank=True,
        help_text=(
            "The IO500 version tags (as git names them, e.g. isc23 or sc24_v1) whose results this "
            "release accepts; a run of another version gets a warning. Empty: not known."
        ),
    )
    versions_source = models.TextField(blank=True, help_text="Where the accepted versions were found.")
    bundled_runner_kinds = models.JSONField(
        default=default_bundled_runner_kinds,
        blank=True,
        help_text=(
            "The lists that take results of the registry's bundled runner. IO500's rules ask list "
            "submissions to use the official release, so by default only the Historical list does."
        ),
    )
    run_tokens_required = models.BooleanField(
        default=False,
        help_text=(
            "Runs for this release's lists must be made with a run token the registry issued "
            "(--timestamp=<token>); a run without a valid one gets an error and cannot be accepted."
        ),
    )
    # The audit draw at the deadline (submissions/audits, docs/audits.md).
    audit_share_percent = models.FloatField(
        default=10.0,
        help_text="The share of the release's submissions drawn for an audit (at least one when any exist).",
    )
    audit_answer_days = models.PositiveIntegerField(
        default=14, help_text="Days a drawn submitter has to upload the audit re-run."
    )
    rules_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=(
            "The oldest release whose results are still comparable under this release's rules "
            "(SC19 restarted the lists after the stonewall change). Empty means this release itself."
        ),
    )

    objects = ReleaseQuerySet.as_manager()

    class Meta:
        ordering = ["publication_date"]

    def __str__(self) -> str:
        return self.name

    @property
    def closes_on(self) -> datetime.date:
        """The last day of the call for submissions: the deadline, else the publication day."""
        return self.submission_deadline or self.publication_date

    def is_open_for_submissions(self) -> bool:
        return self.closes_on >= timezone.localdate()


class ListSnapshot(models.Model):
    """A frozen list: publishing stores every entry with the rank and score it had then.

    A correction after publication is a new snapshot (a higher `version`, with its reason), as the
    re-issued "SC18*" lists were, so history is never rewritten.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        SUPERSEDED = "superseded", "Superseded"

    class Provenance(models.TextChoices):
        """Where a list comes from; every page, download and API answer of a list says it."""

        RECORDED = "recorded", "Recorded as io500.org published it"
        RECONSTRUCTED = "reconstructed", "Reconstructed here from the public data by the registry's rules"
        PUBLISHED_HERE = "published_here", "Published here by the registry's committee"

    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="snapshots")
    kind = models.CharField(max_length=32, choices=ListKind.choices)
    version = models.PositiveIntegerField(default=1)
    label = models.CharField(max_length=32, blank=True, help_text='Display name, e.g. "SC18*".')
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    description = models.TextField(blank=True)
    correction_reason = models.TextField(blank=True)
    provenance = models.CharField(
        max_length=16, choices=Provenance.choices, default=Provenance.PUBLISHED_HERE
    )
    source = models.TextField(
        blank=True, help_text="The public files the entries were taken from, and what they do not hold."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    # Derived from the frozen entries for the charts (frontend.charts.digests), written at publish
    # time or on first read and never part of what "frozen" protects, since it can be computed
    # again: the balance chart's points as JSON text ready to send, and a small summary (entries
    # that cannot be plotted, file systems, score range, phase medians).
    chart_points = models.TextField(blank=True, editable=False)
    chart_digest = models.JSONField(null=True, blank=True, editable=False)
    # What the build left out that would otherwise qualify, and why, as it stood at build time (an
    # embargo ends by the clock, so it cannot be recomputed later): [{submission_id, release, rule,
    # reason, until}]. Committee-only: it names runs still under embargo.
    left_out = models.JSONField(default=list, blank=True, editable=False)
    # The published list this one carried over (docs/list-rules.md R1): its entries are the ones
    # marked `carried`; None when the list was built from every qualifying run, or imported.
    carried_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+", editable=False
    )

    class Meta:
        ordering = ["release__publication_date", "kind", "version"]
        constraints = [
            models.UniqueConstraint(fields=["release", "kind", "version"], name="unique_snapshot_version")
        ]

    def __str__(self) -> str:
        return self.label or f"{self.release.name} {self.get_kind_display()} v{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            self._refuse_changes_to_published()
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        if self.is_frozen:
            raise FrozenSnapshotError(f"{self} is published and cannot be deleted.")
        return super().delete(*args, **kwargs)

    @property
    def is_frozen(self) -> bool:
        return self.status != self.Status.DRAFT

    def _refuse_changes_to_published(self) -> None:
        stored = ListSnapshot.objects.filter(pk=self.pk).first()
        if stored is None or stored.status == self.Status.DRAFT:
            return
        # A published snapshot may only be marked superseded (by a correction); nothing else moves.
        frozen_fields = (
            "release_id",
            "kind",
            "version",
            "label",
            "description",
            "published_at",
            "provenance",
            "source",
            "left_out",
            "carried_from_id",
        )
        changed = [name for name in frozen_fields if getattr(stored, name) != getattr(self, name)]
        status_ok = stored.status == self.status or (
            stored.status == self.Status.PUBLISHED and self.status == self.Status.SUPERSEDED
        )
        if changed or not status_ok:
            raise FrozenSnapshotError(
                f"{self} is published and frozen; publish a corrected version instead of editing it."
            )


class ListEntry(models.Model):
    """One row of a list as published: its rank and the values it was ranked by at that moment.

    A submission may appear twice in a complete (full/historical) list: io500.org's ISC21 full list
    does, and the import reproduces such lists exactly, so ranks (not submissions) are unique.
    """

    snapshot = models.ForeignKey(ListSnapshot, on_delete=models.CASCADE, related_name="entries")
    rank = models.PositiveIntegerField()
    submission = models.ForeignKey("submissions.Submission", on_delete=models.PROTECT, related_name="entries")
    score = models.FloatField()
    bw = models.FloatField(null=True)
    md = models.FloatField(null=True)
    # A recorded list keeps what io500.org printed for the entry (names, phase values) and how the
    # import joined it to a run: the list shows io500.org's names even where the run's files say
    # otherwise (renamed systems, typos fixed later).
    recorded = models.JSONField(default=dict, blank=True)
    # Carried over from the snapshot's `carried_from` list with the values it was listed with there;
    # False: added by this build (a run the committee accepted for the release).
    carried = models.BooleanField(default=False)

    class Meta:
        ordering = ["snapshot", "rank"]
        constraints = [models.UniqueConstraint(fields=["snapshot", "rank"], name="unique_rank_per_snapshot")]

    def __str__(self) -> str:
        return f"{self.snapshot} #{self.rank}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.snapshot.is_frozen:
            raise FrozenSnapshotError(f"{self.snapshot} is published; its entries cannot change.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        if self.snapshot.is_frozen:
            raise FrozenSnapshotError(f"{self.snapshot} is published; its entries cannot change.")
        return super().delete(*args, **kwargs)


class RecordedListChange(models.Model):
    """A change io500.org made to one of its lists after publishing it, as a public SQL patch says.

    Only some lists of ISC22 and later were ever changed in public files, and mostly lists whose
    entries are not public at all (ISC23 Production): the change is kept as it is written, with
    its file, so the list page can say what is known of a list the registry cannot show.
    """

    class Action(models.TextChoices):
        ADDED = "added", "Added"
        REMOVED = "removed", "Removed"

    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="recorded_changes")
    kind = models.CharField(max_length=32, choices=ListKind.choices)
    action = models.CharField(max_length=8, choices=Action.choices)
    io500_table = models.CharField(max_length=64, help_text="io500.org's table, e.g. list_isc23_production.")
    io500_submission_id = models.PositiveIntegerField(null=True, blank=True)
    io500_row_id = models.PositiveIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    source_file = models.CharField(max_length=255)
    source_commit = models.CharField(max_length=40)
    committed_on = models.DateField()
    statement = models.TextField(help_text="The SQL statement as the file has it.")
    effect = models.TextField(blank=True, help_text="What is known of whether the statement took effect.")

    class Meta:
        ordering = ["release__publication_date", "kind", "committed_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["source_file", "statement"], name="unique_recorded_change")
        ]

    def __str__(self) -> str:
        return f"{self.release} {self.kind}: {self.action} {self.io500_submission_id or self.io500_row_id}"
