"""Findings that need the release a run was submitted to: was its IO500 version accepted there?

The scoring engine knows versions but not releases (it has no Django and no release calendar), so
this check runs where both are known, next to the system-description checks.
"""

from __future__ import annotations

from registry.models import Release, kind_label
from registry.versions import declared_breaks, version_tag
from scoring.model import Finding, RunResult
from scoring.rules.params import is_bundled_runner
from submissions.codes import finding


def bundled_runner_findings(run: RunResult, release: Release | None) -> list[Finding]:
    """Where a run of the registry's bundled runner may be listed in its release (the committee's rule)."""
    if release is None or not is_bundled_runner(run.version):
        return []
    kinds = [kind_label(kind) for kind in release.bundled_runner_kinds]
    where = f"on these lists only: {', '.join(kinds)}" if kinds else "on none of its lists"
    return [finding("bundled-runner-lists", release=release.name, where=where)]


def version_findings(run: RunResult, release: Release | None) -> list[Finding]:
    findings = bundled_runner_findings(run, release)
    tag = version_tag(run.version)
    if release is None or tag is None:
        return findings  # the scoring engine already says when a version names no release tag
    if release.accepted_versions and tag not in release.accepted_versions:
        findings.append(
            finding(
                "version-not-accepted",
                tag=tag,
                release=release.name,
                accepted=", ".join(release.accepted_versions),
            )
        )
    measured = set(run.phases) | set(run.extra_phases)
    accepted = set(release.accepted_versions)
    for rule in declared_breaks():
        # Only where the release also takes runs of the changed kind: io500-sc26's new random read
        # makes the isc26 runs SC26 accepts differ from its own, not the isc26 runs of ISC26.
        if accepted and not accepted & rule.after:
            continue
        if rule.phase in measured and tag in rule.before:
            findings.append(
                finding(
                    "phase-not-comparable",
                    phase=rule.phase,
                    tag=tag,
                    changed_in=rule.changed_in,
                    source=rule.source.split(";")[0],
                )
            )
    return findings
