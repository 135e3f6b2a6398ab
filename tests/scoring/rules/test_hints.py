"""Reviewer hints: cached reads and straggling ranks."""

from __future__ import annotations

from scoring.model import RankRow, RawOutput, Severity
from scoring.rules.hints import hint_rules
from tests.scoring.run_builders import make_phase, make_run


def test_ordinary_read_and_write_rates_raise_nothing() -> None:
    assert hint_rules(make_run()) == []


def test_an_easy_read_far_faster_than_its_write_looks_cached() -> None:
    run = make_run(phases={"ior-easy-read": make_phase("ior-easy-read", value=70.0)})
    findings = hint_rules(run)
    assert [(f.code, f.phase, f.severity) for f in findings] == [
        ("read-after-write-cached", "ior-easy-read", Severity.WARNING)
    ]


def test_a_hard_read_is_compared_with_the_easy_read_not_its_slow_write() -> None:
    # ior-hard writes are slow for locking reasons: 10x faster reads are normal.
    assert hint_rules(make_run(phases={"ior-hard-read": make_phase("ior-hard-read", value=10.0)})) == []
    cached = make_run(phases={"ior-hard-read": make_phase("ior-hard-read", value=40.0)})
    assert [f.code for f in hint_rules(cached)] == ["read-after-write-cached"]


def test_more_than_a_node_can_receive_looks_cached() -> None:
    raw = RawOutput(tool="ior", file="ior-easy-read.txt", nodes=2)
    run = make_run(phases={"ior-easy-read": make_phase("ior-easy-read", value=60.0, raw=raw)})
    run.phases["ior-easy-write"] = make_phase("ior-easy-write", value=50.0)
    run.nodes = 2
    assert hint_rules(run) == []
    run.phases["ior-easy-read"] = make_phase("ior-easy-read", value=450.0, raw=raw)
    run.phases["ior-easy-write"] = make_phase("ior-easy-write", value=400.0)
    assert [f.code for f in hint_rules(run)] == ["read-beyond-nodes"]


def test_it_names_the_slowest_straggling_rank() -> None:
    ranks = tuple(RankRow(rank=r, time_s=100.0 + r % 3, rate=1.0) for r in range(16))
    ranks += (RankRow(rank=16, time_s=450.0, rate=0.2),)
    run = make_run(phases={"mdtest-easy-stat": make_phase("mdtest-easy-stat", ranks=ranks)})
    findings = hint_rules(run)
    assert [f.code for f in findings] == ["rank-straggler"]
    assert "rank 16" in findings[0].message and "1 of 17" in findings[0].message


def test_short_phases_with_a_few_seconds_of_jitter_stay_quiet() -> None:
    ranks = (
        *(RankRow(rank=r, time_s=5.0, rate=1.0) for r in range(8)),
        RankRow(rank=8, time_s=20.0, rate=1.0),
    )
    assert hint_rules(make_run(phases={"find": make_phase("find", ranks=ranks)})) == []
