"""Every finding code the registry adds at ingest, with its severity and message template, in one table.

The scoring engine's codes are in scoring/codes.py; these are the findings that need what only the
registry knows: the release a run was submitted to (versions), the submitter's system description
(declared nodes and network, description files in the archive), the runs already stored, and the
archive's rejection. The same rules hold: a code is never renamed, a new check gets a new code, and
no code is in both tables. Severity: error = the run is invalid, warning = the committee must look
at it, info = a fact worth showing. Templates are `str.format` strings filled by the caller.

The table sits at the top of `submissions`, not in `submissions.ingest`, because the system
description's checks (submissions.system) emit most of these and must not import the ingest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.codes import ERROR, INFO, WARNING
from scoring.codes import Code as ScoringCode
from scoring.model import Finding, Severity


@dataclass(frozen=True)
class Code(ScoringCode):
    # The one other severity a caller may choose instead (said in the comment above the entry).
    other_severity: Severity | None = None


CODES: dict[str, Code] = {
    # --- the release the run was submitted to (submissions/version_checks.py) ---
    "bundled-runner-lists": Code(
        INFO,
        "{release} takes results of the registry's bundled runner {where} (the committee's rule for "
        "this release). For the ranked lists, run the official IO500 release.",
    ),
    "version-not-accepted": Code(
        WARNING,
        "The run was made with {tag}, which the call for submissions of {release} did not name: it "
        "accepted {accepted}. The committee decides whether the run may be listed for this release.",
    ),
    "phase-not-comparable": Code(
        INFO,
        "{phase} of {tag} is not comparable with the value of {changed_in} and later versions: the "
        "IO500 project changed what it measures ({source}). Compare it only with runs of the same version.",
    ),
    # --- the declared system against the run (submissions/system/checks.py) ---
    # A warning for a 10-node submission (its eligibility rests on the count), info otherwise.
    "nodes-unknown": Code(
        INFO,
        "The number of client nodes could not be read from the raw outputs, so the declared node count "
        "could not be confirmed.",
        other_severity=WARNING,
    ),
    "nodes-mismatch": Code(
        WARNING,
        "The system description declares {declared} client nodes, but the raw outputs show the benchmark "
        "ran on {nodes}.",
    ),
    "ten-node-declared": Code(
        ERROR,
        "The submission is for the 10-node lists, which need exactly 10 client nodes, but the system "
        "description declares {declared}.",
    ),
    # `ending` is "." or the sentence on processes counted as nodes.
    "ten-node-count": Code(
        WARNING,
        "The submission is for the 10-node lists, which need exactly 10 client nodes, but the raw outputs "
        "show the benchmark ran on {nodes}{ending} The committee checks the node count before the entry "
        "joins a 10-node list.",
    ),
    # Retired: plausibility-network (scoring/codes.py, an error) replaced it; kept because findings
    # stored by earlier ingests carry the code, and a code is never reused for another meaning.
    "bandwidth-above-network": Code(
        WARNING,
        "{phase} reached {value:,.2f} GiB/s, but {nodes} client nodes with {gbps:g} Gbit/s each can move at "
        "most {ceiling:,.2f} GiB/s; the data may have been served from a cache or the network is declared "
        "too low.",
    ),
    # --- description files in the archive (submissions/system/services.py) ---
    "system-description-invalid": Code(
        # The run's validity rests on its benchmark outputs; a description that does not follow the
        # schema is for the submitter to fix before the committee can list it.
        WARNING,
        "The system description {path} in the archive was not used, because it does not follow the "
        "schema: {errors} Correct it and upload again, or give the description with the upload; the "
        "committee lists a run only with a valid description.",
    ),
    "system-description-unreadable": Code(
        INFO,
        "The system description file {path} could not be read: {problems}",
    ),
    "system-description-read": Code(
        INFO,
        "The system description file {path} in the archive gave {count} field(s) of the description.{unread}",
    ),
    # --- the bundled runner's client facts (submissions/system/runner_facts.py) ---
    "runner-facts-read": Code(
        INFO,
        "The client facts {path} that the bundled runner wrote gave {count} blank field(s) of the "
        "description; the plausibility checks use its memory and network speed where the description "
        "declares none. Each value it gave is marked with its source: {source}.",
    ),
    "runner-facts-problems": Code(
        WARNING,
        "The client facts file {path} could not be read in full; what is not believable was not used: "
        "{problems}",
    ),
    # --- the runs already stored, the archive itself (submissions/ingest/record.py) ---
    "run-already-submitted": Code(
        WARNING,
        "This run (the same phase values, run times, phase clocks and configuration, whatever its folder "
        "and archive are called) is already in the registry as submission {first}: /submissions/{first}/. "
        "The archive's bytes differ, so it was re-packed; the committee decides which one counts.",
    ),
    # --- run tokens (submissions/run_tokens/services.py): what only the issued tokens tell ---
    "token-required": Code(
        ERROR,
        "{release} requires run tokens: ask the registry for a run token (Run tokens page or the API), "
        "run with --timestamp=<token> and upload the result directory the run made.",
    ),
    "token-unknown": Code(
        ERROR,
        "The result directory is named like a run token ({token}), but the registry never issued it. "
        "Run with a token the registry gave you, unchanged.",
    ),
    "token-foreign": Code(
        ERROR,
        "The run token {token} was issued to another account. A token binds a run to the account that "
        "asked for it; ask for your own.",
    ),
    "token-reused": Code(
        ERROR,
        "The run token {token} was already used by submission {first} on {used_at} UTC. A token is good "
        "for one run; ask for a new one for every run.",
    ),
    "token-other-release": Code(
        ERROR,
        "The run token {token} was issued for {token_release}, but the run was submitted to {release}.",
    ),
    "token-verified": Code(
        INFO,
        "The run was made with the run token {token}, issued to this account on {issued} UTC for "
        "{system}: its result directory, the seeds of its {seeded} seeded phase(s) and its start time match.",
    ),
    # The reason is the sentence of whoever rejected it (unpacking, size limit, exhausted attempts).
    "archive-rejected": Code(ERROR, "{reason}"),
}


def finding(code: str, phase: str | None = None, severity: Severity | None = None, **values: Any) -> Finding:
    """A `Finding` for `code`, its message filled from `values` (and `phase`).

    `severity` may only name the entry's own severity or its `other_severity`.
    """
    spec = CODES[code]
    if severity is None:
        severity = spec.severity
    elif severity not in (spec.severity, spec.other_severity):
        raise ValueError(f"{code} is never {severity.value}")
    message = spec.template.format(phase=phase, **values)
    return Finding(code=code, severity=severity, message=message, phase=phase)
