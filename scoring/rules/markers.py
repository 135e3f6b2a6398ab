"""Invalid markers the benchmark printed, `; ERROR` comments in result.txt, and tool errors.

The C application writes `; ERROR INVALID ...` for option-validation failures *before* the phase
loop from B3 on, so those never reach the `[SCORE]` line (io500-format.md 8.2): reading every
comment is the only way to catch them. Markers on unscored phases (ior-rnd4K-easy-read, extended
phases) do not invalidate the ranked score and are raised for review only.
"""

from __future__ import annotations

from scoring.codes import finding
from scoring.model import Finding, Phase, RunResult


def error_text(comment: str) -> str:
    """'; ERROR INVALID stonewall-time < 30s' -> 'INVALID stonewall-time < 30s'."""
    text = comment.strip().lstrip(";").strip()
    if text.upper().startswith("ERROR"):
        text = text[len("ERROR") :].strip()
    return text


def _phase_markers(phase: Phase, scored: bool) -> list[Finding]:
    findings = []
    if phase.invalid_marker:
        if scored:
            findings.append(
                finding(
                    "invalid-marker", phase=phase.name, where=f"The {phase.name} result", marker="INVALID"
                )
            )
        else:
            findings.append(finding("optional-phase-invalid", phase=phase.name, detail="an INVALID marker"))
    for comment in phase.errors:
        if scored:
            findings.append(
                finding(
                    "result-error-comment",
                    phase=phase.name,
                    message=error_text(comment),
                    where=f"the [{phase.name}] section",
                )
            )
        else:
            findings.append(
                finding("optional-phase-invalid", phase=phase.name, detail=f"'; ERROR {error_text(comment)}'")
            )
    if phase.raw is not None and phase.raw.errors:
        raw = phase.raw
        if scored:
            findings.append(finding("tool-errors", phase=phase.name, tool=raw.tool, count=raw.errors))
        else:
            findings.append(
                finding(
                    "optional-phase-invalid", phase=phase.name, detail=f"{raw.errors} {raw.tool} error(s)"
                )
            )
    return findings


def marker_rules(run: RunResult) -> list[Finding]:
    findings: list[Finding] = []
    if run.claimed is not None and run.claimed.invalid:
        findings.append(finding("invalid-marker", where="The score line", marker="INVALID"))
    for comment in run.header_errors:
        findings.append(finding("result-error-comment", message=error_text(comment), where="the run header"))
    for phase in run.phases.values():
        findings.extend(_phase_markers(phase, scored=True))
    for phase in run.extra_phases.values():
        findings.extend(_phase_markers(phase, scored=False))
    return findings
