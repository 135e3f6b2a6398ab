"""Build RunResults by hand for rule tests: a valid C-era run, changed one fact at a time."""

from __future__ import annotations

import dataclasses
from typing import Any

from scoring.hashes import config_hash, format_hash, phase_seed, score_hash
from scoring.model import (
    BW_PHASES,
    GIB_PER_S,
    KIOPS,
    MD_PHASES,
    SCORED_PHASES,
    Era,
    Phase,
    Recorded,
    RunResult,
    Score,
)
from scoring.readers.phases import read_recorded
from scoring.rules.score import compute_score

TIMESTAMP = "2023.03.22-18.10.33"
VERSION = "io500-isc23"

# Plausible values of a small real system (GiB/s for ior-*, kIOPS otherwise).
VALUES: dict[str, float] = {
    "ior-easy-write": 12.490172,
    "ior-hard-write": 1.029291,
    "ior-easy-read": 17.154349,
    "ior-hard-read": 1.692253,
    "mdtest-easy-write": 86.997539,
    "mdtest-hard-write": 8.631220,
    "find": 1433.959342,
    "mdtest-easy-stat": 333.968912,
    "mdtest-hard-stat": 86.926162,
    "mdtest-easy-delete": 58.250641,
    "mdtest-hard-read": 11.378800,
    "mdtest-hard-delete": 10.211891,
}
TIMES: dict[str, float] = dict.fromkeys(SCORED_PHASES, 400.0) | {"find": 32.3657}
FIND_TOTAL_FILES = 46_390_401
FIND_VALUES = {"found": "83937", "total-files": str(FIND_TOTAL_FILES), "t_delta": "32.3657"}

SEED_FAMILY = {
    "ior-easy": "ior-easy",
    "ior-hard": "ior-hard",
    "mdtest-easy": "mdtest-easy",
    "mdtest-hard": "mdtest-hard",
}


IOR_COMMANDS: dict[str, str] = {
    "ior-easy-write": "-o /d/ior-easy/f -t 2m -b 9920000m -F -w -D 300 -O stoneWallingWearOut=1 -a POSIX",
    "ior-easy-read": "-o /d/ior-easy/f -t 2m -b 9920000m -F -r -R -a POSIX",
    "ior-hard-write": "-o /d/ior-hard/file -t 47008 -b 47008 -s 10000000 -w -D 300 -a POSIX "
    "-O stoneWallingWearOut=1",
    "ior-hard-read": "-o /d/ior-hard/file -t 47008 -b 47008 -s 10000000 -r -R -a POSIX",
}
MDTEST_EXTRA = {"write": "-C -Y -W 300", "stat": "-T", "read": "-E -X", "delete": "-r"}


def _command(name: str) -> str:
    """The command the application (B4+) would have run for the phase."""
    family, operation = name.rsplit("-", 1) if "-" in name else (name, "")
    seed = phase_seed(family, TIMESTAMP) if family in SEED_FAMILY else None
    if name in IOR_COMMANDS:
        return f"./ior -C -Q 1 -g -G={seed} -k -e {IOR_COMMANDS[name]}"
    if family == "mdtest-easy":
        return (
            f"./mdtest -n 1000000 -u -L -F -P -G {seed} -N 1 -d /d/mdtest-easy {MDTEST_EXTRA[operation]} "
            "-a POSIX"
        )
    if family == "mdtest-hard":
        return (
            f"./mdtest -n 1000000 -t -w 3901 -e 3901 -P -G={seed} -N 1 -F -d /d/mdtest-hard "
            f"{MDTEST_EXTRA[operation]} -a POSIX"
        )
    return "./pfind /d -newer /r/timestampfile -size 3901c -name *01* -C -q 10000"


def make_phase(name: str, value: float | None = None, **changes: Any) -> Phase:
    """A phase of a valid run; its recorded clocks and counts are read from `values`, as a reader does."""
    phase = Phase(
        name=name,
        value=VALUES.get(name, 1.0) if value is None else value,
        unit=GIB_PER_S if name.startswith("i") else KIOPS,
        time_s=TIMES.get(name, 100.0),
        scored=name in SCORED_PHASES,
        command=_command(name),
        values=dict(FIND_VALUES) if name == "find" else {},
    )
    phase = dataclasses.replace(phase, **changes)
    return (
        phase if "recorded" in changes else dataclasses.replace(phase, recorded=read_recorded(phase.values))
    )


CONFIG: dict[str, dict[str, str]] = {
    "global": {
        "datadir": "/scratch/io500/datafiles",
        "timestamp-datadir": "TRUE",
        "resultdir": "./results",
        "timestamp-resultdir": "TRUE",
        "api": "POSIX",
        "drop-caches": "FALSE",
        "drop-caches-cmd": 'sudo -n bash -c "echo 3 > /proc/sys/vm/drop_caches"',
        "verbosity": "1",
        "scc": "FALSE",
    },
    "debug": {"stonewall-time": "300", "pause-dir": ""},
    "ior-easy": {"transferSize": "2m", "blockSize": "9920000m", "filePerProc": "TRUE"},
    "ior-hard": {"segmentCount": "10000000"},
    "mdtest-easy": {"n": "1000000"},
    "mdtest-hard": {"n": "1000000", "files-per-dir": ""},
    "find": {"external-mpi-args": "", "external-extra-args": "", "pfind-queue-length": "10000"},
}


def with_hashes(run: RunResult) -> RunResult:
    """Fill result_ini and config-hash the way the application would have written them."""
    claimed = run.claimed
    assert claimed is not None and claimed.bw is not None and claimed.md is not None
    assert claimed.score is not None
    md, bw, total = f"{claimed.md:f}", f"{claimed.bw:f}", f"{claimed.score:f}"
    phase_scores = {name: f"{phase.value:f}" for name, phase in run.phases.items()}
    stored = score_hash(run.version or "", phase_scores, md, bw, total)
    cfg = format_hash(config_hash([(s, list(o.items())) for s, o in run.config.items()]))
    run.result_ini = [
        ("", []),
        (
            "run",
            [("version", run.version or ""), ("config-hash", cfg), ("result-dir", f"./results/{TIMESTAMP}")],
        ),
        *[(name, [("score", score)]) for name, score in phase_scores.items()],
        ("SCORE", [("MD", md), ("BW", bw), ("SCORE", total), ("hash", format_hash(stored))]),
    ]
    run.result_recorded = recorded_sections(run.result_ini)
    run.config_hash = cfg
    return run


def recorded_sections(result_ini: list[tuple[str, list[tuple[str, str]]]]) -> list[tuple[str, Recorded]]:
    """The typed clocks and counts of each section, as the C-application reader hands them on."""
    return [(name, read_recorded(dict(items))) for name, items in result_ini]


def make_run(era: Era = Era.C_SC21, **changes: Any) -> RunResult:
    """A valid run of the given era; `phases=` replaces phases by name, other keywords set fields."""
    phases = {name: make_phase(name) for name in SCORED_PHASES}
    phases.update(changes.pop("phases", {}))
    run = RunResult(
        path=".",
        era=era,
        version=None if era.is_shell else VERSION,
        mode="standard",
        timestamp=TIMESTAMP,
        phases=phases,
        config={section: dict(options) for section, options in CONFIG.items()} if not era.is_shell else {},
        config_source=None if era.is_shell else "config.ini",
    )
    for key, value in changes.items():
        setattr(run, key, value)
    if "result_ini" in changes and "result_recorded" not in changes:
        run.result_recorded = recorded_sections(run.result_ini)
    if "claimed" not in changes:
        computed = compute_score(run)
        run.claimed = Score(
            bw=round(computed.bw or 0.0, 6),
            md=round(computed.md or 0.0, 6),
            score=round(computed.score or 0.0, 6),
        )
    if not era.is_shell and "result_ini" not in changes and run.claimed is not None:
        with_hashes(run)
    return run


__all__ = ["BW_PHASES", "MD_PHASES", "make_phase", "make_run", "with_hashes"]
