"""Print, per output era, how many runs of the shared corpus carry each kind of evidence and how
many of those agree with their summary (the table of docs/evidence.md).

Usage: python benchmarks/evidence_table.py [SUBMISSIONS_DIR]
(default: ../shared/io500-data/submissions next to the repository). Every run goes through
`scoring.verify` and `scoring.rules.evidence.evidence_report`, so the table counts exactly what
the registry checks.

A cell reads `carried / agreeing`:
- result.txt, config.ini: the file is there as a regular, readable file / its hash (score hash,
  config hash) matches what it holds and result.txt's values are the summary's.
- raw IOR, raw mdtest, raw find: the run has the tool's own output for every phase of that kind /
  every value re-derived from it agrees with the summary. An external find script writes none (the
  count of such runs follows in brackets); io-500-dev runs are read from their raw output.
- per-rank CSVs: every ior and mdtest phase has its CSV / every sum of ranks agrees.
- timestamps: the run has clocks or printed runtimes to compare / every comparison agrees.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError, Verification, verify  # noqa: E402  (the repository root goes on sys.path first)
from scoring.model import Era  # noqa: E402
from scoring.rules.evidence import (  # noqa: E402
    AGREES,
    DISAGREES,
    MISSING,
    NOT_RECORDED,
    OWN_OUTPUT,
    EvidenceReport,
    PhaseEvidence,
    evidence_report,
)

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"
ERAS = list(Era)
HASH_MATCHES = {"score-hash-verified", "score-hash-legacy", "score-hash-invalid-run"}
COLUMNS = ("result.txt", "config.ini", "raw IOR", "raw mdtest", "raw find", "per-rank CSVs", "timestamps")


def _kind_cell(phases: list[PhaseEvidence], kind: str) -> tuple[bool, bool, bool]:
    """(carried for every phase of the kind, all comparisons agree, not recorded by the tool)."""
    mine = [p for p in phases if p.kind == kind]
    if not mine:
        return False, False, False
    if all(p.value == NOT_RECORDED for p in mine):
        return False, False, True
    carried = all(p.value not in (MISSING, NOT_RECORDED) for p in mine)
    compared = [p for p in mine if p.value in (AGREES, DISAGREES, OWN_OUTPUT)]
    agrees = carried and bool(compared) and all(p.value in (AGREES, OWN_OUTPUT) for p in compared)
    return carried, agrees, False


def _ranks_cell(phases: list[PhaseEvidence]) -> tuple[bool, bool]:
    mine = [p for p in phases if p.kind in ("ior", "mdtest")]
    if not mine or any(p.ranks in (None, MISSING) for p in mine):
        return False, False
    compared = [p.ranks for p in mine if p.ranks in (AGREES, DISAGREES)]
    return True, bool(compared) and all(status == AGREES for status in compared)


def _clock_cell(phases: list[PhaseEvidence]) -> tuple[bool, bool]:
    compared = [p.clock for p in phases if p.clock in (AGREES, DISAGREES)]
    return bool(compared), bool(compared) and all(status == AGREES for status in compared)


def run_cells(verification: Verification, report: EvidenceReport) -> dict[str, tuple[bool, bool]]:
    codes = {finding.code for finding in verification.findings}
    cells: dict[str, tuple[bool, bool]] = {}
    result_there = report.files.get("result.txt") == "present"
    config_there = report.files.get("config.ini") == "present"
    cells["result.txt"] = (
        result_there,
        result_there and bool(codes & HASH_MATCHES) and "read-sources-disagree" not in codes,
    )
    cells["config.ini"] = (config_there, config_there and "config-hash-verified" in codes)
    for column, kind in (("raw IOR", "ior"), ("raw mdtest", "mdtest"), ("raw find", "find")):
        carried, agrees, not_recorded = _kind_cell(report.phases, kind)
        cells[column] = (carried, agrees)
        if not_recorded:
            cells["find by script"] = (True, True)
    cells["per-rank CSVs"] = _ranks_cell(report.phases)
    cells["timestamps"] = _clock_cell(report.phases)
    return cells


def main(argv: list[str]) -> int:
    corpus = Path(argv[1]) if len(argv) > 1 else DEFAULT_CORPUS
    if not corpus.is_dir():
        print(f"No corpus folder at {corpus}.", file=sys.stderr)
        return 2
    runs: Counter[Era] = Counter()
    valid: Counter[Era] = Counter()
    carried: defaultdict[tuple[Era, str], int] = defaultdict(int)
    agreeing: defaultdict[tuple[Era, str], int] = defaultdict(int)
    folders = sorted(p for p in corpus.iterdir() if p.is_dir())
    unreadable = 0
    for folder in folders:
        try:
            verifications = verify(folder)
        except ReadError:
            unreadable += 1
            continue
        for verification in verifications:
            era = verification.result.era
            runs[era] += 1
            valid[era] += verification.valid
            cells = run_cells(verification, evidence_report(verification.result))
            for column, (has, agrees) in cells.items():
                carried[era, column] += has
                agreeing[era, column] += agrees
    print(
        f"Evidence in the shared corpus ({len(folders)} submissions, {sum(runs.values())} runs, "
        f"{unreadable} without any result), {dt.date.today().isoformat()}"
    )
    print()
    print("| era | runs | valid | " + " | ".join(COLUMNS) + " |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for era in ERAS:
        if not runs[era]:
            continue
        row = []
        for column in COLUMNS:
            if era.is_shell and column in ("result.txt", "config.ini"):
                row.append("n/a")
                continue
            cell = f"{carried[era, column]} / {agreeing[era, column]}"
            if column == "raw find" and carried[era, "find by script"]:
                cell += f" ({carried[era, 'find by script']} script)"
            row.append(cell)
        print(f"| {era.value} | {runs[era]} | {valid[era]} | " + " | ".join(row) + " |")
    total = [
        f"{sum(carried[era, column] for era in ERAS)} / {sum(agreeing[era, column] for era in ERAS)}"
        for column in COLUMNS
    ]
    print(f"| all | {sum(runs.values())} | {sum(valid.values())} | " + " | ".join(total) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
