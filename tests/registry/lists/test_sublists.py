"""Sublists: ranks renumbered among the matching entries in the official order, and statistics of
their own."""

from __future__ import annotations

from typing import Any

import pytest

from registry.lists.sublists import SHARE_TOP, sublist_rank, sublist_statistics


def row(rank: int | None, **fields: Any) -> dict[str, Any]:
    return {"rank": rank, "score": 10.0, "bw": 4.0, "md": 25.0, "client_nodes": 10, **fields}


def test_sublist_ranks_follow_the_official_order_whatever_the_sort():
    rows = [row(9), row(2), row(30), row(5)]  # sorted by some column, not by rank
    sublist_rank(rows)
    assert [(r["rank"], r["sublist_rank"]) for r in rows] == [(9, 3), (2, 1), (30, 4), (5, 2)]


def test_entries_sharing_an_official_rank_share_their_sublist_rank():
    rows = [row(3), row(3), row(7), row(None)]
    sublist_rank(rows)
    assert [r["sublist_rank"] for r in rows] == [1, 1, 3, 4]


def test_statistics_give_the_spread_of_each_metric_and_the_shares():
    rows = [
        row(1, score=100.0, bw=10.0, md=1000.0, filesystem="Lustre", storage_vendor="DDN", client_nodes=100),
        row(2, score=10.0, bw=1.0, md=100.0, filesystem="Lustre", storage_vendor="", client_nodes=None),
        row(3, score=1.0, bw=None, md=10.0, filesystem="DAOS", storage_vendor="Intel", client_nodes=10),
    ]
    stats = sublist_statistics(rows)
    assert stats["entries"] == 3
    score, bw, md = stats["metrics"]
    assert (score["best"], score["median"], score["lowest"]) == (100.0, 10.0, 1.0)
    assert score["geometric_mean"] == pytest.approx(10.0)
    assert (bw["count"], bw["median"]) == (2, 5.5)  # an entry without a value is left out
    assert md["geometric_mean"] == pytest.approx(100.0)
    assert stats["client_nodes"] == {"known": 2, "lowest": 10, "median": 55, "highest": 100}
    shares = {share["key"]: share["items"] for share in stats["shares"]}
    assert shares["filesystem"] == [
        {"name": "Lustre", "count": 2, "percent": 66.7},
        {"name": "DAOS", "count": 1, "percent": 33.3},
    ]
    assert {"name": "(not stated)", "count": 1, "percent": 33.3} in shares["storage_vendor"]


def test_beyond_the_top_names_a_share_says_how_many_others():
    rows = [row(n, filesystem=f"fs{n}") for n in range(SHARE_TOP + 3)]
    items = sublist_statistics(rows)["shares"][0]["items"]
    assert len(items) == SHARE_TOP + 1
    assert items[-1]["name"] == "3 other" and items[-1]["count"] == 3


def test_an_empty_sublist_has_no_metric_values():
    stats = sublist_statistics([])
    assert stats["entries"] == 0 and all(metric["count"] == 0 for metric in stats["metrics"])
    assert stats["client_nodes"]["median"] is None and stats["shares"] == []
