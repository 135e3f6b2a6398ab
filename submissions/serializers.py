"""API shapes. Input serializers only parse; the services decide. Output serializers only read."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from registry.core.messaging import TERMS
from registry.models import Release
from submissions.audits.selectors import submission_audits
from submissions.audits.serializers import AuditSerializer
from submissions.evidence_basis import submission_basis
from submissions.json_input import JsonRefused, check_value, loads_bounded
from submissions.models import (
    Archive,
    BasisLevelChoice,
    Finding,
    ListCategory,
    PhaseResult,
    Reproducibility,
    Result,
    ReviewState,
    Submission,
    SystemDescription,
)
from submissions.placement.selectors import submission_placement
from submissions.placement.serializers import PlacementSerializer
from submissions.review.roles import is_committee
from submissions.selectors import (
    submission_findings_ordered,
    submission_messaging_status,
    submission_primary_result,
    submission_result_archive,
    submission_system_description,
)
from submissions.system.files import SystemFileUnreadable, read_system_upload


class BoundedJSONField(serializers.JSONField):
    """A JSON text field read within bounds (submissions.json_input): a text too long is refused
    before it is parsed, one nested too deeply or holding too many values is a 400 with the reason,
    not a RecursionError or an answer listing every one of its names."""

    def get_value(self, dictionary: Any) -> Any:
        # A file part stays a file (the parent would take its name for the JSON text).
        given = dictionary.get(self.field_name) if hasattr(dictionary, "get") else None
        return given if hasattr(given, "read") else super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "read"):  # sent as a file part: JSON or a system-information.txt
            try:
                return read_system_upload(data, getattr(data, "size", None))
            except SystemFileUnreadable as exc:
                raise serializers.ValidationError(str(exc)) from exc
        try:
            if not (self.binary or getattr(data, "is_json_string", False)):
                check_value(data)
                return super().to_internal_value(data)
            return loads_bounded(data.decode() if isinstance(data, bytes) else data)
        except JsonRefused as exc:
            raise serializers.ValidationError(str(exc)) from exc
        except (TypeError, ValueError):
            self.fail("invalid")


class SubmissionCreateSerializer(serializers.Serializer[dict[str, Any]]):
    archive = serializers.FileField(
        help_text="The result folder as .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz or .zip.", allow_empty_file=True
    )
    system = BoundedJSONField(
        required=False,
        binary=True,
        help_text=(
            "The system description as a JSON object string (or a file part), e.g. "
            '{"system_name": "Wolf", "institution_name": "Intel", "filesystem_type": "DAOS", '
            '"client_nodes": 10, "procs_per_node": 32, "client_network_gbps": 100}, or a whole '
            'document in the IO500 community schema ({"DATA": {"type": "Site", ...}}). The registry\'s '
            "field names may also be sent as form fields of their own; they win over the same ones here."
        ),
    )
    release = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Release.objects.all(),
        required=False,
        allow_null=True,
        help_text="Slug of the release the submission is for, e.g. isc26.",
    )
    ten_node = serializers.BooleanField(
        required=False, default=False, help_text="For the 10 client-node lists."
    )
    category = serializers.ChoiceField(
        choices=ListCategory.choices,
        required=False,
        default=ListCategory.RESEARCH,
        help_text="The ranked list the run asks for (production or research); the committee confirms it.",
    )
    job_script = serializers.FileField(required=False, help_text="The job script that ran the benchmark.")
    job_output = serializers.FileField(required=False, help_text="The job's standard output and error.")


class MessagingStatusSerializer(serializers.Serializer[dict[str, str]]):
    term = serializers.ChoiceField(choices=list(TERMS))
    sentence = serializers.CharField()
    policy = serializers.URLField(help_text="The IO500 Messaging Policy.")


class SubmissionCreatedSerializer(serializers.Serializer[Submission]):
    id = serializers.IntegerField(read_only=True)
    status = serializers.ChoiceField(choices=Submission.Status.choices, read_only=True)
    url = serializers.SerializerMethodField(help_text="The API resource to poll for the outcome.")
    page = serializers.SerializerMethodField(help_text="The submission's web page.")

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, obj: Submission) -> str:
        return self._absolute(reverse("submissions-api:submission-detail", args=[obj.pk]))

    def get_page(self, obj: Submission) -> str:
        return self._absolute(reverse("submissions:detail", args=[obj.pk]))


class SubmissionSummarySerializer(SubmissionCreatedSerializer):
    progress = serializers.IntegerField(read_only=True)
    error = serializers.CharField(read_only=True)
    score = serializers.FloatField(read_only=True, allow_null=True)
    bw = serializers.FloatField(read_only=True, allow_null=True, help_text="Bandwidth score in GiB/s.")
    md = serializers.FloatField(read_only=True, allow_null=True, help_text="Metadata score in kIOPS.")
    valid = serializers.BooleanField(read_only=True, allow_null=True)
    ten_node = serializers.BooleanField(read_only=True)
    release = serializers.CharField(
        source="release.slug", read_only=True, allow_null=True, default=None, help_text="The release's slug."
    )
    created_at = serializers.DateTimeField(read_only=True)
    review_state = serializers.ChoiceField(
        choices=ReviewState.choices,
        read_only=True,
        help_text="Where the submission stands with the committee.",
    )
    reproducibility = serializers.ChoiceField(
        choices=Reproducibility.choices, read_only=True, help_text="The committee's reproducibility level."
    )
    category = serializers.ChoiceField(
        choices=ListCategory.choices,
        read_only=True,
        help_text="Production or research: as asked at upload until the committee confirms or changes it.",
    )
    messaging_status = serializers.SerializerMethodField(
        help_text=(
            "The IO500 Messaging Policy's term for quoting this result: verified (officially listed on a "
            "published IO500 list anyone may read) or unverified (on none; a list reconstructed here is "
            "none), with the sentence that says why. `status` is the registry's own check of the files."
        )
    )

    @extend_schema_field(MessagingStatusSerializer)
    def get_messaging_status(self, obj: Submission) -> dict[str, str]:
        return submission_messaging_status(submission=obj).as_dict()


class FindingSerializer(serializers.ModelSerializer[Finding]):
    run = serializers.CharField(source="result.path", default=None, read_only=True, allow_null=True)

    class Meta:
        model = Finding
        fields = ["code", "severity", "phase", "message", "run"]


class PhaseSerializer(serializers.ModelSerializer[PhaseResult]):
    class Meta:
        model = PhaseResult
        fields = ["name", "value", "unit", "time_s", "scored", "invalid_marker", "command"]


class ScoreTripleSerializer(serializers.Serializer[dict[str, float | None]]):
    bw = serializers.FloatField(allow_null=True)
    md = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(allow_null=True)


class ResultBasisSerializer(serializers.Serializer[dict[str, Any]]):
    level = serializers.ChoiceField(
        choices=BasisLevelChoice.choices,
        allow_null=True,
        help_text=(
            "What the verdict rests on, weakest first: summaries, tool-outputs, per-rank, cross-phase; "
            "null for a run verified before the level was recorded."
        ),
    )
    text = serializers.CharField(help_text='The level in words, e.g. "checked from summaries only".')
    summary_only_phases = serializers.ListField(
        child=serializers.CharField(), help_text="Scored phases whose value no raw output backs."
    )


class EvidenceBasisSerializer(ResultBasisSerializer):
    meaning = serializers.CharField(help_text="What the level means for a reader.")
    gap_accepted = serializers.BooleanField(
        help_text=(
            "A committee decision names the missing raw outputs of this archive; without it a run "
            "with summary-only phases enters no ranked list."
        )
    )
    gap_accepted_at = serializers.DateTimeField(allow_null=True)


class ResultSerializer(serializers.ModelSerializer[Result]):
    claimed = serializers.SerializerMethodField()
    computed = serializers.SerializerMethodField()
    basis = serializers.SerializerMethodField(help_text="What this run's verdict rests on.")
    phases = PhaseSerializer(many=True, read_only=True)

    class Meta:
        model = Result
        fields = [
            "path",
            "is_primary",
            "era",
            "version",
            "mode",
            "procs",
            "nodes",
            "timestamp",
            "claimed",
            "computed",
            "score_matches",
            "valid",
            "basis",
            "phases",
        ]

    @extend_schema_field(ResultBasisSerializer)
    def get_basis(self, obj: Result) -> dict[str, Any]:
        return {
            "level": obj.basis_level or None,
            "text": obj.basis_label,
            "summary_only_phases": list(obj.summary_only_phases or ()),
        }

    @extend_schema_field(ScoreTripleSerializer)
    def get_claimed(self, obj: Result) -> dict[str, float | None]:
        return {"bw": obj.claimed_bw, "md": obj.claimed_md, "score": obj.claimed_score}

    @extend_schema_field(ScoreTripleSerializer)
    def get_computed(self, obj: Result) -> dict[str, float | None]:
        return {"bw": obj.computed_bw, "md": obj.computed_md, "score": obj.computed_score}


class SystemDescriptionSerializer(serializers.ModelSerializer[SystemDescription]):
    class Meta:
        model = SystemDescription
        exclude = ["id", "submission"]


class ArchiveSerializer(serializers.ModelSerializer[Archive]):
    download = serializers.SerializerMethodField()

    class Meta:
        model = Archive
        fields = ["kind", "original_name", "sha256", "size", "uploaded_at", "download"]

    def get_download(self, obj: Archive) -> str:
        path = reverse("submissions:download", args=[obj.submission_id, obj.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class SubmissionDetailSerializer(SubmissionSummarySerializer):
    origin = serializers.ChoiceField(
        source="source", choices=Submission.Source.choices, read_only=True, help_text="Uploaded or imported."
    )
    io500_id = serializers.IntegerField(read_only=True, allow_null=True)
    updated_at = serializers.DateTimeField(read_only=True)
    findings = serializers.SerializerMethodField(help_text="Errors first, then warnings, then notes.")
    phases = serializers.SerializerMethodField(help_text="The phases of the run the submission is ranked by.")
    results = ResultSerializer(many=True, read_only=True, help_text="Every run found in the archive.")
    system = serializers.SerializerMethodField()
    archive = serializers.SerializerMethodField()
    files = serializers.SerializerMethodField(help_text="Every stored file: the archive, job script, output.")
    audits = serializers.SerializerMethodField(
        help_text="The committee's audits of this run and their outcomes (public once the run is published)."
    )
    placement = serializers.SerializerMethodField(
        help_text="Each phase's percentile among comparable public runs (as the submission page shows it)."
    )
    evidence_basis = serializers.SerializerMethodField(
        help_text=(
            "What the verdict of the run the submission is ranked by rests on (null while nothing is "
            "verified). The registry's check of the files, not the IO500 Messaging Policy's \"verified\", "
            "which only a result on a published IO500 list may claim."
        )
    )

    @extend_schema_field(EvidenceBasisSerializer(allow_null=True))
    def get_evidence_basis(self, obj: Submission) -> dict[str, Any] | None:
        shown = submission_basis(obj)
        return shown.as_dict() if shown is not None else None

    @extend_schema_field(FindingSerializer(many=True))
    def get_findings(self, obj: Submission) -> list[dict[str, Any]]:
        return list(FindingSerializer(submission_findings_ordered(submission=obj), many=True).data)

    @extend_schema_field(PhaseSerializer(many=True))
    def get_phases(self, obj: Submission) -> list[dict[str, Any]]:
        primary = submission_primary_result(submission=obj)
        return list(PhaseSerializer(primary.phases.all(), many=True).data) if primary else []

    @extend_schema_field(SystemDescriptionSerializer(allow_null=True))
    def get_system(self, obj: Submission) -> dict[str, Any] | None:
        description = submission_system_description(submission=obj)
        return dict(SystemDescriptionSerializer(description).data) if description else None

    @extend_schema_field(ArchiveSerializer(allow_null=True))
    def get_archive(self, obj: Submission) -> dict[str, Any] | None:
        archive = submission_result_archive(submission=obj)
        return dict(ArchiveSerializer(archive, context=self.context).data) if archive else None

    @extend_schema_field(PlacementSerializer)
    def get_placement(self, obj: Submission) -> dict[str, Any]:
        return submission_placement(submission=obj)

    @extend_schema_field(AuditSerializer(many=True))
    def get_audits(self, obj: Submission) -> list[dict[str, Any]]:
        request = self.context.get("request")
        user = request.user if request is not None else AnonymousUser()
        rows = submission_audits(user=user, submission=obj)
        show = user.is_authenticated and (obj.submitter_id == user.pk or is_committee(user))
        return list(AuditSerializer(rows, many=True, context={"show_token": show}).data)

    @extend_schema_field(ArchiveSerializer(many=True))
    def get_files(self, obj: Submission) -> list[dict[str, Any]]:
        return list(ArchiveSerializer(obj.archives.all(), many=True, context=self.context).data)
