"""find: it must match files, and its rate must follow from the files it scanned and its runtime.

The score is scanned files (`total-files`, not the matched ones) / runtime / 1000. pfind measures
its own runtime (find.csv `runtime:`), which is shorter than the phase wall time `t_delta` the
application prints: starting pfind on every rank and writing find.csv happen outside pfind's
timer, and at tens of thousands of ranks that takes over a minute (29.6 s of a 219 s phase on
one real run). With the pfind runtime the check is exact up to printing. With only the wall
time the scanned files over `t_delta` are the lowest rate the run can have, and nothing bounds
it from above: a rate below that bound is an error, a rate above it rests on the summary alone,
which rules/evidence.py says (the find.csv is missing) without calling the run invalid.

The shell script computed the rate with `bc` at scale 2, which truncates: its printed value may
be up to 0.01 kIOPS below the exact rate (a value above the exact rate is still an error).
A find matching nothing is an error where the C application judges it so; the shell script
accepted it, so there it is a warning.
"""

from __future__ import annotations

import math

from scoring.codes import finding
from scoring.model import Finding, Phase, RunResult

FIND_PHASES = ("find", "find-easy", "find-hard")
TIME_ROUNDING_S = 0.005  # the coarsest printed runtime: shell `%6.2f`
RATE_ROUNDING = 0.0005  # the coarsest printed rate: shell `%.3f` kIOPS
RELATIVE_SLACK = 1e-6
SHELL_BC_TRUNCATION = 0.01  # kIOPS: bc scale=2 drops the digits after the second decimal


def _counts(phase: Phase) -> tuple[float | None, float | None]:
    """(matched files, scanned files) from result.txt, else from the raw pfind output."""
    # The reader keeps only finite decimals: a "nan" or "inf" is as unreadable as any other text, so
    # the rule falls back to the raw record (a nan once switched the rate check off).
    found, total = phase.recorded.found, phase.recorded.total_files
    if phase.raw is not None:
        found = found if found is not None else phase.raw.found
        total = total if total is not None else phase.raw.items
    return found, total


def _rate_findings(run: RunResult, phase: Phase, total: float) -> list[Finding]:
    raw_time = phase.raw.time_s if phase.raw is not None else None
    wall_time = phase.recorded.t_delta or phase.time_s
    if raw_time is not None and raw_time > 0:
        low_time, high_time = raw_time - TIME_ROUNDING_S, raw_time + TIME_ROUNDING_S
        time_s = raw_time
    elif wall_time is not None and wall_time > 0:
        low_time = 0.0  # pfind's own runtime may be any part of the phase's wall time
        high_time = wall_time + TIME_ROUNDING_S
        time_s = wall_time
    else:
        return []
    highest = total / low_time / 1000 if low_time > 0 else math.inf
    lowest = total / high_time / 1000
    slack = RATE_ROUNDING + RELATIVE_SLACK * phase.value
    truncation = SHELL_BC_TRUNCATION if run.era.is_shell else 0.0
    if lowest - slack - truncation <= phase.value <= highest + slack:
        return []
    return [
        finding(
            "find-rate-mismatch",
            phase=phase.name,
            value=phase.value,
            total_files=total,
            time_s=time_s,
            expected=total / time_s / 1000,
        )
    ]


def rate_agrees(run: RunResult, phase: Phase) -> bool | None:
    """Whether the find value follows from its counts and runtime; None when they are unknown.

    In the shell era the counts and the time come from the script's `[FIND] MATCHED` line, the
    find's raw record, so this is also the find's evidence check (rules/evidence.py).
    """
    _, total = _counts(phase)
    if total is None or not total > 0 or not phase.value > 0:
        return None
    return not _rate_findings(run, phase, total)


def _nothing_found(run: RunResult, phase: Phase, found: float, total: float | None) -> Finding:
    if run.era.is_shell:
        return finding("find-zero-matches-shell", phase=phase.name, total=f"{total or 0:.0f}")
    if not phase.scored:
        return finding("optional-phase-invalid", phase=phase.name, detail="a find that matched no file")
    return finding("find-nothing-found", phase=phase.name, found=f"{found:.0f}")


def find_rules(run: RunResult) -> list[Finding]:
    findings: list[Finding] = []
    for name in FIND_PHASES:
        phase = run.phases.get(name) or run.extra_phases.get(name)
        if phase is None:
            continue
        found, total = _counts(phase)
        if found is not None and found <= 0:
            findings.append(_nothing_found(run, phase, found, total))
        if total is not None and total > 0 and phase.value > 0:
            findings.extend(_rate_findings(run, phase, total))
    return findings
