"""The audit draw of a release, its audit requests, and the objections against draft-list entries."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditDraw(models.Model):
    """The one draw of a release: everything needed to recompute it (submissions/audits/draw.py)."""

    release = models.OneToOneField("registry.Release", on_delete=models.PROTECT, related_name="audit_draw")
    seed = models.CharField(max_length=64)
    algorithm = models.CharField(max_length=64)
    share_percent = models.FloatField()
    # The candidate submission ids in the order the algorithm was given them (ascending ids).
    candidates = models.JSONField(default=list)
    # [{"submission": id, "phase": name, "phases": [names the run had, sorted]}] in draw order.
    drawn = models.JSONField(default=list)
    drawn_at = models.DateTimeField()
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"audit draw of {self.release}"


class AuditOutcome(models.TextChoices):
    PENDING = "pending", "Waiting for the re-run"
    CHECKING = "checking", "Re-run uploaded, being checked"
    PASSED = "passed", "Audit passed"
    FAILED = "failed", "Audit failed"
    OVERDUE = "overdue", "Not answered in time"
    TOKEN_REFUSED = "token_refused", "Re-run refused: its run token did not check out"


class AuditRequest(models.Model):
    """One drawn submission: re-run `phase` under `run_token` by `deadline`."""

    draw = models.ForeignKey(AuditDraw, on_delete=models.CASCADE, related_name="requests")
    submission = models.ForeignKey("submissions.Submission", on_delete=models.PROTECT, related_name="audits")
    phase = models.CharField(max_length=64)
    claimed_value = models.FloatField(null=True, blank=True)
    unit = models.CharField(max_length=16, blank=True)
    deadline = models.DateTimeField()
    run_token = models.ForeignKey(
        "submissions.RunToken", on_delete=models.PROTECT, related_name="audit_requests"
    )
    # The upload answering the request (Submission.Source.AUDIT: never on a list).
    answer = models.OneToOneField(
        "submissions.Submission",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_answer_of",
    )
    outcome = models.CharField(max_length=16, choices=AuditOutcome.choices, default=AuditOutcome.PENDING)
    rerun_value = models.FloatField(null=True, blank=True)
    deviation = models.FloatField(null=True, blank=True, help_text="(re-run - claim) / claim")
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submission_id"]
        constraints = [models.UniqueConstraint(fields=["draw", "submission"], name="one_audit_per_draw")]

    def __str__(self) -> str:
        return f"audit of submission {self.submission_id} ({self.phase})"


class Objection(models.Model):
    """A submitter of a release objects to an entry (a submission) of one of its draft lists.

    It names the submission, not the ListEntry row: a draft is rebuilt at will, the objection stays.
    """

    release = models.ForeignKey("registry.Release", on_delete=models.PROTECT, related_name="objections")
    kind = models.CharField(max_length=32, help_text="The list the entry was seen on.")
    submission = models.ForeignKey(
        "submissions.Submission", on_delete=models.PROTECT, related_name="objections"
    )
    objector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="objections"
    )
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"objection {self.pk} against submission {self.submission_id}"


class ObjectionAnswer(models.Model):
    """The committee's answer; revoking it (with a reason, kept on record) reopens the objection."""

    class Outcome(models.TextChoices):
        UPHELD = "upheld", "Upheld"
        DISMISSED = "dismissed", "Dismissed"

    objection = models.ForeignKey(Objection, on_delete=models.CASCADE, related_name="answers")
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    text = models.TextField()
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    answered_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revoke_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["answered_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} answer to objection {self.objection_id}"
