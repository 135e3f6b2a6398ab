"""The committee's side of a submission: the reproducibility questionnaire, the decisions taken
(an audit trail shown as a timeline), the comments, and the re-verification runs."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# The IO500 questionnaire sections (submission-system schema field names) with the question asked.
QUESTIONNAIRE_SECTIONS: dict[str, tuple[str, str]] = {
    "system_purpose": (
        "System purpose",
        "What is the system used for? Name the production applications and the data they produce, "
        "or say that it is a research or benchmark system.",
    ),
    "availability": (
        "Availability",
        "Can anyone obtain this hardware and software (commercially or as open source)? Since when?",
    ),
    "storage_system_software": (
        "Storage system software",
        "Which storage software and versions run on servers and clients, and where can they be obtained?",
    ),
    "runtime_environment": (
        "Runtime environment",
        "All scripts and configuration dumps needed to rerun the benchmark "
        "(e.g. mmlsconfig, Lustre tunables).",
    ),
    "fault_tolerance_mechanisms": (
        "Fault tolerance and single points of failure",
        "Power, network, inter-server and intra-server media redundancy; can any one device, server, NIC "
        "or cable fail without disrupting the benchmark?",
    ),
    "execution": (
        "Execution",
        "How was the benchmark run (scheduler, job script)? Was the system dedicated to it?",
    ),
    "caching": ("Caching", "Which caches (client, server, device) took part, and how were they configured?"),
    "data_source": (
        "Data source",
        "Was the data served by a burst buffer or by the primary storage? Do production applications use it?",
    ),
    "trust": (
        "Trust",
        "Did you repeat the run? Are the results below the hardware limits? Was the data persistent?",
    ),
    "reproducibility_score_id": (
        "Reproducibility",
        "Which reproducibility score do you expect "
        "(Undefined, Limited, Proprietary, Fully Reproducible), and why?",
    ),
    "feedback": (
        "Feedback",
        "Anything you want to tell the IO500 committee about the benchmark or the process.",
    ),
}
QUESTIONNAIRE_MIN_WORDS = 10
# "Feedback" asks what the submitter thinks of the questionnaire itself, not about the system, so it
# is optional here and free of the word minimum. io500.org's submission-system (commit 03aceb0d,
# src/Model/Table/QuestionnairesTable.php) only requires it non-empty on the server; its 10-word
# minimum is a browser-side check (templates/Questionnaires/add.php) meant for the system answers.
QUESTIONNAIRE_OPTIONAL = frozenset({"feedback"})


class Questionnaire(models.Model):
    """The reproducibility questionnaire of one submission; every answer but the optional feedback
    needs at least 10 words."""

    submission = models.OneToOneField(
        "submissions.Submission", on_delete=models.CASCADE, related_name="questionnaire"
    )
    system_purpose = models.TextField()
    availability = models.TextField()
    storage_system_software = models.TextField()
    runtime_environment = models.TextField()
    fault_tolerance_mechanisms = models.TextField()
    execution = models.TextField()
    caching = models.TextField()
    data_source = models.TextField()
    trust = models.TextField()
    reproducibility_score_id = models.TextField()
    feedback = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Questionnaire of {self.submission}"

    def answers(self) -> list[tuple[str, str, str]]:
        """(field, section title, answer) in the order IO500 asks them."""
        return [
            (name, title, getattr(self, name)) for name, (title, _question) in QUESTIONNAIRE_SECTIONS.items()
        ]


# How the timeline names each recorded action.
ACTION_LABELS = {
    "submit": "Submitted for review",
    "start_review": "Review started",
    "accept": "Accepted",
    "request_changes": "Changes requested",
    "reject": "Rejected",
    "publish": "Published",
    "assess": "Reproducibility assessed",
    "accept_gap": "Accepted despite missing raw outputs",
    "withdraw": "Withdrawn by the submitter",
    "edit_system": "System description edited",
    "edit_questionnaire": "Questionnaire edited",
    "replace": "Tarball replaced by a new upload",
    "withdraw_published": "Withdrawn after publication",
    "exclude": "Excluded from a list",
    "move": "Moved to another release",
    "duplicate": "Marked a duplicate",
    "revoke": "Decision revoked",
    "recheck_system": "Description checks re-run",
}


class ReviewEvent(models.Model):
    """One step of the workflow: who moved the submission from which state to which, when and why."""

    submission = models.ForeignKey(
        "submissions.Submission", on_delete=models.CASCADE, related_name="review_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=32)
    from_state = models.CharField(max_length=20)
    to_state = models.CharField(max_length=20)
    reason = models.TextField(blank=True)
    # A decision that accepts a gap in the evidence names it: the scored phases whose raw outputs the
    # archive lacks, and the archive it looked at. It covers the run only while the archive is that
    # one and its gap is within these phases (submissions.evidence_basis.gap_covered).
    gap_phases = models.JSONField(
        default=list, blank=True, help_text="Scored phases accepted without their raw outputs."
    )
    gap_archive_sha256 = models.CharField(
        max_length=64, blank=True, help_text="The result archive the gap was accepted for."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.submission}: {self.action} ({self.from_state} -> {self.to_state})"

    @property
    def action_label(self) -> str:
        return ACTION_LABELS.get(self.action, self.action.replace("_", " ").capitalize())


# What a revocation undoes, by the kind of decision.
REVOKED_WORDS = {
    "withdraw": "withdrawal",
    "withdraw_published": "withdrawal",
    "exclude": "exclusion",
    "move": "move",
    "duplicate": "duplicate mark",
}


class EntryDecisionQuerySet(models.QuerySet["EntryDecision"]):
    def active(self) -> EntryDecisionQuerySet:
        """The decisions in force: a revoked one stays recorded but no longer applies."""
        return self.filter(revoked_at__isnull=True)


class EntryDecision(models.Model):
    """A per-entry decision on a submission, taken at any time with a reason: the submitter withdraws
    before publication; the committee excludes it from a kind of list, moves it to another release,
    withdraws it after publication, or marks it a duplicate of another copy of the same run. The list
    build applies every one of them (submissions.review.decisions.decided_exclusions); a ReviewEvent
    with the same reason puts it on the submission's timeline."""

    class Kind(models.TextChoices):
        WITHDRAW = "withdraw", "Withdrawn by the submitter"
        WITHDRAW_PUBLISHED = "withdraw_published", "Withdrawn after publication"
        EXCLUDE = "exclude", "Excluded from a list"
        MOVE = "move", "Moved to another release"
        DUPLICATE = "duplicate", "Duplicate of another copy of the run"

    submission = models.ForeignKey(
        "submissions.Submission", on_delete=models.CASCADE, related_name="entry_decisions"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField()
    # exclude: the kind of list it leaves, from `release` on (a later list carries the earlier one over,
    # so the exclusion holds there too).
    list_kind = models.CharField(max_length=32, blank=True)
    # exclude: the release whose list it leaves; move: the release it goes to.
    release = models.ForeignKey(
        "registry.Release", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # move: the release it came from.
    from_release = models.ForeignKey(
        "registry.Release", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # duplicate: the copy of the same run that counts.
    duplicate_of = models.ForeignKey(
        "submissions.Submission", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The review state the decision left (a duplicate mark changes it), restored when it is revoked.
    state_before = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # A revoked decision is kept, with who revoked it, when and why; only the active ones apply.
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoke_reason = models.TextField(blank=True)

    objects = EntryDecisionQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.submission}: {self.get_kind_display()}"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def summary(self) -> str:
        """The decision in words, as lists and the submission's page show it."""
        if self.kind == self.Kind.EXCLUDE:
            release = self.release.name if self.release else "every release"
            return f"excluded from the {self.list_kind} lists from {release} on: {self.reason}"
        if self.kind == self.Kind.MOVE:
            before = self.from_release.name if self.from_release else "no release"
            after = self.release.name if self.release else "no release"
            return f"moved from {before} to {after}: {self.reason}"
        if self.kind == self.Kind.DUPLICATE:
            return f"a duplicate of submission {self.duplicate_of_id}: {self.reason}"
        return f"{self.get_kind_display().lower()}: {self.reason}"

    @property
    def revocation(self) -> str:
        """Its revocation in words, as a list that brings the run back explains it ("" when in force)."""
        if self.revoked_at is None:
            return ""
        what = REVOKED_WORDS.get(self.kind, "decision")
        return f"{what} revoked on {self.revoked_at:%Y-%m-%d}: {self.revoke_reason}"


class ReviewComment(models.Model):
    """A comment of the committee or the submitter; replies point to the comment they answer."""

    submission = models.ForeignKey(
        "submissions.Submission", on_delete=models.CASCADE, related_name="review_comments"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Comment {self.pk} on {self.submission}"


class ReverifyRun(models.Model):
    """One `reverify` pass over the stored archives; its items say whose verdict changed."""

    release = models.ForeignKey(
        "registry.Release", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Re-verification {self.pk}"

    @property
    def progress(self) -> int:
        return 100 if self.total == 0 else round(100 * self.done / self.total)

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None


class ReverifyItem(models.Model):
    run = models.ForeignKey(ReverifyRun, on_delete=models.CASCADE, related_name="items")
    submission = models.ForeignKey("submissions.Submission", on_delete=models.CASCADE, related_name="+")
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict, blank=True)
    changed = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "submission_id"]
        constraints = [models.UniqueConstraint(fields=["run", "submission"], name="one_item_per_run")]

    def __str__(self) -> str:
        return f"{self.run}: {self.submission}"


class SubmissionRevision(models.Model):
    """One edit of the system description or the questionnaire by the submitter: who, when, and
    each field's value before and after, so the committee sees what changed since it looked."""

    class Kind(models.TextChoices):
        SYSTEM = "system", "System description"
        QUESTIONNAIRE = "questionnaire", "Questionnaire"

    submission = models.ForeignKey(
        "submissions.Submission", on_delete=models.CASCADE, related_name="revisions"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    number = models.PositiveIntegerField(help_text="1 for the first edit of this kind, then 2, ...")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # [{"field": name, "label": label, "before": value, "after": value}, ...] for the fields that changed.
    changes = models.JSONField(default=list)
    # The whole state after the edit, so any two versions can be compared later.
    snapshot = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["submission", "kind", "number"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "kind", "number"], name="unique_revision_number")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} version {self.number} of {self.submission}"
