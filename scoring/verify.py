"""Re-verify IO500 runs: read them, recompute the score, apply every rule."""

from __future__ import annotations

from pathlib import Path

from scoring.model import RunResult, Verification
from scoring.readers.locate import read_runs
from scoring.rules import RULES
from scoring.rules.evidence import AGREES, DISAGREES, evidence_report, evidence_rules
from scoring.rules.physics import physics_findings, physics_measurements, physics_rules
from scoring.rules.score import check_score


def verify_run(run: RunResult) -> Verification:
    """Every finding about one run, the recomputed score, whether the claimed one agrees and what
    the verdict rests on."""
    score = check_score(run)
    findings = [*run.read_notes, *score.findings]
    report = evidence_report(run)
    measurements = physics_measurements(run)
    for item in measurements:
        # The clock checks filled `cross` already; bytes, items, tasks and nodes join them here.
        name = f"{item.invariant} {item.phase or 'run'}"
        report.cross[name] = DISAGREES if not item.holds or report.cross.get(name) == DISAGREES else AGREES
    for rule in RULES:
        if rule is evidence_rules:
            findings.extend(report.findings)
        elif rule is physics_rules:
            findings.extend(physics_findings(measurements))
        else:
            findings.extend(rule(run))
    return Verification(
        result=run,
        computed=score.computed,
        score_matches=score.matches,
        findings=findings,
        basis=report.basis(),
    )


def verify(path: str | Path) -> list[Verification]:
    """Verify every run found at `path` (a result directory, an archive, or a folder of runs).

    Raises ReadError, with a message a submitter understands, when nothing there can be read.
    """
    return [verify_run(run) for run in read_runs(path)]
