"""The list rules of docs/list-rules.md, as benchmarks/list_rules.py applies them to io500.org's lists."""

from __future__ import annotations

from pathlib import Path

from benchmarks import list_rules
from benchmarks.list_rules import Entry
from tests.support.data import data_root

DOC = Path(__file__).resolve().parents[2] / "docs" / "list-rules.md"


def entry(institution: str, system: str, fs: str, score: float) -> Entry:
    ident = (institution, system, fs)
    return Entry("|".join((*ident, f"{score:.6g}")), ident, score)


def test_a_release_without_new_runs_rebuilds_the_previous_list_entry_for_entry():
    previous = [entry("a", "x", "lustre", 30.0), entry("b", "y", "daos", 20.0), entry("c", "z", "gpfs", 10.0)]
    lists = {"SC23": previous, "ISC24": list(previous)}

    comparison = list_rules.rebuild_plotted("ISC24", "SC23", lists)

    assert [e.key for e in comparison.rebuilt] == [e.key for e in previous]
    assert list_rules.identical(comparison)


def test_a_system_keeps_its_highest_score_not_its_latest_run():
    older_best = Entry("1", ("inst", "sys", "lustre"), 50.0)
    newer_lower = Entry("2", ("inst", "sys", "lustre"), 40.0)
    other_fs = Entry("3", ("inst", "sys", "daos"), 45.0)

    kept = list_rules.best_per_system([older_best, newer_lower, other_fs])

    assert [e.key for e in kept] == ["1", "3"]


def test_a_carried_entry_missing_from_the_official_list_is_reported_with_its_renamed_successor():
    old = entry("argonne national laboratory", "aurora storage", "daos", 20694.5)
    renamed = entry("argonne national laboratory", "aurora", "daos", 43218.8)
    lists = {"ISC23": [old], "SC23": [renamed]}

    comparison = list_rules.rebuild_plotted("SC23", "ISC23", lists)

    assert [(e.key, why.split(":")[0]) for e, why in comparison.extra] == [(old.key, "renamed")]


def test_the_agreement_figures_in_the_docs_are_the_ones_the_benchmark_computes():
    lists_dir = data_root() / "lists"
    sql = list_rules.SqlData(lists_dir)
    sql_comparisons = [
        list_rules.rebuild_sql(sql, release, kind, list_rules.ident_full)
        for kind in list_rules.TYPES
        for release in sql.order
        if (release, kind) in sql.lists
    ]
    order, plotted = list_rules.plotted_lists(lists_dir)
    plotted_comparisons = [
        list_rules.rebuild_plotted(
            r, None if i == 0 or r in list_rules.RESET_RELEASES else order[i - 1], plotted
        )
        for i, r in enumerate(order)
    ]
    doc = DOC.read_text(encoding="utf-8")

    for comparisons in (sql_comparisons, plotted_comparisons):
        official = sum(len(c.official) for c in comparisons)
        same = sum(len(c.official) - len(c.missing) for c in comparisons)
        rank = sum(c.same_rank for c in comparisons)
        same_share, rank_share = 100 * same / official, 100 * rank / official
        row = f"| **{official}** | | **{same} ({same_share:.1f} %)** | **{rank} ({rank_share:.1f} %)** |"
        assert row in doc, row
        # Every entry on both lists is in io500.org's order: the ranking rule itself is exact.
        assert sum(c.same_order for c in comparisons) == same
    assert "Identical lists: SC17, SC19, ISC20, SC22." in doc
    assert [c.label.split()[0] for c in plotted_comparisons if list_rules.identical(c)] == [
        "SC17",
        "SC19",
        "ISC20",
        "SC22",
    ]
