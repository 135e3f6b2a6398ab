"""Re-verify IO500 runs: read them, recompute the score, apply every rule."""

from __future__ import annotations

from pathlib import Path

from scoring.locate import read_runs
from scoring.model import RunResult, Verification
from scoring.rules import RULES
from scoring.rules.evidence import evidence_report, evidence_rules
from scoring.rules.score import check_score


def verify_run(run: RunResult) -> Verification:
    """Every finding about one run, the recomputed score, whether the claimed one agrees and what
    the verdict rests on."""
    score = check_score(run)
    findings = [*run.read_notes, *score.findings]
    report = evidence_report(run)
    for rule in RULES:
        findings.extend(report.findings if rule is evidence_rules else rule(run))
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
