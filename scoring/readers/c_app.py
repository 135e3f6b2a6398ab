"""The C application's output (ISC20 onwards): result_summary.txt, result.txt, config.ini, raw files.

`result.txt` carries the numbers with the hash, so its values win; `result_summary.txt` carries the
invalid markers. Either file alone is enough to read a run.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from scoring.codes import note
from scoring.model import Era, Finding, Phase, RunResult, Score
from scoring.readers.files import RunFiles
from scoring.readers.ini import IniDocument, IniSection, parse_ini
from scoring.readers.lines import shown, too_long, too_long_note
from scoring.readers.numbers import to_clock, to_count, to_float, to_int
from scoring.readers.phases import (
    attach_details,
    checked_value,
    fill_scale,
    new_phase,
    raise_unreadable,
    read_recorded,
    timestamp_in,
)
from scoring.readers.tool_versions import tool_versions

SUMMARY = "result_summary.txt"
RESULT = "result.txt"
RND4K_EASY_READ = "ior-rnd4K-easy-read"
RND4K_READ = "ior-rnd4K-read"

_VERSION_PREFIX = "IO500 version"
_MODE_RE = re.compile(r"[A-Za-z]+")
_PHASE_RE = re.compile(
    r"^\[(RESULT| {6})(-invalid)?\]\s+([A-Za-z0-9_-]+)\s+(\S+)\s+(GiB/s|GB/s|kIOPS)\s*:"
    r"\s*time\s+(\S+)\s+seconds(\s+\[INVALID\])?\s*$"
)
_SCORE_RE = re.compile(
    r"^\[(SCORE ?|SCOREX)(-invalid|\s+INVALID)?\]\s+Bandwidth\s+(\S+)\s+(GiB/s|GB/s)\s*:\s*IOPS\s+(\S+)"
    r"\s+kiops\s*:\s*TOTAL\s+(\S+?)(\s+\[INVALID\])?\s*$"
)
_TAG_RE = re.compile(r"^io500-(isc|sc)(\d\d)")
# A phase line of the 2018-2019 io500.sh summary; found next to C-app files it means mixed runs.
_SHELL_PHASE_RE = re.compile(r"^\[RESULT(-invalid)?\]\s+(BW|IOPS)\s+phase\s+\d+\s")
_SCORE_VALUE_RE = re.compile(r"^(\S+)(\s+\[INVALID\])?\s*$")

# Sections of result.txt that are not phases.
_NON_PHASE_SECTIONS = {"", "run", "SCORE", "SCOREX"}
# Keys of a phase section that have their own place in `Phase`.
_PHASE_OWN_KEYS = {"exe", "score"}


@dataclass
class SummaryLine:
    name: str
    value: str
    time: str
    invalid: bool
    label: str


@dataclass
class Summary:
    version: str | None = None
    mode: str | None = None
    phases: dict[str, SummaryLine] = field(default_factory=dict)
    score: tuple[str, str, str, bool] | None = None  # bw, md, total, invalid
    score_label: str | None = None
    scorex: tuple[str, str, str, bool] | None = None
    blank_tag_seen: bool = False  # "[      ]" lines or "[SCORE ]" exist only from ISC21 on
    invalid_lines: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    too_long: list[int] = field(default_factory=list)  # line numbers of lines not read for their length


def looks_like_c_app(files: RunFiles) -> bool:
    """True when the directory holds C-app output rather than io500.sh output."""
    if files.has(RESULT):
        return True
    text = files.text(SUMMARY)
    return text is not None and text.lstrip().startswith("IO500 version")


def parse_summary(text: str) -> Summary:
    summary = Summary()
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if too_long(line):
            summary.too_long.append(number)
            continue
        if not line.strip():
            continue
        if line.startswith(_VERSION_PREFIX):
            summary.version, summary.mode = version_and_mode(line)
            continue
        match = _PHASE_RE.match(line)
        if match:
            tag, inv1, name, value, label, time, inv2 = match.groups()
            summary.blank_tag_seen |= tag != "RESULT"
            summary.phases.setdefault(name, SummaryLine(name, value, time, bool(inv1 or inv2), label))
            continue
        match = _SCORE_RE.match(line)
        if match:
            kind, inv1, bw, label, md, total, inv2 = match.groups()
            parsed = (bw, md, total, bool(inv1 or inv2))
            if kind == "SCOREX":
                summary.scorex = parsed
                summary.blank_tag_seen = True
            else:
                summary.score = parsed
                summary.score_label = label
                summary.blank_tag_seen |= kind == "SCORE "
            continue
        if "INVALID" in line:
            # The app prints "ERROR INVALID (file:line) reason" on stdout, i.e. into the summary.
            summary.invalid_lines.append(line.strip())
        else:
            summary.unreadable.append(line.strip())
    return summary


def version_and_mode(line: str) -> tuple[str, str | None]:
    r"""`IO500 version <version> (<mode>)`: the version and the mode in parentheses, if any.

    The reading of `^IO500 version ?(.*?)(?: \(([A-Za-z]+)\))?\s*$` (the shortest version that
    leaves an optional ` (mode)` and blanks), done from the end of the line in one pass: the
    regex took 8 s on a line of 60,000 blanks and a letter.
    """
    rest = line[len(_VERSION_PREFIX) :]
    if rest.startswith(" "):
        rest = rest[1:]
    version = rest.rstrip()
    if version.endswith(")"):
        open_at = version.rfind("(", 0, len(version) - 1)
        mode = _MODE_RE.fullmatch(version, open_at + 1, len(version) - 1) if open_at >= 1 else None
        if mode is not None and version[open_at - 1] == " ":
            return version[: open_at - 1], mode.group()
    return version, None


def detect_era(
    version: str | None, summary: Summary | None, ini: IniDocument | None, phases: set[str]
) -> Era:
    """The C-app era, from the version tag when it names a release, else from format features."""
    if "ior-rnd4K-easy-read" in phases:
        return Era.C_ISC25
    match = _TAG_RE.match(version or "")
    if match:
        order = int(match.group(2)) * 2 + (1 if match.group(1) == "sc" else 0)
        # isc20=40, sc20=41, isc21=42, sc21=43 ... isc25=50
        if order >= 50:
            return Era.C_ISC25
        if order >= 43:
            return Era.C_SC21
        if order == 42:
            return Era.C_ISC21
        if order == 41:
            return Era.C_SC20
        return Era.C_ISC20
    has_run_header = ini is not None and ini.section("run") is not None
    b3_or_later = has_run_header or (
        summary is not None and (summary.mode is not None or summary.blank_tag_seen)
    )
    if ini is not None and ini.value("", "mode") is not None:
        b3_or_later = True
    if b3_or_later:
        return Era.C_SC21 if has_run_header else Era.C_ISC21
    if summary is not None and summary.score_label == "GiB/s":
        return Era.C_SC20
    return Era.C_ISC20


def read_c_app(files: RunFiles) -> RunResult:
    notes = files.notes
    summary_text = files.text(SUMMARY)
    result_text = files.text(RESULT)
    summary = parse_summary(summary_text) if summary_text is not None else None
    ini = parse_ini(result_text) if result_text is not None else None
    if summary is not None and summary.unreadable:
        notes.append(
            note(
                "read-line-unreadable",
                f"{len(summary.unreadable)} line(s) of {SUMMARY} match no IO500 format and were "
                f"ignored, the first: '{summary.unreadable[0][:120]}'.",
            )
        )
    if summary is not None and summary.too_long:
        notes.append(too_long_note(SUMMARY, len(summary.too_long), summary.too_long[0]))
    if summary is not None and any(_SHELL_PHASE_RE.match(line) for line in summary.unreadable):
        notes.append(
            note(
                "read-mixed-eras",
                f"{SUMMARY} holds result lines of the 2018-2019 io500.sh script, but the other files of "
                "this folder come from the IO500 C application: the files of one run must all come "
                "from that run.",
            )
        )
    if ini is not None and ini.unparsed:
        number, line = ini.unparsed[0]
        notes.append(
            note(
                "read-line-unreadable",
                f"{len(ini.unparsed)} line(s) of {RESULT} are neither a key, a section nor a comment "
                f"and were ignored (as the IO500 app ignores them), the first at line {number}: "
                f"'{line.strip()[:120]}'.",
            )
        )

    run_header = _run_header(ini)
    version = _version(summary, run_header)
    phase_sections = _phase_sections(ini)
    phases = _build_phases(files, summary, phase_sections, notes)
    if not phases:
        raise_unreadable(files, f"neither {SUMMARY} nor {RESULT} holds a readable phase line.")
    era = detect_era(version, summary, ini, set(phases))

    run = RunResult(path=files.path, era=era, version=version)
    run.mode = (summary.mode if summary and summary.mode else None) or _get(run_header, "mode")
    run.procs = to_int(_get(run_header, "procs"))
    run.timestamp = timestamp_in(_get(run_header, "result-dir")) or timestamp_in(files.path)
    run.config_hash = _get(run_header, "config-hash") or None
    run.header_errors = tuple(
        comment for section in _header_sections(ini) for comment in section.comments if "ERROR" in comment
    )
    if ini is None and summary is not None and summary.invalid_lines:
        run.header_errors = tuple(summary.invalid_lines)
    run.result_ini = ini.as_app_sees_it() if ini is not None else []
    run.result_recorded = [(name, read_recorded(dict(items))) for name, items in run.result_ini]
    run.result_procs = to_count(_app_header(run.result_ini).get("procs"))
    for name, phase in phases.items():
        if phase.scored:
            run.phases[name] = phase
        else:
            run.extra_phases[name] = phase
    run.claimed = _score(ini, "SCORE", summary.score if summary else None, notes)
    run.claimed_extended = _score(ini, "SCOREX", summary.scorex if summary else None, notes)
    _read_config(files, run)
    run.tool_versions = tool_versions(files)
    run.files = files.all_names
    run.irregular = dict(files.irregular)
    run.read_notes = notes
    run.started = _start_comment(ini)
    fill_scale(run)
    return run


def _start_comment(ini: IniDocument | None) -> dt.datetime | None:
    """The `; START YYYY-MM-DD HH:MM:SS` comment the app writes into the header when the run begins."""
    for section in _header_sections(ini):
        for comment in section.comments:
            if comment.startswith("START"):
                clock = to_clock(comment[len("START") :])
                if clock is not None:
                    return clock
    return None


def _run_header(ini: IniDocument | None) -> dict[str, str]:
    """Keys before the first phase: the unnamed header (B1-B3) merged with [run] (B4+)."""
    merged: dict[str, str] = {}
    for section in _header_sections(ini):
        for key, value in section.items:
            merged.setdefault(key, value)
    return merged


def _app_header(sections: list[tuple[str, list[tuple[str, str]]]]) -> dict[str, str]:
    """The header keys as the application sees them (empty values left out), first one winning."""
    header: dict[str, str] = {}
    for name, items in sections:
        if name.lower() in ("", "run"):
            for key, value in items:
                header.setdefault(key, value)
    return header


def _header_sections(ini: IniDocument | None) -> list[IniSection]:
    if ini is None:
        return []
    return [section for section in ini.sections if section.name in ("", "run")]


def _get(header: dict[str, str], key: str) -> str | None:
    return header.get(key)


def _version(summary: Summary | None, header: dict[str, str]) -> str | None:
    if summary is not None and summary.version is not None:
        return summary.version.strip()
    value = header.get("version")
    return value.strip() if value is not None else None


def _phase_sections(ini: IniDocument | None) -> dict[str, IniSection]:
    if ini is None:
        return {}
    sections: dict[str, IniSection] = {}
    for section in ini.sections:
        if section.name not in _NON_PHASE_SECTIONS:
            sections.setdefault(section.name, section)
    return sections


def _build_phases(
    files: RunFiles, summary: Summary | None, sections: dict[str, IniSection], notes: list[Finding]
) -> dict[str, Phase]:
    """Phases in execution order: result.txt sections first, then summary-only lines."""
    summary_lines = summary.phases if summary is not None else {}
    order = list(sections) + [name for name in summary_lines if name not in sections]
    phases: dict[str, Phase] = {}
    for name in order:
        phase = _build_phase(name, sections.get(name), summary_lines.get(name), notes)
        if phase is not None:
            phases[name] = attach_details(files, phase, raw_output_names(name, set(order)))
    return phases


def raw_output_names(phase: str, phases: set[str]) -> tuple[str, ...]:
    """The files the application writes the phase's raw output to, the usual name first.

    io500-isc25_v1 (and the io500-sc24_v1-1x development builds before it) wrote the raw IOR output
    of ior-rnd4K-easy-read to ior-rnd4K-read.txt, the name of the extended phase; that file is its
    output only when the run has no extended ior-rnd4K-read phase of its own.
    """
    if phase.startswith("find"):
        return (f"{phase}.csv",)
    if phase == RND4K_EASY_READ and RND4K_READ not in phases:
        return (f"{phase}.txt", f"{RND4K_READ}.txt")
    return (f"{phase}.txt",)


def _build_phase(
    name: str, section: IniSection | None, line: SummaryLine | None, notes: list[Finding]
) -> Phase | None:
    keys = dict(section.items) if section is not None else {}
    value: float | None = None
    if "score" in keys:
        value = checked_value(name, keys["score"], "score", RESULT, notes)
        if value is not None and line is not None:
            printed = to_float(line.value)
            if printed is not None and abs(printed - value) > 1.5e-6:
                notes.append(
                    note(
                        "read-sources-disagree",
                        f"{name} is {keys['score']} in {RESULT} but {line.value} in {SUMMARY}; "
                        f"the {RESULT} value was used.",
                        phase=name,
                    )
                )
    elif line is not None:
        value = checked_value(name, line.value, "value", SUMMARY, notes)
    elif name == "timestamp":
        value = 0.0  # a dummy phase: B1/B2 print no score for it
    if value is None:
        return None
    time_s: float | None = None
    if "t_delta" in keys:
        time_s = checked_value(name, keys["t_delta"], "runtime", RESULT, notes)
    elif line is not None:
        time_s = checked_value(name, line.time, "runtime", SUMMARY, notes)
    return new_phase(
        name,
        value,
        time_s,
        invalid_marker=line.invalid if line is not None else False,
        command=keys.get("exe") or None,
        values={key: val for key, val in keys.items() if key not in _PHASE_OWN_KEYS},
        errors=tuple(c for c in section.comments if "ERROR" in c) if section is not None else (),
    )


def _score(
    ini: IniDocument | None,
    section_name: str,
    printed: tuple[str, str, str, bool] | None,
    notes: list[Finding],
) -> Score | None:
    section = ini.section(section_name) if ini is not None else None
    if section is not None:
        keys = dict(section.items)
        match = _SCORE_VALUE_RE.match(keys.get("SCORE", ""))
        total_text = match.group(1) if match else keys.get("SCORE")
        invalid = bool(match and match.group(2)) or bool(printed and printed[3])
        return Score(
            bw=_score_number(keys.get("BW"), "BW", section_name, notes),
            md=_score_number(keys.get("MD"), "MD", section_name, notes),
            score=_score_number(total_text, "SCORE", section_name, notes),
            invalid=invalid,
            hash=keys.get("hash") or None,
        )
    if printed is None:
        return None
    bw, md, total, invalid = printed
    return Score(
        bw=_score_number(bw, "Bandwidth", section_name, notes),
        md=_score_number(md, "IOPS", section_name, notes),
        score=_score_number(total, "TOTAL", section_name, notes),
        invalid=invalid,
    )


def _score_number(text: str | None, what: str, where: str, notes: list[Finding]) -> float | None:
    value = to_float(text)
    if text is not None and (value is None or value < 0):
        notes.append(
            note(
                "read-value-unreadable",
                f"The claimed {what} of [{where}] is '{shown(text)}', which is not a number of zero or more.",
            )
        )
        return None
    return value


def _read_config(files: RunFiles, run: RunResult) -> None:
    """The effective configuration: the app-written config.ini, else the user's config-orig.ini."""
    for name in ("config.ini", "config-orig.ini"):
        text = files.text(name)
        if text is not None:
            run.config = parse_ini(text).as_config()
            run.config_source = name
            return
