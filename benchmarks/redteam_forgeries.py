"""Forgeries of real IO500 runs, as a careful forger would make them (issue 22's red-team corpus).

Every function here takes a `Workspace`: a private copy of one submission folder of the shared
corpus (never the shared data itself) with the run to attack, and edits the copy in place. When
an attack touches hashed content, the forger recomputes what the benchmark would have printed: the
phase scores in `result_summary.txt` and `result.txt`, BW / MD / SCORE, the score hash and the
config hash (scoring/hashes.py), the console log of io500.sh runs. When the attack cannot be made
on a run (its era prints no per-rank CSV, it has no `scc = TRUE`, ...) the function raises
`NotApplicable` with the reason, and the harness (benchmarks/redteam.py) takes the next run.

Nothing here decides whether a forgery is caught: that is the verifier's business.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scoring.hashes import (
    config_hash,
    extended_score_hash,
    format_hash,
    parse_hash,
    score_hash,
    version_hashes_md_bw,
)
from scoring.means import geometric_mean
from scoring.model import BW_PHASES, MD_PHASES, PHASE_ORDER, SCORED_PHASES, Era, RunResult
from scoring.readers.c_app import raw_output_names
from scoring.readers.ini import IniDocument, parse_ini
from scoring.readers.raw import parse_ior, parse_mdtest
from scoring.rules.score import EXTENDED_BW_PHASES, EXTENDED_MD_PHASES

MIB = 1024 * 1024
CLOCK = "%Y-%m-%d %H:%M:%S"
SHIFT_S = 60  # kind d: a write phase that ran ~250 s claims ~310 s


class NotApplicable(Exception):
    """The attack cannot be made on this run; the message says why."""


@dataclass
class Outcome:
    """What a forgery did, for the harness: the run to judge and what it must show."""

    description: str
    run_path: str  # the forged run's path inside the copied submission folder
    phases: tuple[str, ...] = ()  # phases the attack touched
    honest_path: str | None = None  # kind m: the honest run beside the forged one
    extra: dict[str, str] = field(default_factory=dict)


# --- the workspace ------------------------------------------------------------------------------


class Workspace:
    """One copied submission folder and the run inside it that is being forged."""

    def __init__(self, folder: Path, run: RunResult) -> None:
        self.folder = folder
        self.run = run
        self.run_path = run.path
        self.dir = folder / run.path
        self.era = run.era
        self.is_c = not run.era.is_shell
        self.version = run.version or ""
        self._hash_recipe = self._find_hash_recipe() if self.is_c else None

    # files
    def path(self, name: str) -> Path:
        return self.dir / name

    def has(self, name: str) -> bool:
        return self.path(name).is_file()

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8", errors="surrogateescape")

    def write(self, name: str, text: str) -> None:
        self.path(name).write_text(text, encoding="utf-8", errors="surrogateescape")

    def delete(self, name: str) -> bool:
        if self.has(name):
            self.path(name).unlink()
            return True
        return False

    def raw_name(self, phase: str) -> str | None:
        """The phase's raw tool output, as this run names it; None when the archive lacks it."""
        if phase == "find":
            candidates = ["find.csv"] if self.is_c else ["find.txt"]
        elif self.is_c:
            candidates = [f"{phase}.txt"]
        else:
            candidates = [f"{phase.replace('-', '_')}.txt"]
        return next((name for name in candidates if self.has(name)), None)

    def csv_name(self, phase: str) -> str | None:
        name = f"{phase}.csv"
        return name if self.is_c and phase != "find" and self.has(name) else None

    def console_logs(self) -> list[str]:
        return sorted(
            p.name
            for p in self.dir.iterdir()
            if p.name.startswith("io-500-summary") and p.name.endswith(".txt")
        )

    # result.txt
    def result_get(self, section: str, key: str) -> str | None:
        doc = parse_ini(self.text("result.txt"))
        if section in ("", "run"):
            return doc.value("run", key) if doc.section("run") else doc.value("", key)
        return doc.value(section, key)

    def result_set(self, section: str, key: str, value: str, *, add: bool = False) -> None:
        self.write("result.txt", ini_set(self.text("result.txt"), section, key, value, add=add))

    def phase_score_text(self, phase: str) -> str | None:
        if self.is_c and self.has("result.txt"):
            value = self.result_get(phase, "score")
            if value is not None:
                return value
        line = self._summary_line(phase)
        return None if line is None else line[0]

    def phase_value(self, phase: str) -> float:
        text = self.phase_score_text(phase)
        if text is None:
            raise NotApplicable(f"the run has no value for {phase}")
        return float(text.split()[0])

    def _summary_line(self, phase: str) -> tuple[str, str] | None:
        for line in self.text("result_summary.txt").split("\n"):
            match = _summary_match(line, self.is_c)
            if match and _summary_phase(match, self.is_c) == phase:
                return match.group(4), match.group(8)
        return None

    def format_value(self, value: float) -> str:
        return f"{value:.6f}" if self.is_c else f"{value:.3f}"

    def set_phase(self, phase: str, value: float | None = None, time_s: float | None = None) -> str | None:
        """Write a phase's value and / or time everywhere the benchmark printed them.

        Returns the value as printed (the forger's figures are derived from that string)."""
        printed = None if value is None else self.format_value(value)
        if self.is_c and self.has("result.txt"):
            if printed is not None and self.result_get(phase, "score") is not None:
                self.result_set(phase, "score", printed)
            if time_s is not None and self.result_get(phase, "t_delta") is not None:
                self.result_set(phase, "t_delta", f"{time_s:.4f}")
        time_text = None if time_s is None else (f"{time_s:.3f}" if self.is_c else f"{time_s:.2f}")
        for name in ["result_summary.txt", *([] if self.is_c else self.console_logs())]:
            if self.has(name):
                self.write(name, _summary_edit(self.text(name), phase, printed, time_text, self.is_c))
        return printed

    # score, hashes
    def rescore(self) -> None:
        """BW, MD and SCORE recomputed from the phase values as printed, then the score hash."""
        skip = self.era.skips_zero_phases
        values: dict[str, float] = {}
        for phase in SCORED_PHASES:
            text = self.phase_score_text(phase)
            values[phase] = float(text.split()[0]) if text else 0.0
        bw = geometric_mean([values[p] for p in BW_PHASES], skip_nonpositive=skip)
        md = geometric_mean([values[p] for p in MD_PHASES], skip_nonpositive=skip)
        total = math.sqrt(bw * md)
        if self.is_c:
            texts = (f"{bw:.6f}", f"{md:.6f}", f"{total:.6f}")
        else:
            texts = (f"{bw:.6g}", f"{md:.6g}", f"{total:.6g}")
        for name in ["result_summary.txt", *([] if self.is_c else self.console_logs())]:
            if self.has(name):
                self.write(name, _score_line_edit(self.text(name), *texts))
        if self.is_c and self.has("result.txt") and parse_ini(self.text("result.txt")).section("SCOREX"):
            self._rescore_extended(values, skip)
        if self.is_c and self.has("result.txt"):
            result = self.text("result.txt")
            for key, text in zip(("BW", "MD"), texts[:2], strict=True):
                result = ini_set(result, "SCORE", key, text)
            old_total = parse_ini(result).value("SCORE", "SCORE") or ""
            suffix = old_total[len(old_total.split()[0]) :] if old_total.split() else ""
            result = ini_set(result, "SCORE", "SCORE", texts[2] + suffix)
            self.write("result.txt", result)
            self.rehash()

    def _rescore_extended(self, values: dict[str, float], skip: bool) -> None:
        """[SCOREX]: the same means over the standard and the extended phases, and its hash."""
        doc = parse_ini(self.text("result.txt"))
        extra = {
            s.name: float(v.split()[0])
            for s in doc.sections
            if (v := doc.value(s.name, "score")) and s.name not in SCORED_PHASES and v.split()
        }
        bw_names = [p for p in EXTENDED_BW_PHASES if p in extra]
        md_names = [p for p in EXTENDED_MD_PHASES if p in extra]
        pool = {**values, **extra}
        bw = geometric_mean([pool[p] for p in (*BW_PHASES, *bw_names)], skip_nonpositive=skip)
        md = geometric_mean([pool[p] for p in (*MD_PHASES, *md_names)], skip_nonpositive=skip)
        texts = (f"{bw:.6f}", f"{md:.6f}", f"{math.sqrt(bw * md):.6f}")
        result = self.text("result.txt")
        for key, text in zip(("BW", "MD", "SCORE"), texts, strict=True):
            result = ini_set(result, "SCOREX", key, text)
        scores = {p: doc.value(p, "score") or "" for p in (*bw_names, *md_names)}
        stored = parse_hash(doc.value("SCOREX", "hash") or "")
        if stored is not None:
            old = (
                doc.value("SCOREX", "MD") or "",
                doc.value("SCOREX", "BW") or "",
                doc.value("SCOREX", "SCORE") or "",
            )
            valid = stored != extended_score_hash(scores, *old, valid=False)
            new_hash = extended_score_hash(scores, texts[1], texts[0], texts[2], valid=valid)
            result = ini_set(result, "SCOREX", "hash", format_hash(new_hash))
        self.write("result.txt", result)
        summary = self.text("result_summary.txt") if self.has("result_summary.txt") else None
        if summary is not None:
            lines = summary.split("\n")
            for i, line in enumerate(lines):
                if line.startswith("[SCOREX"):
                    lines[i] = _score_line_edit(line.replace("[SCOREX", "[SCORE!", 1), *texts).replace(
                        "[SCORE!", "[SCOREX", 1
                    )
            self.write("result_summary.txt", "\n".join(lines))

    def _hash_inputs(self) -> tuple[dict[str, str], str, str, str, int | None]:
        doc = parse_ini(self.text("result.txt"))
        sections = {s.name: dict(items) for s, items in zip(doc.sections, _app_items(doc), strict=True)}
        phases = {p: sections[p]["score"] for p in SCORED_PHASES if "score" in sections.get(p, {})}
        score = sections.get("SCORE", {})
        total = score.get("SCORE", "").split()
        stored = parse_hash(score.get("hash", ""))
        return phases, score.get("MD", ""), score.get("BW", ""), total[0] if total else "", stored

    def _find_hash_recipe(self) -> tuple[bool, bool] | None:
        """(include MD/BW, valid) as the original hash was made; None without a readable hash."""
        if not self.has("result.txt"):
            return None
        phases, md, bw, total, stored = self._hash_inputs()
        if stored is None:
            return None
        for include in (version_hashes_md_bw(self.version), not version_hashes_md_bw(self.version)):
            for valid in (True, False):
                if stored == score_hash(
                    self.version, phases, md, bw, total, include_md_bw=include, valid=valid
                ):
                    return include, valid
        return None

    def rehash(self, *, valid: bool | None = None) -> None:
        """The score hash of result.txt recomputed with the recipe the original used."""
        if not self.has("result.txt"):
            return
        phases, md, bw, total, stored = self._hash_inputs()
        if stored is None:
            return
        include, was_valid = self._hash_recipe or (version_hashes_md_bw(self.version), True)
        if self.version != (self.run.version or ""):
            include = version_hashes_md_bw(self.version)  # a relabelled build: the new version's recipe
        expected = score_hash(
            self.version,
            phases,
            md,
            bw,
            total,
            include_md_bw=include,
            valid=was_valid if valid is None else valid,
        )
        self.result_set("SCORE", "hash", format_hash(expected))

    def rehash_config(self) -> None:
        if not (self.has("result.txt") and self.has("config.ini")):
            raise NotApplicable("the run has no result.txt and config.ini to rehash")
        config = parse_ini(self.text("config.ini")).as_config()
        self.result_set(
            "run", "config-hash", format_hash(config_hash([(n, list(o.items())) for n, o in config.items()]))
        )


def _app_items(doc: IniDocument) -> list[list[tuple[str, str]]]:
    """Each section's pairs as the app's parser reports them (empty values skipped)."""
    return [[(k, v) for k, v in s.items if v != ""] for s in doc.sections]


# --- text editing helpers -----------------------------------------------------------------------

_SECTION_LINE = re.compile(r"^\s*\[\s*([0-9A-Za-z_-]+)\s*\]")
_KEY_LINE = re.compile(r"^(\s*([0-9A-Za-z_.-]+)\s*=[ \t]*)(.*)$")


def ini_set(text: str, section: str, key: str, value: str, *, add: bool = False) -> str:
    """Set `key` in the first `section` ("" / "run": the header) keeping the line's layout."""
    lines = text.split("\n")
    current = ""
    header = section in ("", "run")
    last_in_section = None
    for index, line in enumerate(lines):
        match = _SECTION_LINE.match(line)
        if match:
            if last_in_section is not None and _in(current, section, header):
                break
            current = match.group(1)
            if _in(current, section, header):
                last_in_section = index
            continue
        if not _in(current, section, header):
            continue
        key_match = _KEY_LINE.match(line)
        if key_match and key_match.group(2) == key:
            lines[index] = key_match.group(1) + value
            return "\n".join(lines)
        if key_match:
            last_in_section = index
    if not add:
        raise NotApplicable(f"result.txt has no '{key}' in [{section}]")
    position = 0 if last_in_section is None else last_in_section + 1
    lines.insert(position, f"{key:<15} = {value}")
    return "\n".join(lines)


def _in(current: str, section: str, header: bool) -> bool:
    return current in ("", "run") if header else current == section


_C_SUMMARY = re.compile(
    r"^(\[(?:RESULT| {6})(?:-invalid)?\]\s+)(\S+)(\s+)(\S+)(\s+)(GiB/s|GB/s|kIOPS)"
    r"(\s*:\s*time\s+)(\S+)(\s+seconds.*)$"
)
_SHELL_SUMMARY = re.compile(
    r"^(\[RESULT(?:-invalid)?\]\s+(?:BW|IOPS)\s+phase\s+\d+\s+)(\S+)(\s+)(\S+)(\s+)(GB/s|GiB/s|kiops)"
    r"(\s*:\s*time\s+)(\S+)(\s+seconds.*)$"
)
_SCORE_LINE = re.compile(r"^(\[SCORE[^\]]*\]\s+Bandwidth\s+)(\S+)(.*?IOPS\s+)(\S+)(.*?TOTAL\s+)(\S+)(.*)$")


def _summary_match(line: str, is_c: bool) -> re.Match[str] | None:
    return (_C_SUMMARY if is_c else _SHELL_SUMMARY).match(line)


def _summary_phase(match: re.Match[str], is_c: bool) -> str:
    return match.group(2) if is_c else match.group(2).replace("_", "-")


def _fit(old: str, new: str) -> str:
    """The new token right-aligned in the old token's width, as printf's %15f would print it."""
    return new.rjust(len(old))


def _summary_edit(text: str, phase: str, value: str | None, time_text: str | None, is_c: bool) -> str:
    out = []
    for line in text.split("\n"):
        match = _summary_match(line, is_c)
        if match and _summary_phase(match, is_c) == phase:
            groups = list(match.groups())
            if value is not None:
                # keep the column: the padding before the number absorbs a longer number
                width = len(groups[2]) + len(groups[3])
                groups[2], groups[3] = "", (" " + value).rjust(width)
            if time_text is not None:
                groups[7] = _fit(groups[7], time_text)
            line = "".join(groups)
        out.append(line)
    return "\n".join(out)


def _score_line_edit(text: str, bw: str, md: str, total: str) -> str:
    out = []
    for line in text.split("\n"):
        match = _SCORE_LINE.match(line)
        if match and not line.startswith("[SCOREX"):
            g = list(match.groups())
            g[1], g[3], g[5] = bw, md, total
            line = "".join(g)
        out.append(line)
    return "\n".join(out)


def _decimals(token: str) -> int:
    return len(token.split(".", 1)[1]) if "." in token else 0


def _like(token: str, value: float) -> str:
    """`value` printed with as many decimals as `token` had (IOR and mdtest print fixed decimals)."""
    if "e" in token.lower():
        return f"{value:.10e}"
    return f"{value:.{_decimals(token)}f}"


def _replace_tokens(line: str, replacements: dict[int, str]) -> str:
    """Replace whitespace-separated fields by index, keeping the columns (numbers are right-aligned)."""
    parts = re.split(r"(\s+)", line)
    first = 2 if parts and parts[0] == "" else 0  # a leading blank makes parts[0] empty
    for index, new in replacements.items():
        position = first + 2 * index
        if position >= len(parts):
            continue
        old = parts[position]
        if len(new) <= len(old):
            parts[position] = new.rjust(len(old))
            continue
        parts[position] = new
        grow = len(new) - len(old)
        if position > 0 and len(parts[position - 1]) > grow:
            parts[position - 1] = parts[position - 1][:-grow]  # the padding before absorbs the wider number
    return "".join(parts)


# --- clocks -------------------------------------------------------------------------------------

_RESULT_CLOCK = re.compile(r"^(\s*(?:t_start|t_end)\s*=\s*)(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(.*)$")
_RESULT_MARK = re.compile(r"^(;\s*(?:START|END)\s+)(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(.*)$")
_CTIME = re.compile(r"^((?:Began|Finished|StartTime)\s*:\s*)(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})(.*)$")
_MDTEST_CLOCK = re.compile(r"^(-- (?:started|finished) at )(\d\d/\d\d/\d{4} \d\d:\d\d:\d\d)( --.*)$")


def _ctime(stamp: dt.datetime) -> str:
    return stamp.strftime("%a %b ") + f"{stamp.day:>2}" + stamp.strftime(" %H:%M:%S %Y")


def shift_tool_clocks(
    text: str,
    seconds: float,
    *,
    which: tuple[str, ...] = ("Began", "Finished", "StartTime", "started", "finished"),
) -> str:
    """Every clock IOR (ctime) or mdtest (`-- started at`) printed, moved by `seconds`."""
    out = []
    delta = dt.timedelta(seconds=seconds)
    for line in text.split("\n"):
        match = _CTIME.match(line)
        if match and match.group(1).split()[0] in which:
            stamp = dt.datetime.strptime(" ".join(match.group(2).split()), "%a %b %d %H:%M:%S %Y")
            line = match.group(1) + _ctime(stamp + delta) + match.group(3)
        match = _MDTEST_CLOCK.match(line)
        if match and match.group(1).split()[1] in which:
            stamp = dt.datetime.strptime(match.group(2), "%m/%d/%Y %H:%M:%S")
            line = match.group(1) + (stamp + delta).strftime("%m/%d/%Y %H:%M:%S") + match.group(3)
        out.append(line)
    return "\n".join(out)


def shift_result_clocks(
    text: str, seconds: float, phases: set[str], *, end_of: str | None, marks: bool
) -> str:
    """t_start / t_end of `phases` moved; of `end_of` only t_end; `; END` too when `marks`."""
    out = []
    current = ""
    delta = dt.timedelta(seconds=seconds)
    for line in text.split("\n"):
        section = _SECTION_LINE.match(line)
        if section:
            current = section.group(1)
        match = _RESULT_CLOCK.match(line)
        key = line.split("=")[0].strip() if match else ""
        if match and (current in phases or (current == end_of and key == "t_end")):
            stamp = dt.datetime.strptime(match.group(2), CLOCK) + delta
            line = match.group(1) + stamp.strftime(CLOCK) + match.group(3)
        mark = _RESULT_MARK.match(line)
        if mark and marks and "END" in mark.group(1):
            stamp = dt.datetime.strptime(mark.group(2), CLOCK) + delta
            line = mark.group(1) + stamp.strftime(CLOCK) + mark.group(3)
        out.append(line)
    return "\n".join(out)


def phases_after(run: RunResult, phase: str) -> list[str]:
    """Phases that ran after `phase` (result.txt order when known, else the standard order)."""
    order = list(run.phases) + list(run.extra_phases)
    if run.result_ini:
        order = [name for name, _ in run.result_ini if name not in ("", "run", "SCORE", "SCOREX")]
    if phase not in order:
        order = list(PHASE_ORDER)
    return order[order.index(phase) + 1 :] if phase in order else []


def shift_later_phases(ws: Workspace, phase: str, seconds: float) -> None:
    """The clocks of every phase after `phase` moved, in result.txt and in the tools' outputs."""
    later = phases_after(ws.run, phase)
    if ws.has("result.txt"):
        ws.write(
            "result.txt",
            shift_result_clocks(ws.text("result.txt"), seconds, set(later), end_of=phase, marks=True),
        )
    everything = set(later) | set(ws.run.phases) | set(ws.run.extra_phases)
    for name in later:
        if ws.is_c:
            names = raw_output_names(name, everything)
        else:
            names = (f"{name.replace('-', '_')}.txt",)
        for raw in names:
            if raw.endswith(".txt") and ws.has(raw):
                ws.write(raw, shift_tool_clocks(ws.text(raw), seconds))
                break


# --- IOR and mdtest figures ------------------------------------------------------------------------


def ior_rewrite_bandwidth(
    text: str,
    new_mib: float,
    ratio: float,
    *,
    bytes_moved: int | None = None,
    pairs: tuple[int, int] | None = None,
) -> str:
    """Every bandwidth figure of an IOR output rewritten for `new_mib` MiB/s with the same times.

    The bytes moved are `bytes_moved`, or follow from the new bandwidth and the printed total time;
    the stonewall pairs are `pairs` (min, max) or scale with `ratio` (new / old), like the data
    sizes and the operation rates."""
    lines = text.split("\n")
    header: list[str] | None = None
    summary_header: list[str] | None = None
    new_bytes: int | None = None
    for index, line in enumerate(lines):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "access" and any(f.startswith("bw(") for f in fields):
            header = fields
            continue
        if header and fields[0] in ("write", "read") and len(fields) >= 8 and summary_header is None:
            replacements: dict[int, str] = {}
            for col, name in enumerate(header[: len(fields)]):
                if name.startswith("bw("):
                    replacements[col] = _like(fields[col], new_mib)
                elif name == "IOPS":
                    replacements[col] = _like(fields[col], float(fields[col]) * ratio)
            total = float(fields[-2])
            new_bytes = round(new_mib * MIB * total)
            if "xfer(KiB)" in header and header.index("xfer(KiB)") < len(fields):
                # IOR moves whole transfers: the forger's byte count is a multiple of the transfer size
                xfer = round(float(fields[header.index("xfer(KiB)")]) * 1024)
                new_bytes = max(xfer, round(new_bytes / xfer) * xfer) if xfer > 0 else new_bytes
            if bytes_moved is not None:
                new_bytes = bytes_moved
            lines[index] = _replace_tokens(line, replacements)
            continue
        if fields[0] in ("Max", "Min", "Mean") and len(fields) >= 3 and fields[1] in ("Write:", "Read:"):
            lines[index] = f"{fields[0]} {fields[1]} {new_mib:.2f} MiB/sec ({new_mib * 1.048576:.2f} MB/sec)"
            continue
        if fields[0] == "Operation" and "Max(MiB)" in fields:
            summary_header = fields
            continue
        if summary_header and fields[0] in ("write", "read") and len(fields) == len(summary_header):
            replacements = {}
            std_seen = 0
            for col, name in enumerate(summary_header):
                token = fields[col]
                if name in ("Max(MiB)", "Min(MiB)", "Mean(MiB)"):
                    replacements[col] = _like(token, new_mib)
                elif name == "StdDev":
                    std_seen += 1
                    replacements[col] = _like(token, float(token) * ratio)
                elif name in ("Max(OPs)", "Min(OPs)", "Mean(OPs)", "Stonewall(MiB)"):
                    replacements[col] = _like(token, float(token) * ratio)
                elif name == "aggs(MiB)":
                    seconds = (
                        float(fields[summary_header.index("Mean(s)")])
                        if "Mean(s)" in summary_header
                        else None
                    )
                    size = new_mib * seconds if seconds else float(token) * ratio
                    replacements[col] = _like(token, size)
                elif name == "aggsize":
                    seconds = (
                        float(fields[summary_header.index("Mean(s)")])
                        if "Mean(s)" in summary_header
                        else None
                    )
                    replacements[col] = str(
                        round(new_mib * MIB * seconds) if seconds else round(float(token) * ratio)
                    )
            lines[index] = _replace_tokens(line, replacements)
            summary_header = None  # one summary row per operation
            continue
        if line.startswith("stonewalling pairs accessed"):
            if pairs is not None:
                line = re.sub(r"min:\s*\d+", f"min: {pairs[0]}", line, count=1)
                line = re.sub(r"max:\s*\d+", f"max: {pairs[1]}", line, count=1)
                lines[index] = _scale_numbers_after(line, ("data:",), ratio, integer=False)
                continue
            lines[index] = _scale_numbers_after(line, ("min:", "max:"), ratio, integer=True)
            lines[index] = _scale_numbers_after(lines[index], ("data:",), ratio, integer=False)
    text = "\n".join(lines)
    if new_bytes is not None:
        text = re.sub(
            r"(WARNING: Using actual aggregate bytes moved\s*=\s*)(\d+)",
            lambda m: m.group(1) + str(new_bytes),
            text,
        )
        text = re.sub(
            r"(WARNING: Stat\(\) of aggregate file size\s*=\s*)(\d+)",
            lambda m: m.group(1) + str(new_bytes),
            text,
        )
    return text


def _scale_numbers_after(line: str, labels: tuple[str, ...], ratio: float, *, integer: bool) -> str:
    for label in labels:

        def repl(match: re.Match[str]) -> str:
            token = match.group(2)
            value = float(token) * ratio
            return match.group(1) + (str(round(value)) if integer else _like(token, value))

        line = re.sub(rf"({re.escape(label)}\s*)([0-9.]+)", repl, line)
    return line


def mdtest_rewrite_rate(text: str, operation: str, ratio: float) -> str:
    """The operation's rate row scaled by `ratio`, its time row kept, the stonewall item counts scaled."""
    out = []
    table = None
    for line in text.split("\n"):
        if line.startswith("SUMMARY"):
            table = "time" if line.startswith("SUMMARY time") else "rate"
        stripped = line.strip()
        if table == "rate" and (
            stripped.startswith(operation) or stripped.startswith("File create (stonewall)")
        ):
            label = "File create (stonewall)" if stripped.startswith("File create (stonewall)") else operation
            if label == operation or operation == "File creation":
                prefix_end = line.index(label) + len(label)
                rest = line[prefix_end:]

                def repl(match: re.Match[str]) -> str:
                    token = match.group(0)
                    return _like(token, float(token) * ratio).rjust(len(token))

                line = line[:prefix_end] + re.sub(r"\d+\.\d+", repl, rest)
        if line.startswith("stonewall rank "):
            # io500.sh-era mdtest prints each rank's stonewall count: "stonewall rank 400: 967110 of 1000000"
            line = re.sub(
                r"(:\s*)(\d+)(?= of )", lambda m: m.group(1) + str(round(int(m.group(2)) * ratio)), line
            )
        if line.startswith("Continue stonewall hit"):
            line = _scale_numbers_after(line, ("min:", "max:"), ratio, integer=True)
            line = _scale_numbers_after(line, ("avg:",), ratio, integer=False)
        out.append(line)
    return "\n".join(out)


def scale_rank_csv(text: str, columns: tuple[str, ...], ratio: float, *, items: bool = False) -> str:
    """Columns of a per-rank CSV scaled by `ratio` (IOR throughputs, mdtest rates and items)."""
    lines = text.split("\n")
    if not lines:
        return text
    header = [h.strip() for h in lines[0].split(",")]
    wanted = [i for i, h in enumerate(header) if h in columns or (items and h == "items")]
    out = [lines[0]]
    for line in lines[1:]:
        fields = line.split(",")
        for i in wanted:
            if i < len(fields) and fields[i].strip():
                try:
                    value = float(fields[i]) * ratio
                except ValueError:
                    continue
                fields[i] = str(round(value)) if header[i] == "items" else f"{value:.10e}"
        out.append(",".join(fields))
    return "\n".join(out)


# --- the attacks ----------------------------------------------------------------------------------

IOR_PHASES = ("ior-easy-write", "ior-hard-write")


def _ior_phase(ws: Workspace, candidates: tuple[str, ...] = IOR_PHASES) -> tuple[str, str]:
    for phase in candidates:
        raw = ws.raw_name(phase)
        if raw is not None and phase in ws.run.phases:
            return phase, raw
    raise NotApplicable(f"no raw IOR output of {' / '.join(candidates)}")


def _require_c(ws: Workspace) -> None:
    if not ws.is_c or not ws.has("result.txt"):
        raise NotApplicable("the run has no result.txt")


def max_line(ws: Workspace) -> Outcome:
    """a. One phase +50 %: one `Max Write:` line edited or appended, the per-rank CSV deleted."""
    phase, raw = _ior_phase(ws)
    new = ws.set_phase(phase, ws.phase_value(phase) * 1.5)
    assert new is not None
    mib = float(new) * 1024
    line = f"Max Write: {mib:.2f} MiB/sec ({mib * 1.048576:.2f} MB/sec)"
    text = ws.text(raw)
    if re.search(r"^Max Write:", text, re.M):
        text = re.sub(r"^Max Write:.*$", line, text, count=1, flags=re.M)
        how = "edited"
    else:
        match = re.search(r"^write\s.*$", text, re.M)
        if match is None:
            raise NotApplicable(f"{raw} has no write result row")
        text = text[: match.end()] + "\n" + line + text[match.end() :]
        how = "appended"
    ws.write(raw, text)
    csv_file = ws.csv_name(phase)
    if csv_file:
        ws.delete(csv_file)
    ws.rescore()
    return Outcome(
        f"{phase} x1.5, Max Write line {how}" + (", CSV deleted" if csv_file else ""), ws.run_path, (phase,)
    )


def ior_rewrite(ws: Workspace) -> Outcome:
    """b. One IOR phase rewritten consistently: summary, result.txt, every figure of IOR's output, CSV."""
    phase, raw = _ior_phase(ws, ("ior-easy-write",))
    old = ws.phase_value(phase)
    text = ws.text(raw)
    bytes_moved, pairs = _raised_bytes(text, raw, 1.5)
    honest = parse_ior(text, raw)
    if ws.is_c and bytes_moved is not None and honest.time_s:
        # the value IOR and the application derive from those bytes and the unchanged time
        new = ws.set_phase(phase, bytes_moved / honest.time_s / 2**30)
    else:
        new = ws.set_phase(phase, old * 1.5)
        bytes_moved, pairs = None, None
    assert new is not None
    ratio = float(new) / old
    ws.write(raw, ior_rewrite_bandwidth(text, float(new) * 1024, ratio, bytes_moved=bytes_moved, pairs=pairs))
    csv_file = ws.csv_name(phase)
    if csv_file:
        ws.write(
            csv_file, scale_rank_csv(ws.text(csv_file), ("throughput-withopenclose", "throughput"), ratio)
        )
    if ws.is_c:
        stonewall = ws.result_get(phase, "throughput-stonewall")
        if stonewall:
            ws.result_set(phase, "throughput-stonewall", f"{float(stonewall) * ratio:.2f}")
    ws.rescore()
    return Outcome(f"{phase} x1.5 rewritten in every file", ws.run_path, (phase,))


def _raised_bytes(text: str, raw: str, factor: float) -> tuple[int | None, tuple[int, int] | None]:
    """The bytes a phase `factor` times larger moves in whole transfers, and the stonewall pairs
    that go with them when every rank wrote the maximum (wear-out: bytes = max pairs x tasks x xfer)."""
    honest = parse_ior(text, raw)
    row = re.search(r"^access\s.*$", text, re.M)
    result = re.search(r"^write\s.*$", text, re.M)
    if honest.items is None or honest.tasks is None or row is None or result is None:
        return None, None
    header, fields = row.group(0).split(), result.group(0).split()
    if "xfer(KiB)" not in header or header.index("xfer(KiB)") >= len(fields):
        return None, None
    xfer = round(float(fields[header.index("xfer(KiB)")]) * 1024)
    if xfer <= 0:
        return None, None
    found = re.search(r"^stonewalling pairs accessed min:\s*(\d+)\s+max:\s*(\d+)", text, re.M)
    if found and int(found.group(2)) * honest.tasks * xfer == honest.items:
        low, high = int(found.group(1)), int(found.group(2))
        new_high = round(high * factor)
        return new_high * honest.tasks * xfer, (round(low * new_high / high), new_high)
    return round(honest.items * factor / xfer) * xfer, None


def mdtest_rewrite(ws: Workspace) -> Outcome:
    """c. One mdtest phase rewritten consistently: rate rows, stonewall item counts, CSV, summaries."""
    phase = "mdtest-easy-write"
    raw = ws.raw_name(phase)
    if raw is None:
        raise NotApplicable(f"no raw mdtest output of {phase}")
    old = ws.phase_value(phase)
    new = ws.set_phase(phase, old * 1.5)
    assert new is not None
    ratio = float(new) / old
    ws.write(raw, mdtest_rewrite_rate(ws.text(raw), "File creation", ratio))
    csv_file = ws.csv_name(phase)
    if csv_file:
        ws.write(csv_file, scale_rank_csv(ws.text(csv_file), ("rate-File creation",), ratio, items=True))
    if ws.is_c:
        stonewall = ws.result_get(phase, "rate-stonewall")
        if stonewall:
            ws.result_set(phase, "rate-stonewall", f"{float(stonewall) * ratio:.6f}")
    ws.rescore()
    return Outcome(f"{phase} x1.5 rewritten in every file", ws.run_path, (phase,))


def longer_write(ws: Workspace, *, shift_later: bool = False) -> Outcome:
    """d. A write phase claims 60 s more than it ran: t_delta, t_end and the summary time (issue 22's
    forgery); with `shift_later`, every later phase's clocks in result.txt and the tools' outputs too."""
    phase, raw = _ior_phase(ws, ("ior-easy-write",))
    time_s = ws.run.phases[phase].time_s
    if time_s is None:
        raise NotApplicable(f"{phase} has no printed time")
    ws.set_phase(phase, None, time_s + SHIFT_S)
    ws.write(raw, shift_tool_clocks(ws.text(raw), SHIFT_S, which=("Finished",)))
    if shift_later:
        shift_later_phases(ws, phase, SHIFT_S)
    if not ws.is_c:
        # io500.sh printed IOR's wr/rd(s) (the row's 8th field) as the phase time
        text = ws.text(raw)
        match = re.search(r"^write\s.*$", text, re.M)
        if match:
            fields = match.group(0).split()
            new_line = _replace_tokens(match.group(0), {7: _like(fields[7], float(fields[7]) + SHIFT_S)})
            ws.write(raw, text[: match.start()] + new_line + text[match.end() :])
    later = ", later clocks shifted" if shift_later else ""
    return Outcome(f"{phase} claims {SHIFT_S} s more{later}", ws.run_path, (phase,))


def longer_write_shifted(ws: Workspace) -> Outcome:
    return longer_write(ws, shift_later=True)


def _same_system_sources(ws: Workspace, index: dict[str, tuple[str, str]], corpus: Path) -> list[Path]:
    me = ws.folder.name
    key = index.get(me)
    if key is None:
        return []
    return [corpus / name for name, other in sorted(index.items()) if other == key and name != me]


def splice(ws: Workspace, corpus: Path, index: dict[str, tuple[str, str]]) -> Outcome:
    """e. ior-easy-write's output (and CSV) spliced from another run of the same system; without
    one, the same output with nodes and tasks doubled. Clocks and command line made to fit."""
    phase, raw = _ior_phase(ws, ("ior-easy-write",))
    original = ws.text(raw)
    donor_text: str | None = None
    donor_csv: str | None = None
    donor_name = ""
    for source in _same_system_sources(ws, index, corpus):
        names = ("ior-easy-write.txt", "ior_easy_write.txt")
        found = sorted(p for name in names for p in source.rglob(name))
        if found:
            donor_text = found[0].read_text(encoding="utf-8", errors="surrogateescape")
            csv_path = found[0].with_suffix(".csv")
            donor_csv = csv_path.read_text(encoding="utf-8") if csv_path.is_file() else None
            donor_name = f"{source.name}/{found[0].relative_to(source)}"
            break
    if donor_text is None:
        text = re.sub(
            r"^(nodes\s*:\s*)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) * 2), original, flags=re.M
        )
        text = re.sub(
            r"^(tasks\s*:\s*)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) * 2), text, flags=re.M
        )
        if text == original:
            raise NotApplicable(f"{raw} prints no node or task count")
        ws.write(raw, text)
        return Outcome(f"{phase}: nodes and tasks doubled in the output", ws.run_path, (phase,))
    # the forger keeps this run's command line and clocks so that they match result.txt
    donor_text = _keep_lines(donor_text, original, ("Command line", "Began", "Finished", "StartTime"))
    ws.write(raw, donor_text)
    csv_file = ws.csv_name(phase)
    if csv_file and donor_csv is not None:
        ws.write(csv_file, donor_csv)
    elif csv_file:
        ws.delete(csv_file)
    donor = parse_ior(donor_text, raw)
    honest = parse_ior(original, raw)
    if ws.is_c:
        # what the application computed from these bytes and this time: the middle of what IOR's figures allow
        value = (
            (donor.value_low + donor.value_high) / 2 if donor.value_low and donor.value_high else donor.value
        )
        old_time, new_time = honest.time_s, donor.time_s
    else:
        value, old_time, new_time = donor.script_value, honest.script_time_s, donor.script_time_s
    if value is None or old_time is None or new_time is None:
        raise NotApplicable(f"the donor {donor_name} has no readable bandwidth or time")
    claimed = ws.run.phases[phase].time_s or old_time
    moved = new_time - old_time  # the phase lasted as long as the donor's IOR ran, plus the same overhead
    ws.set_phase(phase, value, claimed + moved)
    clock_moved = round(moved)
    if ws.is_c:
        start, end = ws.result_get(phase, "t_start"), ws.result_get(phase, "t_end")
        if start and end:
            span = (dt.datetime.strptime(end, CLOCK) - dt.datetime.strptime(start, CLOCK)).total_seconds()
            clock_moved = round(claimed + moved) - round(span)  # t_end - t_start follows the new t_delta
    ws.write(raw, shift_tool_clocks(ws.text(raw), clock_moved, which=("Finished",)))
    shift_later_phases(ws, phase, clock_moved)
    ws.rescore()
    return Outcome(f"{phase} spliced from {donor_name}", ws.run_path, (phase,))


def _keep_lines(donor: str, original: str, prefixes: tuple[str, ...]) -> str:
    kept = {p: next((ln for ln in original.split("\n") if ln.startswith(p)), None) for p in prefixes}
    out = []
    for line in donor.split("\n"):
        for prefix, replacement in kept.items():
            if line.startswith(prefix) and replacement is not None:
                line = replacement
                break
        out.append(line)
    return "\n".join(out)


def duplicate_sections(ws: Workspace) -> Outcome:
    """f. A forged [ior-easy-write] and [SCORE] first, the honest sections last (the hash's)."""
    _require_c(ws)
    phase = "ior-easy-write"
    text = ws.text("result.txt")
    old = ws.phase_value(phase)
    forged_phase = _section_text(text, phase)
    forged_score = _section_text(text, "SCORE")
    if forged_phase is None or forged_score is None:
        raise NotApplicable("result.txt lacks the section to duplicate")
    # the forged copies, with the raised value and the score it implies
    ws.set_phase(phase, old * 1.5)
    ws.rescore()
    forged = ws.text("result.txt")
    new_phase = _section_text(forged, phase)
    new_score = _section_text(forged, "SCORE")
    assert new_phase is not None and new_score is not None
    # honest file again, with the forged sections inserted before the honest ones
    honest = text.replace(forged_phase, new_phase + "\n" + forged_phase, 1)
    honest = honest.replace(forged_score, new_score + "\n" + forged_score, 1)
    honest_x, new_x = _section_text(text, "SCOREX"), _section_text(forged, "SCOREX")
    if honest_x is not None and new_x is not None:
        honest = honest.replace(honest_x, new_x + "\n" + honest_x, 1)
    ws.write("result.txt", honest)
    return Outcome(f"{phase} x1.5 and [SCORE] in forged first sections", ws.run_path, (phase,))


def _section_text(text: str, name: str) -> str | None:
    match = re.search(rf"^\[{re.escape(name)}\][^\n]*\n(?:(?!\[)[^\n]*\n?)*", text, re.M)
    return match.group(0).rstrip("\n") if match else None


def extended_mode(ws: Workspace) -> Outcome:
    """g. `mode = extended` in the header (and the summary's version line), so that a phase that
    overlaps the next (t_end moved 60 s on) would not be checked for order."""
    _require_c(ws)
    if ws.era not in MODE_ERAS:
        raise NotApplicable("this era prints no mode")
    if (ws.run.mode or "").lower() == "extended":
        raise NotApplicable("the run is an extended-mode run")
    ws.result_set("run", "mode", "extended", add=True)
    summary = ws.text("result_summary.txt")
    summary = re.sub(r"^(IO500 version .*?)(?: \((\w+)\))?$", r"\1 (extended)", summary, count=1, flags=re.M)
    ws.write("result_summary.txt", summary)
    phase = "ior-easy-write"
    time_s = ws.run.phases[phase].time_s if phase in ws.run.phases else None
    if time_s is None:
        raise NotApplicable(f"{phase} has no time")
    ws.set_phase(phase, None, time_s + SHIFT_S)
    ws.write(
        "result.txt", shift_result_clocks(ws.text("result.txt"), SHIFT_S, set(), end_of=phase, marks=False)
    )
    return Outcome(
        "mode = extended, ior-easy-write 60 s longer overlapping the next phase", ws.run_path, (phase,)
    )


def echo_edited(ws: Workspace) -> Outcome:
    """h-echo. ior-hard-write ran with 1 MiB transfers; the command lines were edited back to 47008
    bytes and the forger missed the option echo, or edited the echo and missed the command."""
    raw = ws.raw_name("ior-hard-write")
    if raw is None:
        raise NotApplicable("no raw output of ior-hard-write")
    text = ws.text(raw)
    new = re.sub(r"^(xfersize\s*:\s*).*$", r"\g<1>1 MiB", text, count=1, flags=re.M)
    new = re.sub(r"^(blocksize\s*:\s*).*$", r"\g<1>1 MiB", new, count=1, flags=re.M)
    if new == text:
        raise NotApplicable(f"{raw} has no option echo")
    ws.write(raw, new)
    return Outcome(
        "ior-hard-write option echo says 1 MiB transfers, commands say 47008",
        ws.run_path,
        ("ior-hard-write",),
    )


def tables_tell(ws: Workspace) -> Outcome:
    """h-table. ior-hard-write ran with 1 MiB transfers; the forger edited both command lines and the
    option echo back to 47008 bytes, but IOR's result row (block, xfer) and summary table (blksiz,
    xsize) still print the transfer it used."""
    raw = ws.raw_name("ior-hard-write")
    if raw is None:
        raise NotApplicable("no raw output of ior-hard-write")
    lines = ws.text(raw).split("\n")
    header: list[str] | None = None
    summary: list[str] | None = None
    changed = 0
    for index, line in enumerate(lines):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "access" and any(f.startswith("bw(") for f in fields):
            header = fields
        elif header and summary is None and fields[0] == "write" and len(fields) >= 8:
            cols = [i for i, name in enumerate(header[: len(fields)]) if name in ("block(KiB)", "xfer(KiB)")]
            lines[index] = _replace_tokens(line, {i: _like(fields[i], 1024.0) for i in cols})
            changed += len(cols)
        elif fields[0] == "Operation" and "xsize" in fields:
            summary = fields
        elif summary and fields[0] == "write" and len(fields) == len(summary):
            cols = [i for i, name in enumerate(summary) if name in ("blksiz", "xsize")]
            lines[index] = _replace_tokens(line, {i: str(MIB) for i in cols})
            changed += len(cols)
    if not changed:
        raise NotApplicable(f"{raw} prints no transfer size in its tables")
    ws.write(raw, "\n".join(lines))
    return Outcome(
        "ior-hard-write's result row / summary table say 1 MiB transfers, echo and commands 47008",
        ws.run_path,
        ("ior-hard-write",),
    )


def config_edited(ws: Workspace) -> Outcome:
    """h-config. config.ini's ior-easy transferSize changed (the command is unchanged), hash recomputed."""
    _require_c(ws)
    if not ws.has("config.ini"):
        raise NotApplicable("no config.ini")
    text = ws.text("config.ini")
    section = re.search(r"^\[ior-easy\][^\[]*", text, re.M)
    match = re.search(r"^(\s*transferSize\s*=\s*)(\S+)", section.group(0), re.M) if section else None
    if section is None or match is None:
        raise NotApplicable("config.ini sets no ior-easy transferSize")
    # 3 MiB: a size no real run of the corpus used, so the edit changes the value whatever its spelling
    value = "5m" if match.group(2).lower() in ("3m", "3145728") else "3m"
    start = section.start() + match.start(2)
    new = text[:start] + value + text[section.start() + match.end(2) :]
    ws.write("config.ini", new)
    ws.rehash_config()
    return Outcome(
        "config.ini ior-easy transferSize changed, config hash recomputed", ws.run_path, ("ior-easy-write",)
    )


_CACHE_FLAGS = (re.compile(r"(?<=\s)-C -Q 1 "), re.compile(r"(?<=\s)-e (?=\S)"))


def cache_defeats_removed(ws: Workspace) -> Outcome:
    """h-cache. `-C -Q 1` and `-e` removed from ior-easy's command in result.txt / the console log
    and in the command line IOR printed."""
    changed = []
    for phase in ("ior-easy-write", "ior-easy-read"):
        raw = ws.raw_name(phase)
        if raw is None:
            continue
        text = ws.text(raw)
        new = _strip_cache_flags(text, "Command line")
        if new != text:
            ws.write(raw, new)
            changed.append(phase)
    if not changed:
        raise NotApplicable("ior-easy's command has no -C -Q 1 / -e")
    if ws.is_c:
        text = ws.text("result.txt")
        out = []
        current = ""
        for line in text.split("\n"):
            section = _SECTION_LINE.match(line)
            if section:
                current = section.group(1)
            if current in changed and line.lstrip().startswith("exe"):
                line = _drop_flags(line)
            out.append(line)
        ws.write("result.txt", "\n".join(out))
    else:
        for name in ws.console_logs():
            ws.write(name, _strip_cache_flags(ws.text(name), "[Exec]", only=("-b", "ior")))
    return Outcome(f"cache defeats removed from {', '.join(changed)}", ws.run_path, tuple(changed))


def _drop_flags(line: str) -> str:
    for flag in _CACHE_FLAGS:
        line = flag.sub("", line)
    return line


def _strip_cache_flags(text: str, prefix: str, only: tuple[str, ...] = ()) -> str:
    out = []
    for line in text.split("\n"):
        if line.startswith(prefix) and all(word in line for word in only) and " -F" in line:
            line = _drop_flags(line)
        out.append(line)
    return "\n".join(out)


def invalid_line_deleted(ws: Workspace) -> Outcome:
    """i. The application's `; ERROR INVALID` line deleted (the score hash made valid again); on a
    run without one, ior-easy-write first made short (IOR's time 250 s, bandwidth to match)."""
    _require_c(ws)
    text = ws.text("result.txt")
    if "ERROR INVALID" in text:
        ws.write("result.txt", "\n".join(ln for ln in text.split("\n") if "ERROR INVALID" not in ln))
        summary = ws.text("result_summary.txt")
        summary = "\n".join(ln for ln in summary.split("\n") if "ERROR INVALID" not in ln)
        summary = summary.replace(" [INVALID]", "").replace("-invalid]", "]")
        ws.write("result_summary.txt", summary)
        result = ws.text("result.txt").replace(" [INVALID]", "")
        ws.write("result.txt", result)
        ws.rehash(valid=True)
        return Outcome("the application's ERROR INVALID line deleted, hash made valid", ws.run_path)
    phase, raw = _ior_phase(ws, ("ior-easy-write",))
    ior = parse_ior(ws.text(raw), raw)
    if ior.time_s is None or ior.items is None or ior.time_s <= 0:
        raise NotApplicable(f"{raw} has no time or byte count to shorten")
    short = 250.0
    ratio = ior.time_s / short
    ws.write(raw, _ior_shorten(ws.text(raw), ratio))
    t_delta = ws.run.phases[phase].time_s or ior.time_s
    new_delta = t_delta - (ior.time_s - short) if t_delta > ior.time_s - short + 1 else t_delta / ratio
    new = ws.set_phase(phase, ws.phase_value(phase) * ratio, new_delta)
    assert new is not None
    start, end = ws.result_get(phase, "t_start"), ws.result_get(phase, "t_end")
    if start is None or end is None:
        raise NotApplicable(f"{phase} has no t_start / t_end")
    old_span = (dt.datetime.strptime(end, CLOCK) - dt.datetime.strptime(start, CLOCK)).total_seconds()
    moved = round(new_delta) - old_span  # t_end - t_start stays within a second of t_delta
    ws.write(
        "result.txt", shift_result_clocks(ws.text("result.txt"), moved, set(), end_of=phase, marks=False)
    )
    ws.write(raw, shift_tool_clocks(ws.text(raw), moved, which=("Finished",)))
    # the same bytes in less time: the byte count and the stonewall pairs stay as IOR printed them
    found = re.search(r"^stonewalling pairs accessed min:\s*(\d+)\s+max:\s*(\d+)", ws.text(raw), re.M)
    pairs = (int(found.group(1)), int(found.group(2))) if found else None
    text = ior_rewrite_bandwidth(
        ws.text(raw), float(new) * 1024, ratio, bytes_moved=round(ior.items), pairs=pairs
    )
    ws.write(raw, text)
    # the benchmark's own verdict on a short write phase, then the forger deletes it
    ws.rescore()
    return Outcome(f"{phase} short (IOR time {short:.0f} s) and no ERROR INVALID line", ws.run_path, (phase,))


def _ior_shorten(text: str, ratio: float) -> str:
    """IOR's times divided by `ratio` (the result row's wr/rd and total, the summary's Mean(s))."""
    lines = text.split("\n")
    header: list[str] | None = None
    summary_header: list[str] | None = None
    for index, line in enumerate(lines):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "access" and any(f.startswith("bw(") for f in fields):
            header = fields
        elif header and fields[0] == "write" and len(fields) >= 8 and summary_header is None:
            cols = {n: i for i, n in enumerate(header[: len(fields)])}
            repl = {
                i: _like(fields[i], float(fields[i]) / ratio)
                for n, i in cols.items()
                if n in ("wr/rd(s)", "total(s)")
            }
            lines[index] = _replace_tokens(line, repl)
        elif fields[0] == "Operation" and "Mean(s)" in fields:
            summary_header = fields
        elif summary_header and fields[0] == "write" and len(fields) == len(summary_header):
            i = summary_header.index("Mean(s)")
            lines[index] = _replace_tokens(line, {i: _like(fields[i], float(fields[i]) / ratio)})
    return "\n".join(lines)


def scc_relabelled(ws: Workspace) -> Outcome:
    """j. A `scc = TRUE` run relabelled `scc = FALSE` in config.ini, the config hash recomputed."""
    _require_c(ws)
    if not ws.has("config.ini"):
        raise NotApplicable("no config.ini")
    text = ws.text("config.ini")
    if not re.search(r"^\s*scc\s*=\s*TRUE", text, re.M | re.I):
        raise NotApplicable("the run is not an SCC run")
    ws.write("config.ini", re.sub(r"^(\s*scc\s*=\s*)TRUE", r"\1FALSE", text, flags=re.M | re.I))
    ws.rehash_config()
    return Outcome("scc = TRUE relabelled FALSE, config hash recomputed", ws.run_path)


_RELEASE = {
    Era.C_ISC20: "io500-isc20_v4",
    Era.C_SC20: "io500-sc20_v3",
    Era.C_ISC21: "io500-isc21_v2",
    Era.C_SC21: "io500-sc23_v1",
    Era.C_ISC25: "io500-isc25_v2",
}


def version_relabelled(ws: Workspace) -> Outcome:
    """k. A development or modified build relabelled as its release tag, the score hash recomputed."""
    from scoring.rules.params import is_release_version

    _require_c(ws)
    if is_release_version(ws.version):
        raise NotApplicable("the run is a release build")
    match = re.match(r"^(io500-(?:isc|sc)\d\d(?:_v\d+)?)", ws.version)
    release = match.group(1) if match else _RELEASE[ws.era]
    summary = ws.text("result_summary.txt")
    summary = re.sub(r"^IO500 version ?\S*", f"IO500 version {release}", summary, count=1, flags=re.M)
    ws.write("result_summary.txt", summary)
    ws.result_set("run", "version", release, add=True)
    ws.version = release
    ws.rehash()
    if ws.has("config.ini") and ws.result_get("run", "config-hash"):
        ws.rehash_config()
    return Outcome(f"version '{ws.run.version}' relabelled '{release}', hash recomputed", ws.run_path)


def csv_cut(ws: Workspace) -> Outcome:
    """l. The per-rank CSV of ior-easy-write (or the first scored phase that has one) cut to its header."""
    for phase in SCORED_PHASES:
        name = ws.csv_name(phase)
        if name:
            ws.write(name, ws.text(name).split("\n", 1)[0] + "\n")
            return Outcome(f"{name} cut to its header", ws.run_path, (phase,))
    raise NotApplicable("this run has no per-rank CSV")


def forged_copy_beside(ws: Workspace) -> Outcome:
    """m. A copy of the run beside it in the same archive with ior-easy-write rewritten x1.5 (kind b)."""
    source = ws.dir
    if ws.run_path in ("", "."):
        # the run is the archive's top folder: the copy goes into a folder inside it
        staging = ws.folder.parent / (ws.folder.name + "-staging")
        shutil.copytree(source, staging)
        target = source / "rerun"
        shutil.move(staging, target)
        copy_path = "rerun"
    else:
        target = source.parent / (source.name + "-rerun")
        shutil.copytree(source, target)
        copy_path = str(Path(ws.run_path).parent / target.name)
    copy_run = RunResult(path=copy_path, era=ws.era, version=ws.run.version)
    copy_run.phases = ws.run.phases
    copy_run.extra_phases = ws.run.extra_phases
    copy_run.result_ini = ws.run.result_ini
    forged = Workspace(ws.folder, copy_run)
    ior_rewrite(forged)
    return Outcome(
        "a copy with ior-easy-write x1.5 (consistent rewrite) beside the honest run",
        copy_run.path,
        ("ior-easy-write",),
        honest_path=ws.run_path,
    )


def raised_raw_deleted(ws: Workspace) -> Outcome:
    """n. ior-easy-write and mdtest-easy-write +54 %, hashes recomputed, their raw files deleted."""
    phases = ("ior-easy-write", "mdtest-easy-write")
    for phase in phases:
        if phase not in ws.run.phases or ws.raw_name(phase) is None:
            raise NotApplicable(f"no raw output of {phase} to delete")
    for phase in phases:
        ws.set_phase(phase, ws.phase_value(phase) * 1.54)
        raw = ws.raw_name(phase)
        assert raw is not None
        ws.delete(raw)
        csv_file = ws.csv_name(phase)
        if csv_file:
            ws.delete(csv_file)
    ws.rescore()
    return Outcome("two phases x1.54, their raw files deleted", ws.run_path, phases)


def unparsable_start(ws: Workspace) -> Outcome:
    """o. ior-easy-write's t_start unparsable, with its claimed time 60 s longer (what it hides)."""
    _require_c(ws)
    if ws.result_get("ior-easy-write", "t_start") is None:
        raise NotApplicable("result.txt prints no t_start")
    ws.result_set("ior-easy-write", "t_start", "0000-00-00 00:00:00")
    return Outcome("ior-easy-write t_start = 0000-00-00 00:00:00", ws.run_path, ("ior-easy-write",))


def honest_untouched(ws: Workspace) -> Outcome:
    """p-copy. The honest run, copied and untouched."""
    return Outcome("untouched copy", ws.run_path)


def honest_find_deleted(ws: Workspace) -> Outcome:
    """p-find. find.csv deleted from an honest run (real archives lost such files)."""
    if not ws.is_c or not ws.delete("find.csv"):
        raise NotApplicable("the run has no find.csv")
    return Outcome("find.csv deleted", ws.run_path, ("find",))


def honest_raw_deleted(ws: Workspace) -> Outcome:
    """p-raw. One raw output (ior-hard-read's) deleted from an honest run."""
    raw = ws.raw_name("ior-hard-read")
    if raw is None:
        raise NotApplicable("no raw output of ior-hard-read")
    ws.delete(raw)
    return Outcome(f"{raw} deleted", ws.run_path, ("ior-hard-read",))


C_ERAS: tuple[Era, ...] = (Era.C_ISC20, Era.C_SC20, Era.C_ISC21, Era.C_SC21, Era.C_ISC25)
MODE_ERAS: tuple[Era, ...] = (Era.C_ISC21, Era.C_SC21, Era.C_ISC25)  # mode line, per-rank CSVs


def had_invalid_line(run: RunResult) -> bool:
    return any("INVALID" in comment for comment in run.header_errors) or any(
        phase.errors for phase in run.phases.values()
    )


@dataclass(frozen=True)
class Kind:
    key: str
    title: str
    forge: Callable[..., Outcome]
    # "error"; "warning" (the missing evidence said, naming the phases, and the verdict's basis
    # lowered); "primary"; "valid" / "valid-warning" (controls); "limit" (a documented limit: made
    # and reported, expected not caught)
    expect: str
    needs_corpus: bool = False
    # runs the attack is best made on come first (kind i: runs whose application wrote ERROR INVALID)
    prefer: Callable[[RunResult], bool] | None = None
    # the eras whose output has what the attack edits, and why the others have not (no copy is made)
    eras: tuple[Era, ...] | None = None
    other_eras: str = ""


KINDS: tuple[Kind, ...] = (
    Kind("a", "Max Write line +50 %, CSV deleted", max_line, "error"),
    Kind("b", "consistent IOR rewrite", ior_rewrite, "error"),
    Kind("c", "consistent mdtest rewrite", mdtest_rewrite, "error"),
    Kind("d", "write phase claims 60 s more", longer_write, "error"),
    # A known limit (docs/evidence.md, "What the evidence cannot see"): nothing a run writes fixes the
    # time after a phase, so clocks moved consistently from a write phase to the end show nothing.
    Kind(
        "d-shift",
        "write phase claims 60 s more, every later clock moved",
        longer_write_shifted,
        "limit",
        eras=C_ERAS,
        other_eras="io500.sh's phase time is a field of IOR's own row, so the shift edits IOR's figures",
    ),
    Kind("e", "phase spliced from another run / scale", splice, "error", needs_corpus=True),
    Kind(
        "f",
        "duplicate INI sections",
        duplicate_sections,
        "error",
        eras=C_ERAS,
        other_eras="io500.sh runs have no result.txt",
    ),
    Kind(
        "g",
        "mode = extended in the header",
        extended_mode,
        "error",
        eras=MODE_ERAS,
        other_eras="the era prints no mode (io500.sh, io500-isc20, io500-sc20)",
    ),
    Kind("h-echo", "IOR option echo against command", echo_edited, "error"),
    Kind("h-table", "IOR tables against edited echo and command", tables_tell, "error"),
    Kind(
        "h-config",
        "config.ini edited, hash recomputed",
        config_edited,
        "error",
        eras=C_ERAS,
        other_eras="io500.sh runs have no config.ini or config hash",
    ),
    Kind("h-cache", "cache defeats removed from ior-easy", cache_defeats_removed, "error"),
    Kind(
        "i",
        "ERROR INVALID line deleted",
        invalid_line_deleted,
        "error",
        prefer=had_invalid_line,
        eras=C_ERAS,
        other_eras="io500.sh prints no ERROR INVALID line",
    ),
    Kind(
        "j",
        "scc = TRUE relabelled FALSE",
        scc_relabelled,
        "error",
        eras=C_ERAS,
        other_eras="io500.sh has no scc option",
    ),
    Kind(
        "k",
        "dev build relabelled as release",
        version_relabelled,
        # A documented limit: a build whose extra commits change nothing the run writes leaves the
        # release's own files; rules/structure.py flags the builds whose outputs show the difference.
        "limit",
        eras=C_ERAS,
        other_eras="io500.sh prints no version",
    ),
    Kind(
        "l",
        "per-rank CSV cut to its header",
        csv_cut,
        "warning",
        eras=MODE_ERAS,
        other_eras="the era writes no per-rank CSV",
    ),
    Kind("m", "forged copy beside the honest run", forged_copy_beside, "primary"),
    Kind("n", "two phases +54 %, raw files deleted", raised_raw_deleted, "warning"),
    Kind(
        "o",
        "unparsable t_start",
        unparsable_start,
        "error",
        eras=C_ERAS,
        other_eras="io500.sh runs have no result.txt t_start",
    ),
    Kind("p-copy", "honest control: untouched copy", honest_untouched, "valid"),
    Kind(
        "p-find",
        "honest control: find.csv deleted",
        honest_find_deleted,
        "valid-warning",
        eras=C_ERAS,
        other_eras="io500.sh runs have no find.csv",
    ),
    Kind("p-raw", "honest control: a raw output deleted", honest_raw_deleted, "valid-warning"),
)


def read_index(corpus: Path) -> dict[str, tuple[str, str]]:
    """submission folder -> (institution, system), from the corpus's index.csv."""
    path = corpus / "index.csv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        return {
            f"submission-{row['submission_id']}": (row["institution"], row["system"])
            for row in csv.DictReader(handle)
        }


def mdtest_value(text: str, phase: str) -> float | None:
    """The mdtest rate of a phase's output in kIOPS (for checks of the forgery itself)."""
    from scoring.readers.raw import mdtest_operation

    return parse_mdtest(text, phase, mdtest_operation(phase)).value
