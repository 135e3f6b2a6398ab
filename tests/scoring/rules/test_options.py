"""Options as run (issue 22, item 3): real runs of every era copied into tmp_path and edited one
fact at a time, the way a submitter would: the command lines rewritten in every file that records
them (result.txt, io500.sh's summary, the tools' own `Command line`), the tools' echo of their
options left as the run printed it.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring import Verification, verify
from scoring.cmdline import ior_size
from scoring.model import Severity
from scoring.readers.echo import ior_options, mdtest_options, size_range
from scoring.rules.options import ior_parameters

# One real run of each output era (submission, run folder), with the IOR version it printed.
C_RUNS = {
    "c-isc20": (114, "."),  # io500-isc20_v4, IOR 3.3
    "c-sc20": (450, "results/2020.10.31-00.53.53"),  # io500-sc20
    "c-isc21": (552, "."),  # io500-isc21
    "c-sc21": (582, "."),  # io500-sc21
    "c-isc25": (738, "results/2025.05.07-09.01.18"),  # io500-isc25_v1, IOR 4.1
}
SHELL_RUNS = {
    "shell-2018": (135, "results"),  # IOR 3.1: the `Summary:` block, mdtest 1.9.3
    "shell-2019": (87, "results"),  # IOR 3.3: the `Options:` block and the summary table
    "shell-gib": (12, "."),  # the ISC20 script half
}
ALL_RUNS = {**C_RUNS, **SHELL_RUNS}


def _copy(submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]) -> Path:
    number, relative = which
    target = tmp_path / f"submission-{number}"
    shutil.copytree(submission(number) / relative, target)
    return target


def _edit(run: Path, *replacements: tuple[str, str], only: str = "") -> int:
    """Apply every (old, new) to each file of the run whose name contains `only`; how many
    files changed."""
    changed = 0
    for path in sorted(run.rglob("*")):
        if not path.is_file() or only not in path.name:
            continue
        text = path.read_text(errors="surrogateescape")
        edited = text
        for old, new in replacements:
            edited = edited.replace(old, new)
        if edited != text:
            path.write_text(edited, errors="surrogateescape")
            changed += 1
    return changed


def _verify(run: Path) -> Verification:
    [verification] = verify(run)
    return verification


def _options(verification: Verification) -> set[tuple[str, Severity, str | None]]:
    return {(f.code, f.severity, f.phase) for f in verification.findings if f.code.startswith("options-")}


def _errors(verification: Verification) -> set[tuple[str, str | None]]:
    return {(f.code, f.phase) for f in verification.findings if f.severity is Severity.ERROR}


@pytest.mark.parametrize("era", sorted(ALL_RUNS))
def test_the_untouched_runs_of_every_era_raise_no_option_finding(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    verification = _verify(_copy(submission, tmp_path, ALL_RUNS[era]))
    assert verification.valid
    assert _options(verification) == set()
    # The echo was read, so the silence above is a comparison that agreed, not one skipped.
    ior = verification.result.phases["ior-easy-write"].raw
    assert ior is not None and {o.name for o in ior.options} >= {"transferSize", "blockSize", "filePerProc"}


# --- the echo against the command line -------------------------------------------------------------
@pytest.mark.parametrize("era", sorted(ALL_RUNS))
def test_a_transfer_size_rewritten_in_every_command_contradicts_iors_echo(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    honest = _verify(run).result.phases["ior-hard-write"]
    assert honest.raw is not None and honest.raw.command is not None and "47008" in honest.raw.command
    # ior-hard ran 47008-byte transfers; the commands now claim 47000 (io500.sh's summary, result.txt,
    # IOR's own Command line), while IOR's echo still says "47008 bytes" / "45.91" KiB / 47008.
    assert _edit(run, ("-t 47008", "-t 47000"), ("-t=47008", "-t=47000"), ('"-t" "47008"', '"-t" "47000"'))
    errors = _errors(_verify(run))
    assert ("options-echo-mismatch", "ior-hard-write") in errors
    assert ("options-echo-mismatch", "ior-hard-read") in errors


@pytest.mark.parametrize("era", sorted(C_RUNS))
def test_a_segment_count_rewritten_in_every_command_contradicts_iors_echo(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS[era])
    command = _verify(run).result.phases["ior-hard-write"].command
    assert command is not None
    [segments] = [token for token in command.split() if token.startswith("-s")] or [""]
    count = command.split()[command.split().index("-s") + 1] if segments == "-s" else segments[3:]
    assert _edit(run, (f"-s {count}", f"-s {int(count) * 2}"), (f"-s={count}", f"-s={int(count) * 2}"))
    messages = [f.message for f in _verify(run).findings if f.code == "options-echo-mismatch"]
    assert any("segmentCount" in message for message in messages)


def test_a_file_per_process_claim_on_a_shared_file_run_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    # IOR 3.1 (shell era, 2018): the `Summary:` block says single-shared-file for ior-hard.
    run = _copy(submission, tmp_path, SHELL_RUNS["shell-2018"])
    assert _edit(run, ("-b 47008 -s", "-b 47008 -F -s"))
    codes = {(f.code, f.phase) for f in _verify(run).findings}
    assert ("options-echo-mismatch", "ior-hard-write") in codes
    assert ("ior-hard-params", "ior-hard-write") in codes


@pytest.mark.parametrize("era", ["c-isc20", "c-sc21", "c-isc25", "shell-2019"])
def test_mdtest_files_per_rank_rewritten_in_every_command_contradict_mdtests_count(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    command = _verify(run).result.phases["mdtest-easy-write"].command
    assert command is not None
    tokens = command.split()
    items = tokens[tokens.index("-n") + 1]
    more = str(int(items) * 2)
    assert _edit(run, (f"-n {items}", f"-n {more}"), (f"'-n' '{items}'", f"'-n' '{more}'"))
    errors = _errors(_verify(run))
    assert ("options-echo-mismatch", "mdtest-easy-write") in errors


@pytest.mark.parametrize("era", ["c-isc21", "c-isc25", "shell-2019", "shell-gib"])
def test_a_rank_shift_added_to_the_commands_of_a_run_that_did_not_shift_is_caught(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    # The run as it would have printed without -N: no "Shifting ranks" line. Its commands, edited
    # afterwards, still claim -N 1, which mdtest always announces when it is given.
    assert _edit(run, ("Shifting ranks by", "Ranks stay"), only="mdtest")
    errors = _errors(_verify(run))
    assert ("options-echo-mismatch", "mdtest-easy-stat") in errors
    assert ("options-echo-mismatch", "mdtest-hard-read") in errors


@pytest.mark.parametrize("era", ["c-isc20", "c-sc21", "shell-2018"])
def test_a_task_reordering_added_to_the_commands_of_a_run_that_did_not_reorder_is_caught(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    # IOR printed no "ordering inter file" line, as if it ran without -C; the commands say -C.
    assert _edit(run, ("ordering inter file", "ordering elsewhere"), only="ior")
    errors = _errors(_verify(run))
    assert ("options-echo-mismatch", "ior-easy-read") in errors


def test_an_unscored_phase_whose_command_contradicts_its_echo_is_a_warning(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS["c-isc25"])
    assert _edit(run, ("-s=1000000", "-s=3000000"))
    verification = _verify(run)
    assert ("options-echo-unscored", Severity.WARNING, "ior-rnd4K-easy-read") in _options(verification)
    assert verification.valid


# --- the cache defeats -----------------------------------------------------------------------------
@pytest.mark.parametrize("era", sorted(ALL_RUNS))
def test_removing_the_task_reordering_from_ior_easy_is_an_error(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    # Every era's ior-easy command carries "-C -Q 1 -g"; without -C -Q 1 the read can come back from
    # the writer's own page cache. (Submission 87 passed -C once more in its own easy parameters.)
    assert _edit(run, ("-C -Q 1 -g", "-g"), ('"-C" "-Q" "1" "-g"', '"-g"'), ("-t 1m -C -b", "-t 1m -b"))
    verification = _verify(run)
    errors = _errors(verification)
    assert ("options-cache-defeat-missing", "ior-easy-read") in errors
    assert ("options-cache-defeat-missing", "ior-easy-write") in errors
    # IOR's echo still says it reordered: the commands were edited after the run.
    assert ("options-echo-mismatch", "ior-easy-read") in errors


@pytest.mark.parametrize("era", sorted(ALL_RUNS))
def test_removing_the_fsync_from_ior_easy_is_an_error(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, ALL_RUNS[era])
    assert _edit(run, (" -k -e ", " -k "), ('"-k" "-e"', '"-k"'))
    errors = _errors(_verify(run))
    assert ("options-cache-defeat-missing", "ior-easy-write") in errors
    assert ("options-cache-defeat-missing", "ior-hard-write") in errors


@pytest.mark.parametrize("era", sorted(C_RUNS))
def test_removing_mdtests_rank_shift_is_an_error_in_the_c_eras(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS[era])
    assert _edit(run, (" -N 1 ", " "), (" '-N' '1' ", " "))
    errors = _errors(_verify(run))
    assert ("options-cache-defeat-missing", "mdtest-easy-stat") in errors
    assert ("options-cache-defeat-missing", "mdtest-hard-read") in errors


def test_a_shell_run_without_mdtests_rank_shift_is_a_warning(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    # The script added -N 1 in September 2019; a run of November 2019 that lacks it (and whose
    # mdtest printed no shift either: nothing was edited) ran an older script.
    run = _copy(submission, tmp_path, SHELL_RUNS["shell-2019"])
    assert _edit(run, (" -N 1", ""), (" '-N' '1'", ""))
    assert _edit(run, ("Shifting ranks", "Not shifting"), only="mdtest")
    verification = _verify(run)
    assert ("options-cache-defeat-script", Severity.WARNING, "mdtest-easy-stat") in _options(verification)
    assert not {code for code, _ in _errors(verification)} & {
        "options-cache-defeat-missing",
        "options-echo-mismatch",
    }


def test_removing_the_sync_after_mdtest_creates_is_an_error_in_the_c_eras(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS["c-isc25"])
    assert _edit(run, (" -C -Y -W 300", " -C -W 300"), (" '-C' '-Y' '-W' '300'", " '-C' '-W' '300'"))
    errors = _errors(_verify(run))
    assert ("options-cache-defeat-missing", "mdtest-easy-write") in errors
    assert ("options-cache-defeat-missing", "mdtest-hard-write") in errors


# --- the commands against config.ini ---------------------------------------------------------------
@pytest.mark.parametrize("era", sorted(C_RUNS))
def test_a_configuration_that_did_not_build_the_commands_is_caught(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS[era])
    config = (run / "config.ini").read_text()
    head, section, rest = config.partition("[mdtest-hard]")
    assert section
    body, bracket, tail = rest.partition("\n[")
    body = re.sub(r"(?m)^n\s*=.*\n", "", body)
    # The commands stay as run; config.ini now claims another mdtest-hard size.
    (run / "config.ini").write_text(head + section + "\nn = 7" + body + bracket + tail)
    errors = _errors(_verify(run))
    assert ("options-config-mismatch", "mdtest-hard-write") in errors


def test_a_transfer_size_the_configuration_never_set_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS["c-isc25"])
    assert _edit(run, ("transferSize = 2m", "transferSize = 1m"), only="config.ini")
    findings = [f for f in _verify(run).findings if f.code == "options-config-mismatch"]
    assert {f.phase for f in findings} == {"ior-easy-write", "ior-easy-read"}
    assert "-t 2m" in findings[0].message and "transferSize = 1m" in findings[0].message


def test_a_backend_the_configuration_did_not_choose_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, C_RUNS["c-isc25"])
    assert _edit(run, ("api = POSIX", "api = MPIIO"), only="config.ini")
    findings = [f for f in _verify(run).findings if f.code == "options-config-mismatch"]
    assert {f.phase for f in findings} >= {"ior-easy-write", "mdtest-hard-delete"}
    assert "-a POSIX" in findings[0].message and "[global] api = MPIIO" in findings[0].message


def _edit_dump(run: Path, pattern: str, replace: Callable[[re.Match[str]], str]) -> None:
    """Change a variable in the dump io500.sh printed as it ran (the io-500-summary log)."""
    [log] = sorted(run.glob("io-500-summary*.txt"))
    text = log.read_text()
    edited = re.sub(pattern, replace, text, count=1, flags=re.MULTILINE)
    assert edited != text
    log.write_text(edited)


@pytest.mark.parametrize("era", ["shell-2019", "shell-gib"])
def test_a_script_dump_that_did_not_build_the_commands_is_caught(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, SHELL_RUNS[era])
    _edit_dump(run, r"^io500_mdtest_hard_files_per_proc=(\d+)", lambda m: f"{m.group(0)}0")
    errors = _errors(_verify(run))
    assert ("options-config-mismatch", "mdtest-hard-write") in errors
    assert ("options-config-mismatch", "mdtest-hard-delete") in errors


@pytest.mark.parametrize("era", ["shell-2019", "shell-gib"])
def test_easy_parameters_the_commands_did_not_use_are_caught(
    era: str, submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy(submission, tmp_path, SHELL_RUNS[era])
    _edit_dump(run, r"^(io500_ior_easy_params=.* -t )(\S+)", lambda m: f"{m.group(1)}64k")
    findings = [f for f in _verify(run).findings if f.code == "options-config-mismatch"]
    assert {f.phase for f in findings} == {"ior-easy-write", "ior-easy-read"}
    assert "io500_ior_easy_params" in findings[0].message


# --- the readers ---------------------------------------------------------------------------------
def test_human_readable_sizes_become_the_byte_ranges_they_allow() -> None:
    assert size_range("2 MiB") == (2 * 2**20, 2 * 2**20)
    assert size_range("47008 bytes") == (47008, 47008)
    low, high = size_range("9.46 TiB") or (0.0, 0.0)
    assert low <= 9920000 * 2**20 <= high and high - low == pytest.approx(0.01 * 2**40)
    assert size_range("lots") is None


def test_ior_sizes_and_glued_options_are_read_as_ior_reads_them() -> None:
    assert ior_size("9920000m") == 9920000 * 2**20 and ior_size("47008") == 47008 and ior_size("2x") is None
    parameters = ior_parameters(
        "mpirun -np 4 ./ior -i2 -t=4k -C -O transferSize=8k -F -b 1g -O stoneWallingWearOut=1"
    )
    assert parameters == {
        "repetitions": "2",
        "transferSize": "8k",
        "reorderTasks": "1",
        "filePerProc": "1",
        "blockSize": "1g",
        "stoneWallingWearOut": "1",
    }


def test_the_old_summary_block_is_read_like_the_options_block() -> None:
    text = (
        "Summary:\n\tapi                = MPIIO (version=3, subversion=0)\n"
        "\taccess             = single-shared-file, independent\n"
        "\tpattern            = strided (220000 segments)\n"
        "\tordering inter file= constant task offsets = 1\n\txfersize           = 47008 bytes\n\n"
    )
    echoed = {(o.name, o.low) for o in ior_options("\n" + text, None, None)}
    assert echoed >= {
        ("filePerProc", 0.0),
        ("collective", 0.0),
        ("segmentCount", 220000.0),
        ("reorderTasks", 1.0),
        ("taskPerNodeOffset", 1.0),
        ("transferSize", 47008.0),
    }
    assert ("api", None) in echoed


def test_mdtest_prints_its_shift_and_file_count() -> None:
    text = "V-0: Rank   0 Line  2163 Shifting ranks by 16 for each phase.\n160 tasks, 38422400 files\n"
    assert {(o.name, o.low) for o in mdtest_options(text, 160)} == {("rankShift", 16.0), ("items", 240140.0)}
