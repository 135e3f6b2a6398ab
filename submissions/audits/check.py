"""An audit re-run's check when its ingest ends (called by submissions.ingest.record)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from submissions.audits import mail
from submissions.audits.draw import TOLERANCE, deviation, within_tolerance
from submissions.audits.models import AuditOutcome, AuditRequest
from submissions.audits.selectors import run_phases
from submissions.audits.touch import submission_touch
from submissions.models import Finding, Submission


def audit_answer_check(*, answer: Submission) -> AuditRequest | None:
    """Called when an audit upload's ingest ended: the token, then the named phase against the claim."""
    audit = AuditRequest.objects.filter(answer=answer).first()
    if audit is None or audit.outcome not in (AuditOutcome.CHECKING, AuditOutcome.PENDING):
        return None
    tokens = {
        row.code: row.message
        for row in Finding.objects.filter(
            result__submission=answer, result__is_primary=True, code__startswith="token-"
        )
    }
    audit.decided_at = timezone.now()
    if "token-verified" not in tokens or audit.run_token.token not in tokens["token-verified"]:
        audit.outcome = AuditOutcome.TOKEN_REFUSED
        refused = sorted(code for code in tokens if code != "token-verified") or ["token-required"]
        audit.detail = "The re-run's run token was refused: " + ", ".join(refused) + "."
    else:
        rerun = run_phases(answer).get(audit.phase)
        if rerun is None or audit.claimed_value is None or audit.claimed_value <= 0:
            audit.outcome = AuditOutcome.FAILED
            audit.detail = f"The re-run has no value for {audit.phase}."
        else:
            audit.rerun_value = rerun[0]
            audit.deviation = deviation(audit.claimed_value, rerun[0])
            passed = within_tolerance(audit.claimed_value, rerun[0])
            audit.outcome = AuditOutcome.PASSED if passed else AuditOutcome.FAILED
            audit.detail = (
                f"{audit.phase}: claimed {audit.claimed_value:.4g} {audit.unit}, re-run {rerun[0]:.4g} "
                f"{audit.unit} ({audit.deviation:+.1%}; tolerance ±{TOLERANCE:.0%})."
            )
    audit.save(update_fields=["outcome", "rerun_value", "deviation", "detail", "decided_at"])
    submission_touch(audit.submission_id)
    transaction.on_commit(lambda: mail.audit_decided(audit))
    return audit
