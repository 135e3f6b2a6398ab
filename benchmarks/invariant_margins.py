"""Measure the cross-phase physics (scoring/rules/physics.py) on every run of one or more corpora.

Usage: python benchmarks/invariant_margins.py [SUBMISSIONS_DIR ...]
(default: ../shared/io500-data/submissions next to the repository). A larger set, such as every
submission folder of IO500/submission-data laid side by side, is measured the same way; nothing of
it is stored here.

For every invariant and output era it prints: the runs where the invariant could be checked (and
the comparisons made), the largest relative deviation seen between the two sides (midpoints; for
find's one-sided bound, how far the files scanned exceed it), the largest tolerance that printing
allowed on a comparison (half-widths of both ranges: the tools' printed digits, C floats), and
every comparison that does not hold, named by run. The tolerance is not chosen: it is what the
tools printed, so a deviation larger than it is a contradiction, not noise.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError  # noqa: E402  (the repository root goes on sys.path first)
from scoring.model import Era  # noqa: E402
from scoring.readers.locate import read_runs  # noqa: E402
from scoring.rules.physics import INVARIANTS, Measurement, physics_measurements  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"


class Cell:
    def __init__(self) -> None:
        self.runs: set[str] = set()
        self.comparisons = 0
        self.deviation = 0.0
        self.tolerance = 0.0
        self.broken: list[str] = []

    def add(self, run: str, item: Measurement) -> None:
        self.runs.add(run)
        self.comparisons += 1
        self.deviation = max(self.deviation, item.deviation)
        self.tolerance = max(self.tolerance, item.tolerance)
        if not item.holds:
            self.broken.append(f"{run} {item.phase} (deviation {item.deviation:.3g})")


def measure(corpus: Path) -> tuple[dict[tuple[str, Era], Cell], dict[Era, int]]:
    cells: dict[tuple[str, Era], Cell] = defaultdict(Cell)
    runs_per_era: dict[Era, int] = defaultdict(int)
    for folder in sorted(path for path in corpus.iterdir() if path.is_dir()):
        try:
            runs = read_runs(folder)
        except ReadError:
            continue
        for run in runs:
            runs_per_era[run.era] += 1
            name = f"{folder.name}/{run.path}"
            for item in physics_measurements(run):
                cells[(item.invariant, run.era)].add(name, item)
    return cells, runs_per_era


def report(corpus: Path) -> None:
    cells, runs_per_era = measure(corpus)
    print(f"## {corpus}: {sum(runs_per_era.values())} runs")
    print()
    print(
        "| invariant | era | runs | checked | comparisons | largest deviation | largest tolerance | broken |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    broken: list[str] = []
    for invariant in INVARIANTS:
        for era in Era:
            if not runs_per_era.get(era):
                continue
            cell = cells.get((invariant, era))
            if cell is None:
                print(f"| {invariant} | {era.value} | {runs_per_era[era]} | 0 | 0 | - | - | 0 |")
                continue
            print(
                f"| {invariant} | {era.value} | {runs_per_era[era]} | {len(cell.runs)} | {cell.comparisons} "
                f"| {cell.deviation:.2g} | {cell.tolerance:.2g} | {len(cell.broken)} |"
            )
            broken.extend(f"{invariant}: {entry}" for entry in cell.broken)
    print()
    for entry in broken:
        print(f"- broken: {entry}")
    print()


def main(argv: list[str]) -> None:
    corpora = [Path(arg) for arg in argv] or [DEFAULT_CORPUS]
    for corpus in corpora:
        report(corpus)


if __name__ == "__main__":
    main(sys.argv[1:])
