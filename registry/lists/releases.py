"""Writes for releases: the committee opens a release for submissions with its dates, lists and audit
settings, and changes them later (a moved deadline, an embargo). The release-change signal (registry.signals)
drops every cached page that shows releases."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from registry.models import KIND_ORDER, ListEntry, ListKind, ListSnapshot, Release, kind_label
from registry.signals import lists_changed_on_commit
from submissions.audits.selectors import release_audit_draw

RELEASE_NAME = re.compile(r"(ISC|SC)(\d{2})")
# The lists a release publishes since ISC23 (io500.org's List Split Proposal): Production, Research,
# their 10-client-node versions, Full and Historical.
CURRENT_KINDS = (
    ListKind.PRODUCTION,
    ListKind.RESEARCH,
    ListKind.TEN_NODE_PRODUCTION,
    ListKind.TEN_NODE_RESEARCH,
    ListKind.FULL,
    ListKind.HISTORICAL,
)
# The audit settings of a new release unless the committee says otherwise: the model's defaults.
DEFAULT_AUDIT_SHARE_PERCENT: float = Release._meta.get_field("audit_share_percent").default
DEFAULT_AUDIT_ANSWER_DAYS: int = Release._meta.get_field("audit_answer_days").default


@dataclass(frozen=True)
class ReleaseDates:
    publication_date: datetime.date
    submission_deadline: datetime.date | None = None
    embargo_end: datetime.datetime | None = None


@dataclass(frozen=True)
class ReleaseSettings:
    dates: ReleaseDates
    list_kinds: tuple[str, ...] = tuple(kind.value for kind in CURRENT_KINDS)
    accepted_versions: tuple[str, ...] = field(default=())
    # The lists that take results of the registry's bundled runner (Release.bundled_runner_kinds).
    bundled_runner_kinds: tuple[str, ...] = (ListKind.HISTORICAL.value,)
    # Release.run_tokens_required: off unless the committee turns it on.
    run_tokens_required: bool = False
    # The audit draw at the deadline (docs/audits.md): the share of runs drawn and the days to answer.
    audit_share_percent: float = DEFAULT_AUDIT_SHARE_PERCENT
    audit_answer_days: int = DEFAULT_AUDIT_ANSWER_DAYS


def _check_name(name: str) -> str:
    cleaned = name.strip().upper()
    if RELEASE_NAME.fullmatch(cleaned) is None:
        raise ValidationError(
            {"name": f'"{name}" is not a release name; write ISC or SC and the two-digit year, e.g. ISC27.'}
        )
    return cleaned


def _check_settings(settings: ReleaseSettings) -> None:
    errors: dict[str, str] = {}
    dates = settings.dates
    if dates.submission_deadline and dates.submission_deadline > dates.publication_date:
        errors["submission_deadline"] = (
            f"The submission deadline ({dates.submission_deadline:%Y-%m-%d}) is after the publication "
            f"day ({dates.publication_date:%Y-%m-%d}); the lists are built from what was submitted before."
        )
    beyond = sorted(set(settings.bundled_runner_kinds) - set(settings.list_kinds))
    if beyond:
        errors["bundled_runner_kinds"] = (
            "The bundled runner's results can only go to lists the release publishes; not to "
            + ", ".join(kind_label(kind) for kind in beyond)
            + "."
        )
    unknown = sorted(set(settings.list_kinds) - set(ListKind.values))
    if unknown:
        errors["list_kinds"] = (
            f"Unknown list kinds: {', '.join(unknown)}; the kinds are {', '.join(ListKind.values)}."
        )
    elif not settings.list_kinds:
        errors["list_kinds"] = "Choose at least one list the release publishes."
    # Above zero, so the draw picks at least one run (it rounds up); a share of 0 would be no audit.
    if not 0 < settings.audit_share_percent <= 100:
        errors["audit_share_percent"] = (
            f"The audit share is {settings.audit_share_percent:g} %; give a share above 0 and at most 100 %, "
            "so that at least one run is drawn."
        )
    if settings.audit_answer_days < 1:
        errors["audit_answer_days"] = "Give the drawn submitters at least one day to answer."
    if errors:
        raise ValidationError(errors)


def _ordered(kinds: tuple[str, ...]) -> list[str]:
    return [kind.value for kind in KIND_ORDER if kind.value in kinds]


def release_open(*, name: str, settings: ReleaseSettings) -> Release:
    """A new release, open for submissions until its deadline (its publication day when it has
    none). Its rules are those of the newest earlier release (the same comparability window)."""
    name = _check_name(name)
    _check_settings(settings)
    with transaction.atomic():
        if Release.objects.filter(name=name).exists():
            raise ValidationError({"name": f"{name} exists already; change its dates on its page instead."})
        earlier = (
            Release.objects.filter(publication_date__lt=settings.dates.publication_date)
            .order_by("-publication_date")
            .select_related("rules_from")
            .first()
        )
        # Home, the call page and the list index name the open releases: their cached answers go.
        lists_changed_on_commit()
        return Release.objects.create(
            name=name,
            slug=name.lower(),
            publication_date=settings.dates.publication_date,
            submission_deadline=settings.dates.submission_deadline,
            embargo_end=settings.dates.embargo_end,
            list_kinds=_ordered(settings.list_kinds),
            accepted_versions=list(settings.accepted_versions),
            versions_source="Set by the committee." if settings.accepted_versions else "",
            bundled_runner_kinds=_ordered(settings.bundled_runner_kinds),
            run_tokens_required=settings.run_tokens_required,
            audit_share_percent=settings.audit_share_percent,
            audit_answer_days=settings.audit_answer_days,
            rules_from=(earlier.rules_from or earlier) if earlier is not None else None,
        )


def _check_embargo(release: Release, embargo_end: datetime.datetime | None) -> None:
    """An embargo set on a release whose runs another release's published lists already show would
    hide their pages but not those lists: refused, naming them, since publishing cannot be undone."""
    if embargo_end is None or embargo_end <= timezone.now():
        return
    shown = list(
        ListEntry.objects.filter(
            submission__release=release,
            snapshot__status__in=(ListSnapshot.Status.PUBLISHED, ListSnapshot.Status.SUPERSEDED),
        )
        .exclude(snapshot__release=release)
        .values_list("submission_id", "snapshot__release__name")
        .distinct()
        .order_by("submission_id", "snapshot__release__name")
    )
    if shown:
        where = "; ".join(f"submission {pk} on {name}'s lists" for pk, name in shown)
        raise ValidationError(
            {
                "embargo_end": f"Runs of {release.name} are already public on other releases' published "
                f"lists ({where}); an embargo cannot hide them now."
            }
        )


def _check_audit_settings(release: Release, settings: ReleaseSettings) -> None:
    """Once the audits are drawn, the draw is recorded with its share and the requests carry their
    deadlines (and their run tokens' expiry): new values would no longer describe what happened."""
    changed = {
        "audit_share_percent": settings.audit_share_percent != release.audit_share_percent,
        "audit_answer_days": settings.audit_answer_days != release.audit_answer_days,
    }
    if not any(changed.values()):
        return
    drawn = release_audit_draw(release)
    if drawn is None:
        return
    reason = (
        f"{release.name}'s audits were drawn on {drawn.drawn_at:%Y-%m-%d} with a share of "
        f"{drawn.share_percent:g} % and the draw is recorded; the audit settings cannot change now."
    )
    raise ValidationError({name: reason for name, is_changed in changed.items() if is_changed})


def release_update(*, release: Release, settings: ReleaseSettings) -> Release:
    """New dates, lists, accepted versions or audit settings (these only until the audit draw). A list
    kind that already has a list stays."""
    _check_settings(settings)
    with transaction.atomic():
        release = Release.objects.select_for_update().get(pk=release.pk)
        having_lists = set(release.snapshots.values_list("kind", flat=True))
        dropped = sorted(having_lists - set(settings.list_kinds))
        if dropped:
            raise ValidationError(
                {
                    "list_kinds": "These lists exist already and stay: "
                    + ", ".join(kind_label(kind) for kind in dropped)
                    + "."
                }
            )
        _check_embargo(release, settings.dates.embargo_end)
        _check_audit_settings(release, settings)
        release.publication_date = settings.dates.publication_date
        release.submission_deadline = settings.dates.submission_deadline
        release.embargo_end = settings.dates.embargo_end
        release.list_kinds = _ordered(settings.list_kinds)
        release.bundled_runner_kinds = _ordered(settings.bundled_runner_kinds)
        release.run_tokens_required = settings.run_tokens_required
        release.audit_share_percent = settings.audit_share_percent
        release.audit_answer_days = settings.audit_answer_days
        if list(settings.accepted_versions) != list(release.accepted_versions):
            release.accepted_versions = list(settings.accepted_versions)
            release.versions_source = "Set by the committee."
        release.save()
        lists_changed_on_commit()
    return release
