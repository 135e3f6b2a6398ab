"""The 300-second rule: every scored phase ran, every write phase lasted 300 s, and the debug
options that shorten or pause the run were left alone."""

from __future__ import annotations

from scoring.cmdline import option_number
from scoring.codes import finding
from scoring.model import SCORED_PHASES, WRITE_PHASES, Finding, RunResult
from scoring.rules.common import config_source, config_value

MIN_WRITE_SECONDS = 300.0
TRUE_VALUES = ("true", "1", "yes")


def phase_presence(run: RunResult) -> list[Finding]:
    findings = []
    for name in SCORED_PHASES:
        phase = run.phases.get(name)
        if phase is None:
            findings.append(finding("phase-missing", phase=name))
        elif not phase.value > 0:  # also catches NaN
            findings.append(finding("phase-nonpositive", phase=name, value=phase.value, unit=phase.unit))
    return findings


def write_durations(run: RunResult) -> list[Finding]:
    findings = []
    for name in WRITE_PHASES:
        phase = run.phases.get(name)
        if phase is None:
            continue
        if phase.time_s is None:
            findings.append(finding("phase-time-missing", phase=name))
        elif phase.time_s < MIN_WRITE_SECONDS:
            findings.append(finding("write-phase-short", phase=name, time_s=phase.time_s))
    return findings


def debug_options(run: RunResult) -> list[Finding]:
    """config.ini checks (C eras); the shell era's stonewall shows in its commands (rules/params.py)."""
    if not run.config or run.era.is_shell:
        return []
    source = config_source(run)
    findings = []
    stonewall = config_value(run, "debug", "stonewall-time")
    if stonewall and option_number(stonewall) != MIN_WRITE_SECONDS:
        findings.append(finding("stonewall-time-not-300", value=stonewall, source=source))
    pause_dir = config_value(run, "debug", "pause-dir")
    if pause_dir:
        findings.append(finding("pause-dir-set", value=pause_dir, source=source))
    files_per_dir = config_value(run, "mdtest-hard", "files-per-dir")
    if files_per_dir:
        findings.append(finding("files-per-dir-set", value=files_per_dir, source=source))
    scc = config_value(run, "global", "scc")
    if scc and scc.lower() in TRUE_VALUES:
        findings.append(finding("scc-mode", source=source))
    return findings


def stonewall_rules(run: RunResult) -> list[Finding]:
    return [*phase_presence(run), *write_durations(run), *debug_options(run)]
