"""Reads behind placement: the population of public runs (cached) and one submission's run.

The population is every run anyone may see (submissions.selectors.public_submissions_q) that the
registry did not find invalid: a submitter's unpublished upload is placed among the published runs
but never becomes part of anyone else's comparison. It costs four queries whatever its size and is
kept under the chart generation, which every publish and import moves on; a release leaving its
embargo adds runs without a publish, so an entry is never kept past the next embargo end.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db.models import F, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from registry.core.generations import charts_generation
from registry.core.public_cache import seconds_until
from registry.models import Release
from registry.versions import version_tag
from submissions.io500_org import PUBLISHED_PHASE_FIELDS
from submissions.models import Result, Submission
from submissions.placement.rules import PLACED_PHASES, Run, run_placement
from submissions.selectors import (
    phase_values,
    public_submissions_q,
    published_phase_value,
    submission_primary_result,
    submission_system_description,
)

POPULATION_SECONDS = 60 * 60
logger = logging.getLogger(__name__)


def _population_key() -> str:
    return f"placement:population:{charts_generation()}"


def placement_population() -> dict[int, Run]:
    """Every public, not invalid run with its phase values, by submission id (cached; see the
    module's docstring)."""
    try:
        key = _population_key()
        cached = cache.get(key)
    except Exception:  # whatever the cache client raises
        # A cache server that is down must not take the submission pages and API with it.
        logger.warning("cache unavailable; placement population computed without it", exc_info=True)
        key, cached = "", None
    if isinstance(cached, dict):
        return cached
    public = Submission.objects.filter(public_submissions_q()).exclude(valid=False)
    runs = {run.submission_id: run for run in _runs_load(public)}
    if key:
        upcoming = Release.objects.filter(embargo_end__gt=timezone.now()).aggregate(first=Min("embargo_end"))
        try:
            cache.set(key, runs, seconds_until(upcoming["first"], cap=POPULATION_SECONDS))
        except Exception:  # whatever the cache client raises
            logger.warning("cache unavailable; placement population not stored", exc_info=True)
    return runs


def _runs_load(submissions: QuerySet[Submission]) -> list[Run]:
    """The runs of these submissions (three queries at most)."""
    primary = Result.objects.filter(submission=OuterRef("pk"), is_primary=True)
    rows = list(
        submissions.annotate(
            run_version=Subquery(primary.values("version")[:1]),
            run_mode=Subquery(primary.values("mode")[:1]),
            nodes=Coalesce(F("system__client_nodes"), Subquery(primary.values("nodes")[:1])),
        ).values_list("pk", "run_version", "run_mode", "nodes")
    )
    values = phase_values(submission_ids=[row[0] for row in rows], phases=PLACED_PHASES)
    return [
        # The tag alone: builds of one tag share a class, and the cached entry stays small.
        Run(submission_id=pk, version=version_tag(version), mode=mode, nodes=nodes, values=values[pk])
        for pk, version, mode, nodes in rows
    ]


def submission_run(*, submission: Submission) -> Run:
    """The run a loaded submission is placed by, from what its page already loaded (its primary
    run's phases prefetched, its system description and published record): no query."""
    primary = submission_primary_result(submission=submission)
    values: dict[str, float] = {}
    if primary is not None:
        for measured in primary.phases.all():
            if measured.name in PLACED_PHASES and measured.value is not None:
                values[measured.name] = float(measured.value)
    record = submission.published_record if isinstance(submission.published_record, dict) else {}
    for name in PUBLISHED_PHASE_FIELDS:
        number = None if name in values else published_phase_value(record, name)
        if number is not None:
            values[name] = number
    system = submission_system_description(submission=submission)
    nodes = system.client_nodes if system is not None and system.client_nodes else None
    return Run(
        submission_id=submission.pk,
        version=primary.version if primary is not None else None,
        mode=primary.mode if primary is not None else None,
        nodes=nodes or (primary.nodes if primary is not None else None),
        values=values,
    )


def submission_placement(*, submission: Submission) -> dict[str, Any]:
    """Where each phase of a loaded submission stands among the public runs."""
    return run_placement(submission_run(submission=submission), list(placement_population().values()))


def submission_placement_by_id(*, submission_id: int) -> dict[str, Any] | None:
    """The same for a submission known by its id (the chart data, which holds no loaded row); the
    caller has checked that the asker may see it. A public run is in the cached population already;
    another (an upload under review, a run found invalid) costs three queries and is placed among
    the public runs without joining them. None when it does not exist."""
    population = placement_population()
    run = population.get(submission_id)
    if run is None:
        found = _runs_load(Submission.objects.filter(pk=submission_id))
        if not found:
            return None
        run = found[0]
    return run_placement(run, list(population.values()))
