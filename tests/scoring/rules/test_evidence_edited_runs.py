"""The evidence rules on real runs of every C era, edited one fact at a time as a forger would.

Each run is a real result directory of the shared corpus; the edits are what a forger would make.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from scoring import verify
from scoring.model import BasisLevel, Severity, Verification
from tests.scoring.corpus import data_root

# One real run per C era: (submission, run folder inside it).
RUNS: dict[str, tuple[str, str]] = {
    "c-isc20": ("submission-111", "."),
    "c-sc20": ("submission-450", "results/2020.10.31-00.53.53"),
    "c-isc21": ("submission-534", "."),
    "c-sc21": ("submission-582", "."),
    "c-isc25": ("submission-738", "results/2025.05.07-09.01.18"),
}
CLOCK = "%Y-%m-%d %H:%M:%S"


def copy_run(era: str, tmp_path: Path) -> Path:
    submission, folder = RUNS[era]
    source = data_root() / "submissions" / submission / folder
    target = tmp_path / "run"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.tgz", "*.tar*", "results"))
    return target


def only(verifications: list[Verification]) -> Verification:
    assert len(verifications) == 1
    return verifications[0]


def errors(verification: Verification) -> set[str]:
    return {f.code for f in verification.findings if f.severity is Severity.ERROR}


def section_value(result: str, section: str, key: str) -> str:
    block = result.split(f"[{section}]", 1)[1].split("\n[", 1)[0]
    match = re.search(rf"^{key}\s*=\s*(.*)$", block, re.MULTILINE)
    assert match is not None
    return match.group(1).strip()


def set_value(run: Path, section: str, key: str, value: str) -> None:
    path = run / "result.txt"
    text = path.read_text()
    head, rest = text.split(f"[{section}]", 1)
    block, sep, tail = rest.partition("\n[")
    block = re.sub(rf"^({key}\s*=\s*).*$", lambda m: m.group(1) + value, block, count=1, flags=re.MULTILINE)
    path.write_text(head + f"[{section}]" + block + sep + tail)


def shifted(stamp: str, seconds: float) -> str:
    return (dt.datetime.strptime(stamp, CLOCK) + dt.timedelta(seconds=seconds)).strftime(CLOCK)


@pytest.mark.parametrize("era", RUNS)
def test_the_untouched_runs_are_valid(era: str, tmp_path: Path) -> None:
    verification = only(verify(copy_run(era, tmp_path)))
    assert verification.valid, errors(verification)


def sections_in_order(result: str) -> list[str]:
    return re.findall(r"^\[([a-z0-9-]+)\]\s*$", result, re.MULTILINE)


def gap_after(result: str, phase: str) -> float:
    """Seconds between the phase's t_end and the next section's t_start."""
    names = sections_in_order(result)
    following = names[names.index(phase) + 1]
    end = dt.datetime.strptime(section_value(result, phase, "t_end"), CLOCK)
    return (dt.datetime.strptime(section_value(result, following, "t_start"), CLOCK) - end).total_seconds()


@pytest.mark.parametrize("era", RUNS)
def test_a_write_phase_lengthened_on_paper_overlaps_the_phase_after_it(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    result = (run / "result.txt").read_text()
    # The application starts each phase as the one before ends (gaps over 10 s in 1 % of the
    # corpus's phase pairs), so 60 s added on paper run into the next phase.
    phase = min(("ior-easy-write", "ior-hard-write", "mdtest-hard-write"), key=lambda p: gap_after(result, p))
    assert gap_after(result, phase) < 60
    t_delta = float(section_value(result, phase, "t_delta"))
    set_value(run, phase, "t_delta", f"{t_delta + 60:.4f}")
    set_value(run, phase, "t_end", shifted(section_value(result, phase, "t_end"), 60))
    assert "evidence-phase-overlap" in errors(only(verify(run)))


@pytest.mark.parametrize("era", RUNS)
def test_a_t_delta_longer_than_its_own_clocks_allow_is_an_error(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    t_delta = float(section_value((run / "result.txt").read_text(), "mdtest-easy-write", "t_delta"))
    set_value(run, "mdtest-easy-write", "t_delta", f"{t_delta * 1.02 + 2:.4f}")
    assert "evidence-runtime-mismatch" in errors(only(verify(run)))


@pytest.mark.parametrize("era", RUNS)
def test_a_phase_shorter_than_its_tool_ran_is_an_error(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    result = (run / "result.txt").read_text()
    t_delta = float(section_value(result, "mdtest-hard-write", "t_delta"))
    start = section_value(result, "mdtest-hard-write", "t_start")
    set_value(run, "mdtest-hard-write", "t_delta", f"{t_delta / 2:.4f}")
    set_value(run, "mdtest-hard-write", "t_end", shifted(start, round(t_delta / 2)))
    found = errors(only(verify(run)))
    assert found & {"evidence-tool-outlasts-phase", "evidence-clock-mismatch"}, found


@pytest.mark.parametrize("era", RUNS)
@pytest.mark.parametrize("key", ["t_start", "t_end", "t_delta"])
def test_an_unreadable_clock_is_an_error_not_a_skipped_check(era: str, key: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    set_value(run, "ior-hard-write", key, "yesterday at noon")
    assert "result-clock-unparsable" in errors(only(verify(run)))


@pytest.mark.parametrize("era", RUNS)
def test_a_raised_max_line_contradicts_the_rest_of_the_ior_output(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    output = run / "ior-hard-write.txt"
    text = output.read_text()
    # The C application from io500-sc20 on keeps only IOR's result row and byte count.
    match = re.search(r"^Max Write:\s+(\S+) MiB/sec", text, re.MULTILINE) or re.search(
        r"^write\s+(\S+)\s", text, re.MULTILINE
    )
    assert match is not None
    raised = f"{float(match.group(1)) * 1.5:.2f}"
    output.write_text(text.replace(match.group(0), match.group(0).replace(match.group(1), raised)))
    (run / "ior-hard-write.csv").unlink(missing_ok=True)
    found = errors(only(verify(run)))
    if "Max Write:" in text or "Using actual aggregate bytes moved" in text:
        assert "evidence-tool-contradiction" in found
    else:
        # The row is the output's only bandwidth figure: the summary's value no longer agrees.
        assert "evidence-value-mismatch" in found


@pytest.mark.parametrize("era", RUNS)
def test_a_deleted_find_csv_is_a_warning_and_lowers_the_basis(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    (run / "find.csv").unlink()
    verification = only(verify(run))
    assert verification.valid, errors(verification)
    warnings = {f.code for f in verification.findings if f.severity is Severity.WARNING}
    assert "evidence-raw-missing" in warnings
    assert verification.basis.level is BasisLevel.SUMMARIES
    assert verification.basis.summary_only == ("find",)


@pytest.mark.parametrize("era", RUNS)
def test_extended_mode_in_the_header_keeps_the_order_checks(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    result = run / "result.txt"
    text = result.read_text()
    text = re.sub(r"^mode\s*=.*$", "mode            = extended", text, count=1, flags=re.MULTILINE)
    if "mode " not in text.split("[ior-easy-write]")[0]:
        text = text.replace("[ior-easy-write]", "mode            = extended\n\n[ior-easy-write]", 1)
    result.write_text(text)
    source = result.read_text()
    start = section_value(source, "ior-easy-write", "t_start")
    set_value(run, "mdtest-easy-write", "t_start", shifted(start, 1))
    assert "evidence-phase-overlap" in errors(only(verify(run)))


def test_a_slow_timer_drift_on_a_long_phase_is_not_an_error(tmp_path: Path) -> None:
    # 0.24 % of 1,700 s: real timers drift like this against the wall clock (submission-460 of
    # IO500/submission-data: t_end - t_start = 1,705 s around t_delta = 1,701.0 s).
    run = copy_run("c-sc21", tmp_path)
    result = (run / "result.txt").read_text()
    start = section_value(result, "ior-easy-write", "t_start")
    end = dt.datetime.strptime(section_value(result, "ior-easy-write", "t_end"), CLOCK)
    wall = (end - dt.datetime.strptime(start, CLOCK)).total_seconds()
    set_value(run, "ior-easy-write", "t_delta", f"{wall * 1.0024:.4f}")
    verification = only(verify(run))
    assert "evidence-runtime-mismatch" not in errors(verification)


@pytest.mark.parametrize("era", ["c-isc21", "c-sc21", "c-isc25"])
def test_a_per_rank_csv_cut_to_its_header_is_said_and_lowers_the_basis(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    csv = run / "ior-easy-write.csv"
    csv.write_text(csv.read_text().split("\n", 1)[0] + "\n")
    verification = only(verify(run))
    empty = [f for f in verification.findings if f.code == "evidence-ranks-empty"]
    assert [f.severity for f in empty] == [Severity.WARNING]
    assert "ior-easy-write.csv" in empty[0].message
    assert verification.basis.level is BasisLevel.TOOL_OUTPUTS


@pytest.mark.parametrize("era", ["c-isc21", "c-sc21", "c-isc25"])
def test_a_deleted_per_rank_csv_is_a_warning(era: str, tmp_path: Path) -> None:
    run = copy_run(era, tmp_path)
    (run / "mdtest-hard-write.csv").unlink()
    verification = only(verify(run))
    assert verification.valid, errors(verification)
    missing = [f for f in verification.findings if f.code == "evidence-ranks-missing"]
    assert [f.severity for f in missing] == [Severity.WARNING]
    assert verification.basis.level is BasisLevel.TOOL_OUTPUTS
