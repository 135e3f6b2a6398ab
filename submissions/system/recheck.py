"""Re-running the checks of the system description against the stored run, after the submitter
edits the description (or the committee changes the 10-node request): the findings they raised at
upload are replaced by what the checks say now, the verdict follows them, and the timeline keeps
what changed (a ReviewEvent "recheck_system" naming the findings resolved and raised).

The checks read only what the run showed (client nodes, processes, bandwidth phases), which the
Result and PhaseResult rows keep; the archive is not read again."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from scoring.model import Era, Phase, RunResult
from submissions.models import Finding, PhaseResult, Result, ReviewEvent, Submission
from submissions.system.checks import system_findings
from submissions.system.services import declared_system

# The codes submissions.system.checks raises: only these are replaced by a re-run.
SYSTEM_CHECK_CODES = (
    "nodes-unknown",
    "nodes-mismatch",
    "ten-node-declared",
    "ten-node-count",
    "bandwidth-above-network",
)


def _stored_run(result: Result, phases: list[PhaseResult]) -> RunResult:
    """The run as the checks need it, from what was stored of it."""
    return RunResult(
        path=result.path,
        era=Era(result.era),
        version=result.version,
        procs=result.procs,
        nodes=result.nodes,
        phases={
            row.name: Phase(
                name=row.name, value=row.value, unit=row.unit, time_s=row.time_s, scored=row.scored
            )
            for row in phases
            if row.value is not None
        },
    )


def _error_summary(messages: list[str]) -> str:
    # The words of submissions.ingest.record's summary, so the verdict reads the same either way.
    if not messages:
        return ""
    more = f" ({len(messages) - 1} more rule(s) broken, see the findings)" if len(messages) > 1 else ""
    return f"The result is not valid: {messages[0]}{more}"


def system_checks_rerun(*, submission_id: int, user: User | None) -> ReviewEvent | None:
    """Re-run the description checks of a verified (or invalid) submission and record the outcome;
    None when there is no stored run to check (still processing, rejected, imported history)."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.status not in (Submission.Status.VERIFIED, Submission.Status.INVALID):
            return None
        results = list(Result.objects.filter(submission=submission).order_by("-is_primary", "pk"))
        if not results:
            return None
        declared = declared_system(submission)
        phases: dict[int, list[PhaseResult]] = {}
        for row in PhaseResult.objects.filter(result__in=results).order_by("order", "pk"):
            phases.setdefault(row.result_id, []).append(row)
        stale = Finding.objects.filter(submission=submission, code__in=SYSTEM_CHECK_CODES)
        before = {(f.code, f.message) for f in stale}
        stale.delete()
        fresh: list[Finding] = []
        for result in results:
            run = _stored_run(result, phases.get(result.pk, []))
            fresh += [
                Finding(
                    submission=submission,
                    result=result,
                    code=f.code,
                    severity=f.severity.value,
                    phase=f.phase or "",
                    message=f.message,
                )
                for f in system_findings(run, declared, ten_node=submission.ten_node)
            ]
        Finding.objects.bulk_create(fresh)
        after = {(f.code, f.message) for f in fresh}
        # The verdict rests on the primary run's findings, as at ingest.
        errors = list(
            Finding.objects.filter(
                submission=submission, result=results[0], severity=Finding.Severity.ERROR
            ).values_list("message", flat=True)
        )
        error = _error_summary(errors)
        submission.status = Submission.Status.INVALID if error else Submission.Status.VERIFIED
        submission.error = error
        submission.valid = not error
        submission.save(update_fields=["status", "error", "valid", "updated_at"])
        resolved = sorted(code for code, _message in before - after)
        raised = sorted(code for code, _message in after - before)
        if not (resolved or raised):
            said = "Description checks re-run: the findings are unchanged."
        else:
            said = (
                "Description checks re-run: "
                f"resolved {', '.join(resolved) or 'none'}; raised {', '.join(raised) or 'none'}."
            )
        return ReviewEvent.objects.create(
            submission=submission,
            actor=user,
            action="recheck_system",
            from_state=submission.review_state,
            to_state=submission.review_state,
            reason=said,
        )
