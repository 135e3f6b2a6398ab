"""Where a run stands: percentiles among the runs of its comparability class (mode, and the side of
every declared version change of the phase), optionally of its node range or on 10 nodes."""

from __future__ import annotations

import pytest

from submissions.placement.rules import (
    NODE_RANGES,
    Run,
    Scope,
    class_label,
    mode_class,
    node_range,
    phase_placement,
    run_placement,
    standing,
    version_class,
)

RND = "ior-rnd4K-easy-read"
EASY = "ior-easy-write"


def run(pk: int, value: float | None = None, *, phase: str = EASY, **fields: object) -> Run:
    values = {} if value is None else {phase: value}
    return Run(
        submission_id=pk,
        version=fields.get("version", "io500-sc23_v1"),  # type: ignore[arg-type]
        mode=fields.get("mode", "standard"),  # type: ignore[arg-type]
        nodes=fields.get("nodes", 10),  # type: ignore[arg-type]
        values=values,
    )


def test_the_percentile_is_the_share_of_the_other_runs_a_value_beats():
    assert standing(5.0, [1.0, 2.0, 3.0, 9.0]).percentile == 75.0
    assert standing(10.0, [1.0, 2.0]).percentile == 100.0
    assert standing(0.5, [1.0, 2.0]).percentile == 0.0
    found = standing(5.0, [1.0, 9.0, 7.0])
    assert (found.rank, found.runs) == (3, 4)


def test_ties_count_half():
    tied = standing(5.0, [5.0, 5.0, 1.0, 9.0])
    assert tied.percentile == 50.0  # 1 below, 2 equal: (1 + 1) / 4
    assert tied.rank == 2  # only 9 is ahead
    assert standing(5.0, [5.0]).percentile == 50.0


def test_a_run_alone_in_its_class_has_no_percentile():
    alone = standing(5.0, [])
    assert (alone.percentile, alone.rank, alone.runs) == (None, 1, 1)
    placed = phase_placement(run(1, 5.0), [run(1, 5.0)], EASY)  # the population holds only itself
    assert placed.standings[Scope.COMPARABLE] == alone
    assert placed.missing[Scope.COMPARABLE] == "no other comparable run has a value for this phase"


def test_a_run_is_never_compared_with_itself():
    population = [run(1, 5.0), run(2, 1.0), run(3, 9.0)]
    placed = phase_placement(population[0], population, EASY)
    assert placed.standings[Scope.COMPARABLE] == standing(5.0, [1.0, 9.0])


def test_runs_without_the_phase_are_left_out_and_a_run_without_it_has_no_placement():
    population = [run(1, 5.0), run(2, None), run(3, 1.0), run(4, 0.0)]  # 0: no measurement either
    placed = phase_placement(population[0], population, EASY)
    assert placed.standings[Scope.COMPARABLE] == standing(5.0, [1.0])
    missing = phase_placement(population[1], population, EASY)
    assert missing.value is None
    assert all(found is None for found in missing.standings.values())
    assert missing.missing[Scope.COMPARABLE] == "the run has no value for this phase"


def test_modes_are_classes_of_their_own_and_runs_before_the_modes_are_standard():
    assert mode_class("") == mode_class(None) == mode_class("standard") == "standard"
    assert mode_class("extended") == "extended"
    population = [run(1, 5.0), run(2, 1.0, mode=""), run(3, 9.0, mode="extended")]
    placed = phase_placement(population[0], population, EASY)
    assert placed.standings[Scope.COMPARABLE] == standing(5.0, [1.0])
    assert placed.comparability == "standard-mode runs"


def test_a_phase_whose_measurement_changed_is_compared_on_the_same_side_of_the_change_only():
    # io500-isc25_v2 changed ior-rnd4K-easy-read (IO500/io500 issue #109, fixtures/io500_versions.json),
    # and io500-sc26 changed it again (its call for submissions): one side per declared change.
    before, after, dev = ("before", "before"), ("after", "before"), ("", "")
    assert version_class(RND, "io500-isc25_v1") == before
    assert version_class(RND, "io500-sc25-26") == version_class(RND, "io500-isc25_v2") == after
    assert version_class(RND, "io500-sc24_v1-11-gc00ca177071b") == dev
    assert version_class(EASY, "io500-isc25_v1") == version_class(EASY, None) == ()
    population = [
        run(1, 5.0, phase=RND, version="io500-isc25_v1"),
        run(2, 1.0, phase=RND, version="io500-isc25_v1-3-gabcdef1"),
        run(3, 90.0, phase=RND, version="io500-isc25_v2"),
        run(4, 80.0, phase=RND, version="io500-sc25"),
        run(5, 70.0, phase=RND, version=None),
    ]
    old = phase_placement(population[0], population, RND)
    assert old.standings[Scope.COMPARABLE] == standing(5.0, [1.0])
    assert old.comparability.startswith(
        "standard-mode runs of io500-isc25_v1 (before the change of io500-isc25_v2) of "
    )
    new = phase_placement(population[3], population, RND)
    assert new.standings[Scope.COMPARABLE] == standing(80.0, [90.0])
    assert new.comparability.startswith("standard-mode runs of io500-isc25_v2 and later versions of ")
    assert new.comparability.endswith("(before the change of io500-sc26)")
    assert version_class(RND, "io500-sc26") == ("after", "after")
    unknown = phase_placement(population[4], population, RND)
    assert unknown.standings[Scope.COMPARABLE] == standing(70.0, [])  # alone on neither side
    assert "neither side of the change of io500-isc25_v2" in class_label(RND, None, "standard")


@pytest.mark.parametrize(
    ("nodes", "label"),
    [
        (1, "1 to 9 client nodes"),
        (10, "10 to 99 client nodes"),
        (512, "100 to 999 client nodes"),
        (2048, "1,000 or more client nodes"),
        (None, None),
        (0, None),
    ],
)
def test_node_ranges_are_orders_of_magnitude(nodes, label):
    found = node_range(nodes)
    assert (found.label if found else None) == label


def test_the_node_range_and_ten_node_switches_narrow_the_population():
    population = [
        run(1, 5.0, nodes=16),
        run(2, 1.0, nodes=10),
        run(3, 9.0, nodes=64),
        run(4, 2.0, nodes=4),
        run(5, 7.0, nodes=2048),
        run(6, 3.0, nodes=None),
    ]
    placed = phase_placement(population[0], population, EASY)
    assert placed.standings[Scope.COMPARABLE] == standing(5.0, [1.0, 9.0, 2.0, 7.0, 3.0])
    assert placed.standings[Scope.NODE_RANGE] == standing(5.0, [1.0, 9.0])  # 10 to 99 nodes
    assert placed.standings[Scope.TEN_NODE] == standing(5.0, [1.0])
    unknown = phase_placement(population[5], population, EASY)
    assert unknown.standings[Scope.NODE_RANGE] is None
    assert unknown.missing[Scope.NODE_RANGE] == "the run's client-node count is not known"


def test_a_placement_lists_the_scored_phases_and_the_unscored_ones_the_run_measured():
    target = Run(1, "io500-sc25", "standard", 10, {EASY: 3.0, RND: 4.0})
    placed = run_placement(target, [target, Run(2, "io500-sc25", "standard", 10, {EASY: 1.0, RND: 5.0})])
    phases = [row["phase"] for row in placed["phases"]]
    assert phases[0] == EASY and phases[-1] == RND and len(phases) == 13
    first = placed["phases"][0]
    assert first["comparable"] == {"percentile": 100.0, "rank": 1, "runs": 2}
    assert placed["node_range"] == "10 to 99 client nodes" and placed["mode"] == "standard"
    without = run_placement(Run(3, None, "", None, {EASY: 1.0}), [target])
    assert RND not in [row["phase"] for row in without["phases"]]


def test_every_node_count_from_one_up_has_a_range():
    assert all(node_range(n) is not None for n in (1, 9, 10, 99, 100, 999, 1000, 10**6))
    assert NODE_RANGES[0].low == 1
