"""factory_boy factories for the registry's models, plus a helper that publishes a list."""

# factory_boy's declarations (SubFactory, Sequence, ...) carry no type hints.
# mypy: disable-error-code="no-untyped-call"

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, cast

from django.utils import timezone
from factory.declarations import LazyAttribute, LazyFunction, SubFactory
from factory.declarations import Sequence as FactorySequence
from factory.django import DjangoModelFactory

from frontend.charts.digests import digests_store
from registry.models import RANKED_KIND_VALUES, ListEntry, ListSnapshot, Release
from scoring.model import BW_PHASES, SCORED_PHASES
from submissions.models import (
    Institution,
    PhaseResult,
    Result,
    ReviewState,
    StorageSystem,
    Submission,
    SystemDescription,
)


class ReleaseFactory(DjangoModelFactory[Release]):
    class Meta:
        model = Release
        django_get_or_create = ("slug",)

    name = FactorySequence(lambda n: f"SC{30 + n}")
    slug = LazyAttribute(lambda release: release.name.lower())
    publication_date = FactorySequence(lambda n: datetime.date(2030, 1, 1) + datetime.timedelta(days=180 * n))
    list_kinds = ["io500", "ten-node", "full", "historical"]


class InstitutionFactory(DjangoModelFactory[Institution]):
    class Meta:
        model = Institution
        django_get_or_create = ("name",)

    name = FactorySequence(lambda n: f"Institute {n}")


class StorageSystemFactory(DjangoModelFactory[StorageSystem]):
    class Meta:
        model = StorageSystem

    name = FactorySequence(lambda n: f"System {n}")
    institution = SubFactory(InstitutionFactory)
    filesystem_type = "Lustre"
    vendor = "DDN"


class SubmissionFactory(DjangoModelFactory[Submission]):
    """An imported (hence public), verified submission with a score from its BW and MD."""

    class Meta:
        model = Submission

    source = Submission.Source.IMPORT
    # Imported history is published; an upload stays its submitter's draft unless a test says otherwise.
    review_state = LazyAttribute(
        lambda s: ReviewState.PUBLISHED if s.source == Submission.Source.IMPORT else ReviewState.DRAFT
    )
    status = Submission.Status.VERIFIED
    release = SubFactory(ReleaseFactory)
    storage_system = SubFactory(StorageSystemFactory)
    bw = 10.0
    md = 40.0
    score = LazyAttribute(lambda s: (s.bw * s.md) ** 0.5 if s.bw and s.md else None)
    valid = True


class SystemDescriptionFactory(DjangoModelFactory[SystemDescription]):
    class Meta:
        model = SystemDescription

    submission = SubFactory(SubmissionFactory)
    client_nodes = 10
    procs_per_node = 16


class ResultFactory(DjangoModelFactory[Result]):
    class Meta:
        model = Result

    submission = SubFactory(SubmissionFactory)
    path = FactorySequence(lambda n: f"run-{n}")
    is_primary = True
    era = "c-sc21"
    version = "io500-sc21"
    valid = True
    score_matches = True
    config = LazyFunction(lambda: {"global": {"api": "POSIX"}, "ior-easy": {"transferSize": "1m"}})


class PhaseResultFactory(DjangoModelFactory[PhaseResult]):
    class Meta:
        model = PhaseResult

    result = SubFactory(ResultFactory)
    name = "ior-easy-write"
    order = 0
    value = 1.0
    unit = LazyAttribute(lambda phase: "GiB/s" if phase.name in BW_PHASES else "kIOPS")
    time_s = 300.0


# Typed entry points: factory_boy's metaclass call is untyped, so these tell mypy what comes back.


def make_release(**fields: Any) -> Release:
    return cast(Release, ReleaseFactory(**fields))


def make_storage_system(**fields: Any) -> StorageSystem:
    return cast(StorageSystem, StorageSystemFactory(**fields))


def make_submission(**fields: Any) -> Submission:
    return cast(Submission, SubmissionFactory(**fields))


def make_system_description(**fields: Any) -> SystemDescription:
    return cast(SystemDescription, SystemDescriptionFactory(**fields))


def make_result(**fields: Any) -> Result:
    return cast(Result, ResultFactory(**fields))


def add_phases(result: Result, values: dict[str, float], **extra: Any) -> list[PhaseResult]:
    """The given phase values on a run, in the official order; `extra` (ranks, timeline) on each.
    One INSERT for all of them: most tests build a run of every phase, many per test."""
    phases = [
        PhaseResultFactory.build(
            result=result, name=name, order=SCORED_PHASES.index(name), value=value, **extra
        )
        for name, value in values.items()
    ]
    return PhaseResult.objects.bulk_create(phases)


def publish_list(
    release: Release, kind: str, submissions: Sequence[Submission], **fields: Any
) -> ListSnapshot:
    """A published snapshot ranking `submissions` in the order given (rank 1 first)."""
    snapshot = ListSnapshot.objects.create(
        release=release, kind=kind, status=ListSnapshot.Status.DRAFT, **fields
    )
    for rank, submission in enumerate(submissions, start=1):
        ListEntry.objects.create(
            snapshot=snapshot,
            rank=rank,
            submission=submission,
            score=submission.score or 0.0,
            bw=submission.bw,
            md=submission.md,
        )
    snapshot.status = ListSnapshot.Status.PUBLISHED
    snapshot.published_at = timezone.now()
    snapshot.save()
    if kind in RANKED_KIND_VALUES:
        # The digest the lists_changed receiver stores after a publish; the caches are left alone,
        # so tests can show what a generation move changes.
        digests_store([snapshot.pk])
    return snapshot
