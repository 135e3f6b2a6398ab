"""Submissions: who uploaded what, the immutable raw files, and what the scoring engine found."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from scoring.model import BASIS_LABELS, BasisLevel


class Institution(models.Model):
    name = models.CharField(max_length=255, unique=True)
    country = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class StorageSystem(models.Model):
    """The IO500 identity of a system: name + institution + file-system type (one list entry each)."""

    name = models.CharField(max_length=255)
    institution = models.ForeignKey(Institution, on_delete=models.PROTECT, related_name="systems")
    filesystem_type = models.CharField(max_length=128)
    vendor = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["name", "institution", "filesystem_type"], name="unique_storage_system_identity"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.institution}, {self.filesystem_type})"


class ReviewState(models.TextChoices):
    """Where a submission stands with the committee; independent of the pipeline `status`."""

    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted for review"
    UNDER_REVIEW = "under_review", "Under review"
    ACCEPTED = "accepted", "Accepted"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    REJECTED = "rejected", "Rejected"
    PUBLISHED = "published", "Published"
    # The submitter took it back before publication (submissions.review.services.submission_withdraw:
    # an EntryDecision and a ReviewEvent "withdraw" say why).
    WITHDRAWN = "withdrawn", "Withdrawn"
    # A new upload replaced its tarball; `Submission.supersedes` on the new one points here.
    SUPERSEDED = "superseded", "Superseded by a new upload"
    # The committee said another copy of the same run counts (an EntryDecision "duplicate" names it):
    # this copy leaves the review queue and every list; revoking the mark restores its earlier state.
    DUPLICATE = "duplicate", "Duplicate of another copy"


class Reproducibility(models.TextChoices):
    """The committee's reproducibility score (io500.org the_lists.php), shown as a badge on lists."""

    UNDEFINED = "undefined", "Undefined"
    LIMITED = "limited", "Limited"
    PROPRIETARY = "proprietary", "Proprietary"
    FULLY = "fully_reproducible", "Fully Reproducible"


class ListCategory(models.TextChoices):
    """The committee's classification: only production systems may enter the Production lists."""

    PRODUCTION = "production", "Production"
    RESEARCH = "research", "Research"


class Submission(models.Model):
    class Status(models.TextChoices):
        RECEIVED = "received", "Received"
        PROCESSING = "processing", "Processing"
        # A fault of ours (our disk full, our storage unreachable) stopped the attempt: never the
        # submitter's rejection; the requeue tries again once `retry_at` has passed.
        RETRYING = "retrying", "Waiting to retry (our fault)"
        # The registry's own check of the run's files passed. Shown as "Checked here", never as
        # "Verified": that is the IO500 Messaging Policy's term for a result on a published IO500
        # list (registry.core.messaging). The stored value stays for the API's existing clients.
        VERIFIED = "verified", "Checked here"
        INVALID = "invalid", "Invalid"
        REJECTED = "rejected", "Rejected"
        # Imported history whose raw files are not public: the published values, not re-verified.
        RECORDED = "recorded", "Published record"

    FINAL_STATUSES = (Status.VERIFIED, Status.INVALID, Status.REJECTED, Status.RECORDED)
    IN_PROGRESS_STATUSES = (Status.RECEIVED, Status.PROCESSING, Status.RETRYING)

    class Source(models.TextChoices):
        UPLOAD = "upload", "Uploaded"
        IMPORT = "import", "Imported from the published IO500 data"
        # The re-run answering an audit request (submissions/audits): checked, never on a list.
        AUDIT = "audit", "Re-run for an audit"

    submitter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="submissions"
    )
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.UPLOAD)
    io500_id = models.PositiveIntegerField(
        null=True, blank=True, unique=True, help_text="The io500.org submission id of imported history."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    release = models.ForeignKey(
        "registry.Release", null=True, blank=True, on_delete=models.PROTECT, related_name="submissions"
    )
    storage_system = models.ForeignKey(
        StorageSystem, null=True, blank=True, on_delete=models.PROTECT, related_name="submissions"
    )
    ten_node = models.BooleanField(default=False, help_text="Submitted for the 10 client node lists.")

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECEIVED)
    progress = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    processing_started_at = models.DateTimeField(null=True, blank=True)
    # Renewed by the worker while it processes (submissions.ingest.lease): a row whose heartbeat stops was
    # left by a dead worker and is requeued within a minute or two, never while it is still alive.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Of those attempts, the ones a fault of ours ended (submissions.ingest.pipeline): they say nothing
    # about the archive, so they never count towards INGEST_MAX_ATTEMPTS, and they set the backoff.
    fault_attempts = models.PositiveSmallIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)

    # The values the submission is ranked by: the recomputed ones once verified, or the published
    # list values for imported history that has no raw files.
    score = models.FloatField(null=True, blank=True)
    bw = models.FloatField(null=True, blank=True)
    md = models.FloatField(null=True, blank=True)
    valid = models.BooleanField(null=True)

    # Everything the original list row said (imported history), kept verbatim for reference.
    published_record = models.JSONField(default=dict, blank=True)

    # The committee workflow (submissions/review/rules.py says who may move it where).
    review_state = models.CharField(
        max_length=20, choices=ReviewState.choices, default=ReviewState.DRAFT, db_index=True
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    reproducibility = models.CharField(
        max_length=20, choices=Reproducibility.choices, default=Reproducibility.UNDEFINED
    )
    category = models.CharField(max_length=16, choices=ListCategory.choices, default=ListCategory.RESEARCH)
    anonymous = models.BooleanField(
        default=False, help_text='Published lists show "anonymous" instead of the submitter\'s name.'
    )
    # The submission whose tarball this upload replaced: its questionnaire, description and review
    # carry over, and it stays stored, marked superseded.
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "processing_started_at"])]
        permissions = [
            ("review_submission", "Can review submissions and decide on them"),
            ("publish_lists", "Can build and publish the lists of a release"),
        ]

    def __str__(self) -> str:
        return f"Submission {self.pk}"

    @property
    def is_final(self) -> bool:
        return self.status in self.FINAL_STATUSES

    @property
    def interrupted_attempts(self) -> int:
        """Attempts that stopped without an outcome (a dead worker): what INGEST_MAX_ATTEMPTS bounds."""
        return max(self.attempts - self.fault_attempts, 0)


class SystemDescription(models.Model):
    """The IO500 system-information questionnaire, as typed fields plus the full JSON given."""

    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="system")
    system_name = models.CharField(max_length=255, blank=True)
    institution_name = models.CharField(max_length=255, blank=True)
    storage_vendor = models.CharField(max_length=255, blank=True)
    filesystem_type = models.CharField(max_length=128, blank=True)
    filesystem_name = models.CharField(max_length=255, blank=True)
    filesystem_version = models.CharField(max_length=128, blank=True)
    client_nodes = models.PositiveIntegerField(null=True, blank=True)
    procs_per_node = models.PositiveIntegerField(null=True, blank=True)
    client_os = models.CharField(max_length=255, blank=True)
    client_kernel = models.CharField(max_length=255, blank=True)
    client_network = models.CharField(max_length=255, blank=True)
    client_network_gbps = models.FloatField(
        null=True, blank=True, help_text="Per-node client network bandwidth in Gbit/s."
    )
    client_memory_bytes = models.FloatField(
        null=True, blank=True, help_text="Memory per client node in bytes."
    )
    md_servers = models.PositiveIntegerField(null=True, blank=True)
    md_devices = models.CharField(max_length=255, blank=True)
    ds_servers = models.PositiveIntegerField(null=True, blank=True)
    ds_devices = models.CharField(max_length=255, blank=True)
    server_network = models.CharField(max_length=255, blank=True)
    storage_device_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="The data storage devices whose peak throughput is declared."
    )
    storage_peak_bytes_s = models.FloatField(
        null=True, blank=True, help_text="Peak throughput of all data storage devices together, bytes/s."
    )
    # The IO500 part of the community schema (submissions/system).
    io500_version = models.CharField(max_length=128, blank=True)
    server_nodes = models.PositiveIntegerField(null=True, blank=True)
    storage_media = models.CharField(max_length=255, blank=True)
    storage_capacity_bytes = models.FloatField(
        null=True, blank=True, help_text="Net storage capacity in bytes."
    )
    client_bandwidth_bytes_s = models.FloatField(
        null=True, blank=True, help_text="Aggregate client network bandwidth in bytes/s."
    )
    server_bandwidth_bytes_s = models.FloatField(
        null=True, blank=True, help_text="Aggregate server network bandwidth in bytes/s."
    )
    usage = models.CharField(max_length=64, blank=True, help_text="production or research, as described.")
    exclusive_usage = models.BooleanField(null=True, help_text="The system ran only the benchmark.")
    data = models.JSONField(default=dict, blank=True)
    origin = models.CharField(
        max_length=255,
        blank=True,
        help_text="Where the description came from (upload form, API, archive file).",
    )
    field_sources = models.JSONField(
        default=dict,
        blank=True,
        help_text="Typed field -> where its value came from, for values not from the description itself.",
    )
    problems = models.JSONField(
        default=list, blank=True, help_text="What could not be read from a description file, in sentences."
    )
    archive_file = models.CharField(
        max_length=1024, blank=True, help_text="The description file found in the archive, if any."
    )
    archive_data = models.JSONField(
        default=dict,
        blank=True,
        help_text="That file as read, when the description itself came from elsewhere.",
    )
    runner_facts = models.JSONField(
        default=dict,
        blank=True,
        help_text="The client facts the bundled runner wrote (client-facts.json) as read, with its path: "
        "what the submitter's machine reported, not proof.",
    )

    def __str__(self) -> str:
        return f"System description of {self.submission}"


def archive_upload_to(instance: Archive, filename: str) -> str:
    # Content-addressed: identical bytes land on the same name, and nothing is ever overwritten.
    return f"archives/{instance.sha256[:2]}/{instance.sha256}/{filename}"


class Archive(models.Model):
    """A raw file exactly as uploaded. Never modified or deleted by the pipeline."""

    class Kind(models.TextChoices):
        RESULT = "result", "Result archive"
        JOB_SCRIPT = "job-script", "Job script"
        JOB_OUTPUT = "job-output", "Job output"

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="archives")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.RESULT)
    file = models.FileField(upload_to=archive_upload_to, max_length=512)
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveBigIntegerField()
    original_name = models.CharField(max_length=255)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["uploaded_at"]
        constraints = [
            # The same result bytes belong to one submission only: duplicates are answered with it.
            models.UniqueConstraint(
                fields=["sha256"], condition=models.Q(kind="result"), name="unique_result_archive_bytes"
            ),
            models.UniqueConstraint(
                fields=["submission"],
                condition=models.Q(kind="result"),
                name="one_result_archive_per_submission",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.sha256[:12]})"


# The job files IO500 asks for next to a result: field name (upload form and API) -> archive kind.
EXTRA_FILE_FIELDS = {"job_script": Archive.Kind.JOB_SCRIPT.value, "job_output": Archive.Kind.JOB_OUTPUT.value}


class BasisLevelChoice(models.TextChoices):
    """scoring.model.BasisLevel as stored, weakest first (the values are the engine's)."""

    SUMMARIES = BasisLevel.SUMMARIES.value, "Summaries only"
    TOOL_OUTPUTS = BasisLevel.TOOL_OUTPUTS.value, "The tools' own outputs"
    PER_RANK = BasisLevel.PER_RANK.value, "Per-rank files"
    CROSS_PHASE = BasisLevel.CROSS_PHASE.value, "Across phases"


class Result(models.Model):
    """One IO500 run found in a submission's archive (a tarball may hold several)."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="results")
    path = models.CharField(max_length=1024)
    is_primary = models.BooleanField(default=False, help_text="The run the submission is ranked by.")
    era = models.CharField(max_length=32)
    # NULL (the era prints no version) and "" (the C app printed an empty one) mean different things.
    version = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001
    mode = models.CharField(max_length=16, blank=True)
    # Tasks and client nodes as the run's own outputs print them (never the declared description):
    # None when no output says it. The *_source fields name the file that said it.
    procs = models.PositiveIntegerField(null=True, blank=True)
    nodes = models.PositiveIntegerField(null=True, blank=True)
    procs_source = models.CharField(max_length=255, blank=True)
    nodes_source = models.CharField(max_length=255, blank=True)
    # When the run began by its own clocks, "YYYY-MM-DD HH:MM:SS" in the run's local time, whose zone
    # no output names (so no timezone-aware datetime); "" when no file prints a clock.
    started = models.CharField(max_length=19, blank=True)
    timestamp = models.CharField(max_length=64, blank=True)
    claimed_bw = models.FloatField(null=True, blank=True)
    claimed_md = models.FloatField(null=True, blank=True)
    claimed_score = models.FloatField(null=True, blank=True)
    computed_bw = models.FloatField(null=True, blank=True)
    computed_md = models.FloatField(null=True, blank=True)
    computed_score = models.FloatField(null=True, blank=True)
    score_matches = models.BooleanField(default=False)
    valid = models.BooleanField(default=False)
    config = models.JSONField(default=dict, blank=True)
    files = models.JSONField(default=list, blank=True)
    # What the run is, whatever bytes carried it (submissions.run_identity): the same run packed
    # again has the same fingerprint, so it is recognised and shown to the committee.
    fingerprint = models.CharField(max_length=64, blank=True, db_index=True)
    # What the verdict rests on (scoring.model.EvidenceBasis), written at ingest: the weakest scored
    # phase decides. "" only for rows ingested before the level was recorded (a re-verification fills it).
    basis_level = models.CharField(max_length=16, choices=BasisLevelChoice.choices, blank=True)
    summary_only_phases = models.JSONField(
        default=list,
        blank=True,
        help_text="Scored phases whose value no raw output of the tool backs (missing, unreadable).",
    )

    class Meta:
        ordering = ["submission", "-is_primary", "path"]
        constraints = [models.UniqueConstraint(fields=["submission", "path"], name="unique_result_path")]

    def __str__(self) -> str:
        return f"{self.submission} {self.path}"

    @property
    def basis_label(self) -> str:
        """The engine's words for the level ("checked from summaries only", ...)."""
        return BASIS_LABELS[BasisLevel(self.basis_level)] if self.basis_level else "not recorded"


class CompactJSONEncoder(json.JSONEncoder):
    """JSON without the blanks after separators: per-rank rows of big runs are megabytes otherwise."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["separators"] = (",", ":")
        super().__init__(*args, **kwargs)


class PhaseResult(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="phases")
    name = models.CharField(max_length=64)
    order = models.PositiveSmallIntegerField(default=0)
    value = models.FloatField(null=True, help_text="Empty when the output printed no finite number.")
    unit = models.CharField(max_length=16)
    time_s = models.FloatField(null=True, blank=True)
    scored = models.BooleanField(default=True)
    invalid_marker = models.BooleanField(default=False)
    command = models.TextField(blank=True)
    values = models.JSONField(default=dict, blank=True)
    ranks = models.JSONField(
        default=list,
        blank=True,
        encoder=CompactJSONEncoder,
        help_text="Per-rank rows [{rank, time_s, rate, items}]; keys without a value are left out.",
    )
    timeline = models.JSONField(
        default=list,
        blank=True,
        encoder=CompactJSONEncoder,
        help_text="Runner timeline [[rank, second, amount]].",
    )

    class Meta:
        ordering = ["result", "order"]
        constraints = [models.UniqueConstraint(fields=["result", "name"], name="unique_phase_per_result")]

    def __str__(self) -> str:
        return f"{self.name} = {self.value} {self.unit}"


class Finding(models.Model):
    class Severity(models.TextChoices):
        ERROR = "error", "Error"
        WARNING = "warning", "Warning"
        INFO = "info", "Info"

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="findings")
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.CASCADE, related_name="findings"
    )
    code = models.CharField(max_length=64)
    severity = models.CharField(max_length=8, choices=Severity.choices)
    phase = models.CharField(max_length=64, blank=True)
    message = models.TextField()

    class Meta:
        ordering = ["submission", "result", "id"]

    def __str__(self) -> str:
        return f"{self.severity}: {self.code}"


# Defined in its own module to keep this one about submissions; imported so Django registers it.
# The review models live in their own module; importing them here registers them with the app.
from submissions.accounts.models import ApiToken as ApiToken  # noqa: E402
from submissions.audits.models import AuditDraw as AuditDraw  # noqa: E402
from submissions.audits.models import AuditRequest as AuditRequest  # noqa: E402
from submissions.audits.models import Objection as Objection  # noqa: E402
from submissions.audits.models import ObjectionAnswer as ObjectionAnswer  # noqa: E402
from submissions.review.models import EntryDecision as EntryDecision  # noqa: E402
from submissions.review.models import Questionnaire as Questionnaire  # noqa: E402
from submissions.review.models import ReverifyItem as ReverifyItem  # noqa: E402
from submissions.review.models import ReverifyRun as ReverifyRun  # noqa: E402
from submissions.review.models import ReviewComment as ReviewComment  # noqa: E402
from submissions.review.models import ReviewEvent as ReviewEvent  # noqa: E402
from submissions.review.models import SubmissionRevision as SubmissionRevision  # noqa: E402
from submissions.run_tokens.models import RunToken as RunToken  # noqa: E402
