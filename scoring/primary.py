"""Which run of an archive the registry lists, when the archive holds several.

Never the highest score: a forged copy placed beside the honest run would then be the one listed,
and a submitter who packs a failed attempt next to a good one would see the better number win by
accident. The listed ("primary") run is the complete one, then the latest by its run timestamp:
what a submitter means when they re-run until the run is whole. Every other run is named in a
warning, so the committee sees what was left out and can pick another.

Complete means every scored phase has a value, the C application's result.txt and config.ini are
there (eras that write them), and each scored phase has the raw output its tool writes. The run's
verdict takes no part between different runs: the listed run's findings say whether it is valid.
Only between copies of one run (the same timestamp) does it count, after the folder: the copy in
the folder the application wrote (named by result.txt's result-dir), then the one whose evidence
agrees with its summary, then the shorter path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.codes import finding
from scoring.hashes import run_timestamp
from scoring.model import SCORED_PHASES, Era, Finding, Phase, RunResult, Verification
from scoring.rules.common import result_header

# Files the C application writes into every result directory (rules/evidence.py: REQUIRED_FILES).
C_APP_FILES: tuple[str, ...] = ("result.txt", "config.ini")
SHOWN_OTHERS = 5  # the warning names this many other runs, then says how many more


@dataclass(frozen=True)
class Completeness:
    """What a run carries, in the order it counts when runs are compared."""

    phases: int  # scored phases with a value
    files: bool  # result.txt and config.ini present as regular files (C eras), or not written
    raw: int  # scored phases whose raw tool output is there (or whose era and tool write none)

    @property
    def complete(self) -> bool:
        return self.phases == len(SCORED_PHASES) and self.files and self.raw == len(SCORED_PHASES)


@dataclass(frozen=True)
class PrimaryChoice:
    order: tuple[int, ...]  # indices into the verifications, the primary run first
    findings: tuple[Finding, ...]  # for the primary run: the warning naming the others

    @property
    def primary(self) -> int:
        return self.order[0]


def _writes_no_raw(run: RunResult, phase: Phase) -> bool:
    """Phases whose era or tool leaves no raw output of their own: io-500-dev runs are read from
    their raw output in the first place; a C-era find that ran an external script instead of pfind
    leaves only its last output line in result.txt."""
    if run.era is Era.DEV_SCRIPT:
        return True
    if run.era.is_shell or not phase.name.startswith("find"):
        return False
    program = (phase.command or "").split()[:1]
    return "last-output" in phase.values or bool(program and program[0].rsplit("/", 1)[-1] != "pfind")


def completeness(run: RunResult) -> Completeness:
    present = [run.phases[name] for name in SCORED_PHASES if name in run.phases]
    direct = {name for name in run.files if "/" not in name}
    files = run.era.is_shell or all(name in direct and name not in run.irregular for name in C_APP_FILES)
    raw = sum(1 for phase in present if phase.raw is not None or _writes_no_raw(run, phase))
    return Completeness(phases=len(present), files=files, raw=raw)


def _in_own_folder(run: RunResult) -> bool:
    """The application writes a run into <resultdir>/<timestamp>: a copy moved beside it has
    another folder name."""
    stamp = run_timestamp(result_header(run).get("result-dir"))
    return stamp is not None and run.path.rstrip("/").rsplit("/", 1)[-1] == stamp


def _key(verification: Verification) -> tuple[bool, int, bool, int, str, bool, bool]:
    run = verification.result
    have = completeness(run)
    # The timestamp is YYYY.MM.DD-HH.MM.SS, so its text order is time order; a run without one
    # counts as the oldest. Two runs with one timestamp are one run and a copy of it: the one in
    # the folder the application names, then the one whose evidence agrees, is the original more
    # likely than the other; the shorter path last (choose_primary sorts by path first).
    return (
        have.complete,
        have.phases,
        have.files,
        have.raw,
        run.timestamp or "",
        _in_own_folder(run),
        verification.valid,
    )


def _describe(run: RunResult, listed: RunResult | None = None) -> str:
    have = completeness(run)
    text = f"'{run.path}'" + (f" of {run.timestamp}" if run.timestamp else "")
    if listed is not None and run.timestamp and run.timestamp == listed.timestamp:
        # Two runs never start in the same second: one folder is a copy of the other, edited or not.
        text += " (the same run timestamp as the listed run: a copy of it)"
    if have.complete:
        return text
    total = len(SCORED_PHASES)
    gaps = []
    if have.phases < total:
        gaps.append(f"{have.phases} of {total} scored phases")
    if not have.files:
        gaps.append(f"without {' and '.join(C_APP_FILES)}")
    if have.raw < total:
        gaps.append(f"raw output for {have.raw} of {total} scored phases")
    return f"{text} (incomplete: {', '.join(gaps)})"


def choose_primary(verifications: Sequence[Verification]) -> PrimaryChoice:
    """The run to list (first in `order`) and a warning naming the others; scores play no part."""
    if not verifications:
        raise ValueError("choose_primary needs at least one verification")
    by_path = sorted(range(len(verifications)), key=lambda i: verifications[i].result.path)
    # A stable sort: among equal keys the shorter (earlier) path stays first.
    order = tuple(sorted(by_path, key=lambda i: _key(verifications[i]), reverse=True))
    if len(order) == 1:
        return PrimaryChoice(order=order, findings=())
    primary = verifications[order[0]].result
    others = [_describe(verifications[i].result, primary) for i in order[1:]]
    shown = "; ".join(others[:SHOWN_OTHERS])
    if len(others) > SHOWN_OTHERS:
        shown += f"; and {len(others) - SHOWN_OTHERS} more"
    why = (
        "the latest complete run"
        if completeness(primary).complete
        else "no run is complete, so the most complete and latest one"
    )
    warning = finding(
        "primary-run-chosen",
        count=len(verifications),
        primary=_describe(primary),
        why=why,
        others=shown,
    )
    return PrimaryChoice(order=order, findings=(warning,))
