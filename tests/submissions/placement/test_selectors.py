"""The population runs are placed among (public, not invalid, cached per chart generation) and the
placement in the submission API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from registry.core.generations import charts_invalidate
from scoring.model import SCORED_PHASES
from submissions.models import Submission
from submissions.placement.selectors import placement_population, submission_placement_by_id
from tests.factories import add_phases, make_result, make_submission, make_system_description

pytestmark = pytest.mark.django_db

EASY = "ior-easy-write"


def measured(value: float, *, nodes: int | None = 10, **fields: Any) -> Submission:
    submission = make_submission(**fields)
    if nodes is not None:
        make_system_description(submission=submission, client_nodes=nodes)
    add_phases(make_result(submission=submission), {EASY: value, "find": value * 10})
    return submission


def phase_of(placement: dict[str, Any] | None, phase: str = EASY) -> dict[str, Any]:
    assert placement is not None
    return next(row for row in placement["phases"] if row["phase"] == phase)


def test_the_population_is_every_public_run_the_registry_did_not_find_invalid():
    public = measured(5.0)
    invalid = measured(50.0, valid=False, status=Submission.Status.INVALID)
    owner = User.objects.create_user("owner", password="pw-for-tests-only")
    draft = measured(500.0, source=Submission.Source.UPLOAD, submitter=owner)
    assert set(placement_population()) == {public.pk}
    # An invalid run and an unpublished upload are still placed among the public runs...
    assert phase_of(submission_placement_by_id(submission_id=draft.pk))["comparable"] == {
        "percentile": 100.0,
        "rank": 1,
        "runs": 2,
    }
    assert phase_of(submission_placement_by_id(submission_id=invalid.pk))["comparable"]["runs"] == 2
    # ...but nobody else is compared with them.
    alone = phase_of(submission_placement_by_id(submission_id=public.pk))
    assert alone["comparable"] == {"percentile": None, "rank": 1, "runs": 1}
    assert alone["missing"]["comparable"] == "no other comparable run has a value for this phase"


def test_history_without_raw_files_is_placed_by_the_values_io500_org_published():
    recorded = make_submission(
        status=Submission.Status.RECORDED, published_record={"ior_easy_write": "7.5", "find_mixed": 30}
    )
    measured(5.0)
    placement = submission_placement_by_id(submission_id=recorded.pk)
    assert phase_of(placement)["value"] == 7.5
    assert phase_of(placement, "find")["comparable"]["percentile"] == 0.0  # 30 against 50
    assert phase_of(placement)["node_range"] is None  # no node count is known for it
    assert phase_of(placement)["missing"]["node_range"] == "the run's client-node count is not known"


def test_the_population_costs_a_fixed_number_of_queries_and_is_kept_until_the_lists_change(
    django_assert_max_num_queries, django_assert_num_queries
):
    for value in range(1, 40):
        measured(float(value), nodes=value)
    make_submission(status=Submission.Status.RECORDED, published_record={"ior_easy_write": 3})
    with django_assert_max_num_queries(4):
        population = placement_population()
    assert len(population) == 40
    with django_assert_num_queries(0):
        assert placement_population() == population
    newcomer = measured(100.0)
    assert newcomer.pk not in placement_population()  # kept until a publish or an import
    charts_invalidate()
    assert newcomer.pk in placement_population()


def test_the_submission_api_gives_the_same_placement_as_the_chart(client):
    for value in (1.0, 2.0, 3.0, 4.0):
        measured(value, nodes=int(value) * 8)
    target = measured(2.5, nodes=16)
    body = client.get(f"/api/v1/submissions/{target.pk}/").json()
    placement = body["placement"]
    assert placement == submission_placement_by_id(submission_id=target.pk)
    easy = phase_of(placement)
    assert easy["comparable"] == {"percentile": 50.0, "rank": 3, "runs": 5}
    assert easy["node_range"] == {"percentile": 33.3, "rank": 3, "runs": 4}  # 16, 24, 32 nodes
    assert easy["ten_node"] == {"percentile": None, "rank": 1, "runs": 1}
    assert easy["comparable_with"] == "standard-mode runs"
    assert placement["node_range"] == "10 to 99 client nodes"
    assert [row["phase"] for row in placement["phases"]] == list(SCORED_PHASES)
    assert (
        phase_of(placement, "mdtest-hard-stat")["missing"]["comparable"]
        == "the run has no value for this phase"
    )


def test_the_api_schema_describes_the_placement(client):
    schema = client.get("/api/schema/").content.decode()
    assert "PhasePlacement" in schema and "comparable_with" in schema


def test_the_population_is_computed_without_a_cache_that_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache
    from redis.exceptions import ConnectionError as RedisConnectionError

    from submissions.placement import selectors

    def down(*args: object, **kwargs: object) -> None:
        raise RedisConnectionError("Error 111 connecting to the cache. Connection refused.")

    submission = make_submission(bw=10.0, md=10.0)
    add_phases(make_result(submission=submission), dict.fromkeys(SCORED_PHASES, 1.0))
    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert submission.pk in selectors.placement_population()
