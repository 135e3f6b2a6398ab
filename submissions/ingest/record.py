"""The database side of an ingest: turn the scoring engine's verdicts into rows, atomically.

Each store replaces everything an earlier attempt wrote for the submission (results, phases,
findings) under a row lock, so a retried or duplicated task never leaves duplicates behind.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from scoring.model import PHASE_ORDER, Phase, RankRow, Severity, Verification
from scoring.model import Finding as ScoringFinding
from scoring.primary import choose_primary
from submissions.audits.check import audit_answer_check
from submissions.codes import finding
from submissions.models import Finding, PhaseResult, Result, Submission
from submissions.run_identity import run_fingerprint
from submissions.run_tokens.services import run_token_redeem
from submissions.system.archive_files import FoundSystemFile
from submissions.system.checks import system_findings
from submissions.system.runner_facts import FoundFacts
from submissions.system.services import (
    declared_system,
    system_description_from_archive,
    system_description_from_run,
    system_description_from_runner_facts,
)
from submissions.version_checks import version_findings

_PATH_MAX = 1024
_SOURCE_MAX = 255
_EXTRA_PHASE_ORDER = 100


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _rank_row(row: RankRow) -> dict[str, float]:
    # Keys without a value are left out: IOR rows have no item count, and big runs have many rows.
    values = {"time_s": _finite(row.time_s), "rate": _finite(row.rate), "items": _finite(row.items)}
    return {"rank": row.rank, **{key: value for key, value in values.items() if value is not None}}


def _phase_row(result: Result, phase: Phase) -> PhaseResult:
    order = PHASE_ORDER.index(phase.name) if phase.name in PHASE_ORDER else _EXTRA_PHASE_ORDER
    return PhaseResult(
        result=result,
        name=phase.name,
        order=order,
        value=_finite(phase.value),
        unit=phase.unit,
        time_s=_finite(phase.time_s),
        scored=phase.scored,
        invalid_marker=phase.invalid_marker,
        command=phase.command or "",
        values=dict(phase.values),
        ranks=[_rank_row(row) for row in phase.ranks],
        timeline=[[bin_.rank, bin_.second, _finite(bin_.amount)] for bin_ in phase.timeline],
    )


def _error_summary(findings: Sequence[ScoringFinding]) -> str:
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if not errors:
        return ""
    more = f" ({len(errors) - 1} more rule(s) broken, see the findings)" if len(errors) > 1 else ""
    return f"The result is not valid: {errors[0].message}{more}"


def _create_result(
    submission: Submission, verification: Verification, extra: list[ScoringFinding], primary: bool
) -> list[ScoringFinding]:
    run = verification.result
    claimed = run.claimed
    findings = [*verification.findings, *extra]
    result = Result.objects.create(
        submission=submission,
        path=run.path[:_PATH_MAX],
        is_primary=primary,
        era=run.era.value,
        version=run.version,
        mode=run.mode or "",
        procs=run.procs,
        nodes=run.nodes,
        procs_source=(run.procs_source or "")[:_SOURCE_MAX],
        nodes_source=(run.nodes_source or "")[:_SOURCE_MAX],
        started=f"{run.started:%Y-%m-%d %H:%M:%S}" if run.started else "",
        timestamp=run.timestamp or "",
        claimed_bw=_finite(claimed.bw) if claimed else None,
        claimed_md=_finite(claimed.md) if claimed else None,
        claimed_score=_finite(claimed.score) if claimed else None,
        computed_bw=_finite(verification.computed.bw),
        computed_md=_finite(verification.computed.md),
        computed_score=_finite(verification.computed.score),
        score_matches=verification.score_matches,
        valid=not any(f.severity is Severity.ERROR for f in findings),
        config=run.config,
        files=list(run.files),
        fingerprint=run_fingerprint(run),
        # What the verdict rests on: the level and the scored phases no raw output backs, which the
        # pages name and the list rules read (registry.lists.membership).
        basis_level=verification.basis.level.value,
        summary_only_phases=list(verification.basis.summary_only),
    )
    phases = [*run.phases.values(), *run.extra_phases.values()]
    PhaseResult.objects.bulk_create([_phase_row(result, phase) for phase in phases])
    Finding.objects.bulk_create(
        [
            Finding(
                submission=submission,
                result=result,
                code=f.code,
                severity=f.severity.value,
                phase=f.phase or "",
                message=f.message,
            )
            for f in findings
        ]
    )
    return findings


def _flag_known_run(submission: Submission, fingerprint: str) -> None:
    """The same run already came in other bytes: a warning for the committee, linking the first."""
    if not fingerprint:
        return
    first = (
        Result.objects.filter(fingerprint=fingerprint, is_primary=True)
        .exclude(submission=submission)
        .order_by("submission_id")
        .values_list("submission_id", flat=True)
        .first()
    )
    if first is None:
        return
    known = finding("run-already-submitted", first=first)
    Finding.objects.create(
        submission=submission, code=known.code, severity=known.severity.value, message=known.message
    )


def _clear(submission: Submission) -> None:
    # Results cascade to their phases and findings; submission-level findings go explicitly.
    Finding.objects.filter(submission=submission).delete()
    Result.objects.filter(submission=submission).delete()


def ingest_store_verifications(
    *,
    submission_id: int,
    verifications: Sequence[Verification],
    system_files: Sequence[FoundSystemFile] = (),
    client_facts: FoundFacts | None = None,
) -> Submission:
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        _clear(submission)
        # The archive's description file counts as declared; what the run shows is filled in after
        # the checks, so that it never confirms itself.
        description_findings = system_description_from_archive(submission=submission, files=system_files)
        description_findings += system_description_from_runner_facts(
            submission=submission, found=client_facts
        )
        declared = declared_system(submission)
        # The listed run is the complete, latest one, never the best-scoring (scoring/primary.py).
        choice = choose_primary(verifications)
        ranked = [
            (
                verifications[index],
                [
                    *system_findings(verifications[index].result, declared, ten_node=submission.ten_node),
                    *version_findings(verifications[index].result, submission.release),
                ],
            )
            for index in choice.order
        ]
        primary_findings: list[ScoringFinding] = []
        for index, (verification, extra) in enumerate(ranked):
            if index == 0:
                token_findings = run_token_redeem(submission=submission, run=verification.result)
                extra = [*extra, *choice.findings, *description_findings, *token_findings]
            findings = _create_result(submission, verification, extra, primary=index == 0)
            if index == 0:
                primary_findings = findings
        primary = ranked[0][0]
        system_description_from_run(submission=submission, run=primary.result)
        _flag_known_run(submission, run_fingerprint(primary.result))
        error = _error_summary(primary_findings)
        submission.status = Submission.Status.INVALID if error else Submission.Status.VERIFIED
        submission.error = error
        submission.valid = not error
        submission.score = _finite(primary.computed.score)
        submission.bw = _finite(primary.computed.bw)
        submission.md = _finite(primary.computed.md)
        submission.progress = 100
        submission.attempts = submission.fault_attempts = 0
        submission.retry_at = None
        submission.save()
        if submission.source == Submission.Source.AUDIT:
            audit_answer_check(answer=submission)
        return submission


def ingest_store_fault(*, submission_id: int, reason: str, retry_at: datetime) -> Submission:
    """A fault of ours stopped the attempt: `retrying` with the reason, due again at `retry_at`.

    Nothing of the attempt was recorded (results are stored in one transaction at its end), and
    nothing an earlier outcome showed is touched: the row only waits.
    """
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        submission.status = Submission.Status.RETRYING
        submission.error = reason
        submission.progress = 0
        submission.fault_attempts += 1
        submission.retry_at = retry_at
        submission.save(
            update_fields=["status", "error", "progress", "fault_attempts", "retry_at", "updated_at"]
        )
        return submission


def ingest_store_rejection(*, submission_id: int, reason: str) -> Submission:
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        _clear(submission)
        rejected = finding("archive-rejected", reason=reason)
        Finding.objects.create(
            submission=submission,
            code=rejected.code,
            severity=rejected.severity.value,
            message=rejected.message,
        )
        submission.status = Submission.Status.REJECTED
        submission.error = reason
        submission.valid = False
        if submission.source == Submission.Source.UPLOAD:
            # Imported history keeps its published values; an upload has nothing verified to show.
            submission.score = submission.bw = submission.md = None
        submission.progress = 100
        submission.attempts = submission.fault_attempts = 0
        submission.retry_at = None
        submission.save()
        return submission
