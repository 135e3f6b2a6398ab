"""The audit draw is reproducible from its recorded seed and candidates, by the documented algorithm."""

from __future__ import annotations

import math
import random

from submissions.audits.draw import (
    ALGORITHM,
    auditable_phases,
    draw,
    drawn_count,
    phase_of,
    within_tolerance,
)


def _documented(candidates: list[int], seed: str, share: float) -> list[int]:
    # docs/audits.md, recomputed here without the module: sorted ids, ceil of the share, at least one.
    ordered = sorted(candidates)
    count = min(len(ordered), max(1, math.ceil(len(ordered) * share / 100))) if ordered else 0
    return random.Random(seed).sample(ordered, count)


def test_the_same_seed_draws_the_same_submissions_whatever_order_the_candidates_come_in() -> None:
    candidates = list(range(3, 140, 7))
    first = draw(candidates, "5f1c0ffee", 10.0)
    again = draw(list(reversed(candidates)), "5f1c0ffee", 10.0)
    assert first == again
    assert len(first) == 2  # ceil(20 * 10 %) of 20 candidates


def test_the_draw_is_the_documented_algorithm_recomputed_independently() -> None:
    for seed in ("a", "seed-2", "0123456789abcdef"):
        for share in (1.0, 10.0, 33.3, 100.0):
            candidates = [11, 5, 99, 42, 7, 8, 1000, 13]
            assert draw(candidates, seed, share) == _documented(candidates, seed, share)
    assert ALGORITHM.startswith("sorted-ids+random.Random(seed).sample")


def test_another_seed_draws_otherwise() -> None:
    candidates = list(range(1, 101))
    draws = {tuple(draw(candidates, f"seed-{n}", 10.0)) for n in range(5)}
    assert len(draws) == 5


def test_at_least_one_is_drawn_when_any_submission_exists_and_none_of_none() -> None:
    assert drawn_count(1, 10.0) == 1
    assert drawn_count(9, 10.0) == 1
    assert drawn_count(11, 10.0) == 2
    assert drawn_count(0, 10.0) == 0
    assert draw([], "s", 10.0) == []


def test_the_phase_is_drawn_from_the_seed_and_the_submission_among_the_runs_phases() -> None:
    phases = ["mdtest-easy-write", "ior-easy-write", "find"]
    chosen = phase_of("seed", 17, phases)
    assert chosen == random.Random("seed:17").choice(sorted(phases))
    assert phase_of("seed", 17, list(reversed(phases))) == chosen
    assert phase_of("seed", 17, []) is None


def test_the_tolerance_keeps_15_percent_and_refuses_just_beyond() -> None:
    assert within_tolerance(100.0, 115.0)
    assert within_tolerance(100.0, 85.0)
    assert not within_tolerance(100.0, 115.01)
    assert not within_tolerance(100.0, 84.99)
    assert within_tolerance(3.7, 3.7)


def test_only_scored_phases_with_a_value_above_zero_can_be_drawn() -> None:
    # The readers keep a dummy "timestamp" phase at 0 and extended phases beside the scored ones:
    # a re-run confirms neither, nor a phase the run left at zero.
    phases = {
        "timestamp": (0.0, ""),
        "find": (0.0, "kIOPS"),
        "ior-rnd4K-easy-read": (3.0, "GiB/s"),
        "ior-easy-write": (1.2, "GiB/s"),
        "mdtest-hard-stat": (40.5, "kIOPS"),
    }
    assert auditable_phases(phases) == ["ior-easy-write", "mdtest-hard-stat"]
    chosen = {phase_of(f"seed-{n}", 17, auditable_phases(phases)) for n in range(200)}
    assert chosen == {"ior-easy-write", "mdtest-hard-stat"}
