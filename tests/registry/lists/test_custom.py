"""The custom ranking of a list's rows: weights and formulas are one mechanism; entries without a
value are ranked last and counted with the reason; the official rank is never touched."""

from __future__ import annotations

from typing import Any

import pytest

from registry.lists.custom import (
    CustomWeights,
    custom_apply,
    custom_ranking,
    parse_weights,
    sorted_by_custom,
)
from registry.lists.formula import parse_formula


def rows_of(*entries: tuple[int, float, float]) -> list[dict[str, Any]]:
    return [
        {"id": 100 + rank, "rank": rank, "score": (bw * md) ** 0.5, "bw": bw, "md": md, "client_nodes": 10}
        for rank, bw, md in entries
    ]


def test_weights_one_and_one_are_the_official_score():
    rows = rows_of((1, 4.0, 100.0), (2, 9.0, 16.0))
    custom_apply(rows, CustomWeights(bw=1, md=1).formula, {})
    assert [row["custom_score"] for row in rows] == pytest.approx([20.0, 12.0])
    assert [row["custom_rank"] for row in rows] == [1, 2]


def test_a_formula_over_phases_ranks_the_rows_and_keeps_the_official_rank():
    rows = rows_of((1, 4.0, 100.0), (2, 9.0, 16.0), (3, 1.0, 1.0))
    phases = {101: {"ior-easy-write": 2.0}, 102: {"ior-easy-write": 30.0}, 103: {"ior-easy-write": 5.0}}
    custom_apply(rows, parse_formula("ior_easy_write / nodes"), phases)
    ordered = sorted_by_custom(rows, "-custom")
    assert [(row["rank"], row["custom_rank"]) for row in ordered] == [(2, 1), (3, 2), (1, 3)]
    assert [row["custom_score"] for row in ordered] == pytest.approx([3.0, 0.5, 0.2])


def test_entries_without_a_value_come_last_unranked_and_are_counted_with_the_reason():
    rows = rows_of((1, 4.0, 100.0), (2, 9.0, 16.0), (3, 1.0, 1.0), (4, 2.0, 2.0))
    phases = {101: {"find": 4.0}, 103: {"find": 0.0}, 104: {"find": 8.0}}  # 102 has no find value
    outcome = custom_apply(rows, parse_formula("bw / find"), phases)
    assert [row["custom_rank"] for row in rows] == [1, None, None, 2]
    assert outcome.notes == [
        "1 entry without a custom score: a division by zero.",
        "1 entry without a custom score: no find value.",
    ]
    for ordering in ("-custom", "custom"):
        assert [row["rank"] for row in sorted_by_custom(rows, ordering)][-2:] == [2, 3]


def test_ties_keep_the_official_order():
    rows = rows_of((1, 5.0, 1.0), (2, 5.0, 9.0), (3, 7.0, 1.0))
    custom_apply(rows, parse_formula("bw"), {})
    assert [(row["rank"], row["custom_rank"]) for row in sorted_by_custom(rows, "-custom")] == [
        (3, 1),
        (1, 2),
        (2, 3),
    ]


def test_another_sort_leaves_the_order_alone():
    rows = rows_of((1, 5.0, 1.0), (2, 7.0, 9.0))
    custom_apply(rows, parse_formula("bw"), {})
    assert sorted_by_custom(rows, "-md") is rows
    assert [row["rank"] for row in sorted_by_custom(rows, "custom")] == [1, 2]


def test_a_formula_wins_over_weights_and_says_so():
    ranking = custom_ranking({"w_bw": "2", "w_md": "1", "formula": "bw*md"})
    assert ranking.active == parse_formula("bw * md")
    assert ranking.errors == (
        "The custom weights are not used: a formula is given, and the list is ranked by it.",
    )
    assert not ranking.canonical  # "bw*md" is not the spelling the site's links write
    assert custom_ranking({"formula": "bw * md"}).canonical


def test_a_formula_that_cannot_be_read_is_an_error_and_nothing_is_ranked():
    ranking = custom_ranking({"formula": "bw *"})
    assert ranking.active is None
    assert ranking.errors == (
        "The formula cannot be used. At character 5: the formula ends where a value is expected.",
    )
    assert not ranking.canonical


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"w_bw": "x"}, "must be numbers"),
        ({"w_bw": "-1", "w_md": "1"}, "between 0 and 100"),
        ({"w_bw": "0", "w_md": "0"}, "At least one custom weight"),
    ],
)
def test_bad_weights_say_why(params, message):
    ranking = custom_ranking(params)
    assert ranking.active is None
    assert message in ranking.errors[0]


def test_weights_give_the_formula_of_their_weighted_geometric_mean():
    weights = parse_weights({"w_bw": "2", "w_md": "1"})
    assert weights is not None
    assert weights.formula.text == "bw ^ 0.6666666666666666 * md ^ 0.3333333333333333"
