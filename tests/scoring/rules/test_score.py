"""Score recomputation: geometric means, zero handling per era, printed-precision tolerance."""

from __future__ import annotations

import dataclasses
import math
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.means import bounded_mean, claimed_error, geometric_mean, significant_error
from scoring.model import Era, Finding, Score, Severity
from scoring.rules.score import check_score, compute_score
from tests.scoring.run_builders import make_phase, make_run

positive = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)
value_lists = st.lists(positive, min_size=1, max_size=12)


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


@given(value_lists, st.randoms())
def test_geometric_mean_does_not_depend_on_order(values: list[float], random: Random) -> None:
    shuffled = list(values)
    random.shuffle(shuffled)
    a = geometric_mean(values, skip_nonpositive=False)
    assert math.isclose(a, geometric_mean(shuffled, skip_nonpositive=False), rel_tol=1e-12)


@given(value_lists, st.floats(min_value=1e-3, max_value=1e3))
def test_geometric_mean_scales_with_its_values(values: list[float], factor: float) -> None:
    scaled = geometric_mean([v * factor for v in values], skip_nonpositive=False)
    assert math.isclose(scaled, factor * geometric_mean(values, skip_nonpositive=False), rel_tol=1e-9)


@given(value_lists)
def test_geometric_mean_lies_between_min_and_max(values: list[float]) -> None:
    mean = geometric_mean(values, skip_nonpositive=False)
    assert min(values) * (1 - 1e-12) <= mean <= max(values) * (1 + 1e-12)


@given(value_lists, st.integers(min_value=0, max_value=11))
def test_a_zero_makes_the_group_zero_before_sc21(values: list[float], where: int) -> None:
    values.insert(min(where, len(values)), 0.0)
    assert geometric_mean(values, skip_nonpositive=False) == 0.0


@given(value_lists, st.integers(min_value=0, max_value=11))
def test_from_sc21_on_a_zero_is_left_out_of_the_mean(values: list[float], where: int) -> None:
    with_zero = [*values]
    with_zero.insert(min(where, len(values)), 0.0)
    assert geometric_mean(with_zero, skip_nonpositive=True) == geometric_mean(values, skip_nonpositive=True)


def test_a_group_with_no_positive_value_is_zero() -> None:
    assert geometric_mean([0.0, -1.0], skip_nonpositive=True) == 0.0
    assert geometric_mean([], skip_nonpositive=True) == 0.0


@given(st.lists(st.floats(min_value=0.001, max_value=1e5), min_size=1, max_size=8))
def test_a_mean_recomputed_from_rounded_values_stays_inside_its_bounds(values: list[float]) -> None:
    printed = [round(v, 3) for v in values]
    bounded = bounded_mean(printed, 0.0005, skip_nonpositive=False)
    assert bounded.agrees_with(geometric_mean(values, skip_nonpositive=False), 0.0)


@given(st.lists(st.floats(min_value=0.01, max_value=1e5), min_size=4, max_size=4))
def test_a_claim_far_outside_the_rounding_bounds_disagrees(values: list[float]) -> None:
    bounded = bounded_mean([round(v, 6) for v in values], 5e-7, skip_nonpositive=False)
    assert not bounded.agrees_with(bounded.value * 1.001 + 1e-5, claimed_error(Era.C_SC21, bounded.value))


def test_awk_rounding_is_half_a_unit_in_the_sixth_significant_digit() -> None:
    assert significant_error(12.6775) == pytest.approx(0.00005)
    assert significant_error(18982.1) == pytest.approx(0.05)


def test_it_accepts_a_correct_claim() -> None:
    check = check_score(make_run())
    assert check.matches
    assert check.findings == []


def test_it_flags_an_inflated_score() -> None:
    run = make_run()
    assert run.claimed is not None and run.claimed.score is not None
    run.claimed = dataclasses.replace(run.claimed, score=run.claimed.score * 1.01)
    check = check_score(run)
    assert not check.matches
    assert codes(check.findings) == ["score-mismatch"]
    assert check.findings[0].severity is Severity.ERROR


def test_it_flags_a_bandwidth_that_does_not_follow_from_the_phases() -> None:
    run = make_run()
    run.phases["ior-easy-write"] = make_phase("ior-easy-write", value=13.0)
    assert codes(check_score(run).findings) == ["bw-mismatch", "score-mismatch"]


def test_it_flags_a_metadata_rate_that_does_not_follow_from_the_phases() -> None:
    run = make_run()
    run.phases["find"] = make_phase("find", value=2000.0)
    assert "md-mismatch" in codes(check_score(run).findings)


def test_it_reports_a_missing_score_line() -> None:
    check = check_score(make_run(claimed=None))
    assert not check.matches
    assert codes(check.findings) == ["score-missing"]


def test_the_dev_script_era_prints_no_score_and_that_is_only_information() -> None:
    check = check_score(make_run(era=Era.DEV_SCRIPT, claimed=None))
    assert [(f.code, f.severity) for f in check.findings] == [("score-not-printed", Severity.INFO)]


def test_it_recognises_the_sc17_product_total() -> None:
    run = make_run(era=Era.SHELL_SC17)
    computed = compute_score(run)
    assert computed.bw is not None and computed.md is not None
    run.claimed = Score(
        bw=float(f"{computed.bw:.6g}"), md=float(f"{computed.md:.6g}"), score=computed.bw * computed.md
    )
    check = check_score(run)
    assert check.matches
    assert codes(check.findings) == ["sc17-product-total"]
    assert check.computed.score == pytest.approx(math.sqrt(computed.bw * computed.md))


def test_before_sc21_a_missing_phase_zeroes_the_score() -> None:
    run = make_run(era=Era.C_ISC21)
    del run.phases["find"]
    assert compute_score(run).md == 0.0
    assert compute_score(run).score == 0.0


def test_from_sc21_on_a_zero_phase_is_skipped_and_reported() -> None:
    run = make_run(era=Era.C_SC21)
    run.phases["find"] = make_phase("find", value=0.0)
    computed = compute_score(run)
    assert computed.md is not None and computed.md > 0
    assert "zero-phases-skipped" in codes(check_score(run).findings)


def test_shell_era_claims_within_awk_rounding_agree() -> None:
    run = make_run(era=Era.SHELL)
    for name, phase in list(run.phases.items()):
        run.phases[name] = dataclasses.replace(phase, value=round(phase.value, 3))
    computed = compute_score(run)
    assert computed.bw is not None and computed.md is not None and computed.score is not None
    run.claimed = Score(
        bw=float(f"{computed.bw:.6g}"), md=float(f"{computed.md:.6g}"), score=float(f"{computed.score:.6g}")
    )
    assert check_score(run).matches


def test_a_faulty_dev_build_that_averaged_rnd4k_into_bw_is_explained() -> None:
    run = make_run(era=Era.C_ISC25)
    rnd = make_phase("ior-rnd4K-easy-read", value=40.0)
    run.extra_phases["ior-rnd4K-easy-read"] = rnd
    bw5 = geometric_mean(
        [p.value for n, p in run.phases.items() if n.startswith("ior")] + [40.0], skip_nonpositive=True
    )
    assert run.claimed is not None
    run.claimed = dataclasses.replace(run.claimed, bw=round(bw5, 6))
    check = check_score(run)
    assert not check.matches
    assert codes(check.findings) == ["bw-rnd4k-dev-build"]
    assert check.findings[0].severity is Severity.WARNING
