"""API shapes of run tokens: the request parses, the answer only reads."""

from __future__ import annotations

from rest_framework import serializers

from registry.models import Release
from submissions.run_tokens.models import RunToken


class RunTokenRequestSerializer(serializers.Serializer[None]):
    release = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Release.objects.all(),
        help_text="Slug of the release the run will be submitted to, e.g. isc26 (it must be open).",
    )
    system_name = serializers.CharField(max_length=255, help_text="The system the run will be made on.")


class RunTokenSerializer(serializers.ModelSerializer[RunToken]):
    release = serializers.CharField(source="release.slug", read_only=True, help_text="The release's slug.")
    used_by = serializers.IntegerField(
        source="used_by_id", read_only=True, allow_null=True, help_text="The submission that used it."
    )
    timestamp_argument = serializers.SerializerMethodField(
        help_text="What to pass to the application: io500 config.ini --timestamp=<token>."
    )

    class Meta:
        model = RunToken
        fields = [
            "token",
            "release",
            "system_name",
            "issued_at",
            "expires_at",
            "used_by",
            "used_at",
            "timestamp_argument",
        ]
        read_only_fields = fields

    def get_timestamp_argument(self, token: RunToken) -> str:
        return f"--timestamp={token.token}"
