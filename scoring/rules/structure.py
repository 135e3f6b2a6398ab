"""Structure a submitter cannot use: result.txt as the IO500 C application writes it, and nothing else.

Each check here closes a way to switch another check off or to pair a forged value with a verified
hash by editing the layout of the summary files rather than their numbers (issue 22, item 4):

- Sections and keys: the application writes each section once, in the order of its phase table
  (src/phase-definitions.h, the same order in every release; optional phases interleave in extended
  mode), each key once. Readers take some values from the first copy of a section and the hash
  from the last, so a copy is never harmless. None of the 450 honest runs of both corpora has one.
- Mode: `mode` in the header decides which phases exist; `extended` runs every optional phase and
  writes [SCOREX], `standard` none of them. A header that says otherwise was edited.
- Clocks: t_start / t_end are `YYYY-MM-DD HH:MM:SS` and t_delta a `%.4f` number in every version
  (u_print_timestamp, PRINT_PAIR); an unreadable one would silently switch the clock checks off.
  The application writes all three into every phase when [global] verbosity > 0, none at 0.
- The application's own verdicts: it writes `; ERROR INVALID ...` into result.txt on conditions
  that its tools' outputs and its config.ini still show (stonewall-time against the minimum write
  time, files-per-dir, IOR's own write time and errors, a phase shorter than the stonewall or the
  minimum, a zero score, a find that found nothing, valid=NO in the score hash). Each condition is
  re-derived here; when it holds and the line is not in result.txt, the line was removed.
- SCC mode (sc20 on) lowers the minimum write time to 30 s: a run whose outputs show that minimum
  (its own complaint naming 30 s, or a 30-s stonewall it did not complain about) was run with
  scc = TRUE, whatever config.ini says now.
- Version: each release writes a known set of header keys, phases and command options
  (RELEASE_GROUPS, FEATURES: read from the application's sources at every tag and confirmed on
  every release-labelled run of both corpora). A release claim that the outputs contradict was
  edited, usually to hide a development build.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from scoring.cmdline import CommandLine, option_number
from scoring.codes import finding
from scoring.hashes import parse_hash, score_hash_verdict
from scoring.model import SCORED_PHASES, WRITE_PHASES, Era, Finding, Phase, Recorded, RunResult
from scoring.rules.common import config_value, result_header
from scoring.rules.params import VERSION_RE

HEADER_SECTIONS = ("", "run")
# Every phase section any C release writes, in the order of its phase table. Phases of different
# releases share positions (ior-rnd-* of isc21 became ior-rnd4K-* and ior-rnd1MB-* in sc21).
PHASE_SECTIONS: tuple[str, ...] = (
    "ior-easy-write",
    "ior-rnd-write",
    "ior-rnd4K-write",
    "mdtest-easy-write",
    "ior-rnd1MB-write",
    "mdworkbench-create",
    "timestamp",
    "find-easy",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-rnd-read",
    "ior-rnd4K-read",
    "ior-rnd1MB-read",
    "find-hard",
    "mdworkbench-bench",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdworkbench-delete",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
    "ior-rnd4K-easy-read",
)
SECTION_ORDER: tuple[str, ...] = (*HEADER_SECTIONS, *PHASE_SECTIONS, "SCORE", "SCOREX")
# IO500_PHASE_FLAG_OPTIONAL: run only in extended mode.
OPTIONAL_PHASES = frozenset(
    {
        "ior-rnd-write",
        "ior-rnd4K-write",
        "ior-rnd1MB-write",
        "mdworkbench-create",
        "find-easy",
        "ior-rnd-read",
        "ior-rnd4K-read",
        "ior-rnd1MB-read",
        "find-hard",
        "mdworkbench-bench",
        "mdworkbench-delete",
    }
)
CLOCK_KEYS = ("t_start", "t_end")
C_ERAS_WITH_PHASE_VALIDITY = (Era.C_ISC21, Era.C_SC21, Era.C_ISC25)  # INVALID marks the phase (isc21 on)
FILES_PER_DIR_INVALID_ERAS = (Era.C_SC21, Era.C_ISC25)  # mdtest-hard validate() from io500-sc21
SCC_ERAS = (Era.C_SC20, Era.C_ISC21, Era.C_SC21, Era.C_ISC25)  # [global] scc exists from io500-sc20
IOR_WRITES = ("ior-easy-write", "ior-hard-write")
MINWRITE = 300.0
SCC_MINWRITE = 30.0
TRUE_VALUES = ("true", "1", "yes")
# t_delta is printed "%.4f", the summary's time "%.3f": a printed time below a limit by more than
# this was below it before printing too.
PRINTED_TIME_SLACK = 0.001
# "; ERROR INVALID stonewall-time != 300s" (isc20), "< 30s" (sc21), "300s != 30s" (isc26): the last
# number is the minimum write time the application applied.
# Read as the first `stonewall-time` and then the first comparison after it: `stonewall-time\b.*?(...)`
# in one search walks the rest of the line from every repetition of the word (quadratic).
_MINWRITE_KEY_RE = re.compile(r"stonewall-time\b")
_MINWRITE_RE = re.compile(r"(?:<|!=)\s*(\d+)\s*s")


def _minimum_write_applied(comment: str) -> str | None:
    """The digits of the minimum write time an error comment says the application applied."""
    key = _MINWRITE_KEY_RE.search(comment)
    found = _MINWRITE_RE.search(comment, key.end()) if key is not None else None
    return found.group(1) if found is not None else None


# --- sections and keys --------------------------------------------------------------------------
def _duplicates(run: RunResult) -> list[Finding]:
    findings = []
    names = Counter(name for name, _ in run.result_ini)
    for name, count in names.items():
        if count > 1:
            findings.append(finding("result-section-duplicate", section=name or "(header)", count=count))
    seen: set[str] = set()
    for name, items in run.result_ini:
        if name in seen:
            continue  # a copied section is reported once, above
        seen.add(name)
        for key, count in Counter(key for key, _ in items).items():
            if count > 1:
                findings.append(
                    finding("result-key-duplicate", section=name or "(header)", key=key, count=count)
                )
    return findings


def _header_keys(run: RunResult) -> list[Finding]:
    """From sc21 on the header is [run], the file's first line; no key precedes it. Readers merge
    the keys before [run] with [run]'s, the first copy winning, so a key before [run] or in both
    would override the application's."""
    sections = {name: items for name, items in run.result_ini if name in HEADER_SECTIONS}
    before, inside = sections.get("", []), sections.get("run")
    if inside is None or not before:
        return []
    findings = []
    in_run = {key for key, _ in inside}
    for key in dict(before):
        if key in in_run:
            findings.append(finding("result-key-duplicate", section="(header) and [run]", key=key, count=2))
    if len(findings) < len(dict(before)):
        findings.append(
            finding(
                "result-section-order",
                section="[run]",
                previous=f"keys before any section ({', '.join(dict(before))})",
            )
        )
    return findings


def _order(run: RunResult) -> list[Finding]:
    position = {name: index for index, name in enumerate(SECTION_ORDER)}
    previous: str | None = None
    seen: set[str] = set()
    for name, _ in run.result_ini:
        if name in seen or name not in position:
            continue  # copies are reported as duplicates; unknown sections are read as unscored phases
        seen.add(name)
        if previous is not None and position[name] < position[previous]:
            return [
                finding("result-section-order", section=f"[{name}]", previous=f"[{previous or '(header)'}]")
            ]
        previous = name
    return []


# --- mode -----------------------------------------------------------------------------------------
def _mode(run: RunResult) -> list[Finding]:
    """The mode of result.txt's header and of result_summary.txt's version line (run.mode, which
    prefers the summary) must agree with each other and with the phases the run holds."""
    header = result_header(run).get("mode")
    claimed = header or run.mode
    if claimed is None:
        return []
    sections = [name for name, _ in run.result_ini]
    optional = [name for name in sections if name in OPTIONAL_PHASES]
    scorex = "SCOREX" in sections
    evidence: str | None = None
    if header is not None and run.mode is not None and run.mode != header:
        evidence = f"result_summary.txt says ({run.mode})"
    elif claimed not in ("standard", "extended"):
        evidence = "the application writes only 'standard' or 'extended'"
    elif claimed == "extended" and not (optional and scorex):
        lacks = (
            "neither" if not optional and not scorex else "no [SCOREX]" if optional else "no optional phase"
        )
        evidence = (
            f"an extended run has every optional phase and an [SCOREX] section; this result.txt has {lacks}"
        )
    elif claimed == "standard" and (optional or scorex):
        shown = ", ".join([*optional[:3], *(["[SCOREX]"] if scorex else [])])
        evidence = f"it holds {shown}, which only extended mode writes"
    if evidence is None:
        return []
    return [finding("result-mode-contradicted", mode=claimed, evidence=evidence)]


def _raw_clocks(run: RunResult) -> list[Finding]:
    """IOR prints `Began :` and mdtest `-- started at ... --` (and `-- finished at`) in every version:
    none of the 8,000 raw outputs of both corpora lacks them. A readable output without them had its
    clock removed or garbled, which would switch the clock checks of its phase off. (IOR's
    `Finished` line is missing from every IOR output the C application wrote from sc20 on.)"""
    findings = []
    for phase in (*run.phases.values(), *run.extra_phases.values()):
        raw = phase.raw
        if raw is None or raw.tool not in ("ior", "mdtest") or raw.value is None:
            continue
        missing = [] if raw.started else ["its start"]
        if raw.tool == "mdtest" and not raw.finished:
            missing.append("its end")
        if missing:
            line = "'Began :'" if raw.tool == "ior" else "'-- started at' / '-- finished at'"
            findings.append(
                finding(
                    "raw-clock-unreadable",
                    phase=phase.name,
                    raw_file=raw.file,
                    tool=raw.tool,
                    what=" and ".join(missing),
                    line=line,
                )
            )
    return findings


# --- clocks ---------------------------------------------------------------------------------------
def _readable(recorded: Recorded) -> dict[str, bool]:
    """Which of the section's clock keys the reader could read: a clock, and a runtime of zero or more."""
    delta = recorded.t_delta
    return {
        "t_start": recorded.t_start is not None,
        "t_delta": delta is not None and delta >= 0,
        "t_end": recorded.t_end is not None,
    }


def _clocks(run: RunResult) -> list[Finding]:
    findings = []
    with_clock: list[str] = []
    without_clock: list[str] = []
    for (name, items), (_, recorded) in zip(run.result_ini, run.result_recorded, strict=True):
        if name in HEADER_SECTIONS or name in ("SCORE", "SCOREX"):
            continue
        keys = dict(items)
        readable = _readable(recorded)
        for key in ("t_start", "t_delta", "t_end"):
            value = keys.get(key)
            if value is None:
                continue
            if not readable[key]:
                shown = "a %.4f number of seconds" if key == "t_delta" else "'YYYY-MM-DD HH:MM:SS'"
                findings.append(
                    finding("result-clock-unparsable", phase=name, key=key, value=value[:60], expected=shown)
                )
        present = [key for key in ("t_start", "t_delta", "t_end") if key in keys]
        if present and len(present) < 3:
            findings.append(
                finding(
                    "result-clock-partial",
                    phase=name,
                    missing=", ".join(k for k in ("t_start", "t_delta", "t_end") if k not in keys),
                )
            )
        (with_clock if present else without_clock).append(name)
    if with_clock and without_clock:
        findings.append(
            finding(
                "result-clock-partial",
                phase=without_clock[0],
                missing=f"the clocks of {', '.join(without_clock[:4])}"
                + (f" and {len(without_clock) - 4} more" if len(without_clock) > 4 else "")
                + f", which {', '.join(with_clock[:2])} have",
            )
        )
    elif without_clock and not with_clock:
        verbosity = option_number(config_value(run, "global", "verbosity"))
        if verbosity is not None and verbosity > 0:
            findings.append(
                finding("result-clock-absent", verbosity=config_value(run, "global", "verbosity"))
            )
    return findings


# --- the application's own INVALID lines and SCC mode --------------------------------------------
@dataclass(frozen=True)
class _Expected:
    where: str  # the section the application writes the line into ("" for the header)
    line: str  # what the line says, as the application prints it
    marker: str  # a fragment every version's wording of the line contains
    evidence: str  # what in the outputs shows the condition


def _error_comments(run: RunResult) -> list[str]:
    phases = (*run.phases.values(), *run.extra_phases.values())
    return [*run.header_errors, *(comment for phase in phases for comment in phase.errors)]


def _scc_claimed(run: RunResult) -> bool:
    value = config_value(run, "global", "scc")
    return bool(value) and (value or "").lower() in TRUE_VALUES


def _minimum(run: RunResult) -> float:
    """The minimum write time the application applies: 30 s in SCC mode (sc20 on), else 300 s."""
    return SCC_MINWRITE if run.era in SCC_ERAS and _scc_claimed(run) else MINWRITE


def _stonewalls(run: RunResult) -> list[tuple[Phase, float]]:
    """The stonewall each write phase ran with, from its command (-D for IOR, -W for mdtest)."""
    found = []
    for name in WRITE_PHASES:
        phase = run.phases.get(name)
        if phase is None or not phase.command:
            continue
        option = "-D" if name.startswith("ior") else "-W"
        value = CommandLine.parse(phase.command).number(option)
        if value is not None:
            found.append((phase, value))
    return found


def _run_stonewall(run: RunResult) -> float | None:
    """opt.stonewall: the commands show it; config.ini's [debug] stonewall-time (default 300) else."""
    walls = _stonewalls(run)
    if walls:
        return walls[0][1]
    configured = config_value(run, "debug", "stonewall-time")
    if configured:
        return option_number(configured)
    return MINWRITE if run.config else None


def _expected_lines(run: RunResult) -> list[_Expected]:
    expected: list[_Expected] = []
    minimum = _minimum(run)
    stonewall = _run_stonewall(run)
    if stonewall is not None and stonewall != minimum:
        walls = _stonewalls(run)
        if walls:
            option = "-D" if walls[0][0].name.startswith("ior") else "-W"
            shown = f"{walls[0][0].name} ran with a {stonewall:g}-s stonewall ({option} {stonewall:g})"
        else:
            shown = f"config.ini sets stonewall-time = {stonewall:g}"
        expected.append(
            _Expected("", f"stonewall-time < {minimum:g}s", "stonewall-time", f"{shown}, not {minimum:g} s")
        )
    if run.era in FILES_PER_DIR_INVALID_ERAS:
        files_per_dir = config_value(run, "mdtest-hard", "files-per-dir")
        hard = run.phases.get("mdtest-hard-write")
        spread = files_per_dir or (
            CommandLine.parse(hard.command).value("-I") if hard is not None and hard.command else None
        )
        if spread:
            expected.append(
                _Expected(
                    "",
                    "files-per-dir is set",
                    "files-per-dir",
                    f"mdtest-hard ran with files-per-dir {spread}",
                )
            )
    for name in IOR_WRITES:
        phase = run.phases.get(name)
        raw = phase.raw if phase is not None else None
        if phase is None or raw is None:
            continue
        if stonewall is not None and raw.time_high is not None and raw.time_high < stonewall:
            expected.append(
                _Expected(
                    name,
                    f"Write phase needed {raw.time_s}s instead of stonewall {stonewall:g}s",
                    "Write phase needed",
                    f"IOR's own output {raw.file} says {name} wrote for {raw.time_s} s, less than the "
                    f"{stonewall:g}-s stonewall",
                )
            )
    for phase in (*run.phases.values(), *run.extra_phases.values()):
        raw = phase.raw
        if raw is not None and raw.tool == "ior" and raw.errors:
            expected.append(
                _Expected(
                    phase.name,
                    f"Errors ({raw.errors}) occured during phase in IOR",
                    "Errors (",
                    f"IOR's own output {raw.file} reports {raw.errors} error(s)",
                )
            )
    for name in WRITE_PHASES:
        phase = run.phases.get(name)
        if phase is None or phase.time_s is None:
            continue
        if stonewall is not None and phase.time_s + PRINTED_TIME_SLACK < stonewall:
            expected.append(
                _Expected(
                    name,
                    "Runtime of phase is below stonewall time",
                    "below stonewall",
                    f"{name} took {phase.time_s:g} s, less than its {stonewall:g}-s stonewall",
                )
            )
        elif run.era in C_ERAS_WITH_PHASE_VALIDITY and phase.time_s + PRINTED_TIME_SLACK < minimum:
            expected.append(
                _Expected(
                    name,
                    "Runtime is smaller than expected minimum runtime",
                    "minimum runtime",
                    f"{name} took {phase.time_s:g} s, less than the {minimum:g}-s minimum",
                )
            )
    if run.era in C_ERAS_WITH_PHASE_VALIDITY:
        for name in SCORED_PHASES:
            phase = run.phases.get(name)
            if phase is None or phase.value != 0:
                continue
            # main.c checks the zero score only when the stonewall check above did not fire.
            short = name in WRITE_PHASES and phase.time_s is not None and stonewall is not None
            if short and phase.time_s is not None and stonewall is not None and phase.time_s < stonewall:
                continue
            expected.append(
                _Expected(name, "Resulting score shouldn't be 0.0", "shouldn't be 0.0", f"{name} scored 0")
            )
    find = run.phases.get("find")
    if find is not None and find.recorded.found == 0:
        expected.append(
            _Expected("find", "Find didn't find anything", "find anything", "result.txt's find found 0 files")
        )
    if _hash_says_invalid(run):
        expected.append(
            _Expected(
                "*",
                "(with the reason it found)",
                "",
                "the score hash verifies only with 'valid = NO' mixed in (the application recorded the run "
                "as invalid)",
            )
        )
    return expected


def _hash_says_invalid(run: RunResult) -> bool:
    sections = {name: dict(items) for name, items in run.result_ini}
    score = sections.get("SCORE")
    stored = parse_hash(score.get("hash", "")) if score is not None else None
    if score is None or stored is None:
        return False
    phases = {name: sections[name]["score"] for name in SCORED_PHASES if "score" in sections.get(name, {})}
    total = score.get("SCORE", "").split()
    verdict = score_hash_verdict(
        stored, run.version or "", phases, score.get("MD", ""), score.get("BW", ""), total[0] if total else ""
    )
    return verdict == "invalid"


def _comments_in(run: RunResult, where: str) -> list[str]:
    """The application writes a validate() complaint into the header, a phase's complaint into that
    phase's section (the section header is printed before the phase runs); "*": anywhere."""
    if where == "*":
        comments = _error_comments(run)
    elif where == "":
        comments = list(run.header_errors)
    else:
        phase = run.phases.get(where) or run.extra_phases.get(where)
        comments = list(phase.errors) if phase is not None else []
    return [comment for comment in comments if "INVALID" in comment.upper()]


def _invalid_lines(run: RunResult) -> list[Finding]:
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for expected in _expected_lines(run):
        if any(expected.marker in comment for comment in _comments_in(run, expected.where)):
            continue
        if (expected.where, expected.marker) in seen:
            continue
        seen.add((expected.where, expected.marker))
        scc_shown = _scc_shown_by(run, expected)
        if scc_shown:
            findings.append(finding("scc-contradicted", claimed=_scc_text(run), evidence=scc_shown))
            continue
        if expected.where == "*":
            where = "result.txt"
        elif expected.where:
            where = f"the [{expected.where}] section of result.txt"
        else:
            where = "the header of result.txt"
        findings.append(
            finding(
                "invalid-line-missing",
                phase=expected.where if expected.where not in ("", "*") else None,
                evidence=expected.evidence,
                line=expected.line,
                where=where,
            )
        )
    return findings


def _scc_text(run: RunResult) -> str:
    return config_value(run, "global", "scc") or "FALSE (not set)"


def _scc_shown_by(run: RunResult, expected: _Expected) -> str | None:
    """A 30-s stonewall without the application's stonewall-time complaint, and write phases
    between 30 and 300 s without its minimum-runtime complaint, are what SCC mode leaves behind:
    the application applied a 30-s minimum, whatever config.ini says now."""
    if expected.marker not in ("stonewall-time", "minimum runtime") or run.era not in SCC_ERAS:
        return None
    if _scc_claimed(run):
        return None
    walls = _stonewalls(run)
    if not walls or any(value != SCC_MINWRITE for _, value in walls):
        return None
    if expected.marker == "stonewall-time":
        return (
            "every write phase ran with a 30-s stonewall and result.txt has no '; ERROR INVALID "
            "stonewall-time' line, which the application writes for any stonewall other than 300 s "
            "unless SCC mode lowers the minimum to 30 s"
        )
    return (
        f"{expected.evidence} and result.txt has no '; ERROR INVALID {expected.line}' line, which the "
        "application writes for such a phase unless SCC mode lowers the minimum to 30 s"
    )


def _scc_comments(run: RunResult) -> list[Finding]:
    """The application's own complaint names the minimum write time it applied."""
    if run.era not in SCC_ERAS:
        return []
    for comment in _error_comments(run):
        applied = option_number(_minimum_write_applied(comment))
        if applied is None:
            continue
        if applied != _minimum(run):
            mode = "SCC mode (30 s)" if applied == SCC_MINWRITE else f"a {applied:g}-s minimum"
            evidence = (
                f"result.txt's own line '; {comment.strip()[:120]}' shows that the application applied {mode}"
            )
            return [finding("scc-contradicted", claimed=_scc_text(run), evidence=evidence)]
    return []


# --- version --------------------------------------------------------------------------------------
# Release tags grouped by the commit they name, oldest first (IO500/io500: git tag, commit dates).
RELEASE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("io500-isc20_v1",),
    ("io500-isc20_v2",),
    ("io500-isc20_v3",),
    ("io500-isc20", "io500-isc20_v4"),
    ("io500-sc20_v1",),
    ("io500-sc20_v2",),
    ("io500-sc20", "io500-sc20_v3"),
    ("io500-isc21_v1",),
    ("io500-isc21", "io500-isc21_v2"),
    ("io500-sc21",),
    ("io500-sc21-scc", "io500-sc21-scc_v1", "io500-scc21"),
    ("io500-isc22", "io500-isc22_v1"),
    ("io500-sc22", "io500-sc22_v2"),
    ("io500-isc23", "io500-isc24_v1", "io500-sc23", "io500-sc23_v1"),
    ("io500-isc24_v2",),
    ("io500-isc24", "io500-isc24_v3"),
    ("io500-sc24", "io500-sc24_v1"),
    ("io500-isc25_v1",),
    ("io500-isc25", "io500-isc25_v2"),
    ("io500-sc25", "io500-sc25_v1"),
    ("io500-isc26_v1",),
    ("io500-isc26", "io500-isc26_v2"),
    # Its commit is not in the sources read (fixtures/io500_versions.json): placed after isc26 by date.
    ("io500-sc26",),
)
_GROUP_OF = {tag: index for index, group in enumerate(RELEASE_GROUPS) for tag in group}


def _commands(run: RunResult, tool: str) -> list[CommandLine]:
    return [
        CommandLine.parse(phase.command)
        for name, phase in run.phases.items()
        if name.startswith(tool) and phase.command
    ]


def _option_in_commands(option: str) -> Callable[[RunResult], bool | None]:
    def observe(run: RunResult) -> bool | None:
        commands = [*_commands(run, "ior"), *_commands(run, "mdtest")]
        if not commands:
            return None
        return any(any(option in token for token in cmd.tokens) for cmd in commands)

    return observe


def _header_key(key: str) -> Callable[[RunResult], bool | None]:
    def observe(run: RunResult) -> bool | None:
        return key in result_header(run) if run.result_ini else None

    return observe


def _run_section(run: RunResult) -> bool | None:
    return any(name == "run" for name, _ in run.result_ini) if run.result_ini else None


def _rnd4k_easy_read(run: RunResult) -> bool | None:
    return "ior-rnd4K-easy-read" in run.extra_phases or "ior-rnd4K-easy-read" in run.phases


def _stonewall_files_in_resultdir(run: RunResult) -> bool | None:
    """isc20 kept IOR's stonewall status files in the data directory (<datadir>/ior-easy/stonewall),
    sc20 on in the result directory (<resdir>/ior-easy.stonewall)."""
    for cmd in _commands(run, "ior-"):
        for value in cmd.values("-O"):
            if value.startswith("stoneWallingStatusFile="):
                path = value.rstrip("/")
                if path.endswith((".stonewall",)):
                    return True
                if path.endswith("/stonewall"):
                    return False
    return None


def _rnd4k_easy_read_own_file(run: RunResult) -> bool | None:
    """isc25_v1 wrote ior-rnd4K-easy-read's IOR output to ior-rnd4K-read.txt, isc25 on to its own name."""
    if "ior-rnd4K-easy-read" not in run.extra_phases:
        return None
    files = set(run.files)
    if "ior-rnd4K-easy-read.txt" in files:
        return True
    if "ior-rnd4K-read.txt" in files and "ior-rnd4K-read" not in run.extra_phases:
        return False
    return None


def _rnd4k_easy_read_segments(run: RunResult) -> bool | None:
    """ior-rnd4K-easy-read reads -s 1000000 segments in isc25_v1, -s 10000000 from isc25 on."""
    phase = run.extra_phases.get("ior-rnd4K-easy-read")
    if phase is None or not phase.command:
        return None
    segments = CommandLine.parse(phase.command).value("-s")
    return {"10000000": True, "1000000": False}.get(segments or "")


def _rnd4k_easy_read_sc26(run: RunResult) -> bool | None:
    """io500-sc26's new random 4 KiB read (cfs_sc26.php; src/phase_ior_rnd4k_easy_read.c @701fee6c3e06)
    passes -s=-1 and a third -z where isc25 .. isc26_v2 passed -s=10000000 (isc25_v1 -s=1000000) and two."""
    phase = run.extra_phases.get("ior-rnd4K-easy-read")
    if phase is None or not phase.command:
        return None
    command = CommandLine.parse(phase.command)
    segments = command.value("-s")
    if segments == "-1":
        return command.tokens.count("-z") == 3 or None
    return False if segments in ("10000000", "1000000") else None


@dataclass(frozen=True)
class Feature:
    what: str  # what the outputs show, for the message
    since: str  # the first release tag whose application writes it (every later one does too)
    observe: Callable[[RunResult], bool | None]  # None: the run does not tell


FEATURES: tuple[Feature, ...] = (
    Feature("a 'mode' key in result.txt's header", "io500-isc21_v1", _header_key("mode")),
    Feature(
        "per-rank CSV options in the IOR and mdtest commands (saveRankPerformanceDetails)",
        "io500-isc21_v1",
        _option_in_commands("saveRankPerformanceDetails"),
    ),
    Feature("a [run] section in result.txt", "io500-sc21", _run_section),
    Feature(
        "--dataPacketType in the IOR and mdtest commands",
        "io500-sc21",
        _option_in_commands("--dataPacketType"),
    ),
    Feature("a 'procs' key in result.txt's header", "io500-sc21-scc", _header_key("procs")),
    Feature(
        "IOR's stonewall status files in the result directory (stoneWallingStatusFile=...ior-easy.stonewall)",
        "io500-sc20_v1",
        _stonewall_files_in_resultdir,
    ),
    Feature("the ior-rnd4K-easy-read phase", "io500-isc25_v1", _rnd4k_easy_read),
    Feature(
        "ior-rnd4K-easy-read's IOR output in ior-rnd4K-easy-read.txt (not ior-rnd4K-read.txt)",
        "io500-isc25",
        _rnd4k_easy_read_own_file,
    ),
    Feature(
        "ior-rnd4K-easy-read reading 10000000 segments (-s=10000000)",
        "io500-isc25",
        _rnd4k_easy_read_segments,
    ),
    Feature(
        "io500-sc26's random 4 KiB read (ior-rnd4K-easy-read with -s=-1 and -z -z -z)",
        "io500-sc26",
        _rnd4k_easy_read_sc26,
    ),
)


# The IOR each release's prepare.sh pins (hpc/ior's META at that commit); mdtest comes from the same
# tree. (first release, the major.minor it prints): 3.3.0+dev for isc20, 3.4.0+dev from sc20_v1
# (sc23_v1 and isc24_v1 name the isc23 commit), 4.1.0+dev from isc24_v2.
TOOL_SERIES: tuple[tuple[str, str], ...] = (
    ("io500-isc20_v1", "3.3"),
    ("io500-sc20_v1", "3.4"),
    ("io500-isc24_v2", "4.1"),
)


def _tool_mismatch(run: RunResult, text: str, claimed: int) -> list[Finding]:
    """A site may edit prepare.sh (outside src/, so the version string does not say so) to build
    another IOR: a warning, not an error."""
    expected = [series for since, series in TOOL_SERIES if _GROUP_OF[since] <= claimed][-1]
    printed = {
        tool: version
        for tool, version in sorted(run.tool_versions.items())
        if ".".join(version.split(".")[:2]) != expected
    }
    if not printed:
        return []
    shown = ", ".join(f"{tool}-{version}" for tool, version in printed.items())
    return [finding("version-tool-mismatch", version=text, printed=shown, expected=f"{expected}.0+dev")]


def _version(run: RunResult) -> list[Finding]:
    """Exact release tags only: a development or modified build may carry anything, and says so."""
    text = (run.version or "").strip()
    match = VERSION_RE.match(text)
    if match is None or match["ahead"] or match["dirty"] or text not in _GROUP_OF:
        return []
    claimed = _GROUP_OF[text]
    tools = _tool_mismatch(run, text, claimed)
    contradicted: list[str] = []
    ahead: list[str] = []
    for feature in FEATURES:
        shown = feature.observe(run)
        if shown is None:
            continue
        since = _GROUP_OF[feature.since]
        if shown and claimed < since:
            # A build of commits made after the tag but before the next release (the maintainers'
            # own runs) can show a feature of the next release under the old tag: a warning, as a
            # development build is. Two or more releases apart, the claim is wrong.
            if claimed == since - 1:
                ahead.append(f"its outputs show {feature.what}, which releases before {feature.since} lack")
            else:
                contradicted.append(f"they show {feature.what}, which releases before {feature.since} lack")
        elif not shown and claimed >= since:
            contradicted.append(
                f"they lack {feature.what}, which every release from {feature.since} on writes"
            )
    if contradicted:
        return [finding("version-contradicted", version=text, evidence="; ".join(contradicted)), *tools]
    if ahead:
        return [
            finding(
                "version-ahead-of-tag",
                version=text,
                evidence="; ".join(ahead),
            ),
            *tools,
        ]
    return tools


def _first_scc(findings: list[Finding]) -> list[Finding]:
    """SCC mode shows in several places; one finding says it."""
    scc = [f for f in findings if f.code == "scc-contradicted"]
    return [f for f in findings if f.code != "scc-contradicted" or f is scc[0]]


def structure_rules(run: RunResult) -> list[Finding]:
    if run.era.is_shell or not run.result_ini:
        return _raw_clocks(run)
    return _first_scc(
        [
            *_raw_clocks(run),
            *_duplicates(run),
            *_header_keys(run),
            *_order(run),
            *_mode(run),
            *_clocks(run),
            *_invalid_lines(run),
            *_scc_comments(run),
            *_version(run),
        ]
    )
