"""find: matched files and the rate its counts and runtime allow."""

from __future__ import annotations

from scoring.model import Era, RawOutput, RunResult, Severity
from scoring.rules.find import find_rules
from tests.scoring.run_builders import FIND_TOTAL_FILES, FIND_VALUES, make_phase, make_run


def find_run(value: float, era: Era = Era.C_SC21, **values: str) -> RunResult:
    phase = make_phase("find", value=value, values={**FIND_VALUES, **values})
    return make_run(era=era, phases={"find": phase})


def test_a_rate_that_follows_from_the_counts_passes() -> None:
    # 46390401 files / 32.351267 s of pfind runtime = 1433.959342 kIOPS; the wall time is 32.3657 s.
    assert find_rules(find_run(1433.959342)) == []


def test_it_rejects_a_find_that_matched_nothing() -> None:
    findings = find_rules(find_run(1433.959342, found="0"))
    assert [(f.code, f.severity) for f in findings] == [("find-nothing-found", Severity.ERROR)]


def test_the_shell_script_accepted_zero_matches_so_it_is_a_warning() -> None:
    raw = RawOutput(tool="pfind", file="io-500-summary", items=4_500_486, found=0, time_s=18.6121)
    phase = make_phase("find", value=241.8, values={}, raw=raw, time_s=18.61)
    findings = find_rules(make_run(era=Era.SHELL, phases={"find": phase}))
    assert [(f.code, f.severity) for f in findings] == [("find-zero-matches-shell", Severity.WARNING)]


def test_without_pfind_runtime_a_rate_above_the_wall_time_bound_is_not_an_error() -> None:
    # pfind may spend any part of the phase outside its own timer (over a minute at tens of
    # thousands of ranks), so the wall time bounds the rate from below only; the missing find.csv
    # is the evidence rule's warning, not a rate error.
    assert find_rules(find_run(1500.0)) == []
    assert find_rules(find_run(6000.0)) == []


def test_without_pfind_runtime_a_rate_below_the_counts_over_the_wall_time_is_rejected() -> None:
    findings = find_rules(find_run(1400.0))
    assert [f.code for f in findings] == ["find-rate-mismatch"]
    assert f"{FIND_TOTAL_FILES}" in findings[0].message


def test_a_too_low_rate_is_also_a_mismatch() -> None:
    assert [f.code for f in find_rules(find_run(1300.0))] == ["find-rate-mismatch"]


def test_with_the_pfind_runtime_the_check_is_tight() -> None:
    raw = RawOutput(tool="pfind", file="find.csv", items=FIND_TOTAL_FILES, found=83937, time_s=32.351267)
    exact = make_phase("find", value=1433.959342, raw=raw)
    assert find_rules(make_run(phases={"find": exact})) == []
    off = make_phase("find", value=1434.5, raw=raw)
    assert [f.code for f in find_rules(make_run(phases={"find": off}))] == ["find-rate-mismatch"]


def test_the_shell_bc_truncation_to_two_decimals_is_accepted() -> None:
    # 21319551 files in 4843.8494 s are 4.40136 kIOPS; bc scale=2 printed 4.40.
    raw = RawOutput(tool="pfind", file="io-500-summary", items=21_319_551, found=15581, time_s=4843.8494)
    phase = make_phase("find", value=4.4, values={}, raw=raw, time_s=4843.85)
    assert find_rules(make_run(era=Era.SHELL, phases={"find": phase})) == []
