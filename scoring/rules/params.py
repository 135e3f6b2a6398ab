"""The fixed parameters of the hard tests, the stonewall options, read verification, the per-phase
seeds and the benchmark version, read from the exact command lines of each phase.

Only what the era's own benchmark did is required (io500-format.md 6.4): the shell script had no
stonewall before 2018-07-14 and no mdtest -X before September 2019; timestamp-derived seeds exist
from io500-isc21 (B3) on. A phase without a recorded command is not judged here.
"""

from __future__ import annotations

import datetime as dt
import re

from scoring.cmdline import CommandLine, option_number
from scoring.codes import finding
from scoring.hashes import phase_seed
from scoring.model import Era, Finding, Phase, RunResult
from scoring.rules.common import run_date, timestamp_of
from scoring.tokens import seed_family

IOR_HARD_PHASES = ("ior-hard-write", "ior-hard-read")
MDTEST_HARD_PHASES = ("mdtest-hard-write", "mdtest-hard-stat", "mdtest-hard-read", "mdtest-hard-delete")
IOR_WRITES = ("ior-easy-write", "ior-hard-write")
MDTEST_WRITES = ("mdtest-easy-write", "mdtest-hard-write")
IOR_HARD_BYTES = "47008"
MDTEST_HARD_BYTES = "3901"
STONEWALL = "300"
SHELL_STONEWALL_SINCE = dt.date(2018, 7, 14)  # io-500-dev added -D/-W and wear-out
SHELL_MDTEST_VERIFY_SINCE = dt.date(2019, 9, 1)  # io-500-dev added mdtest -X in August 2019
SEEDED_ERAS = (Era.C_ISC21, Era.C_SC21, Era.C_ISC25)
# The version the registry's own runner (runner/) prints and hashes, e.g. "io500-runner-1.0.0".
BUNDLED_RUNNER_RE = re.compile(r"^io500-runner-\d+\.\d+\.\d+$")
VERSION_RE = re.compile(
    r"^(?P<tag>io500-[A-Za-z0-9_.]+(?:-[A-Za-z][A-Za-z0-9_.]*)*?)"
    r"(?:-(?P<ahead>\d+)-g(?P<sha>[0-9a-f]{7,40}))?(?:-(?P<dirty>\d+))?$"
)
# The longest version of both real corpora has 33 characters (io500-isc20_v4-2-g20efd247106c-17). The
# pattern is linear, but a quarter of a second per MiB, and a version is matched several times: text
# longer than this is no version the application prints, and is not matched at all.
MAX_VERSION_CHARS = 256


def version_match(text: str) -> re.Match[str] | None:
    """VERSION_RE's match of a stripped version text, or None (also for a text too long to be one)."""
    return VERSION_RE.match(text) if len(text) <= MAX_VERSION_CHARS else None


def _commands(run: RunResult, names: tuple[str, ...]) -> list[tuple[Phase, CommandLine]]:
    found = []
    for name in names:
        phase = run.phases.get(name)
        if phase is not None and phase.command:
            found.append((phase, CommandLine.parse(phase.command)))
    return found


# -I (files-per-dir) was a plain tunable of the shell script and of B1-B3; from B4 (io500-sc21)
# on it is a debug option that invalidates the run.
FILES_PER_DIR_TOLERATED = (
    Era.DEV_SCRIPT,
    Era.SHELL_SC17,
    Era.SHELL,
    Era.SHELL_GIB,
    Era.C_ISC20,
    Era.C_SC20,
    Era.C_ISC21,
)


def _mdtest_hard_problems(phase: Phase, cmd: CommandLine) -> list[str]:
    problems = []
    for option, required_in in (("-w", "mdtest-hard-write"), ("-e", "mdtest-hard-read")):
        value = cmd.value(option)
        if value != MDTEST_HARD_BYTES and (value is not None or phase.name == required_in):
            problems.append(f"{option} {value}" if value is not None else f"no {option}")
    if cmd.has_flag("-u"):
        problems.append("-u (a directory per rank)")
    return problems


def hard_parameters(run: RunResult) -> list[Finding]:
    findings = []
    for phase, cmd in _commands(run, IOR_HARD_PHASES):
        file_per_proc = cmd.has_flag("-F")
        if cmd.value("-t") != IOR_HARD_BYTES or cmd.value("-b") != IOR_HARD_BYTES or file_per_proc:
            found = cmd.shown("-t", "-b") + (", -F (a file per process)" if file_per_proc else "")
            findings.append(finding("ior-hard-params", phase=phase.name, found=found))
    for phase, cmd in _commands(run, MDTEST_HARD_PHASES):
        problems = _mdtest_hard_problems(phase, cmd)
        files_per_dir = cmd.value("-I")
        if files_per_dir is not None:
            spread = f"-I {files_per_dir}"
            if run.era in FILES_PER_DIR_TOLERATED:
                findings.append(finding("mdtest-hard-files-per-dir", phase=phase.name, found=spread))
            else:
                problems.append(f"{spread} (files spread over directories)")
        if problems:
            findings.append(finding("mdtest-hard-params", phase=phase.name, found=", ".join(problems)))
    return findings


def _era_has_stonewall(run: RunResult) -> bool:
    if not run.era.is_shell or run.era is Era.SHELL_GIB:
        return True
    date = run_date(run)
    return date is not None and date >= SHELL_STONEWALL_SINCE


def _stonewall_finding(
    run: RunResult, phase: Phase, value: str | None, found: str, expected: str
) -> Finding | None:
    """C eras: the application always passes 300, anything else is an error. Shell era: the
    stonewall was a script variable; switched off (absent or 0) the writes simply run to their
    full size, which the script allowed; a short non-zero stonewall shortens the writes: error."""
    if value == STONEWALL:
        return None
    if run.era.is_shell and (value is None or option_number(value) == 0):
        return finding("stonewall-disabled", phase=phase.name, found=found)
    return finding("stonewall-options", phase=phase.name, expected=expected, found=found)


def stonewall_options(run: RunResult) -> list[Finding]:
    if not _era_has_stonewall(run):
        return []
    findings: list[Finding | None] = []
    for phase, cmd in _commands(run, IOR_WRITES):
        wear_out = cmd.o_options().get("stoneWallingWearOut")
        stonewall = cmd.value("-D")
        shown = f"{cmd.shown('-D')}, " + (
            f"stoneWallingWearOut={wear_out}" if wear_out is not None else "no stoneWallingWearOut"
        )
        expected = "-D 300 -O stoneWallingWearOut=1"
        if stonewall == STONEWALL and wear_out != "1":
            findings.append(finding("stonewall-options", phase=phase.name, expected=expected, found=shown))
        else:
            findings.append(_stonewall_finding(run, phase, stonewall, shown, expected))
    for phase, cmd in _commands(run, MDTEST_WRITES):
        findings.append(_stonewall_finding(run, phase, cmd.value("-W"), cmd.shown("-W"), "-W 300"))
    return [f for f in findings if f is not None]


def read_verification(run: RunResult) -> list[Finding]:
    findings = []
    for phase, cmd in _commands(run, ("ior-easy-read", "ior-hard-read")):
        if not cmd.has_flag("-R"):
            findings.append(finding("read-verify-missing", phase=phase.name, option="-R"))
    date = run_date(run)
    mdtest_verifies = not run.era.is_shell or (date is not None and date >= SHELL_MDTEST_VERIFY_SINCE)
    if mdtest_verifies:
        for phase, cmd in _commands(run, ("mdtest-hard-read",)):
            if not cmd.has_flag("-X"):
                findings.append(finding("read-verify-missing", phase=phase.name, option="-X"))
    return findings


def seeds(run: RunResult) -> list[Finding]:
    if run.era not in SEEDED_ERAS:
        return []
    timestamp = timestamp_of(run)
    if timestamp is None:
        return []
    findings = []
    for phase in (*run.phases.values(), *run.extra_phases.values()):
        # One table with the run-token check: ior-rnd4K-easy-read carries ior-easy's seed.
        family = seed_family(phase.name)
        if family is None or not phase.command:
            continue
        expected = phase_seed(family, timestamp)
        for seed in CommandLine.parse(phase.command).values("-G"):
            if seed != str(expected):
                findings.append(
                    finding(
                        "seed-mismatch",
                        phase=phase.name,
                        found=seed,
                        expected=expected,
                        timestamp=timestamp,
                    )
                )
                break
    return findings


def version(run: RunResult) -> list[Finding]:
    if run.version is None:
        return []  # the era printed no version
    text = run.version.strip()
    if not text:
        return [finding("version-empty")]
    if is_bundled_runner(text):
        return [finding("version-bundled-runner", version=text)]
    match = version_match(text)
    if match is None:
        shown = (
            text
            if len(text) <= MAX_VERSION_CHARS
            else f"{text[:MAX_VERSION_CHARS]}... ({len(text):,} characters)"
        )
        return [finding("version-unrecognised", version=shown)]
    findings = []
    if match["ahead"]:
        findings.append(finding("version-dev-build", version=text, ahead=match["ahead"], tag=match["tag"]))
    if match["dirty"]:
        findings.append(finding("version-dirty", version=text, lines=match["dirty"]))
    return findings


def is_bundled_runner(text: str | None) -> bool:
    """A run of the registry's bundled runner, recognised by the version it prints."""
    return bool(text) and BUNDLED_RUNNER_RE.match((text or "").strip()) is not None


def is_release_version(text: str | None) -> bool:
    """A plain release tag: no commits past it, no local diff, not empty."""
    if not text:
        return False
    match = version_match(text.strip())
    return match is not None and not match["ahead"] and not match["dirty"]


def param_rules(run: RunResult) -> list[Finding]:
    return [
        *hard_parameters(run),
        *stonewall_options(run),
        *read_verification(run),
        *seeds(run),
        *version(run),
    ]
