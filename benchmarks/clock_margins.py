"""How close honest runs come to each clock tolerance of scoring/rules/evidence.py.

Usage: python benchmarks/clock_margins.py [SUBMISSIONS_DIR ...]
(default: ../shared/io500-data/submissions). For every relation the rules check, prints per era
the number of phases it could be checked on, the worst case seen and its use of the tolerance
(observed excess / allowed slack: below 1.0 passes). docs/evidence.md quotes its output.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring.model import Phase, ReadError, RunResult  # noqa: E402
from scoring.readers.locate import read_runs  # noqa: E402
from scoring.rules.evidence import CLOCK_SLACK_S, _drift_slack, _run_order  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"


@dataclass
class Worst:
    checked: int = 0
    ratio: float = -float("inf")
    where: str = ""

    def add(self, excess: float, slack: float, where: str) -> None:
        self.checked += 1
        ratio = excess / slack
        if ratio > self.ratio:
            self.ratio, self.where = ratio, where


def runs(corpora: list[Path]) -> Iterator[tuple[str, RunResult]]:
    for corpus in corpora:
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            try:
                found = read_runs(folder)
            except ReadError:
                continue
            for run in found:
                yield f"{folder.name}/{run.path}", run


def seconds(start: dt.datetime | None, end: dt.datetime | None) -> float | None:
    return (end - start).total_seconds() if start and end else None


def measure(name: str, run: RunResult, table: dict[tuple[str, str], Worst]) -> None:
    era = run.era.value
    previous_end: dt.datetime | None = None
    for phase in _run_order(run):
        where = f"{name} {phase.name}"
        measure_phase(era, where, phase, table)
        start, end = phase.recorded.t_start, phase.recorded.t_end
        if start is not None and previous_end is not None:
            table["phase starts after the previous one ended", era].add(
                (previous_end - start).total_seconds(), CLOCK_SLACK_S, where
            )
        previous_end = end or previous_end


def measure_phase(era: str, where: str, phase: Phase, table: dict[tuple[str, str], Worst]) -> None:
    wall = seconds(phase.recorded.t_start, phase.recorded.t_end)
    t_delta = phase.recorded.t_delta
    if wall is not None and t_delta is not None:
        table["t_delta within t_start..t_end", era].add(t_delta - wall, _drift_slack(t_delta), where)
    raw = phase.raw
    if raw is None:
        return
    # Any contradiction is an error: its count is the use of a tolerance of less than one.
    table["the tool's own figures agree", era].add(float(len(raw.contradictions)), 1.0, where)
    span = seconds(raw.started, raw.finished)
    if span is not None and t_delta is not None:
        table["tool's clocks within t_delta", era].add(span - t_delta, _drift_slack(t_delta), where)
    skew = (raw.open_close_s or 0.0) if raw.tool == "ior" else 0.0
    if raw.time_low is not None and raw.tool in ("ior", "mdtest"):
        if span is not None:
            table[f"{raw.tool} time within its own clocks", era].add(
                raw.time_low - skew - span, _drift_slack(span), where
            )
        if t_delta is not None:
            table[f"{raw.tool} time within t_delta", era].add(
                raw.time_low - skew - t_delta, _drift_slack(t_delta), where
            )


def main(argv: list[str]) -> int:
    corpora = [Path(arg) for arg in argv[1:]] or [DEFAULT_CORPUS]
    table: dict[tuple[str, str], Worst] = defaultdict(Worst)
    for name, run in runs(corpora):
        measure(name, run, table)
    print("| relation | era | phases checked | worst use of the tolerance | where |")
    print("| --- | --- | ---: | ---: | --- |")
    for (relation, era), worst in sorted(table.items()):
        print(f"| {relation} | {era} | {worst.checked} | {worst.ratio:.2f} | {worst.where} |")
    failing = [key for key, worst in table.items() if worst.ratio >= 1.0]
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
