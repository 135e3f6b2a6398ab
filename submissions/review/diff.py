"""What changed since the same storage system's earlier submission: configuration values, versions
and system facts, and every phase, with changes over 20 % flagged for the committee."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from scoring.configs import config_table
from scoring.model import SCORED_PHASES
from submissions.models import Result, Submission, SystemDescription
from submissions.selectors import phase_values

PHASE_CHANGE_FLAG = 0.20
SYSTEM_FIELDS = (
    ("filesystem_name", "File-system name"),
    ("filesystem_version", "File-system version"),
    ("client_os", "Client OS"),
    ("client_kernel", "Client kernel"),
    ("client_nodes", "Client nodes"),
    ("procs_per_node", "Processes per node"),
    ("md_servers", "Metadata servers"),
    ("ds_servers", "Data servers"),
    ("client_network", "Client network"),
)


@dataclass(frozen=True)
class DiffRow:
    label: str
    before: Any
    after: Any
    change: float | None = None  # relative change of a number, e.g. 0.25 for +25 %

    @property
    def flagged(self) -> bool:
        return self.change is not None and abs(self.change) > PHASE_CHANGE_FLAG

    @property
    def change_percent(self) -> float | None:
        return None if self.change is None else 100 * self.change


@dataclass
class SystemDiff:
    previous: Submission | None
    earlier: list[Submission] = field(default_factory=list)
    versions: list[DiffRow] = field(default_factory=list)
    config: list[DiffRow] = field(default_factory=list)
    config_unchanged: int = 0
    phases: list[DiffRow] = field(default_factory=list)

    @property
    def flagged_phases(self) -> list[DiffRow]:
        return [row for row in self.phases if row.flagged]


def _relative(before: float | None, after: float | None) -> float | None:
    if before is None or after is None or before == 0:
        return None
    return (after - before) / before


def config_diff(before: Any, after: Any) -> tuple[list[DiffRow], int]:
    """The configuration keys whose value differs (or exists on one side only), and how many agree;
    nothing when either run has no configuration to compare (scoring.configs)."""
    table = config_table([before, after])
    rows = [DiffRow(row.key, row.values[0], row.values[1]) for row in table if row.differs]
    return rows, len(table) - len(rows) if before and after else 0


def _primary(submission: Submission) -> Result | None:
    return Result.objects.filter(submission=submission, is_primary=True).first()


def _system(submission: Submission) -> SystemDescription | None:
    return SystemDescription.objects.filter(submission=submission).first()


def earlier_submissions(submission: Submission) -> list[Submission]:
    """The same storage system's other submissions up to this one's release, newest first."""
    if submission.storage_system_id is None:
        return []
    rows = Submission.objects.filter(storage_system_id=submission.storage_system_id).exclude(pk=submission.pk)
    if submission.release is not None:
        rows = rows.filter(
            Q(release__publication_date__lt=submission.release.publication_date)
            | Q(release=submission.release, created_at__lt=submission.created_at)
        )
    else:
        rows = rows.filter(created_at__lt=submission.created_at)
    return list(rows.select_related("release").order_by("-release__publication_date", "-created_at", "-pk"))


def _version_rows(submission: Submission, previous: Submission) -> list[DiffRow]:
    rows: list[DiffRow] = []
    new_run, old_run = _primary(submission), _primary(previous)
    for attribute, label in (("version", "IO500 version"), ("era", "Output format")):
        before = getattr(old_run, attribute, None) if old_run else None
        after = getattr(new_run, attribute, None) if new_run else None
        rows.append(DiffRow(label, before, after))
    new_system, old_system = _system(submission), _system(previous)
    for attribute, label in SYSTEM_FIELDS:
        before = getattr(old_system, attribute, None) if old_system else None
        after = getattr(new_system, attribute, None) if new_system else None
        numeric = isinstance(before, int | float) and isinstance(after, int | float)
        rows.append(DiffRow(label, before, after, _relative(before, after) if numeric else None))
    return rows


def _phase_rows(submission: Submission, previous: Submission) -> list[DiffRow]:
    values = phase_values(submission_ids=[submission.pk, previous.pk])
    rows = [
        DiffRow("Score", previous.score, submission.score, _relative(previous.score, submission.score)),
        DiffRow("Bandwidth (GiB/s)", previous.bw, submission.bw, _relative(previous.bw, submission.bw)),
        DiffRow("Metadata (kIOPS)", previous.md, submission.md, _relative(previous.md, submission.md)),
    ]
    for phase in SCORED_PHASES:
        before, after = values[previous.pk].get(phase), values[submission.pk].get(phase)
        rows.append(DiffRow(phase, before, after, _relative(before, after)))
    return rows


def review_diff(submission: Submission) -> SystemDiff:
    earlier = earlier_submissions(submission)
    if not earlier:
        return SystemDiff(previous=None)
    previous = earlier[0]
    new_run, old_run = _primary(submission), _primary(previous)
    config, unchanged = config_diff(old_run.config if old_run else None, new_run.config if new_run else None)
    return SystemDiff(
        previous=previous,
        earlier=earlier,
        versions=_version_rows(submission, previous),
        config=config,
        config_unchanged=unchanged,
        phases=_phase_rows(submission, previous),
    )
