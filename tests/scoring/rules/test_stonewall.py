"""The 300-second rule, phase presence and the debug options of config.ini."""

from __future__ import annotations

from scoring.model import Era, RunResult, Severity
from scoring.rules.stonewall import stonewall_rules
from tests.scoring.run_builders import make_phase, make_run


def codes(run: RunResult) -> list[str]:
    return [f.code for f in stonewall_rules(run)]


def test_a_complete_valid_run_has_no_findings() -> None:
    assert stonewall_rules(make_run()) == []


def test_it_reports_each_missing_phase() -> None:
    run = make_run()
    del run.phases["mdtest-hard-read"]
    findings = stonewall_rules(run)
    assert [(f.code, f.phase, f.severity) for f in findings] == [
        ("phase-missing", "mdtest-hard-read", Severity.ERROR)
    ]


def test_it_rejects_a_zero_phase() -> None:
    run = make_run(phases={"find": make_phase("find", value=0.0)})
    assert codes(run) == ["phase-nonpositive"]


def test_it_rejects_a_write_phase_shorter_than_300_seconds() -> None:
    run = make_run(phases={"ior-hard-write": make_phase("ior-hard-write", time_s=299.9)})
    findings = stonewall_rules(run)
    assert [f.code for f in findings] == ["write-phase-short"]
    assert "299.9 s" in findings[0].message


def test_it_accepts_a_write_phase_of_exactly_300_seconds() -> None:
    assert codes(make_run(phases={"mdtest-easy-write": make_phase("mdtest-easy-write", time_s=300.0)})) == []


def test_read_phases_may_be_short() -> None:
    assert codes(make_run(phases={"ior-easy-read": make_phase("ior-easy-read", time_s=12.0)})) == []


def test_it_warns_when_a_write_time_was_not_printed() -> None:
    assert codes(make_run(phases={"ior-easy-write": make_phase("ior-easy-write", time_s=None)})) == [
        "phase-time-missing"
    ]


def test_it_rejects_a_stonewall_time_other_than_300() -> None:
    run = make_run()
    run.config["debug"]["stonewall-time"] = "30"
    assert codes(run) == ["stonewall-time-not-300"]


def test_it_rejects_a_pause_dir() -> None:
    run = make_run()
    run.config["debug"]["pause-dir"] = "/tmp/pause"
    assert codes(run) == ["pause-dir-set"]


def test_it_rejects_files_per_dir_matching_the_section_case_insensitively() -> None:
    run = make_run()
    del run.config["mdtest-hard"]
    run.config["MDTEST-HARD"] = {"n": "1000000", "Files-Per-Dir": "1000"}
    assert codes(run) == ["files-per-dir-set"]


def test_it_warns_about_scc_mode() -> None:
    run = make_run()
    run.config["global"]["scc"] = "true"
    findings = stonewall_rules(run)
    assert [(f.code, f.severity) for f in findings] == [("scc-mode", Severity.WARNING)]


def test_shell_runs_have_no_config_ini_to_check() -> None:
    run = make_run(era=Era.SHELL, config={"debug": {"stonewall-time": "10"}})
    assert codes(run) == []
