"""The notes a reader attaches to a run: things noticed while turning bytes into a `RunResult`.

Read notes are findings like the rules' findings, but about the input itself (skipped archive
members, unreadable values, duplicate copies). Their codes all start with ``read-`` so they never
collide with a rule's code; they are stable identifiers like every finding code.
"""

from __future__ import annotations

from scoring.model import Finding, Severity

# code -> severity; a value that cannot be read is an error because the run cannot be re-verified
# with it, a skipped extra is a warning for the reviewers, a harmless fact is info.
READ_NOTE_SEVERITY: dict[str, Severity] = {
    "read-member-unsafe": Severity.WARNING,
    "read-member-link": Severity.WARNING,
    "read-member-special": Severity.INFO,
    "read-member-too-large": Severity.WARNING,
    "read-nested-archive": Severity.INFO,
    "read-file-binary": Severity.WARNING,
    "read-file-missing": Severity.INFO,
    "read-value-unreadable": Severity.ERROR,
    "read-line-unreadable": Severity.WARNING,
    "read-line-too-long": Severity.WARNING,
    "read-duplicate-summary": Severity.INFO,
    "read-summary-only": Severity.WARNING,
    "read-folder-unreadable": Severity.WARNING,
    "read-sources-disagree": Severity.WARNING,
    "read-mixed-eras": Severity.ERROR,
}


def note(code: str, message: str, phase: str | None = None) -> Finding:
    """A read note with the severity that belongs to its code."""
    return Finding(code=code, severity=READ_NOTE_SEVERITY[code], message=message, phase=phase)
