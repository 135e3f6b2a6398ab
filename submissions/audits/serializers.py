"""The API records of audits and objections."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from submissions.audits.models import AuditDraw, AuditRequest, Objection, ObjectionAnswer


class AuditSerializer(serializers.ModelSerializer[AuditRequest]):
    release = serializers.CharField(source="draw.release.slug", read_only=True)
    outcome_label = serializers.CharField(source="get_outcome_display", read_only=True)
    run_token = serializers.SerializerMethodField(help_text="Only for the submitter and the committee.")

    class Meta:
        model = AuditRequest
        fields = [
            "id", "submission", "release", "phase", "claimed_value", "unit", "deadline", "outcome",
            "outcome_label", "rerun_value", "deviation", "detail", "answer", "run_token",
        ]  # fmt: skip
        read_only_fields = fields

    def get_run_token(self, obj: AuditRequest) -> str | None:
        return obj.run_token.token if self.context.get("show_token") else None


class AuditDrawSerializer(serializers.ModelSerializer[AuditDraw]):
    release = serializers.CharField(source="release.slug", read_only=True)

    class Meta:
        model = AuditDraw
        fields = ["release", "seed", "algorithm", "share_percent", "candidates", "drawn", "drawn_at"]
        read_only_fields = fields


class ObjectionAnswerSerializer(serializers.ModelSerializer[ObjectionAnswer]):
    class Meta:
        model = ObjectionAnswer
        fields = ["id", "outcome", "text", "answered_at", "revoked_at", "revoke_reason"]
        read_only_fields = fields


class ObjectionSerializer(serializers.ModelSerializer[Objection]):
    release = serializers.CharField(source="release.slug", read_only=True)
    answers = ObjectionAnswerSerializer(many=True, read_only=True)

    class Meta:
        model = Objection
        fields = ["id", "release", "kind", "submission", "reason", "created_at", "answers"]
        read_only_fields = fields


class ObjectionCreateSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField(help_text="The draft list's kind, e.g. production.")
    submission = serializers.IntegerField(help_text="The entry's submission id.")
    reason = serializers.CharField(max_length=5000)


class ObjectionAnswerCreateSerializer(serializers.Serializer[dict[str, Any]]):
    outcome = serializers.ChoiceField(choices=ObjectionAnswer.Outcome.choices)
    text = serializers.CharField(max_length=5000)


class ReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=5000)


class AuditAnswerSerializer(serializers.Serializer[dict[str, Any]]):
    archive = serializers.FileField(help_text="The re-run's packed result directory.")
