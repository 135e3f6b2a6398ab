"""What is public of each release's lists, said once, so that no two pages can disagree (issue 26).

The public list data ends with the newest release that has a list recorded from a public file (SC24:
io500.org's plotted list downloads). io500.org went on presenting lists at its BoFs (ISC25, SC25,
ISC26: fixtures/io500_org_presented.json names the public file that shows it); no public file holds
them. A release after the public data shows the lists reconstructed here from its own public runs,
and nothing under its name when no public run belongs to it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from registry.core.generations import LIST_CACHE_SECONDS, list_cache_generation
from registry.models import ListKind, ListSnapshot, Release, kind_label
from submissions.models import Submission
from submissions.selectors import public_submissions_q

PRESENTED_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "io500_org_presented.json"
# The statuses of a scored run a list can hold (registry.lists.selectors.list_candidates).
LISTED_STATUSES = (Submission.Status.VERIFIED, Submission.Status.INVALID, Submission.Status.RECORDED)


@cache
def presented_lists() -> dict[str, str]:
    """Release name -> the public file showing io500.org presented its lists (after the public data)."""
    with PRESENTED_FIXTURE.open(encoding="utf-8") as handle:
        releases: dict[str, dict[str, str]] = json.load(handle)["releases"]
    return {name: entry["source"] for name, entry in releases.items()}


@dataclass(frozen=True)
class PublicRecord:
    """What is public of one release's lists, and the one sentence that says it."""

    release: str
    sentence: str
    # Public scored runs filed under this release (its own, not carried from earlier releases).
    public_runs: int
    # The newest release with a list recorded from a public file ("" when none is).
    data_ends_with: str
    # The file showing that io500.org presented this release's lists ("" when none does).
    presented_source: str = ""
    # The newest earlier release with public runs of its own, for "what exists" ("" when none).
    newest_with_runs: str = ""
    newest_with_runs_slug: str = ""
    # A past release newer than every list of the public data (ISC25 and later).
    after_public_data: bool = False


def _date(day: datetime.date) -> str:
    return f"{day.day} {day.strftime('%B %Y')}"


def _kinds_text(kinds: list[str]) -> str:
    labels = [kind_label(kind) for kind in kinds]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _runs_text(name: str, runs: int, newest_with_runs: str) -> str:
    if runs:
        return (
            f" {runs} public run{'s' if runs != 1 else ''} belong{'s' if runs == 1 else ''} to {name}: its "
            "Full and Historical lists are reconstructed here from them by the registry's rules, "
            "not official."
        )
    elsewhere = f" The newest public runs are {newest_with_runs}'s." if newest_with_runs else ""
    return f" No public run belongs to {name}, so no list is shown under its name.{elsewhere}"


def record_sentence(
    release: Release,
    *,
    recorded_kinds: list[str],
    committee_published: bool,
    public_runs: int,
    data_ends_with: Release | None,
    presented_source: str,
    newest_with_runs: str,
    today: datetime.date,
) -> str:
    """The sentence for one release from what the public data holds of it (no query here)."""
    name = release.name
    if committee_published:
        return f"The lists of {name} were published here by this registry's committee."
    if release.publication_date > today:
        return f"The lists of {name} are due at its BoF of {_date(release.publication_date)}."
    if recorded_kinds:
        missing = [kind for kind in release.list_kinds if kind not in recorded_kinds]
        recorded = _kinds_text(recorded_kinds)
        if not missing:
            return (
                f"io500.org's lists of {name} ({recorded}) are public and shown here as io500.org "
                "recorded them."
            )
        rebuilt = {ListKind.FULL.value, ListKind.HISTORICAL.value} & set(missing)
        tail = ", and its Full and Historical lists are reconstructed here (not official)."
        if not rebuilt:
            tail = "."
        return (
            f"Of io500.org's lists of {name} only the {recorded} list is in a public file, shown here as "
            f"recorded; its {_kinds_text(missing)} lists are in no public file" + tail
        )
    if data_ends_with is not None and release.publication_date > data_ends_with.publication_date:
        when = _date(release.publication_date)
        head = (
            f"io500.org published its {name} lists at its BoF of {when}, but the public list data "
            f"ends with {data_ends_with.name} and holds none of them."
            if presented_source
            else f"io500.org's {name} lists were due at its BoF of {when}; the public list data ends "
            f"with {data_ends_with.name} and holds none of them."
        )
        return head + _runs_text(name, public_runs, newest_with_runs)
    return f"No list of {name} is in a public file." + _runs_text(name, public_runs, newest_with_runs)


def release_public_records(releases: Iterable[Release]) -> dict[int, PublicRecord]:
    """The public record of each release, by release id: two queries whatever their number."""
    chosen = list(releases)
    recorded: dict[int, list[str]] = {}
    committee: set[int] = set()
    snapshots = ListSnapshot.objects.filter(status=ListSnapshot.Status.PUBLISHED).values_list(
        "release_id", "kind", "provenance", "release__publication_date"
    )
    newest_recorded: tuple[datetime.date, int] | None = None
    for release_id, kind, provenance, date in snapshots:
        if provenance == ListSnapshot.Provenance.RECORDED:
            recorded.setdefault(release_id, []).append(kind)
            if newest_recorded is None or date > newest_recorded[0]:
                newest_recorded = (date, release_id)
        elif provenance == ListSnapshot.Provenance.PUBLISHED_HERE:
            committee.add(release_id)
    # The releases with their public scored runs in one query (a count per release, as a subquery).
    public_runs = (
        Submission.objects.filter(
            public_submissions_q(), release=OuterRef("pk"), score__isnull=False, status__in=LISTED_STATUSES
        )
        .order_by()
        .values("release")
        .annotate(count=Count("pk"))
        .values("count")
    )
    every = list(
        Release.objects.annotate(public_runs=Coalesce(Subquery(public_runs), 0)).order_by("publication_date")
    )
    runs: dict[int, int] = {release.pk: getattr(release, "public_runs", 0) for release in every}
    data_ends_with = next((r for r in every if newest_recorded and r.pk == newest_recorded[1]), None)
    presented = presented_lists()
    today = timezone.localdate()
    records: dict[int, PublicRecord] = {}
    for release in chosen:
        earlier = [r for r in every if r.publication_date < release.publication_date and runs.get(r.pk)]
        newest = earlier[-1] if earlier else None
        kinds = [kind for kind in release.list_kinds if kind in recorded.get(release.pk, [])] or sorted(
            set(recorded.get(release.pk, []))
        )
        records[release.pk] = PublicRecord(
            release=release.name,
            sentence=record_sentence(
                release,
                recorded_kinds=kinds,
                committee_published=release.pk in committee,
                public_runs=runs.get(release.pk, 0),
                data_ends_with=data_ends_with,
                presented_source=presented.get(release.name, ""),
                newest_with_runs=newest.name if newest else "",
                today=today,
            ),
            public_runs=runs.get(release.pk, 0),
            data_ends_with=data_ends_with.name if data_ends_with else "",
            presented_source=presented.get(release.name, ""),
            newest_with_runs=newest.name if newest else "",
            newest_with_runs_slug=newest.slug if newest else "",
            after_public_data=release.publication_date <= today
            and release.pk not in committee
            and data_ends_with is not None
            and release.publication_date > data_ends_with.publication_date,
        )
    return records


def release_public_record(release: Release) -> PublicRecord:
    """The record of one release, from the records of every release kept until the lists change
    (a publish, an import, a release edited): every list page shows one, and its two queries would
    otherwise be paid by each."""
    key = f"lists:public-record:{list_cache_generation()}:{timezone.localdate().isoformat()}"
    records = django_cache.get(key)
    if not isinstance(records, dict) or release.pk not in records:
        records = release_public_records(Release.objects.all())
        # An embargo that ends shows its runs within the hour, as the list pages' own bodies do.
        django_cache.set(key, records, LIST_CACHE_SECONDS)
    record: PublicRecord = records[release.pk]
    return record


def release_has_public_runs(release: Release) -> bool:
    """Whether some public scored run is filed under this release (a list may carry its name)."""
    return Submission.objects.filter(
        public_submissions_q(), release=release, score__isnull=False, status__in=LISTED_STATUSES
    ).exists()
