"""The io500.sh script era (SC17 to the script half of ISC20).

result_summary.txt holds `[RESULT] BW phase 1 ior_easy_write 2.750 GB/s : time ...` lines and one
`[SCORE]` line; the console log io-500-summary.<ts>.txt repeats them with the `[Exec]` command of
every phase and the `[FIND] MATCHED x/y in t seconds` line; ior_easy_write.txt etc. are raw outputs.
The "GB/s" label always meant GiB/s. SC17 printed TOTAL as BW * MD instead of the square root.
"""

from __future__ import annotations

import dataclasses
import math
import re

from scoring.codes import note
from scoring.model import Era, Finding, Phase, RawOutput, RunResult, Score
from scoring.readers.files import RunFiles
from scoring.readers.lines import shown, too_long, too_long_note
from scoring.readers.numbers import to_float
from scoring.readers.phases import (
    attach_details,
    checked_value,
    fill_scale,
    new_phase,
    raise_unreadable,
    timestamp_in,
)
from scoring.readers.shell_config import parse_shell_assignments

SUMMARY = "result_summary.txt"

_RESULT_RE = re.compile(
    r"^\[RESULT(-invalid)?\]\s+(BW|IOPS)\s+phase\s+(\d+)\s+(\S+)\s+(\S+)\s+(GB/s|GiB/s|kiops)\s*:"
    r"\s*time\s+(\S+)\s+seconds"
)
_SCORE_RE = re.compile(
    r"^\[SCORE(-invalid)?\]\s+Bandwidth\s+(\S+)\s+(GB/s|GiB/s)\s*:\s*IOPS\s+(\S+)\s+kiops\s*:\s*TOTAL\s+(\S+)"
)
# `(.*)` and a strip: `\s*(.*?)\s*$` backtracks quadratically on a long run of blanks.
_EXEC_RE = re.compile(r"^\[(?:Exec|EXEC)\](.*)$")
_STARTING_RE = re.compile(r"^\[Starting\]\s*(\S+)")
_FIND_RE = re.compile(r"^\[FIND\]\s*MATCHED\s+(\d+)/(\d+)\s+in\s+(\S+)\s+seconds")
_VARIABLE_RE = re.compile(r"^(io500_[A-Za-z0-9_]+)=(.*)$")


def canonical(shell_name: str) -> str:
    """ior_easy_write -> ior-easy-write; find stays find."""
    return shell_name.replace("_", "-")


def console_log_name(files: RunFiles) -> str | None:
    logs = [name for name in files.names() if name.startswith("io-500-summary") and name.endswith(".txt")]
    return logs[-1] if logs else None


def read_shell(files: RunFiles) -> RunResult:
    notes = files.notes
    log_name = console_log_name(files)
    log_text = files.text(log_name) if log_name else None
    summary_text = files.text(SUMMARY)
    source = SUMMARY if summary_text is not None else log_name
    lines = (summary_text if summary_text is not None else log_text or "").split("\n")

    results, score, labels = _parse_result_lines(lines, notes, source or SUMMARY)
    commands, find_raw, variables = _parse_console(log_text, log_name, notes)
    if not results:
        raise_unreadable(files, f"{source or SUMMARY} holds no readable '[RESULT]' line.")

    run = RunResult(path=files.path, era=_era(labels, score), version=None)
    for shell_name, phase in results.items():
        name = canonical(shell_name)
        raw_names = (f"{shell_name}.txt",) if name != "find" else ("find.txt",)
        phase = attach_details(files, _with_command(phase, commands.get(shell_name)), raw_names)
        if name == "find" and find_raw is not None:
            # "[FIND] MATCHED x/y in t seconds" has the counts and the script's timing, which find.txt
            # (pfind's own stdout, rarely submitted) lacks: it is the better raw record.
            phase = dataclasses.replace(phase, raw=find_raw)
        (run.phases if phase.scored else run.extra_phases)[name] = phase
    run.claimed = score
    run.timestamp = timestamp_in(log_name) or timestamp_in(variables.get("date")) or timestamp_in(files.path)
    _read_config(files, run, variables, log_name)
    run.files = files.all_names
    run.irregular = dict(files.irregular)
    run.read_notes = notes
    fill_scale(run)
    return run


def _parse_result_lines(
    lines: list[str], notes: list[Finding], source: str
) -> tuple[dict[str, Phase], Score | None, set[str]]:
    results: dict[str, Phase] = {}
    score: Score | None = None
    labels: set[str] = set()
    long_lines = []
    for number, line in enumerate(lines, start=1):
        if not line.startswith("[RESULT") and not line.startswith("[SCORE"):
            continue
        if too_long(line):
            long_lines.append(number)
            continue
        match = _RESULT_RE.match(line)
        if match:
            invalid, _group, _index, shell_name, value_text, label, time_text = match.groups()
            name = canonical(shell_name)
            if shell_name in results:
                continue  # the console log prints every line twice; the first one counts
            if label != "kiops":
                labels.add(label)
            value = checked_value(name, value_text, "value", source, notes)
            if value is None:
                continue
            time_s = checked_value(name, time_text, "runtime", source, notes)
            results[shell_name] = new_phase(name, value, time_s, invalid_marker=bool(invalid))
            continue
        match = _SCORE_RE.match(line)
        if match:
            invalid, bw, label, md, total = match.groups()
            labels.add(label)
            score = Score(
                bw=_number(bw, "Bandwidth", source, notes),
                md=_number(md, "IOPS", source, notes),
                score=_number(total, "TOTAL", source, notes),
                invalid=bool(invalid),
            )
    if long_lines:
        notes.append(too_long_note(source, len(long_lines), long_lines[0]))
    return results, score, labels


def _number(text: str, what: str, source: str, notes: list[Finding]) -> float | None:
    value = to_float(text)
    if value is None or value < 0:
        notes.append(
            note(
                "read-value-unreadable",
                f"The claimed {what} in {source} is '{shown(text)}', which is not a number of zero or more.",
            )
        )
        return None
    return value


def _era(labels: set[str], score: Score | None) -> Era:
    if score is not None and score.bw and score.md and score.score is not None:
        product = score.bw * score.md
        root = math.sqrt(product)
        # SC17 printed bc's BW * MD (scale 2); from 2018-05-09 on the square root.
        if abs(score.score - product) <= max(0.01 * product, 0.01) and abs(score.score - root) > max(
            0.01 * root, 0.01
        ):
            return Era.SHELL_SC17
    return Era.SHELL_GIB if "GiB/s" in labels else Era.SHELL


def _parse_console(
    text: str | None, name: str | None, notes: list[Finding]
) -> tuple[dict[str, str], RawOutput | None, dict[str, str]]:
    """[Exec] command per phase, the [FIND] MATCHED line and the io500_* variable dump."""
    commands: dict[str, str] = {}
    variables: dict[str, str] = {}
    find_raw: RawOutput | None = None
    if text is None or name is None:
        return commands, find_raw, variables
    current: str | None = None
    long_lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("[") and too_long(line):
            long_lines.append(number)
            continue
        if line.startswith("["):
            match = _STARTING_RE.match(line)
            if match:
                current = match.group(1)
                continue
            match = _EXEC_RE.match(line)
            if match and current is not None:
                commands.setdefault(current, match.group(1).strip())
                continue
            match = _FIND_RE.match(line)
            found, total = (to_float(match.group(1)), to_float(match.group(2))) if match else (None, None)
            if match and found is not None and total is not None:
                seconds = to_float(match.group(3))
                find_raw = RawOutput(
                    tool="pfind",
                    file=name,
                    found=found,
                    items=total,
                    time_s=seconds,
                    value=total / seconds / 1000 if seconds else None,
                )
        elif line.startswith("io500_") or line.startswith("date="):
            if line.startswith("date="):
                variables.setdefault("date", line[5:].strip())
                continue
            match = _VARIABLE_RE.match(line)
            if match:
                variables[match.group(1)] = _unquote(match.group(2))
    if long_lines:
        notes.append(too_long_note(name, len(long_lines), long_lines[0]))
    return commands, find_raw, variables


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _with_command(phase: Phase, command: str | None) -> Phase:
    return phase if command is None else dataclasses.replace(phase, command=command)


def _read_config(files: RunFiles, run: RunResult, variables: dict[str, str], log_name: str | None) -> None:
    """io500.sh tunables (section "io500.sh") and the effective variable dump of the console log."""
    script = files.text("io500.sh")
    script_source: str | None = "io500.sh" if script is not None else None
    if script is None:
        found = files.outside_text("io500.sh")
        if found is not None:
            script_source, script = found
    if script is not None:
        run.config["io500.sh"] = parse_shell_assignments(script)
        run.config_source = script_source
    if variables:
        run.config["io-500-summary"] = {k: v for k, v in variables.items() if k != "date"}
        if run.config_source is None:
            run.config_source = log_name
