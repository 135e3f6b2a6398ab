"""The list rules on hand-made candidates: no database, every rule on its own."""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

from registry.lists.membership import (
    BaseList,
    Candidate,
    ListWindow,
    qualifies,
    rank_candidates,
    rank_with_duplicates,
)
from registry.models import ListKind
from submissions.models import Reproducibility

SC19 = datetime.date(2019, 11, 19)
ISC20 = datetime.date(2020, 7, 23)
SC20 = datetime.date(2020, 11, 18)
ISC23 = datetime.date(2023, 5, 23)
WINDOW = ListWindow(release_date=SC20, rules_from_date=SC19)


def candidate(submission_id: int, score: float | None, **overrides: Any) -> Candidate:
    base = Candidate(
        submission_id=submission_id,
        storage_system_id=submission_id,
        release_date=ISC20,
        score=score,
        bw=score,
        md=score,
        valid=True,
        client_nodes=32,
    )
    return replace(base, **overrides)


def ranked_ids(kind: str, candidates: list[Candidate], window: ListWindow = WINDOW) -> list[int]:
    return [item.candidate.submission_id for item in rank_candidates(kind, candidates, window)]


def test_it_keeps_only_the_best_submission_of_each_storage_system():
    entries = [
        candidate(1, 50.0, storage_system_id=7),
        candidate(2, 80.0, storage_system_id=7),
        candidate(3, 60.0, storage_system_id=8),
    ]
    assert ranked_ids(ListKind.IO500, entries) == [2, 3]


def test_the_full_list_keeps_every_valid_submission_of_a_system():
    entries = [candidate(1, 50.0, storage_system_id=7), candidate(2, 80.0, storage_system_id=7)]
    assert ranked_ids(ListKind.FULL, entries) == [2, 1]


def test_equal_scores_rank_the_earlier_release_then_the_lower_id_first():
    entries = [
        candidate(5, 10.0, release_date=SC20),
        candidate(9, 10.0, release_date=SC19),
        candidate(4, 10.0, release_date=SC20),
    ]
    ranked = rank_candidates(ListKind.FULL, entries, WINDOW)
    assert [(item.rank, item.candidate.submission_id) for item in ranked] == [(1, 9), (2, 4), (3, 5)]


def test_a_tie_inside_one_system_keeps_the_earlier_submission():
    entries = [candidate(12, 30.0, storage_system_id=1), candidate(11, 30.0, storage_system_id=1)]
    assert ranked_ids(ListKind.IO500, entries) == [11]


def test_ten_node_lists_need_exactly_ten_client_nodes():
    entries = [
        candidate(1, 90.0, client_nodes=9),
        candidate(2, 80.0, client_nodes=10),
        candidate(3, 70.0, client_nodes=11),
        candidate(4, 60.0, client_nodes=None),
    ]
    assert ranked_ids(ListKind.TEN_NODE, entries) == [2]
    assert ranked_ids(ListKind.IO500, entries) == [1, 2, 3, 4]


def test_the_ten_node_rule_applies_to_both_split_lists():
    window = ListWindow(release_date=ISC23, rules_from_date=SC19)
    entries = [
        candidate(1, 9.0, client_nodes=10, production=True, reproducibility=Reproducibility.FULLY),
        candidate(2, 8.0, client_nodes=10),
        candidate(3, 7.0, client_nodes=12, production=True, reproducibility=Reproducibility.FULLY),
    ]
    assert ranked_ids(ListKind.TEN_NODE_PRODUCTION, entries, window) == [1]
    assert ranked_ids(ListKind.TEN_NODE_RESEARCH, entries, window) == [2]
    assert ranked_ids(ListKind.PRODUCTION, entries, window) == [1, 3]
    assert ranked_ids(ListKind.RESEARCH, entries, window) == [2]


def test_ranked_lists_skip_invalid_and_opted_out_runs_and_scc_runs_have_their_own_list():
    entries = [
        candidate(1, 40.0, valid=False),
        candidate(2, 30.0, opted_in=False),
        candidate(3, 20.0, scc=True),
        candidate(4, 10.0),
    ]
    assert ranked_ids(ListKind.IO500, entries) == [4]
    assert ranked_ids(ListKind.FULL, entries) == [2, 4]
    assert ranked_ids(ListKind.SCC, entries) == [3]
    assert ranked_ids(ListKind.HISTORICAL, entries) == [1, 2, 4]


def test_results_older_than_the_rules_or_newer_than_the_release_stay_out():
    old = candidate(1, 99.0, release_date=datetime.date(2019, 6, 18))
    later = candidate(2, 98.0, release_date=datetime.date(2021, 7, 2))
    current = candidate(3, 10.0)
    assert ranked_ids(ListKind.FULL, [old, later, current]) == [3]
    assert ranked_ids(ListKind.HISTORICAL, [old, later, current]) == [1, 3]


def test_unscored_and_zero_score_runs_are_never_ranked():
    unscored = candidate(1, None)
    zero = candidate(2, 0.0)
    assert not qualifies(ListKind.HISTORICAL, unscored, WINDOW)
    assert not qualifies(ListKind.IO500, zero, WINDOW)
    assert qualifies(ListKind.FULL, zero, WINDOW)


def test_submissions_without_a_storage_system_are_each_their_own_entry():
    entries = [candidate(1, 5.0, storage_system_id=None), candidate(2, 4.0, storage_system_id=None)]
    assert ranked_ids(ListKind.IO500, entries) == [1, 2]


def test_ranks_run_from_one_without_gaps():
    entries = [candidate(index, float(index)) for index in range(1, 8)]
    assert [item.rank for item in rank_candidates(ListKind.IO500, entries, WINDOW)] == list(range(1, 8))


def test_withdrawn_duplicates_are_on_no_new_list():
    withdrawn = candidate(1, 50.0, withdrawn=True)
    assert ranked_ids(ListKind.HISTORICAL, [withdrawn, candidate(2, 1.0)]) == [2]


def test_ten_node_lists_need_no_opt_in_but_the_main_list_does():
    opted_out = candidate(1, 50.0, client_nodes=10, opted_in=False)
    assert ranked_ids(ListKind.TEN_NODE, [opted_out]) == [1]
    assert ranked_ids(ListKind.IO500, [opted_out]) == []


def test_the_bundled_runner_enters_only_the_lists_its_release_opened_for_it():
    run = candidate(1, 9.0, bundled_runner=True)
    official = candidate(2, 5.0)
    opened = ListWindow(
        release_date=SC20,
        rules_from_date=SC19,
        bundled_runner_kinds=frozenset({"historical", "full", "io500"}),
    )
    # By default (the release's rule as created): the Historical list only.
    assert ranked_ids("io500", [run, official]) == [2]
    assert ranked_ids("full", [run, official]) == [2]
    assert ranked_ids("historical", [run, official]) == [1, 2]
    assert ranked_ids("io500", [run, official], opened) == [1, 2]


# Missing evidence: scored phases without their raw outputs (checked from summaries only).
GAP: tuple[str, ...] = ("ior-easy-write", "mdtest-hard-write")
RANKED = [
    ListKind.IO500,
    ListKind.PRODUCTION,
    ListKind.RESEARCH,
    ListKind.TEN_NODE,
    ListKind.TEN_NODE_PRODUCTION,
    ListKind.TEN_NODE_RESEARCH,
]


def test_a_run_resting_on_summaries_enters_no_ranked_list():
    for kind in RANKED:
        production = kind in (ListKind.PRODUCTION, ListKind.TEN_NODE_PRODUCTION)
        complete = candidate(
            1, 50.0, client_nodes=10, production=production, reproducibility=Reproducibility.FULLY
        )
        assert qualifies(kind, complete, WINDOW), kind
        assert not qualifies(kind, replace(complete, summary_only=GAP), WINDOW), kind
    scc = candidate(1, 50.0, scc=True)
    assert qualifies(ListKind.SCC, scc, WINDOW)
    assert not qualifies(ListKind.SCC, replace(scc, summary_only=GAP), WINDOW)


def test_historical_and_full_keep_a_run_resting_on_summaries():
    gapped = candidate(1, 50.0, summary_only=GAP)
    assert qualifies(ListKind.HISTORICAL, gapped, WINDOW)
    assert qualifies(ListKind.FULL, gapped, WINDOW)


def test_a_committee_decision_naming_the_gap_lets_the_run_in():
    assert ranked_ids(ListKind.RESEARCH, [candidate(1, 50.0, gap_accepted=True, summary_only=GAP)]) == [1]


def test_a_run_left_out_for_its_evidence_does_not_hold_its_systems_place():
    entries = [
        candidate(1, 80.0, storage_system_id=7, summary_only=GAP),
        candidate(2, 50.0, storage_system_id=7),
    ]
    ranked = rank_with_duplicates(ListKind.RESEARCH, entries, WINDOW)
    assert [item.candidate.submission_id for item in ranked.entries] == [2]
    assert ranked.duplicates == []
    assert [c.submission_id for c in ranked.evidence_gaps] == [1]


def test_the_evidence_gaps_are_reported_only_for_runs_the_other_rules_admit():
    invalid = candidate(1, 80.0, valid=False, summary_only=GAP)
    ranked = rank_with_duplicates(ListKind.RESEARCH, [invalid], WINDOW)
    assert ranked.entries == [] and ranked.evidence_gaps == []


class TestEmbargo:
    BUILT = datetime.datetime(2020, 11, 18, 12, tzinfo=datetime.UTC)
    SC20_WINDOW = ListWindow(release_date=SC20, rules_from_date=SC19, release_id=20, built_at=BUILT)

    def embargoed(self, submission_id: int, score: float, **overrides: Any) -> Candidate:
        until = self.BUILT + datetime.timedelta(days=1)
        return candidate(submission_id, score, **{"release_id": 10, "embargo_end": until, **overrides})

    def test_a_run_of_another_release_under_embargo_is_on_no_list_and_is_reported(self) -> None:
        for kind in ListKind.values:
            # Each kind's own conditions met, so only the embargo can keep the run out.
            fits: dict[str, Any] = {"client_nodes": 10, "scc": kind == ListKind.SCC}
            if kind in (ListKind.PRODUCTION, ListKind.TEN_NODE_PRODUCTION):
                fits.update(production=True, reproducibility=Reproducibility.FULLY)
            held, listed = self.embargoed(1, 90.0, **fits), candidate(2, 50.0, release_id=10, **fits)
            built = rank_with_duplicates(kind, [held, listed], self.SC20_WINDOW)
            assert [e.candidate.submission_id for e in built.entries] == [2], kind
            assert [c.submission_id for c in built.embargoed] == [1], kind
            assert not qualifies(kind, held, self.SC20_WINDOW)

    def test_the_release_s_own_lists_take_its_embargoed_runs(self) -> None:
        own = self.embargoed(1, 90.0, release_id=20, release_date=SC20)
        built = rank_with_duplicates(ListKind.HISTORICAL, [own], self.SC20_WINDOW)
        assert [e.candidate.submission_id for e in built.entries] == [1]
        assert built.embargoed == []

    def test_an_embargo_ended_before_the_build_holds_nothing_back(self) -> None:
        ended = candidate(1, 90.0, release_id=10, embargo_end=self.BUILT - datetime.timedelta(seconds=1))
        assert ranked_ids(ListKind.IO500, [ended], self.SC20_WINDOW) == [1]

    def test_without_a_build_moment_every_embargo_counts_as_running(self) -> None:
        ended = candidate(
            1, 90.0, release_id=10, embargo_end=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
        )
        assert ranked_ids(ListKind.IO500, [ended], WINDOW) == []

    def test_an_embargoed_run_does_not_hold_its_system_s_place(self) -> None:
        # The system's older, public run stays listed; the embargoed better run does not displace it.
        older = candidate(2, 40.0, storage_system_id=7, release_id=5)
        built = rank_with_duplicates(
            ListKind.IO500, [self.embargoed(1, 90.0, storage_system_id=7), older], self.SC20_WINDOW
        )
        assert [e.candidate.submission_id for e in built.entries] == [2]
        assert built.duplicates == []


# Carry-over (docs/list-rules.md R1-R3): the previous list of the lineage plus the runs accepted since.
def carried(submission_id: int, score: float, rank: int, **overrides: Any) -> Candidate:
    return candidate(submission_id, score, release_date=SC19, carried_rank=rank, **overrides)


def base_of(*entries: Candidate) -> BaseList:
    return BaseList(entries=entries, since=SC19, snapshot_id=1, label="SC19")


def accepted(submission_id: int, score: float, **overrides: Any) -> Candidate:
    return candidate(submission_id, score, committee_accepted=True, **overrides)


def test_a_list_without_accepted_runs_is_its_base_with_the_scores_it_was_listed_with():
    base = base_of(carried(1, 30.0, 1), carried(2, 20.0, 2, storage_system_id=1))
    # Runs nobody accepted here, and a run of the base's own release, are not added.
    runs = [candidate(3, 99.0), accepted(4, 98.0, release_date=SC19)]
    built = rank_with_duplicates(ListKind.RESEARCH, runs, WINDOW, base)
    assert [(e.rank, e.candidate.submission_id, e.candidate.score) for e in built.entries] == [
        (1, 1, 30.0),
        (2, 2, 20.0),
    ]
    assert built.base == base and built.left_out == [] and built.duplicates == []


def test_carried_entries_of_one_system_are_not_merged_but_a_better_run_replaces_them():
    base = base_of(carried(1, 30.0, 1, storage_system_id=7), carried(2, 20.0, 2, storage_system_id=7))
    kept = rank_with_duplicates(ListKind.RESEARCH, [accepted(3, 25.0, storage_system_id=7)], WINDOW, base)
    assert [e.candidate.submission_id for e in kept.entries] == [1, 2]
    assert [(d.candidate.submission_id, d.kept_submission_id) for d in kept.duplicates] == [(3, 1)]
    better = rank_with_duplicates(ListKind.RESEARCH, [accepted(3, 35.0, storage_system_id=7)], WINDOW, base)
    assert [e.candidate.submission_id for e in better.entries] == [3]
    assert [(o.candidate.submission_id, o.rule, o.other) for o in better.left_out] == [
        (1, "replaced", 3),
        (2, "replaced", 3),
    ]


def test_equal_scores_keep_the_carried_order_before_a_new_run():
    base = base_of(carried(9, 10.0, 1), carried(2, 10.0, 2))
    built = rank_with_duplicates(ListKind.RESEARCH, [accepted(1, 10.0)], WINDOW, base)
    assert [e.candidate.submission_id for e in built.entries] == [9, 2, 1]


def test_a_ten_node_run_is_judged_by_the_nodes_its_outputs_show():
    runs = [
        accepted(1, 9.0, client_nodes=10, declared_nodes=12),
        accepted(2, 8.0, client_nodes=16, declared_nodes=10),
        accepted(3, 7.0, client_nodes=None, declared_nodes=10),
        accepted(4, 6.0, client_nodes=10, ten_node_asked=False),
    ]
    built = rank_with_duplicates(ListKind.TEN_NODE_RESEARCH, runs, WINDOW, base_of())
    assert [e.candidate.submission_id for e in built.entries] == [1]
    assert [(o.candidate.submission_id, o.rule) for o in built.left_out] == [
        (2, "nodes"),
        (3, "nodes-unknown"),
    ]


def test_a_carried_entry_of_a_release_under_embargo_is_held_back():
    window = replace(WINDOW, release_id=2, built_at=datetime.datetime(2020, 11, 1, tzinfo=datetime.UTC))
    hidden = carried(1, 30.0, 1, release_id=1, embargo_end=datetime.datetime(2021, 1, 1, tzinfo=datetime.UTC))
    built = rank_with_duplicates(ListKind.RESEARCH, [], window, base_of(hidden, carried(2, 5.0, 2)))
    assert [e.candidate.submission_id for e in built.entries] == [2]
    assert [c.submission_id for c in built.embargoed] == [1]


def test_the_full_and_historical_lists_carry_nothing_over():
    built = rank_with_duplicates(ListKind.FULL, [candidate(3, 5.0)], WINDOW, base_of(carried(1, 30.0, 1)))
    assert [e.candidate.submission_id for e in built.entries] == [3] and built.base is None
