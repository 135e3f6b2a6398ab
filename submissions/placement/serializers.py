"""The API shape of a submission's placement (submissions.placement): read only."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    percentile = serializers.FloatField(
        allow_null=True,
        help_text=(
            "The share (0-100) of the other runs of the population whose value this run's value beats, "
            "ties counted half; null when no other run of the population has a value for the phase."
        ),
    )
    rank = serializers.IntegerField(help_text="1 + the runs of the population with a higher value.")
    runs = serializers.IntegerField(help_text="The runs of the population, this one included.")


class PhasePlacementSerializer(serializers.Serializer[dict[str, Any]]):
    phase = serializers.CharField()
    value = serializers.FloatField(allow_null=True)
    comparable_with = serializers.CharField(help_text="The comparability class of the run for this phase.")
    comparable = StandingSerializer(
        allow_null=True, help_text="Among every public run of the class (invalid runs left out)."
    )
    node_range = StandingSerializer(
        allow_null=True, help_text="Among those with a client-node count in the run's range."
    )
    ten_node = StandingSerializer(allow_null=True, help_text="Among those on exactly 10 client nodes.")
    missing = serializers.DictField(
        child=serializers.CharField(), help_text="Why a population gives no percentile, by its name."
    )


class PlacementSerializer(serializers.Serializer[dict[str, Any]]):
    mode = serializers.ChoiceField(choices=["standard", "extended"])
    nodes = serializers.IntegerField(allow_null=True, help_text="The run's client nodes, when known.")
    node_range = serializers.CharField(allow_null=True, help_text='e.g. "10 to 99 client nodes".')
    scopes = serializers.DictField(child=serializers.CharField(), help_text="The populations, by name.")
    phases = PhasePlacementSerializer(many=True)
