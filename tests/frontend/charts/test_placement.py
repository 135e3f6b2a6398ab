"""The phase chart of a submission carries each phase's percentile among comparable runs, with the
switch for the same node range and 10-node runs; readers without JavaScript get them as a table."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import engines

from scoring.model import SCORED_PHASES
from submissions.models import Submission
from tests.factories import add_phases, make_result, make_submission, make_system_description

pytestmark = pytest.mark.django_db


def run_with(values: dict[str, float], *, nodes: int, version: str = "io500-sc25") -> Submission:
    submission = make_submission()
    make_system_description(submission=submission, client_nodes=nodes)
    add_phases(make_result(submission=submission, version=version, mode="standard"), values)
    return submission


def bar_of(data: dict[str, Any], phase: str) -> dict[str, Any]:
    return next(bar for bar in data["phases"] if bar["phase"] == phase)


def test_each_bar_carries_its_percentile_in_every_population(client):
    for value, nodes in ((1.0, 10), (2.0, 10), (3.0, 200), (8.0, 40)):
        run_with({"ior-easy-write": value}, nodes=nodes)
    target = run_with({"ior-easy-write": 4.0, "find": 9.0}, nodes=20)
    data = client.get(f"/charts/submissions/{target.pk}/phases.json").json()
    placed = bar_of(data, "ior-easy-write")["placement"]
    assert placed["comparable"] == {"percentile": 75.0, "rank": 2, "runs": 5, "label": "P75"}
    assert placed["node_range"] == {"percentile": 66.7, "rank": 2, "runs": 4, "label": "P66"}  # 10 to 99
    assert placed["ten_node"] == {"percentile": 100.0, "rank": 1, "runs": 3, "label": "P100"}
    alone = bar_of(data, "find")["placement"]
    assert alone["comparable"]["label"] is None
    assert alone["missing"]["comparable"] == "no other comparable run has a value for this phase"
    missing = bar_of(data, "mdtest-hard-stat")["placement"]
    assert (
        missing["comparable"] is None
        and missing["missing"]["ten_node"] == "the run has no value for this phase"
    )
    assert data["placement"]["node_range"] == "10 to 99 client nodes"
    assert list(data["placement"]["scopes"]) == ["comparable", "node_range", "ten_node"]
    assert [bar["phase"] for bar in data["phases"]] == list(SCORED_PHASES)


def test_the_unscored_random_read_is_placed_on_its_side_of_the_version_change(client):
    for value, version in ((50.0, "io500-isc25_v1"), (1.0, "io500-isc25_v2"), (2.0, "io500-sc25")):
        run_with({"ior-easy-write": 1.0}, nodes=10, version=version).results.get().phases.create(
            name="ior-rnd4K-easy-read", value=value, unit="GiB/s", scored=False
        )
    target = run_with({"ior-easy-write": 1.0}, nodes=10, version="io500-sc25-26")
    target.results.get().phases.create(name="ior-rnd4K-easy-read", value=3.0, unit="GiB/s", scored=False)
    unscored = client.get(f"/charts/submissions/{target.pk}/phases.json").json()["placement"]["unscored"]
    assert len(unscored) == 1
    # Two declared changes of the phase (io500-isc25_v2, io500-sc26): after the first, before the second.
    assert unscored[0]["comparable_with"].startswith(
        "standard-mode runs of io500-isc25_v2 and later versions of "
    ) and unscored[0]["comparable_with"].endswith("(before the change of io500-sc26)")
    # Ahead of both runs of the corrected versions; the isc25_v1 run's 50 is not comparable.
    assert unscored[0]["comparable"] == {"percentile": 100.0, "rank": 1, "runs": 3, "label": "P100"}


def test_the_snippet_has_the_switch_and_the_percentiles_as_a_table():
    run_with({"ior-easy-write": 1.0}, nodes=10)
    target = run_with({"ior-easy-write": 4.0}, nodes=10)
    template = engines["django"].from_string('{% include "frontend/charts/_submission_phases.html" %}')
    loaded = Submission.objects.select_related("release", "storage_system__institution").get(pk=target.pk)
    html = template.render({"submission": loaded})
    assert f'data-placement-switch="{target.pk}"' in html
    assert 'value="node_range"' in html and "runs on 10 to 99 client nodes" in html
    assert 'value="ten_node"' in html and " checked>" in html
    assert (
        '<td class="num" data-placement="comparable">P100 <small class="muted">rank 1 of 2</small></td>'
        in html
    )
    assert "the run has no value for this phase" in html
