"""The IO500 scoring engine: read result files of every era, recompute scores, check the rules.

Pure Python with no Django import (tests/scoring/test_no_django_import.py enforces it), so the
registry, the CLI (`python -m scoring verify`) and the benchmarks share one implementation.
"""

from __future__ import annotations

from scoring.model import Finding, ReadError, RunResult, Severity, Verification
from scoring.readers.locate import read_runs
from scoring.verify import verify, verify_run

__all__ = [
    "Finding",
    "ReadError",
    "RunResult",
    "Severity",
    "Verification",
    "read_runs",
    "verify",
    "verify_run",
]
