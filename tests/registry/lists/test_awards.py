"""The awards of a list as io500.org gives them (registry.lists.awards, issue 25 item 7): overall,
bandwidth and metadata for each ranked list, to runs on at least 10 client nodes, shared on a tie."""

from __future__ import annotations

import pytest

from registry.lists.awards import AwardEntry, list_awards


def entry(pk: int, score: float, bw: float | None, md: float | None, nodes: int | None = 10) -> AwardEntry:
    return AwardEntry(
        submission_id=pk,
        rank=pk,
        system=f"S{pk}",
        institution=f"I{pk}",
        score=score,
        bw=bw,
        md=md,
        client_nodes=nodes,
    )


def winners(kind: str, entries: list[AwardEntry]) -> dict[str, list[int]]:
    return {
        award.category: [winner.submission_id for winner in award.winners]
        for award in list_awards(kind, entries)
    }


def test_each_award_goes_to_the_best_entry_by_its_own_metric() -> None:
    entries = [entry(1, 300.0, 50.0, 900.0), entry(2, 200.0, 80.0, 400.0), entry(3, 100.0, 10.0, 1000.0)]
    assert winners("research", entries) == {"overall": [1], "bandwidth": [2], "metadata": [3]}
    [overall, bandwidth, metadata] = list_awards("research", entries)
    assert (overall.value, bandwidth.value, metadata.value) == (300.0, 80.0, 1000.0)
    assert (bandwidth.label, bandwidth.unit) == ("Bandwidth", "GiB/s")


def test_entries_with_equal_values_share_the_award_in_rank_order() -> None:
    entries = [entry(1, 300.0, 80.0, 500.0), entry(2, 250.0, 80.0, 400.0), entry(3, 100.0, 10.0, 100.0)]
    [overall, bandwidth, _] = list_awards("production", entries)
    assert not overall.shared
    assert bandwidth.shared and [w.submission_id for w in bandwidth.winners] == [1, 2]


def test_runs_on_fewer_than_ten_client_nodes_win_no_award() -> None:
    # io500.org: "Only submissions using at least 10 physical client nodes are eligible to win".
    entries = [entry(1, 900.0, 900.0, 900.0, nodes=4), entry(2, 100.0, 10.0, 10.0, nodes=12)]
    assert winners("io500", entries) == {"overall": [2], "bandwidth": [2], "metadata": [2]}


def test_a_run_whose_node_count_is_unknown_stays_eligible() -> None:
    # io500.org's imported lists lack most node counts; it awarded those lists itself.
    entries = [entry(1, 900.0, 900.0, 900.0, nodes=None), entry(2, 100.0, 10.0, 10.0)]
    assert winners("ten-node", entries)["overall"] == [1]


def test_a_list_without_bandwidth_or_metadata_values_gets_the_overall_award_only() -> None:
    entries = [entry(1, 90.0, None, None), entry(2, 80.0, None, None)]
    assert winners("io500", entries) == {"overall": [1]}
    partial = [entry(1, 90.0, None, 5.0), entry(2, 80.0, 7.0, None)]
    assert winners("io500", partial) == {"overall": [1], "bandwidth": [2], "metadata": [1]}


@pytest.mark.parametrize(
    "kind", ["production", "research", "ten-node-production", "ten-node-research", "io500", "ten-node"]
)
def test_every_ranked_list_io500_org_awards_gets_three_awards(kind: str) -> None:
    assert len(list_awards(kind, [entry(1, 1.0, 1.0, 1.0)])) == 3


@pytest.mark.parametrize("kind", ["full", "historical", "scc"])
def test_full_historical_and_student_lists_carry_no_award(kind: str) -> None:
    assert list_awards(kind, [entry(1, 1.0, 1.0, 1.0)]) == ()


def test_an_empty_list_has_no_award() -> None:
    assert list_awards("research", []) == ()
