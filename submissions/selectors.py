"""Reads of submissions. Who may see what is decided here, and only here, so the rule can grow
(embargoes, committee review) without touching views or the API.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, F, Max, OuterRef, Prefetch, Q, QuerySet
from django.db.models.fields.json import KT
from django.http import Http404
from django.utils import timezone

from registry.core.compiled_query import CompiledQuery
from registry.core.messaging import OFFICIAL_PROVENANCES, MessagingStatus, messaging_status
from registry.models import ListEntry, ListSnapshot
from scoring.codes import SHOWN_FIRST
from scoring.model import SCORED_PHASES
from scoring.readers.numbers import to_float
from submissions.evidence_basis import with_basis
from submissions.io500_org import PUBLISHED_PHASE_FIELDS
from submissions.models import (
    Archive,
    Finding,
    PhaseResult,
    Result,
    ReviewState,
    StorageSystem,
    Submission,
    SystemDescription,
)

COMMITTEE_PERMISSION = "submissions.view_submission"
# A link to an unpublished submission shared too early lands here, so say why and who can see it.
NOT_VISIBLE_MESSAGE = (
    "There is no submission with this number that you may see: it does not exist, or it is not "
    "published yet. Its submitter and the IO500 committee see it once logged in."
)

_SEVERITY_ORDER: dict[str, int] = {
    Finding.Severity.ERROR: 0,
    Finding.Severity.WARNING: 1,
    Finding.Severity.INFO: 2,
}


def release_out_of_embargo_q(prefix: str = "", now: datetime.datetime | None = None) -> Q:
    """The release (reached through `prefix`) has no embargo or its embargo has ended (by `now`)."""
    return (
        Q(**{f"{prefix}release__isnull": True})
        | Q(**{f"{prefix}release__embargo_end__isnull": True})
        | Q(**{f"{prefix}release__embargo_end__lte": now or timezone.now()})
    )


def public_submissions_q(now: datetime.datetime | None = None) -> Q:
    """What anyone may see: imported history (published on io500.org long ago), and submissions the
    committee published on a list, once their release's embargo has ended. Nothing else of a
    submission (scores, files, system) is public before that."""
    published = Q(review_state=ReviewState.PUBLISHED) & release_out_of_embargo_q(now=now)
    return Q(source=Submission.Source.IMPORT) | published


def _visible_filter(user: User | AnonymousUser) -> Q | None:
    """None means everything (the committee); otherwise the rows this user may see."""
    if user.is_authenticated and user.has_perm(COMMITTEE_PERMISSION):
        return None
    public = public_submissions_q()
    if user.is_authenticated:
        return public | Q(submitter_id=user.pk)
    return public


def submission_visible_queryset(*, user: User | AnonymousUser) -> QuerySet[Submission]:
    rows = Submission.objects.all()
    condition = _visible_filter(user)
    return rows if condition is None else rows.filter(condition)


def submission_get_visible(*, user: User | AnonymousUser, pk: int) -> Submission:
    """The submission with everything its page shows; Http404 if it does not exist or is not visible."""
    # Per-rank rows and timelines can be megabytes of JSON per phase; no page or API answer shows them.
    phases = Prefetch(
        "phases", queryset=PhaseResult.objects.defer("ranks", "timeline").order_by("order", "name")
    )
    results = Prefetch("results", queryset=Result.objects.prefetch_related(phases))
    rows = (
        submission_visible_queryset(user=user)
        .select_related("release", "storage_system__institution", "submitter", "system")
        .prefetch_related(results, "findings", Prefetch("archives", queryset=Archive.objects.order_by("id")))
    )
    submission = rows.filter(pk=pk).first()
    if submission is None:
        raise Http404(NOT_VISIBLE_MESSAGE)
    return submission


def _public_fingerprint_query(pk: int, now: datetime.datetime) -> QuerySet[Submission, tuple[Any, ...]]:
    # Ingest, re-verification and review actions save the row (updated_at); progress is written
    # alone while a run is verified, and the questionnaire and the names live in other tables.
    return (
        Submission.objects.filter(public_submissions_q(now=now), pk=pk)
        .order_by()
        .values_list(
            "pk",
            "updated_at",
            "status",
            "progress",
            "review_state",
            "questionnaire__updated_at",
            "release__name",
            "storage_system__name",
            "storage_system__institution__name",
            "submitter__username",
        )[:1]
    )


# Asked on every anonymous view of a submission page or chart (registry.core.public_cache).
_PUBLIC_FINGERPRINT = CompiledQuery(_public_fingerprint_query)


def submission_public_fingerprint(*, pk: int) -> tuple[object, ...] | None:
    """What decides the anonymous page of a submission everyone may see (one small query), or None
    when it is not visible to everyone (missing, private, under embargo)."""
    rows = _PUBLIC_FINGERPRINT.rows(pk, timezone.now())
    return tuple(rows[0]) if rows else None


def submission_get_status(*, user: User | AnonymousUser, pk: int) -> Submission:
    """Only the row, for the frequent status polls."""
    submission = submission_visible_queryset(user=user).filter(pk=pk).first()
    if submission is None:
        raise Http404(NOT_VISIBLE_MESSAGE)
    return submission


def submission_list_for_user(*, user: User) -> QuerySet[Submission]:
    """The user's own uploads, newest first, with what each verdict rests on."""
    rows = (
        Submission.objects.filter(submitter=user)
        .select_related("release", "storage_system")
        .prefetch_related("archives")
        .annotate(on_official_list=on_official_list())
        .order_by("-created_at", "-id")
    )
    return with_basis(rows)


def submission_primary_result(*, submission: Submission) -> Result | None:
    """The run the submission is ranked by (uses prefetched results when present)."""
    return next((r for r in submission.results.all() if r.is_primary), None)


def submission_findings_ordered(*, submission: Submission) -> list[Finding]:
    """Errors first, then warnings, then notes; within each, the codes the committee must see first
    (scoring.codes.SHOWN_FIRST: faster than the network), then the order found."""
    return sorted(
        submission.findings.all(),
        key=lambda f: (_SEVERITY_ORDER.get(f.severity, 3), f.code not in SHOWN_FIRST, f.pk),
    )


def submission_system_description(*, submission: Submission) -> SystemDescription | None:
    """The questionnaire, if one was given (uses the select_related row when present)."""
    try:
        return submission.system
    except SystemDescription.DoesNotExist:
        return None


def submission_result_archive(*, submission: Submission) -> Archive | None:
    return next((a for a in submission.archives.all() if a.kind == Archive.Kind.RESULT), None)


def phase_values(
    *, submission_ids: Iterable[int], phases: Collection[str] = SCORED_PHASES
) -> dict[int, dict[str, float]]:
    """The values of these phases (the 12 scored ones unless told) of each submission (two queries
    whatever the count).

    The re-verified primary run wins; imported history without raw files falls back to the values
    io500.org published for it (only the keys asked for are read from its record).
    """
    ids = list(set(submission_ids))
    values: dict[int, dict[str, float]] = {pk: {} for pk in ids}
    measured = PhaseResult.objects.filter(
        result__submission_id__in=ids, result__is_primary=True, name__in=list(phases), value__isnull=False
    ).values_list("result__submission_id", "name", "value")
    for pk, name, value in measured:
        if value is not None:
            values[pk][name] = float(value)
    published_phases = [phase for phase in phases if phase in PUBLISHED_PHASE_FIELDS]
    incomplete = [pk for pk, found in values.items() if any(phase not in found for phase in published_phases)]
    if not incomplete:
        return values
    keys = sorted({key for phase in published_phases for key in PUBLISHED_PHASE_FIELDS[phase]})
    columns = {f"record_{index}": KT(f"published_record__{key}") for index, key in enumerate(keys)}
    published = Submission.objects.filter(pk__in=incomplete).annotate(**columns).values_list("pk", *columns)
    for pk, *texts in published:
        record = dict(zip(keys, texts, strict=True))
        for phase in published_phases:
            number = None if phase in values[pk] else published_phase_value(record, phase)
            if number is not None:
                values[pk][phase] = number
    return values


def published_phase_value(record: Mapping[str, Any], phase: str) -> float | None:
    """The value io500.org published for a phase (its first positive column), else None."""
    return next(
        (number for key in PUBLISHED_PHASE_FIELDS.get(phase, ()) if (number := _positive(record.get(key)))),
        None,
    )


def _positive(raw: Any) -> float | None:
    """A published figure above zero: text is read by the scoring readers' parser (so "nan", "inf"
    and "1_000" are no figure, as in every other reader), a JSON number taken as it is."""
    if isinstance(raw, str):
        number = to_float(raw)
    elif isinstance(raw, int | float) and not isinstance(raw, bool):
        number = float(raw)
    else:
        return None
    return number if number is not None and math.isfinite(number) and number > 0 else None


def storage_systems_visible(*, user: User | AnonymousUser, search: str = "") -> QuerySet[StorageSystem]:
    """The storage systems with at least one submission this user may see (an embargoed system's name
    and institution are as secret as its scores), with how many and their best score; `search` matches
    the name, institution, vendor or file system."""
    visible = submission_visible_queryset(user=user)
    systems = StorageSystem.objects.filter(pk__in=visible.values("storage_system_id"))
    if search:
        systems = systems.filter(
            Q(name__icontains=search)
            | Q(institution__name__icontains=search)
            | Q(vendor__icontains=search)
            | Q(filesystem_type__icontains=search)
        )
    counted = Q(submissions__in=visible)
    return (
        systems.select_related("institution")
        .annotate(
            submission_count=Count("submissions", filter=counted),
            best_score=Max("submissions__score", filter=counted),
        )
        .order_by("name", "pk")
    )


def storage_system_get_visible(*, user: User | AnonymousUser, pk: int) -> StorageSystem:
    found = storage_systems_visible(user=user).filter(pk=pk).first()
    if found is None:
        raise Http404(f"There is no storage system {pk}.")
    return found


def storage_system_submissions(*, user: User | AnonymousUser, system: StorageSystem) -> QuerySet[Submission]:
    """The submissions of one system this user may see, oldest release first."""
    return (
        submission_visible_queryset(user=user)
        .filter(storage_system=system)
        .select_related("release", "system")
        .annotate(on_official_list=on_official_list())
        .order_by(F("release__publication_date").asc(nulls_last=True), "created_at", "pk")
    )


def on_official_list() -> Exists:
    """Whether a submission is on a published IO500 list anyone may read (an expression to annotate
    with): recorded from io500.org or published here, out of embargo; a list reconstructed here is
    none (registry.core.messaging)."""
    out_of_embargo = Q(snapshot__release__embargo_end__isnull=True) | Q(
        snapshot__release__embargo_end__lte=timezone.now()
    )
    return Exists(
        ListEntry.objects.filter(
            out_of_embargo,
            submission=OuterRef("pk"),
            snapshot__status__in=(ListSnapshot.Status.PUBLISHED, ListSnapshot.Status.SUPERSEDED),
            snapshot__provenance__in=OFFICIAL_PROVENANCES,
        )
    )


def submission_messaging_status(*, submission: Submission) -> MessagingStatus:
    """The submission's term under the IO500 Messaging Policy (uses the `on_official_list`
    annotation when the rows carry it, else one query)."""
    listed = getattr(submission, "on_official_list", None)
    if listed is None:
        listed = Submission.objects.filter(pk=submission.pk).filter(on_official_list()).exists()
    return messaging_status(on_official_list=bool(listed))
