"""The changes between two versions of a list (registry.lists.diff): pure, no database."""

from __future__ import annotations

from registry.lists.diff import NO_LONGER_QUALIFIES, DiffEntry, diff_lines, list_diff


def entry(pk: int, rank: int, score: float, system: int | None = None, release: str = "SC40") -> DiffEntry:
    return DiffEntry(
        submission_id=pk,
        rank=rank,
        score=score,
        system_id=system if system is not None else pk * 10,
        name=f"S{pk}",
        release=release,
    )


BEFORE = [entry(1, 1, 90.0), entry(2, 2, 80.0), entry(3, 3, 70.0)]


def test_the_same_entries_at_the_same_ranks_and_scores_are_no_change() -> None:
    diff = list_diff(BEFORE, list(BEFORE), previous_label="SC40 Research")
    assert diff.unchanged
    assert (diff.added, diff.removed, diff.reranked, diff.new_systems) == ((), (), (), ())
    assert diff.new_top is None
    assert "No change" in diff_lines(diff)[1]


def test_entries_given_in_any_order_are_compared_by_rank() -> None:
    assert list_diff(BEFORE, list(reversed(BEFORE))).unchanged


def test_a_changed_score_alone_is_a_change() -> None:
    after = [entry(1, 1, 90.0), entry(2, 2, 81.5), entry(3, 3, 70.0)]
    diff = list_diff(BEFORE, after)
    assert not diff.unchanged
    assert [(r.entry.submission_id, r.score_before) for r in diff.rescored] == [(2, 80.0)]
    assert diff.moved == ()


def test_float_noise_in_a_score_is_no_change() -> None:
    after = [entry(1, 1, 90.0 + 1e-12), entry(2, 2, 80.0), entry(3, 3, 70.0)]
    assert list_diff(BEFORE, after).unchanged


def test_a_removed_entry_carries_the_reason_the_caller_knows() -> None:
    after = [entry(1, 1, 90.0), entry(3, 2, 70.0)]
    diff = list_diff(BEFORE, after, removed_reasons={2: "excluded from the research lists: wrong release"})
    assert [(c.entry.submission_id, c.reason) for c in diff.removed] == [
        (2, "excluded from the research lists: wrong release")
    ]
    # 3 moves up a place only because 2 left: it passed nobody, so it is not re-ranked.
    assert diff.reranked == ()


def test_an_entry_passing_another_is_re_ranked_but_one_pushed_down_by_a_newcomer_is_not() -> None:
    after = [entry(9, 1, 99.0), entry(2, 2, 95.0), entry(1, 3, 90.0), entry(3, 4, 70.0)]
    diff = list_diff(BEFORE, after)
    assert [(r.entry.submission_id, r.rank_before, r.entry.rank) for r in diff.moved] == [
        (2, 2, 2),
        (1, 1, 3),
    ]
    assert [r.places_up for r in diff.moved] == [0, -2]
    assert 3 not in {r.entry.submission_id for r in diff.reranked}


def test_a_removed_entry_with_no_known_reason_no_longer_qualifies() -> None:
    diff = list_diff(BEFORE, BEFORE[:2])
    assert [c.reason for c in diff.removed] == [NO_LONGER_QUALIFIES]


def test_a_removal_nothing_explains_says_what_the_caller_asks() -> None:
    diff = list_diff(BEFORE, BEFORE[:2], unexplained="io500.org records no reason")
    assert [c.reason for c in diff.removed] == ["io500.org records no reason"]


def test_a_lower_scoring_replacement_of_a_systems_entry_is_not_called_better() -> None:
    rescored = entry(4, 3, 60.0, system=30)  # the system of submission 3, re-scored lower
    diff = list_diff(BEFORE, [entry(1, 1, 90.0), entry(2, 2, 80.0), rescored])
    assert (
        diff.removed[0].reason
        == "replaced by another run of the same storage system: submission 4 (70.00 -> 60.00)"
    )
    assert diff.added[0].reason.startswith("another run of the same storage system, replacing submission 3")


def test_a_new_run_of_the_leading_system_is_no_new_leader() -> None:
    diff = list_diff(BEFORE, [entry(4, 1, 99.0, system=10), entry(2, 2, 80.0), entry(3, 3, 70.0)])
    assert diff.new_top is None


def test_a_better_run_of_the_same_system_supersedes_the_old_entry_and_is_no_new_system() -> None:
    better = entry(4, 1, 95.0, system=30, release="ISC41")  # system of submission 3
    after = [better, entry(1, 2, 90.0), entry(2, 3, 80.0)]
    diff = list_diff(BEFORE, after, release="ISC41")
    assert [c.entry.submission_id for c in diff.removed] == [3]
    assert "superseded by a better run of the same storage system: submission 4" in diff.removed[0].reason
    assert "replacing submission 3" in diff.added[0].reason
    assert diff.new_systems == ()
    assert diff.new_top == better
    assert diff.previous_top == BEFORE[0]


def test_a_new_run_of_the_release_is_accepted_for_it_and_a_new_system() -> None:
    newcomer = entry(5, 4, 60.0, release="ISC41")
    diff = list_diff(BEFORE, [*BEFORE, newcomer], release="ISC41")
    assert [(c.entry.submission_id, c.reason) for c in diff.added] == [(5, "accepted for ISC41")]
    assert diff.new_systems == (newcomer,)
    assert diff.new_top is None


def test_an_older_run_coming_back_says_which_release_it_is_from() -> None:
    old = entry(6, 4, 50.0, release="SC39")
    diff = list_diff(BEFORE, [*BEFORE, old], release="ISC41")
    assert diff.added[0].reason == "a run of SC39 not on the previous list"


def test_a_reason_given_for_an_addition_wins_over_what_the_entries_show() -> None:
    moved = entry(7, 4, 50.0, release="ISC41")
    diff = list_diff(BEFORE, [*BEFORE, moved], release="ISC41", added_reasons={7: "moved from SC40 to ISC41"})
    assert diff.added[0].reason == "moved from SC40 to ISC41"


def test_entries_without_a_storage_system_are_their_own_identity() -> None:
    a = DiffEntry(submission_id=1, rank=1, score=10.0)
    b = DiffEntry(submission_id=2, rank=1, score=11.0)
    diff = list_diff([a], [b])
    assert diff.removed[0].reason == NO_LONGER_QUALIFIES
    assert diff.new_systems == (b,)


def test_from_an_empty_list_everything_is_added_and_there_is_no_new_top() -> None:
    diff = list_diff([], BEFORE, release="SC40")
    assert len(diff.added) == 3
    assert diff.new_top is None


def test_the_plain_lines_name_every_change() -> None:
    after = [entry(3, 1, 95.0), entry(1, 2, 90.0), entry(8, 3, 20.0)]
    text = "\n".join(
        diff_lines(list_diff(BEFORE, after, previous_label="SC40 Research", removed_reasons={2: "withdrawn"}))
    )
    assert (
        "Changes since SC40 Research (the previous release's list): 1 added, 1 removed, 2 re-ranked, "
        "1 rescored, 1 new system(s)." in text
    )
    assert "New #1: submission 3" in text
    assert "- (was #2) submission 2 S2: withdrawn" in text
    assert "+ #3 submission 8 S8" in text
    assert "score 70.00 -> 95.00" in text
