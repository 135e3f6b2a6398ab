"""Helpers every era reader shares: phase units, raw-output attachment, node counts, timestamps."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from typing import NoReturn

from scoring.codes import note
from scoring.model import (
    GIB_PER_S,
    KIOPS,
    SCORED_PHASES,
    Finding,
    Phase,
    RankRow,
    RawOutput,
    ReadError,
    Recorded,
    RunResult,
)
from scoring.readers.files import RunFiles
from scoring.readers.lines import shown
from scoring.readers.numbers import to_clock, to_count, to_float
from scoring.readers.raw import (
    mdtest_operation,
    parse_find_stdout,
    parse_ior,
    parse_mdtest,
    parse_pfind_csv,
    parse_rank_csv_with_total,
    parse_timeline,
)
from scoring.readers.volumes import ior_volume, mdtest_volume

TIMESTAMP_RE = re.compile(r"\d{4}\.\d{2}\.\d{2}-\d{2}\.\d{2}\.\d{2}")


def raise_unreadable(files: RunFiles, what: str) -> NoReturn:
    """Stop reading a directory that holds no phase at all, saying why in the submitter's words."""
    reasons = " ".join(finding.message for finding in files.notes[:3])
    raise ReadError(
        f"No phase result could be read in {files.path}: {what}" + (f" {reasons}" if reasons else "")
    )


def unit_of(phase: str) -> str:
    """The app's rule: names starting with "i" (ior-*) are bandwidths, everything else rates."""
    return GIB_PER_S if phase.startswith("i") else KIOPS


def timestamp_in(text: str | None) -> str | None:
    """The last run timestamp (YYYY.MM.DD-HH.MM.SS) inside a path or name, without -app/-scr."""
    if not text:
        return None
    found = TIMESTAMP_RE.findall(text)
    return found[-1] if found else None


def checked_value(phase: str, text: str | None, what: str, source: str, notes: list[Finding]) -> float | None:
    """A phase number that must be a finite, non-negative decimal; otherwise a read note and None."""
    value = to_float(text)
    if value is None or value < 0:
        notes.append(
            note(
                "read-value-unreadable",
                f"The {what} of {phase} in {source} is '{shown((text or '').strip())}', which is not a "
                "number of zero or more; the value was not used.",
                phase=phase,
            )
        )
        return None
    return value


def raw_for(
    files: RunFiles, phase: str, raw_names: tuple[str, ...]
) -> tuple[RawOutput | None, tuple[RankRow, ...]]:
    """The raw output (and per-rank rows from find.csv) of one phase, from the first file present."""
    for name in raw_names:
        text = files.text(name)
        if text is None:
            continue
        if phase.startswith("find"):
            if name.endswith(".csv"):
                return parse_pfind_csv(text, name)
            return parse_find_stdout(text, name), ()
        if phase.startswith("ior"):
            return with_volume(parse_ior(text, name), text, phase), ()
        if phase.startswith("mdtest"):
            return with_volume(parse_mdtest(text, name, mdtest_operation(phase)), text, phase), ()
    return None, ()


def with_volume(raw: RawOutput, text: str, phase: str) -> RawOutput:
    """The raw output with the bytes or items its tool says it moved (for the cross-phase physics)."""
    if raw.tool == "ior":
        return dataclasses.replace(raw, ior_volume=ior_volume(text))
    if raw.tool == "mdtest":
        return dataclasses.replace(raw, mdtest_volume=mdtest_volume(text, mdtest_operation(phase)))
    return raw


def attach_details(files: RunFiles, phase: Phase, raw_names: tuple[str, ...]) -> Phase:
    """The phase with its raw output, per-rank rows and timeline, when the run has those files."""
    raw, ranks = raw_for(files, phase.name, raw_names)
    total = None
    if not phase.name.startswith("find"):
        csv_text = files.text(f"{phase.name}.csv")
        if csv_text is not None:
            ranks, total = parse_rank_csv_with_total(csv_text, phase.name)
    timeline_text = files.text(f"{phase.name}.timeline.csv")
    timeline = parse_timeline(timeline_text) if timeline_text is not None else ()
    command = phase.command if phase.command is not None else (raw.command if raw else None)
    return dataclasses.replace(
        phase, raw=raw, ranks=ranks, rank_total=total, timeline=timeline, command=command
    )


def read_recorded(keys: Mapping[str, str]) -> Recorded:
    """The clocks and counts of one result.txt section (its keys as printed), typed once here."""
    return Recorded(
        t_start=to_clock(keys.get("t_start")),
        t_end=to_clock(keys.get("t_end")),
        t_delta=to_float(keys.get("t_delta")),
        nproc=to_float(keys.get("nproc")),
        found=to_float(keys.get("found")),
        total_files=to_float(keys.get("total-files")),
        accessed_pairs=to_count(keys.get("accessed-pairs")),
    )


def new_phase(
    name: str,
    value: float,
    time_s: float | None,
    *,
    invalid_marker: bool = False,
    command: str | None = None,
    values: dict[str, str] | None = None,
    errors: tuple[str, ...] = (),
) -> Phase:
    return Phase(
        name=name,
        value=value,
        unit=unit_of(name),
        time_s=time_s,
        scored=name in SCORED_PHASES,
        invalid_marker=invalid_marker,
        command=command,
        values=values or {},
        recorded=read_recorded(values or {}),
        errors=errors,
    )


def fill_scale(run: RunResult) -> None:
    """Node and process counts from the raw outputs (the largest count any tool printed, and the file
    that printed it), and when the run began by its own clocks."""
    raws = [phase.raw for phase in (*run.phases.values(), *run.extra_phases.values()) if phase.raw]
    counted = [raw for raw in raws if raw.nodes]
    if counted:
        widest = max(counted, key=lambda raw: raw.nodes or 0)
        run.nodes, run.nodes_source = widest.nodes, widest.file
        _drop_contradicted_nodes(run, raws)
    if run.procs is not None:
        run.procs_source = run.procs_source or "result.txt"
    else:
        tasked = [raw for raw in raws if raw.tasks]
        if tasked:
            widest = max(tasked, key=lambda raw: raw.tasks or 0)
            run.procs, run.procs_source = widest.tasks, widest.file
    run.started = run.started or run_started(run)


def _drop_contradicted_nodes(run: RunResult, raws: list[RawOutput]) -> None:
    """One task per node (as many nodes as tasks) is what the tools print when they cannot tell
    hosts apart under a round-robin rank placement; mdtest's Nodemap then shows several ranks on
    rank 0's host. The outputs disagree, so the count is not known (the declared one is no answer)."""
    tasks = max((raw.tasks for raw in raws if raw.tasks), default=None)
    shared = max((raw.node_map_ones for raw in raws if raw.node_map_ones), default=None)
    if run.nodes is None or tasks is None or shared is None or run.nodes != tasks or shared <= 1:
        return
    run.read_notes.append(
        note(
            "read-nodes-contradicted",
            f"The tools print {run.nodes} nodes for {tasks} tasks (one per node), but mdtest's Nodemap "
            f"shows {shared} ranks on the host of rank 0: the outputs disagree, so this run's client-node "
            "count is not known.",
        )
    )
    run.nodes, run.nodes_source = None, None


def run_started(run: RunResult) -> dt.datetime | None:
    """The earliest clock result.txt records for a phase, else the earliest a tool printed (the C
    reader has set result.txt's `; START` before, when it was there)."""
    recorded = [recorded.t_start for _, recorded in run.result_recorded if recorded.t_start is not None]
    if recorded:
        return min(recorded)
    phases = (*run.phases.values(), *run.extra_phases.values())
    printed = [phase.raw.started for phase in phases if phase.raw is not None and phase.raw.started]
    return min(printed) if printed else None
