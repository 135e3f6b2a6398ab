"""Recognising a run by what it is, not by the bytes that carried it.

The archive's SHA-256 only catches the same upload sent twice; a run re-packed (another compressor,
a file added, a folder renamed) has new bytes. A run is the same run when its timestamp, its result
folder's name, its phase values and its configuration hash are: no two real runs share all four.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import PurePosixPath

from scoring.model import RunResult

# Phase values are compared as the benchmark printed them: a re-computation here must not differ.
SIGNIFICANT_DIGITS = 6


def _rounded(value: float) -> str:
    return f"{value:.{SIGNIFICANT_DIGITS}g}" if math.isfinite(value) else "nan"


def run_fingerprint(run: RunResult) -> str:
    """A stable digest of the run's identity; empty when the run says too little to be recognised."""
    phases = sorted((name, _rounded(phase.value)) for name, phase in run.phases.items())
    if not run.timestamp or not phases:
        return ""
    identity = {
        "timestamp": run.timestamp,
        "folder": PurePosixPath(run.path).name,
        "phases": phases,
        "config_hash": run.config_hash or "",
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
