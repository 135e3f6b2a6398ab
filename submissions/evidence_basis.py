"""What a verdict rests on, as the registry stores and shows it, and when the committee has accepted
a gap in the evidence.

The scoring engine grades every run (scoring.model.EvidenceBasis): summaries only, the tools' own
outputs, per-rank files as well, or across phases too; the weakest scored phase decides. A missing
raw output is a warning and never an error by itself, so a run whose scored phases have no raw
output is still valid: it is shown as "checked from summaries only", with the phases named, and it
enters no ranked list unless a committee decision names that gap (registry.lists.membership). A
decision covers the gap it named in the archive it looked at; if the archive or the gap grows, it
no longer does.

The registry's automatic check is "checked here" (status value `verified`). The IO500 Messaging
Policy's "verified" is the committee's: a result officially listed on a published IO500 list
(registry.core.messaging); every text below keeps the two apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, CharField, JSONField, OuterRef, Q, QuerySet, Subquery, Value, When

from scoring.model import BASIS_LABELS, BasisLevel
from submissions.models import Archive, Result, ReviewEvent, Submission

# What each level means for a reader, next to its label.
BASIS_MEANINGS: dict[str, str] = {
    BasisLevel.SUMMARIES: (
        "Some scored phase's value rests on the summary files alone (result.txt or the summary), which "
        "anyone can edit together with the score hash: the hash is a public checksum, not proof."
    ),
    BasisLevel.TOOL_OUTPUTS: "Every scored phase's value was re-derived from the output its tool wrote.",
    BasisLevel.PER_RANK: (
        "Every scored phase's value was re-derived from its tool's output, and every IOR and mdtest "
        "phase from its per-rank file as well."
    ),
    BasisLevel.CROSS_PHASE: (
        "Every scored phase was re-derived from its tool's output (and from its per-rank file where "
        "the version writes one), and the phases agree with one another (bytes, items, tasks, clocks)."
    ),
}
NOT_RECORDED_LABEL = "not recorded"
NOT_RECORDED_MEANING = (
    "This run was verified before the registry recorded what verdicts rest on; the next "
    "re-verification records it."
)
PUBLISHED_RECORD_LABEL = "io500.org's published values only"
PUBLISHED_RECORD_MEANING = (
    "The raw result files of this submission are not public: the values are the ones io500.org "
    "published, and the registry could not re-derive any of them."
)
GAP_WHY = (
    "Missing evidence is a warning, never an error by itself, so the run stays valid. But nothing "
    "backs these values except the summary, so the run enters no ranked list (IO500, Production, "
    "Research, 10-node, SCC) until the committee accepts the gap by name."
)
MESSAGING_NOTE = (
    "This is the registry's automatic check of the files. The IO500 Messaging Policy's “verified” is "
    "another thing: only a result officially listed on a published IO500 list may be called verified; "
    "any other must be called unverified."
)


def with_basis(rows: QuerySet[Submission]) -> QuerySet[Any]:
    """Submissions annotated with what their verdict rests on, for tables (two subqueries, no more
    queries): `basis_level` (the primary run's, "summaries" for io500.org's published values),
    `basis_label` (the words; "" while nothing is recorded) and `summary_only` (the phases)."""
    primary = Result.objects.filter(submission=OuterRef("pk"), is_primary=True)
    recorded = Q(status=Submission.Status.RECORDED)
    return rows.annotate(
        basis_level=Case(
            When(recorded, then=Value(BasisLevel.SUMMARIES.value)),
            default=Subquery(primary.values("basis_level")[:1]),
            output_field=CharField(),
        ),
        summary_only=Subquery(primary.values("summary_only_phases")[:1], output_field=JSONField()),
    ).annotate(
        basis_label=Case(
            When(recorded, then=Value(PUBLISHED_RECORD_LABEL)),
            *(When(basis_level=value, then=Value(label)) for value, label in BASIS_LABELS.items()),
            default=Value(""),
            output_field=CharField(),
        )
    )


def gap_covered(
    summary_only: Sequence[str], archive_sha256: str, decisions: Iterable[tuple[Sequence[str], str]]
) -> bool:
    """Whether some decision (its named phases, the archive it looked at) covers this gap: the same
    archive, and every phase missing now among those it named."""
    missing = set(summary_only)
    return bool(missing) and any(
        sha == archive_sha256 and missing <= set(phases) for phases, sha in decisions if phases
    )


@dataclass(frozen=True)
class ShownBasis:
    """What a page or API answer says about a submission's evidence."""

    level: str  # a BasisLevel value, or "" when not recorded (or no run at all)
    label: str
    meaning: str
    summary_only: tuple[str, ...] = ()
    gap_accepted: ReviewEvent | None = None  # the decision that covers the gap, if any

    @property
    def lacks_raw_outputs(self) -> bool:
        return bool(self.summary_only)

    @property
    def badge_class(self) -> str:
        if not self.level or self.label == PUBLISHED_RECORD_LABEL:
            return "badge-recorded"
        return "badge-warning" if self.level == BasisLevel.SUMMARIES else "badge-valid"

    @property
    def messaging_note(self) -> str:
        return MESSAGING_NOTE

    @property
    def gap_why(self) -> str:
        return GAP_WHY if self.summary_only else ""

    def as_dict(self) -> dict[str, object]:
        accepted = self.gap_accepted
        return {
            "level": self.level or None,
            "text": self.label,
            "meaning": self.meaning,
            "summary_only_phases": list(self.summary_only),
            "gap_accepted": accepted is not None,
            "gap_accepted_at": accepted.created_at.isoformat() if accepted is not None else None,
        }


def result_basis(result: Result) -> ShownBasis:
    level = result.basis_level
    if not level:
        return ShownBasis(level="", label=NOT_RECORDED_LABEL, meaning=NOT_RECORDED_MEANING)
    return ShownBasis(
        level=level,
        label=BASIS_LABELS[BasisLevel(level)],
        meaning=BASIS_MEANINGS[level],
        summary_only=tuple(result.summary_only_phases or ()),
    )


def _result_archive_sha(submission: Submission) -> str:
    # Uses the prefetched archives of the page's query when present.
    return next((a.sha256 for a in submission.archives.all() if a.kind == Archive.Kind.RESULT), "")


def gap_decisions(submission: Submission) -> list[ReviewEvent]:
    """The committee's decisions that named a gap in this submission's evidence, newest first."""
    events = ReviewEvent.objects.filter(submission=submission).exclude(gap_phases=[])
    return list(events.order_by("-created_at", "-pk"))


def current_gap(submission: Submission) -> tuple[tuple[str, ...], str]:
    """The scored phases of the primary run that no raw output backs, and the result archive's hash."""
    primary = next((r for r in submission.results.all() if r.is_primary), None)
    phases = tuple(primary.summary_only_phases or ()) if primary is not None else ()
    return phases, _result_archive_sha(submission)


def submission_basis(submission: Submission) -> ShownBasis | None:
    """What the submission's verdict rests on; None while nothing is verified (received, processing,
    rejected archives)."""
    if submission.status == Submission.Status.RECORDED:
        return ShownBasis(
            level=BasisLevel.SUMMARIES.value, label=PUBLISHED_RECORD_LABEL, meaning=PUBLISHED_RECORD_MEANING
        )
    primary = next((r for r in submission.results.all() if r.is_primary), None)
    if primary is None:
        return None
    shown = result_basis(primary)
    if not shown.summary_only:
        return shown
    sha = _result_archive_sha(submission)
    covering = next(
        (
            event
            for event in gap_decisions(submission)
            if gap_covered(shown.summary_only, sha, [(event.gap_phases, event.gap_archive_sha256)])
        ),
        None,
    )
    return ShownBasis(
        level=shown.level,
        label=shown.label,
        meaning=shown.meaning,
        summary_only=shown.summary_only,
        gap_accepted=covering,
    )
