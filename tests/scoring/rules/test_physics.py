"""Physics across phases (issue 22, item 1): real runs copied into tmp_path, one phase forged.

Each forgery rewrites one phase the way a careful forger would: the value in result.txt and
result_summary.txt (score and hash recomputed), the tool's own output (bandwidth, bytes, rates,
stonewall counts) and its per-rank CSV, all scaled together, so that the phase agrees with itself.
Or it splices a phase's outputs in from another run of the same site at another scale. What such an
edit cannot keep is what the phase shares with the other phases of its run; each attack must be
caught by the invariant named, and the untouched runs must stay clean.
"""

from __future__ import annotations

import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring import Verification, verify
from scoring.hashes import format_hash, score_hash
from scoring.means import geometric_mean
from scoring.model import BW_PHASES, MD_PHASES, SCORED_PHASES, Severity
from scoring.readers.raw import parse_ior
from scoring.rules.physics import physics_measurements
from tests.scoring.corpus import readable_corpus_runs

# Real runs of several output eras (submission, run directory inside it).
C_ISC20 = (111, ".")  # io500-isc20, IOR 3.3 with summary tables, no per-rank CSVs
C_SC21 = (693, "results/2023.11.07-20.29.38")  # io500-sc23_v1, IOR 3.4 without summary, CSVs
C_SC20 = (459, "results/2020.10.18-14.18.58")  # io500-sc20
C_ISC21 = (594, ".")  # the ISC21 output format ([      ] lines), per-rank CSVs
C_ISC25 = (738, "results/2025.05.07-09.01.18")  # io500-isc25_v1
SHELL = (3, "data/results/2019.11.11-04.23.30")  # io500.sh of SC19, IOR 3.3, mdtest 3.3
# One DDN site, two scales: 3840 and 1280 tasks.
BIG = (714, "results/2024.09.13-12.11.52")
SMALL = (717, "results/2024.09.25-09.58.36")
C_RUNS = (C_ISC20, C_SC20, C_ISC21, C_SC21, C_ISC25)
FACTOR = 1.5

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _copy_run(submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]) -> Path:
    number, relative = which
    target = tmp_path / f"submission-{number}"
    shutil.copytree(submission(number) / relative, target)
    return target


def _only(path: Path) -> Verification:
    [verification] = verify(path)
    return verification


def _errors(verification: Verification) -> set[str]:
    return {f.code for f in verification.findings if f.severity is Severity.ERROR}


def _physics_errors(verification: Verification) -> set[tuple[str, str | None]]:
    return {
        (f.code, f.phase)
        for f in verification.findings
        if f.severity is Severity.ERROR and f.code.startswith("physics-")
    }


# --- rewriting numbers the way the tools print them ---------------------------------------------
def _scaled(text: str, factor: float, base: float | None = None) -> str:
    """`text` (one printed number) times `factor`, printed the same way; `base` is the same number
    known to more digits (a forger scales the precise figure, not its rounded print)."""
    value = (float(text) if base is None else base) * factor
    if "e" in text.lower():
        mantissa = text.lower().split("e")[0]
        return f"{value:.{len(mantissa.partition('.')[2])}e}"
    if "." in text:
        return f"{value:.{len(text.partition('.')[2])}f}"
    return str(round(value))


def _scale_tokens(
    line: str, positions: set[int], factor: float, bases: dict[int, float] | None = None
) -> str:
    """Scale the whitespace-separated tokens at `positions`, keeping the line's spacing."""
    parts = re.split(r"(\s+)", line)
    index = -1
    for number, part in enumerate(parts):
        if not part or part.isspace():
            continue
        index += 1
        if index in positions and _NUMBER.fullmatch(part):
            parts[number] = _scaled(part, factor, (bases or {}).get(index))
    return "".join(parts)


def _scale_all_numbers(line: str, factor: float) -> str:
    return _NUMBER.sub(lambda match: _scaled(match.group(0), factor), line)


def _forge_ior(run: Path, name: str, factor: float) -> None:
    """IOR's output and CSV of one phase: bytes, bandwidths, stonewall pairs, all times `factor`."""
    output = next(
        path for path in (run / f"{name}.txt", run / f"{name.replace('-', '_')}.txt") if path.exists()
    )
    lines = output.read_text().split("\n")
    header: list[str] | None = None
    # Without IOR's byte count the geometry is the bytes: the forger scales the block then.
    row_columns = {1, 2}
    if not any(line.startswith("WARNING: Using actual") for line in lines):
        access = next(line.split() for line in lines if line.startswith("access") and "block(KiB)" in line)
        row_columns.add(access.index("block(KiB)"))
    # The row prints the bandwidth rounded; the Max line has it to two decimals.
    bases: dict[int, float] = {}
    for line in lines:
        match = _NUMBER.search(line.partition(":")[2]) if line.startswith(("Max Write", "Max Read")) else None
        if match:
            bases[1] = float(match.group(0))
    for index, line in enumerate(lines):
        if line.startswith("WARNING: Using actual aggregate bytes moved"):
            lines[index] = _scale_all_numbers(line, factor)
        elif line.startswith("stonewalling pairs accessed"):
            lines[index] = _scale_tokens(line, {4, 6, 10, 14}, factor)
        elif line.startswith(("Max Write", "Max Read")):
            lines[index] = _scale_all_numbers(line, factor)
        elif line.startswith("Operation"):
            header = line.split()
        elif header is not None and line.startswith(("write", "read")):
            scaled = ("Max(MiB)", "Min(MiB)", "Mean(MiB)", "Max(OPs)", "Min(OPs)", "Mean(OPs)", "aggs(MiB)")
            lines[index] = _scale_tokens(line, {header.index(c) for c in scaled if c in header}, factor)
            header = None
        elif line.startswith(("write ", "read ")):
            lines[index] = _scale_tokens(line, row_columns, factor, bases)  # bw(MiB/s), IOPS (, block)
    output.write_text("\n".join(lines))
    csv = run / f"{name}.csv"
    if csv.exists():
        rows = csv.read_text().split("\n")
        columns = rows[0].split(",")
        positions = {columns.index("throughput-withopenclose"), columns.index("throughput")}
        csv.write_text(
            "\n".join(
                [rows[0]]
                + [
                    ",".join(
                        _scaled(f, factor) if i in positions else f for i, f in enumerate(row.split(","))
                    )
                    if row
                    else row
                    for row in rows[1:]
                ]
            )
        )


def _forge_mdtest(run: Path, name: str, operation: str, factor: float) -> None:
    """mdtest's rate row of the phase's operation, and its per-rank CSV rates, times `factor`."""
    output = run / f"{name}.txt"
    lines = output.read_text().split("\n")
    table = None
    for index, line in enumerate(lines):
        if line.startswith("SUMMARY"):
            table = "time" if line.startswith("SUMMARY time") else "rate"
        elif table == "rate" and line.strip().startswith(operation):
            head, _, numbers = line.partition(operation)
            lines[index] = head + operation + _scale_all_numbers(numbers, factor)
        elif line.startswith("Continue stonewall hit"):
            lines[index] = _scale_all_numbers(line, factor)
    output.write_text("\n".join(lines))
    csv = run / f"{name}.csv"
    if csv.exists():
        rows = csv.read_text().split("\n")
        column = rows[0].split(",").index(f"rate-{operation}")
        out = [rows[0]]
        for row in rows[1:]:
            fields = row.split(",")
            if len(fields) > column and fields[column]:
                fields[column] = _scaled(fields[column], factor)
            if fields[0] == "all" and operation == "File creation":
                fields[1] = _scaled(fields[1], factor)  # the items per rank the stonewall reached
            out.append(",".join(fields))
        csv.write_text("\n".join(out))


def _set_key(text: str, section: str, key: str, value: str) -> str:
    pattern = re.compile(rf"(^\[{re.escape(section)}\]\n(?:(?!\[).*\n)*?){re.escape(key)}\s*=.*$", re.M)
    replaced, count = pattern.subn(lambda m: f"{m.group(1)}{key:<15} = {value}", text)
    assert count == 1, (section, key)
    return replaced


def _forge_summary(run: Path, name: str, factor: float) -> None:
    """The phase's value in result.txt and result_summary.txt, the score and its hash recomputed.

    An IOR phase gets the value its forged output now gives (the middle of what its printed figures
    allow), as a forger who recomputes it would write."""
    result = (run / "result.txt").read_text()
    summary = (run / "result_summary.txt").read_text()
    scores = {
        phase: re.search(rf"^\[{phase}\]\n(?:(?!\[).*\n)*?score\s*=\s*(\S+)", result, re.M).group(1)  # type: ignore[union-attr]
        for phase in SCORED_PHASES
    }
    scores[name] = f"{float(scores[name]) * factor:f}"
    if name.startswith("ior"):
        raw = parse_ior((run / f"{name}.txt").read_text(), f"{name}.txt")
        assert raw.value_low is not None and raw.value_high is not None
        scores[name] = f"{(raw.value_low + raw.value_high) / 2:f}"
    result = _set_key(result, name, "score", scores[name])
    summary = re.sub(
        rf"^(\[(?:RESULT| {{6}})\]\s+{name}\s+)\S+", rf"\g<1>{scores[name]}", summary, flags=re.M
    )
    bw = geometric_mean([float(scores[n]) for n in BW_PHASES], skip_nonpositive=True)
    md = geometric_mean([float(scores[n]) for n in MD_PHASES], skip_nonpositive=True)
    bw_text, md_text, total_text = f"{bw:f}", f"{md:f}", f"{math.sqrt(bw * md):f}"
    version = re.search(r"^version\s*=\s*(.*?)\s*$", result, re.M).group(1)  # type: ignore[union-attr]
    forged_hash = format_hash(score_hash(version, scores, md_text, bw_text, total_text))
    for key, value in (("MD", md_text), ("BW", bw_text), ("SCORE", total_text), ("hash", forged_hash)):
        result = _set_key(result, "SCORE", key, value)
    summary = re.sub(
        r"^\[SCORE ?\].*$",
        lambda m: (
            m.group(0).split("]")[0]
            + f"] Bandwidth {bw_text} GiB/s : IOPS {md_text} kiops : TOTAL {total_text}"
        ),
        summary,
        flags=re.M,
    )
    (run / "result.txt").write_text(result)
    (run / "result_summary.txt").write_text(summary)


# --- honest runs --------------------------------------------------------------------------------
@pytest.mark.parametrize("which", [*C_RUNS, SHELL, BIG, SMALL])
def test_honest_runs_hold_every_invariant(
    submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]
) -> None:
    verification = _only(_copy_run(submission, tmp_path, which))
    assert not _physics_errors(verification)
    [checked] = [f for f in verification.findings if f.code == "physics-checked"]
    assert "bytes read = bytes written" in checked.message
    assert "mdtest items of every phase = items created" in checked.message
    assert "same tasks in every phase" in checked.message


def test_no_run_of_the_shared_corpus_breaks_an_invariant_and_most_are_checked() -> None:
    checked: set[str] = set()
    broken: list[str] = []
    for where, run in readable_corpus_runs():
        for item in physics_measurements(run):
            checked.add(where)
            if not item.holds:
                broken.append(f"{where} {item.invariant} {item.phase}")
    assert broken == []
    assert len(checked) >= 110  # every run with raw outputs (118 runs, 5 without any)


# --- IOR ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", C_RUNS)
def test_a_read_phase_rewritten_consistently_is_caught_by_the_bytes_its_write_wrote(
    submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]
) -> None:
    run = _copy_run(submission, tmp_path, which)
    _forge_ior(run, "ior-easy-read", FACTOR)
    _forge_summary(run, "ior-easy-read", FACTOR)
    verification = _only(run)
    # The phase agrees with itself: the value checks against IOR's own figures pass ...
    assert not {
        f for f in verification.findings if f.phase == "ior-easy-read" and f.code.startswith("evidence-")
    }
    # ... but it read half as many bytes again as its write phase wrote.
    assert _physics_errors(verification) == {("physics-bytes-read-mismatch", "ior-easy-read")}


@pytest.mark.parametrize("which", C_RUNS)
def test_a_write_phase_rewritten_with_its_stonewall_pairs_is_caught_by_its_read(
    submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]
) -> None:
    run = _copy_run(submission, tmp_path, which)
    _forge_ior(run, "ior-hard-write", FACTOR)
    _forge_summary(run, "ior-hard-write", FACTOR)
    errors = _physics_errors(_only(run))
    assert ("physics-bytes-read-mismatch", "ior-hard-read") in errors


def test_a_write_phase_whose_bytes_grew_without_its_pairs_is_caught_by_the_stonewall(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_SC21)
    output = run / "ior-easy-write.txt"
    text = output.read_text()
    # ior-easy-write of this run finished its whole block: no byte count printed, the geometry
    # counts. Claim 1.5 times the block in the row's block(KiB) as the forger's bigger write.
    forged = re.sub(
        r"^(write\s+\S+\s+\S+\s+\S+\s+)(\d+)",
        lambda m: m.group(1) + str(int(m.group(2)) * 3 // 2),
        text,
        flags=re.M,
    )
    assert forged != text
    output.write_text(forged)
    errors = _physics_errors(_only(run))
    assert ("physics-pairs-mismatch", "ior-easy-write") in errors


def test_stonewall_pairs_beyond_the_blocks_ior_was_given_are_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_SC21)
    output = run / "ior-easy-write.txt"
    text = output.read_text()
    # Every rank wrote its whole -b 6500m block of 1 MiB transfers: 6500 pairs, no more fit.
    forged = text.replace("min: 2156 max: 6500", "min: 3234 max: 9750")
    assert forged != text
    output.write_text(forged)
    errors = _physics_errors(_only(run))
    assert ("physics-pairs-beyond-geometry", "ior-easy-write") in errors


def test_a_pair_count_rewritten_in_iors_output_only_is_caught_by_result_txt(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_SC21)
    _forge_ior(run, "ior-hard-write", FACTOR)
    errors = _physics_errors(_only(run))
    assert ("physics-accessed-pairs-mismatch", "ior-hard-write") in errors


def test_a_shell_era_read_rewritten_consistently_is_caught_by_its_write(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, SHELL)
    _forge_ior(run, "ior-easy-read", FACTOR)
    errors = _physics_errors(_only(run))
    assert ("physics-bytes-read-mismatch", "ior-easy-read") in errors


# --- mdtest -------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", C_RUNS)
def test_a_stat_phase_rewritten_consistently_is_caught_by_the_items_created(
    submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]
) -> None:
    run = _copy_run(submission, tmp_path, which)
    _forge_mdtest(run, "mdtest-hard-stat", "File stat", FACTOR)
    _forge_summary(run, "mdtest-hard-stat", FACTOR)
    verification = _only(run)
    assert not {
        f for f in verification.findings if f.phase == "mdtest-hard-stat" and f.code.startswith("evidence-")
    }
    assert _physics_errors(verification) == {("physics-items-mismatch", "mdtest-hard-stat")}


def test_a_create_phase_rewritten_consistently_is_caught_by_the_later_phases(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_ISC25)
    _forge_mdtest(run, "mdtest-easy-write", "File creation", FACTOR)
    _forge_summary(run, "mdtest-easy-write", FACTOR)
    # Rates, the stonewall's counts and the CSV agree with each other; the later phases do not,
    # nor does the -n the create phase was given (every rank had made all its items).
    assert _physics_errors(_only(run)) == {
        ("physics-items-mismatch", "mdtest-easy-stat"),
        ("physics-items-mismatch", "mdtest-easy-delete"),
        ("physics-items-beyond-nominal", "mdtest-easy-write"),
    }


def test_a_create_rate_raised_without_its_stonewall_count_is_caught_by_the_stonewall(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_ISC20)
    output = run / "mdtest-hard-write.txt"
    text = output.read_text()
    forged = re.sub(
        r"^(\s+File creation\s+:?)(.*)$",
        lambda m: m.group(1) + _scale_all_numbers(m.group(2), FACTOR),
        text,
        count=1,
        flags=re.M,
    )
    assert forged != text
    output.write_text(forged)
    errors = _physics_errors(_only(run))
    assert ("physics-items-mismatch", "mdtest-hard-write") in errors


def test_a_shell_era_delete_rewritten_is_caught_by_the_items_created(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, SHELL)
    output = run / "mdtest_easy_delete.txt"
    lines = output.read_text().split("\n")
    table = None
    for index, line in enumerate(lines):
        if line.startswith("SUMMARY"):
            table = "time" if line.startswith("SUMMARY time") else "rate"
        elif table == "rate" and line.strip().startswith("File removal"):
            head, _, numbers = line.partition("File removal")
            lines[index] = head + "File removal" + _scale_all_numbers(numbers, FACTOR)
    output.write_text("\n".join(lines))
    errors = _physics_errors(_only(run))
    assert errors == {("physics-items-mismatch", "mdtest-easy-delete")}


# --- find ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", [C_SC21, C_ISC25])
def test_a_find_count_raised_consistently_is_caught_by_the_files_created(
    submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]
) -> None:
    run = _copy_run(submission, tmp_path, which)
    result = (run / "result.txt").read_text()
    total = re.search(r"^\[find\]\n(?:(?!\[).*\n)*?total-files\s*=\s*(\d+)", result, re.M).group(1)  # type: ignore[union-attr]
    (run / "result.txt").write_text(_set_key(result, "find", "total-files", str(round(int(total) * FACTOR))))
    rows = (run / "find.csv").read_text().split("\n")
    head = re.sub(r"rate: (\S+)", lambda m: "rate: " + _scaled(m.group(1), FACTOR), rows[0])
    body = []
    for row in rows[1:]:
        fields = row.split(", ")
        if len(fields) > 4 and fields[0].isdigit():
            fields[4] = str(round(int(fields[4]) * FACTOR))
        body.append(", ".join(fields))
    (run / "find.csv").write_text("\n".join([head, *body]))
    _forge_summary(run, "find", FACTOR)
    errors = _physics_errors(_only(run))
    assert errors == {("physics-find-excess", "find")}


# --- splices from another run of the same site ----------------------------------------------------
def test_a_read_phase_spliced_from_the_same_site_at_another_scale_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path / "big", BIG)
    donor = _copy_run(submission, tmp_path / "small", SMALL)
    for name in ("ior-easy-read.txt", "ior-easy-read.csv"):
        shutil.copy(donor / name, run / name)
    errors = _physics_errors(_only(run))
    assert ("physics-tasks-mismatch", "ior-easy-read") in errors
    assert ("physics-nodes-mismatch", "ior-easy-read") in errors
    assert ("physics-bytes-read-mismatch", "ior-easy-read") in errors


def test_an_mdtest_phase_spliced_from_the_same_site_at_another_scale_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path / "big", BIG)
    donor = _copy_run(submission, tmp_path / "small", SMALL)
    for name in ("mdtest-hard-stat.txt", "mdtest-hard-stat.csv"):
        shutil.copy(donor / name, run / name)
    errors = _physics_errors(_only(run))
    assert ("physics-tasks-mismatch", "mdtest-hard-stat") in errors
    assert ("physics-items-mismatch", "mdtest-hard-stat") in errors


def test_a_per_rank_csv_from_another_scale_is_caught_by_its_row_count(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path / "big", BIG)
    donor = _copy_run(submission, tmp_path / "small", SMALL)
    shutil.copy(donor / "ior-hard-write.csv", run / "ior-hard-write.csv")
    messages = [f.message for f in _only(run).findings if f.code == "physics-tasks-mismatch"]
    assert any("rows of ior-hard-write.csv" in message for message in messages)


def test_procs_edited_in_result_txt_is_caught_by_the_tools_task_counts(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, C_SC21)
    result = (run / "result.txt").read_text()
    (run / "result.txt").write_text(re.sub(r"^procs(\s*)= 2048", r"procs\g<1>= 4096", result, flags=re.M))
    verification = _only(run)
    # Only result.txt is named: every tool output and CSV still agrees on 2048.
    [mismatch] = [f for f in verification.findings if f.code == "physics-tasks-mismatch"]
    assert mismatch.phase is None
    assert "result.txt's procs counts 4096 tasks" in mismatch.message
    assert "ran with 2048" in mismatch.message


def test_a_bandwidth_raised_where_ior_printed_no_byte_count_is_caught_by_its_geometry(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    # io500-sc20: ior-easy-write wrote its whole block, so IOR printed no byte count; the bytes are
    # tasks x block x segments, and the row's bandwidth times its time must give them.
    run = _copy_run(submission, tmp_path, (450, "results/2020.10.31-00.53.53"))
    output = run / "ior-easy-write.txt"
    text = output.read_text()
    assert "Using actual aggregate bytes moved" not in text
    forged = re.sub(
        r"^(write\s+)(\S+)", lambda m: m.group(1) + f"{float(m.group(2)) * FACTOR:.2f}", text, flags=re.M
    )
    output.write_text(forged)
    _forge_summary(run, "ior-easy-write", FACTOR)
    assert ("physics-bandwidth-volume-mismatch", "ior-easy-write") in _physics_errors(_only(run))


def test_stonewall_counts_beyond_the_items_mdtest_was_given_are_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    # mdtest 1.9.3 (io500.sh of SC18) prints no time table, so its rate cannot be re-derived; a
    # forger raising it raises the stonewall counts with it, past the -n every rank was given.
    run = _copy_run(submission, tmp_path, (18, "results"))
    output = run / "mdtest_easy_write.txt"
    text = output.read_text()
    forged = re.sub(
        r"^(Continue stonewall hit min: )(\d+)( max: )(\d+)",
        lambda m: f"{m.group(1)}{int(m.group(2)) * 3 // 2}{m.group(3)}{int(m.group(4)) * 3 // 2}",
        text,
        flags=re.M,
    )
    assert forged != text
    output.write_text(forged)
    assert ("physics-items-beyond-nominal", "mdtest-easy-write") in _physics_errors(_only(run))
