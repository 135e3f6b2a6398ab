"""Recognising a run by what it is, not by the bytes or the names that carried it.

The archive's SHA-256 only catches the same upload sent twice; a run re-packed (another compressor,
a file added, a folder or archive renamed) has new bytes. Names are the uploader's to choose, so none
counts: not the result folder's name, not the file names, not the timestamp (which IO500 takes from
the folder's name). A run is what it measured and when: every phase's value and run time as the
benchmark printed them, the phase clocks result.txt records (t_start / t_end, C application from
ISC20 on), and the configuration the C application wrote into the run's own folder (config.ini).
Two distinct real runs never share all of them (benchmarks/run_identity.py checks the whole shared
corpus); the same run re-packed always does.

The fingerprint is computed from plain values, so stored rows (Result and PhaseResult) give the same
digest as a freshly read run: the migration that recomputes stored fingerprints uses
`fingerprint_of` on the rows, ingest uses `run_fingerprint` on the reader's RunResult.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.model import Era, RunResult

# Phase values are compared as the benchmark printed them: a re-computation here must not differ.
SIGNIFICANT_DIGITS = 6
# The wall-clock moments result.txt gives each phase section (C application): they pin the run in time
# far more tightly than the folder-name timestamp, and live inside a file, not in a name.
CLOCK_KEYS = ("t_start", "t_end")
# Bumped whenever what the digest covers changes; stored fingerprints are then recomputed.
IDENTITY_VERSION = 2


@dataclass(frozen=True)
class PhaseIdentity:
    name: str
    value: float | None
    time_s: float | None
    values: Mapping[str, str]


def _rounded(value: float | None) -> str:
    # Stored rows hold None where the reader had a non-finite number: both read the same.
    if value is None or not math.isfinite(value):
        return "nan"
    return f"{value:.{SIGNIFICANT_DIGITS}g}"


def _own_config(era: str, config: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """The configuration read from the run's own folder: the C application's config.ini. The shell
    eras' io500.sh may be read from the folder above the run, so re-packing the result folder alone
    would change it; their console dump repeats the folder's name. Neither counts for them."""
    if era in {e.value for e in Era if e.is_shell} or not era:
        return {}
    return {str(section): {str(k): str(v) for k, v in options.items()} for section, options in config.items()}


def fingerprint_of(
    phases: Iterable[PhaseIdentity], *, era: str, config: Mapping[str, Mapping[str, str]]
) -> str:
    """The digest of a run's identity; empty when the run says too little to be recognised (no phase
    with a printed value)."""
    rows = sorted(
        (
            phase.name,
            _rounded(phase.value),
            _rounded(phase.time_s),
            *(str(phase.values.get(key, "")) for key in CLOCK_KEYS),
        )
        for phase in phases
    )
    if not any(row[1] != "nan" for row in rows):
        return ""
    identity = {"version": IDENTITY_VERSION, "phases": rows, "config": _own_config(era, config)}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def run_fingerprint(run: RunResult) -> str:
    """The fingerprint of a run as the readers return it (every phase, scored or not)."""
    phases = [
        PhaseIdentity(phase.name, phase.value, phase.time_s, phase.values)
        for phase in (*run.phases.values(), *run.extra_phases.values())
    ]
    return fingerprint_of(phases, era=run.era.value, config=run.config)
