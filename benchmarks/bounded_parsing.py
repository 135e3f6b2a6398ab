"""How long a real run with 1 MiB hostile lines in one of its files takes to verify, per file.

Usage: python benchmarks/bounded_parsing.py
The planted copies are those of tests/scoring/test_bounded_parsing.py (which asserts the budget);
this prints the slowest verification of every file, for docs/evidence.md ("Bounded parsing").
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.scoring.test_bounded_parsing import (  # noqa: E402  (the repository root goes on sys.path first)
    _cases,
    copy_runs,
    slowest_planted_verification,
)


def main() -> int:
    with tempfile.TemporaryDirectory() as root:
        copies = copy_runs(Path(root))
        results = []
        for era, name in _cases():
            lines, slowest = slowest_planted_verification(copies[era], name)
            results.append((slowest, era, name, lines))
            print(f"{era:<11} {name:<36} {lines:>3} lines of 1 MiB   slowest {slowest:.2f} s", flush=True)
        worst = max(results)
        print(f"{len(results)} files, slowest planted run {worst[0]:.2f} s ({worst[1]} {worst[2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
