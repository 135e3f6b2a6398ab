"""The early io-500-dev script (2018/early 2019): one output.txt with `[IOR EASY WRITE]` sections.

Each section starts with `time: <epoch seconds>` and holds the tool's raw stdout; the script printed
no score (io-500-score.sh computed it separately), so every phase value is recomputed from the raw
output exactly as the io500.sh scripts did, and the phase time is the gap between two `time:` marks.
"""

from __future__ import annotations

import dataclasses
import re

from scoring.codes import note
from scoring.model import Era, RawOutput, RunResult
from scoring.readers.files import RunFiles
from scoring.readers.numbers import to_clock, to_float
from scoring.readers.phases import fill_scale, new_phase, raise_unreadable, timestamp_in, with_volume
from scoring.readers.raw import mdtest_operation, parse_find_stdout, parse_ior, parse_mdtest
from scoring.readers.shell_config import parse_shell_assignments

OUTPUT = "output.txt"
MARKER = "[IOR EASY WRITE]"

_SECTION_RE = re.compile(r"^\[([A-Z0-9 -]+)\]\s*$")
_TIME_RE = re.compile(r"^time:\s*(\S+)\s*$")
_START_RE = re.compile(r"^\[START TIME\]\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})")

SECTION_PHASES: dict[str, str] = {
    "IOR EASY WRITE": "ior-easy-write",
    "MDTEST EASY WRITE": "mdtest-easy-write",
    "CREATING TIMESTAMP": "timestamp",
    "IOR HARD WRITE": "ior-hard-write",
    "MDTEST HARD WRITE": "mdtest-hard-write",
    "PFIND EASY": "find",
    "FIND": "find",
    "IOR EASY READ": "ior-easy-read",
    "MDTEST EASY STAT": "mdtest-easy-stat",
    "IOR HARD READ": "ior-hard-read",
    "MDTEST HARD STAT": "mdtest-hard-stat",
    "MDTEST EASY DELETE": "mdtest-easy-delete",
    "MDTEST HARD READ": "mdtest-hard-read",
    "MDTEST HARD DELETE": "mdtest-hard-delete",
}


def is_dev_output(text: str | None) -> bool:
    return text is not None and MARKER in text


def read_dev_script(files: RunFiles) -> RunResult:
    text = files.text(OUTPUT) or ""
    sections, marks = _split(text)
    run = RunResult(path=files.path, era=Era.DEV_SCRIPT, version=None)
    for title, start_index, body in sections:
        name = SECTION_PHASES.get(title)
        if name is None:
            continue
        start = marks[start_index] if start_index is not None else None
        end = _next_mark(marks, start_index)
        duration = end - start if start is not None and end is not None else None
        raw = _raw(name, body, duration)
        value = raw.value if raw is not None else (0.0 if name == "timestamp" else None)
        if value is None or value < 0:
            files.notes.append(
                note(
                    "read-value-unreadable",
                    f"The [{title}] section of {OUTPUT} holds no readable result.",
                    phase=name,
                )
            )
            continue
        phase = new_phase(
            name,
            value,
            duration,
            command=raw.command if raw is not None else None,
        )
        phase = dataclasses.replace(phase, raw=raw)
        (run.phases if phase.scored else run.extra_phases)[name] = phase
    if not run.phases:
        raise_unreadable(files, f"{OUTPUT} has no readable phase section.")
    start_match = next((m for m in map(_START_RE.match, text.split("\n", 5)) if m), None)
    if start_match:
        y, mo, d, h, mi, s = start_match.groups()
        run.timestamp = f"{y}.{mo}.{d}-{h}.{mi}.{s}"
        run.started = to_clock(f"{y}-{mo}-{d} {h}:{mi}:{s}")
    else:
        run.timestamp = timestamp_in(files.path)
    config_text = files.text("io500.cfg")
    if config_text is not None:
        run.config["io500.cfg"] = parse_shell_assignments(config_text)
        run.config_source = "io500.cfg"
    run.files = files.all_names
    run.irregular = dict(files.irregular)
    run.read_notes = files.notes
    fill_scale(run)
    return run


def _split(text: str) -> tuple[list[tuple[str, int | None, str]], list[float]]:
    """Sections as (title, index of their first time mark, body) plus every time mark in order."""
    sections: list[tuple[str, int | None, list[str]]] = []
    marks: list[float] = []
    for line in text.split("\n"):
        match = _TIME_RE.match(line)
        if match:
            value = to_float(match.group(1))
            if value is not None:
                marks.append(value)
                if sections and sections[-1][1] is None:
                    title, _, body = sections[-1]
                    sections[-1] = (title, len(marks) - 1, body)
                continue
        match = _SECTION_RE.match(line)
        if match and match.group(1) in SECTION_PHASES:
            sections.append((match.group(1), None, []))
            continue
        if sections:
            sections[-1][2].append(line)
    return [(title, index, "\n".join(body)) for title, index, body in sections], marks


def _next_mark(marks: list[float], index: int | None) -> float | None:
    if index is None or index + 1 >= len(marks):
        return None
    return marks[index + 1]


def _raw(name: str, body: str, duration: float | None) -> RawOutput | None:
    if name.startswith("ior"):
        return with_volume(parse_ior(body, OUTPUT), body, name)
    if name.startswith("mdtest"):
        return with_volume(parse_mdtest(body, OUTPUT, mdtest_operation(name)), body, name)
    if name == "find":
        raw = parse_find_stdout(body, OUTPUT)
        if raw is None or raw.items is None or not duration:
            return raw
        # io500.sh's rule: files scanned / the script-measured duration / 1000.
        return dataclasses.replace(raw, time_s=duration, value=raw.items / duration / 1000)
    return None
