"""Verify the whole shared IO500 corpus in one process and report the throughput.

Usage: python benchmarks/verify_corpus.py [SUBMISSIONS_DIR]
(default: ../shared/io500-data/submissions next to the repository). Interpreter start and imports
are not timed; each submission folder is read and verified from scratch.
Target (issue 2): the whole corpus in under 10 s on one core, median under 20 ms per submission.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError, verify  # noqa: E402  (the repository root goes on sys.path first)

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str]) -> int:
    corpus = Path(argv[1]) if len(argv) > 1 else DEFAULT_CORPUS
    if not corpus.is_dir():
        print(f"No corpus folder at {corpus}.", file=sys.stderr)
        return 2
    folders = sorted(p for p in corpus.iterdir() if p.is_dir())
    timings: list[float] = []
    runs = invalid = unreadable = 0
    started = time.perf_counter()
    for folder in folders:
        t0 = time.perf_counter()
        try:
            verifications = verify(folder)
        except ReadError:
            unreadable += 1
            verifications = []
        timings.append(time.perf_counter() - t0)
        runs += len(verifications)
        invalid += sum(1 for v in verifications if not v.valid)
    total = time.perf_counter() - started
    if not timings:
        print(f"No submission folders in {corpus}.", file=sys.stderr)
        return 2
    print(f"corpus        {corpus}")
    print(f"submissions   {len(folders)} ({runs} runs, {invalid} invalid, {unreadable} unreadable)")
    print(f"total         {total:.2f} s")
    print(f"throughput    {len(folders) / total:.1f} submissions/s")
    print(f"median        {statistics.median(timings) * 1000:.1f} ms per submission")
    print(f"p95           {percentile(timings, 0.95) * 1000:.1f} ms per submission")
    print(f"slowest       {max(timings) * 1000:.1f} ms ({folders[timings.index(max(timings))].name})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
