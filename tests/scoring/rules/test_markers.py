"""INVALID markers, '; ERROR' comments and tool errors."""

from __future__ import annotations

import dataclasses

from scoring.model import RawOutput, Severity
from scoring.rules.markers import error_text, marker_rules
from tests.scoring.run_builders import make_phase, make_run


def test_it_strips_the_comment_prefix_from_error_lines() -> None:
    assert error_text("; ERROR INVALID stonewall-time < 30s") == "INVALID stonewall-time < 30s"
    assert error_text("ERROR INVALID Runtime is smaller") == "INVALID Runtime is smaller"


def test_a_clean_run_has_no_markers() -> None:
    assert marker_rules(make_run()) == []


def test_it_rejects_an_invalid_score_line() -> None:
    run = make_run()
    assert run.claimed is not None
    run.claimed = dataclasses.replace(run.claimed, invalid=True)
    assert [f.code for f in marker_rules(run)] == ["invalid-marker"]


def test_it_catches_the_validation_loophole_comment_in_the_header() -> None:
    # B3+ wrote option-validation errors before the phase loop: the SCORE stayed valid.
    run = make_run(header_errors=("ERROR INVALID stonewall-time < 30s",))
    findings = marker_rules(run)
    assert [(f.code, f.severity) for f in findings] == [("result-error-comment", Severity.ERROR)]
    assert "stonewall-time < 30s" in findings[0].message


def test_it_rejects_an_error_comment_inside_a_phase_section() -> None:
    phase = make_phase("ior-easy-write", errors=("ERROR INVALID Write phase needed 200s",))
    findings = marker_rules(make_run(phases={"ior-easy-write": phase}))
    assert [(f.code, f.phase) for f in findings] == [("result-error-comment", "ior-easy-write")]


def test_it_rejects_an_invalid_marker_on_a_scored_phase() -> None:
    run = make_run(phases={"find": make_phase("find", invalid_marker=True)})
    assert [f.code for f in marker_rules(run)] == ["invalid-marker"]


def test_a_marker_on_an_unscored_phase_is_only_a_warning() -> None:
    run = make_run()
    run.extra_phases["ior-rnd4K-easy-read"] = make_phase("ior-rnd4K-easy-read", invalid_marker=True)
    assert [(f.code, f.severity) for f in marker_rules(run)] == [("optional-phase-invalid", Severity.WARNING)]


def test_it_rejects_ior_data_verification_errors() -> None:
    raw = RawOutput(tool="ior", file="ior-easy-read.txt", errors=3)
    run = make_run(phases={"ior-easy-read": make_phase("ior-easy-read", raw=raw)})
    findings = marker_rules(run)
    assert [f.code for f in findings] == ["tool-errors"]
    assert "3 error(s)" in findings[0].message
