"""Findings that need the release a run was submitted to: was its IO500 version accepted there?

The scoring engine knows versions but not releases (it has no Django and no release calendar), so
this check runs where both are known, next to the system-description checks.
"""

from __future__ import annotations

from registry.models import Release
from registry.versions import declared_breaks, version_tag
from scoring.model import Finding, RunResult, Severity


def version_findings(run: RunResult, release: Release | None) -> list[Finding]:
    tag = version_tag(run.version)
    if release is None or tag is None:
        return []  # the scoring engine already says when a version names no release tag
    findings = []
    if release.accepted_versions and tag not in release.accepted_versions:
        findings.append(
            Finding(
                code="version-not-accepted",
                severity=Severity.WARNING,
                message=(
                    f"The run was made with {tag}, which the call for submissions of {release.name} did "
                    f"not name: it accepted {', '.join(release.accepted_versions)}. The committee decides "
                    "whether the run may be listed for this release."
                ),
            )
        )
    measured = set(run.phases) | set(run.extra_phases)
    for rule in declared_breaks():
        if rule.phase in measured and tag in rule.before:
            findings.append(
                Finding(
                    code="phase-not-comparable",
                    severity=Severity.INFO,
                    phase=rule.phase,
                    message=(
                        f"{rule.phase} of {tag} is not comparable with the value of {rule.changed_in} "
                        f"and later versions: the IO500 project changed what it measures "
                        f"({rule.source.split(';')[0]}). Compare it only with runs of the same version."
                    ),
                )
            )
    return findings
