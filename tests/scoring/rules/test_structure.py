"""Structure a submitter cannot use (issue 22, item 4): real runs of every C era copied into tmp_path,
then attacked as a forger would (hashes recomputed with the public recipe), each attack caught by
its own finding, and the untouched runs free of every structure finding."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring import Verification, verify
from scoring.model import Severity
from scoring.rules.common import result_header
from tests.scoring.forgery import (
    SUMMARY,
    copy_run,
    rehash_config,
    rehash_score,
    relabel,
    section_text,
    set_config,
    set_key,
    text,
    write,
)

# One honest run of each C era (release-labelled), as (submission, run folder).
HONEST_RUNS: dict[str, tuple[int, str]] = {
    "c-isc20": (111, "."),
    "c-sc20": (450, "results/2020.10.31-00.53.53"),
    "c-isc21": (552, "."),
    "c-sc21": (687, "results/2023.11.07-00.00.25"),
    "c-isc25": (762, "results/2025.10.21-12.48.03"),
}
WITH_MODE = ("c-isc21", "c-sc21", "c-isc25")  # the eras whose header has `mode`
EXTENDED_RUN = (582, ".")  # a real io500-sc21 run in extended mode
SCC_RUN = (642, "results/good-2023.03.22-18.10.33")  # scc = TRUE, 300-s stonewall: the app complained
MakeRun = Callable[[tuple[int, str]], Path]
STRUCTURE_CODES = {
    "result-section-duplicate",
    "result-key-duplicate",
    "result-section-order",
    "result-mode-contradicted",
    "result-clock-unparsable",
    "result-clock-partial",
    "result-clock-absent",
    "invalid-line-missing",
    "scc-contradicted",
    "version-contradicted",
    "version-ahead-of-tag",
    "raw-clock-unreadable",
    "version-tool-mismatch",
}


@pytest.fixture
def run_copy(submission: Callable[[int], Path], tmp_path: Path) -> MakeRun:
    def make(which: tuple[int, str]) -> Path:
        number, relative = which
        return copy_run(submission(number) / relative, tmp_path / f"submission-{number}")

    return make


def _only(path: Path) -> Verification:
    [verification] = verify(path)
    return verification


def _codes(verification: Verification, severity: Severity | None = None) -> set[str]:
    return {f.code for f in verification.findings if severity is None or f.severity is severity}


def _errors(verification: Verification) -> set[str]:
    return _codes(verification, Severity.ERROR)


@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
def test_honest_runs_of_every_era_carry_no_structure_finding(era: str, run_copy: MakeRun) -> None:
    verification = _only(run_copy(HONEST_RUNS[era]))
    assert verification.valid, [f.message for f in verification.findings if f.severity is Severity.ERROR]
    assert not _codes(verification) & STRUCTURE_CODES


def test_the_honest_extended_and_scc_runs_keep_their_verdicts(run_copy: MakeRun, tmp_path: Path) -> None:
    extended = _only(run_copy(EXTENDED_RUN))
    assert extended.result.mode == "extended"
    assert not _codes(extended) & STRUCTURE_CODES
    scc = _only(run_copy(SCC_RUN))
    # Its own "; ERROR INVALID stonewall-time < 30s" is there, so nothing was removed or hidden.
    assert _errors(scc) == {"result-error-comment"}
    assert not _codes(scc) & STRUCTURE_CODES


# --- duplicate and out-of-order sections ----------------------------------------------------------
@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
def test_a_forged_first_copy_of_a_phase_and_the_score_is_caught(era: str, run_copy: MakeRun) -> None:
    """The reader took the first copy's values and the hash of the last, verified, copy."""
    run = run_copy(HONEST_RUNS[era])
    content = text(run)
    phase = section_text(content, "mdtest-easy-write")
    score = float(re.search(r"^score\s*=\s*(\S+)", phase, re.M).group(1))  # type: ignore[union-attr]
    forged_phase = set_key(phase, "mdtest-easy-write", "score", f"{score * 3:f}")
    content = content.replace(phase, forged_phase + "\n" + phase, 1)
    write(run, content)
    verification = _only(run)
    assert verification.result.phases["mdtest-easy-write"].value == pytest.approx(score * 3, rel=1e-6)
    assert "result-section-duplicate" in _errors(verification)
    assert not verification.valid


def test_a_second_score_section_placed_before_the_verified_one_is_caught(
    run_copy: MakeRun,
) -> None:
    run = run_copy(HONEST_RUNS["c-sc21"])
    content = text(run)
    original = section_text(content, "SCORE")
    total = float(re.search(r"^SCORE\s*=\s*(\S+)", original, re.M).group(1))  # type: ignore[union-attr]
    forged = set_key(original, "SCORE", "SCORE", f"{total * 2:f}")
    content = content.replace(original, forged + "\n" + original, 1)
    write(run, content)
    verification = _only(run)
    assert "score-hash-verified" in _codes(verification)  # the hash is read from the last copy
    assert "result-section-duplicate" in _errors(verification)


@pytest.mark.parametrize("era", ["c-isc20", "c-isc25"])
def test_a_key_set_twice_in_one_section_is_caught(era: str, run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS[era])
    content = text(run)
    phase = section_text(content, "ior-hard-write")
    write(run, content.replace(phase, phase.rstrip("\n") + "\nscore           = 99.000000\n\n", 1))
    assert "result-key-duplicate" in _errors(_only(run))


@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
def test_a_moved_section_is_caught(era: str, run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS[era])
    content = text(run)
    find, easy_read = section_text(content, "find"), section_text(content, "ior-easy-read")
    content = content.replace(find, "").replace(easy_read, easy_read + find, 1)
    write(run, content)
    verification = _only(run)
    assert "result-section-order" in _errors(verification)


# --- the mode header ------------------------------------------------------------------------------
@pytest.mark.parametrize("era", WITH_MODE)
def test_mode_extended_written_into_a_standard_run_is_caught(era: str, run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS[era])
    write(run, set_key(text(run), "", "mode", "extended"))
    write(run, text(run, SUMMARY).replace("(standard)", "(extended)", 1), SUMMARY)
    verification = _only(run)
    assert verification.result.mode == "extended"
    assert "result-mode-contradicted" in _errors(verification)


def test_mode_standard_written_into_an_extended_run_is_caught(
    run_copy: MakeRun,
) -> None:
    run = run_copy(EXTENDED_RUN)
    write(run, set_key(text(run), "", "mode", "standard"))
    write(run, text(run, SUMMARY).replace("(extended)", "(standard)", 1), SUMMARY)
    assert "result-mode-contradicted" in _errors(_only(run))


def test_a_header_mode_the_summary_contradicts_is_caught(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-isc25"])
    write(run, set_key(text(run), "", "mode", "extended"))
    assert "result-mode-contradicted" in _errors(_only(run))


# --- clocks ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
@pytest.mark.parametrize(("key", "value"), [("t_start", "yesterday"), ("t_end", "2023-13-45 99:99:99")])
def test_an_unreadable_clock_is_caught(era: str, key: str, value: str, run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS[era])
    write(run, set_key(text(run), "ior-easy-write", key, value))
    verification = _only(run)
    assert "result-clock-unparsable" in _errors(verification)
    unreadable = [f for f in verification.findings if f.code == "result-clock-unparsable"]
    assert [f.phase for f in unreadable] == ["ior-easy-write"]


def test_an_unreadable_t_delta_is_caught(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-sc21"])
    write(run, set_key(text(run), "ior-hard-write", "t_delta", "long"))
    assert "result-clock-unparsable" in _errors(_only(run))


def test_clocks_removed_from_one_phase_are_caught(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-isc21"])
    content = text(run)
    phase = section_text(content, "mdtest-hard-write")
    stripped = re.sub(r"^t_(start|delta|end)\s*=.*\n", "", phase, flags=re.M)
    write(run, content.replace(phase, stripped, 1))
    verification = _only(run)
    assert "result-clock-partial" in _errors(verification)


def test_every_clock_removed_at_verbosity_1_is_a_warning(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-isc25"])
    write(run, re.sub(r"^t_(start|delta|end)\s*=.*\n", "", text(run), flags=re.M))
    verification = _only(run)
    assert "result-clock-absent" in _codes(verification, Severity.WARNING)
    assert "result-clock-partial" not in _codes(verification)


# --- the application's own INVALID lines ---------------------------------------------------------
def test_deleting_the_applications_invalid_line_is_caught(run_copy: MakeRun) -> None:
    run = run_copy(SCC_RUN)
    write(run, re.sub(r"^; ERROR INVALID.*\n", "", text(run), flags=re.M))
    verification = _only(run)
    assert "result-error-comment" not in _codes(verification)
    assert "invalid-line-missing" in _errors(verification)


@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
def test_a_hash_with_valid_no_and_no_invalid_line_is_caught(era: str, run_copy: MakeRun) -> None:
    """The application mixes valid=NO into the hash of a run it judged invalid; its lines removed,
    the hash still tells."""
    run = run_copy(HONEST_RUNS[era])
    rehash_score(run, valid=False)
    verification = _only(run)
    assert "invalid-line-missing" in _errors(verification)


@pytest.mark.parametrize("era", sorted(HONEST_RUNS))
def test_a_short_write_phase_without_the_applications_line_is_caught(era: str, run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS[era])
    write(run, set_key(text(run), "mdtest-easy-write", "t_delta", "250.0000"))
    verification = _only(run)
    missing = [f for f in verification.findings if f.code == "invalid-line-missing"]
    assert missing and missing[0].phase == "mdtest-easy-write"
    assert "Runtime of phase is below stonewall time" in missing[0].message


def test_a_find_that_found_nothing_without_the_applications_line_is_caught(
    run_copy: MakeRun,
) -> None:
    run = run_copy(HONEST_RUNS["c-sc21"])
    write(run, set_key(text(run), "find", "found", "0"))
    verification = _only(run)
    assert any(f.code == "invalid-line-missing" and f.phase == "find" for f in verification.findings)


def test_files_per_dir_in_config_without_the_applications_line_is_caught(
    run_copy: MakeRun,
) -> None:
    run = run_copy(HONEST_RUNS["c-isc25"])
    set_config(run, "mdtest-hard", "files-per-dir", "1000")
    rehash_config(run)
    assert "invalid-line-missing" in _errors(_only(run))


# --- SCC mode -------------------------------------------------------------------------------------
def test_scc_false_with_the_config_hash_recomputed_is_caught_by_the_applications_own_line(
    run_copy: MakeRun,
) -> None:
    run = run_copy(SCC_RUN)
    set_config(run, "global", "scc", "FALSE")
    rehash_config(run)
    verification = _only(run)
    assert "config-hash-verified" in _codes(verification)
    assert "scc-mode" not in _codes(verification)
    assert "scc-contradicted" in _errors(verification)


@pytest.mark.parametrize("era", ["c-sc20", "c-isc21", "c-sc21", "c-isc25"])
def test_a_30_s_stonewall_without_the_applications_complaint_shows_scc_mode(
    era: str, run_copy: MakeRun
) -> None:
    """An SCC run (stonewall-time = 30, scc = TRUE) relabelled scc = FALSE, config hash recomputed."""
    run = run_copy(HONEST_RUNS[era])
    content = re.sub(r"-D 300\b", "-D 30", text(run))
    content = re.sub(r"-W 300\b", "-W 30", content)
    write(run, content)
    set_config(run, "debug", "stonewall-time", "30")
    rehash_config(run)
    assert "scc-contradicted" in _errors(_only(run))


# --- version relabelling --------------------------------------------------------------------------
RELABELLED = [
    # (run, claimed, code): a development build relabelled as its base release, and releases
    # relabelled as others.
    ((744, "results/2025.03.30-02.10.30"), "io500-sc24_v1", "version-ahead-of-tag"),
    ((534, "."), "io500-isc21_v2", "version-ahead-of-tag"),
    ((738, "results/2025.05.07-09.01.18"), "io500-isc25_v2", "version-contradicted"),
    ((111, "."), "io500-sc23_v1", "version-contradicted"),
    ((762, "results/2025.10.21-12.48.03"), "io500-isc24_v3", "version-contradicted"),
    ((687, "results/2023.11.07-00.00.25"), "io500-sc20", "version-contradicted"),
    # io500-isc24_v1 names the isc23 commit (IOR 3.4.0+dev); io500-isc24_v3 builds IOR 4.1.0+dev.
    ((702, "results/2024.04.24-22.14.03"), "io500-isc24_v1", "version-tool-mismatch"),
]


@pytest.mark.parametrize(("which", "claimed", "code"), RELABELLED)
def test_a_version_claim_the_outputs_contradict_is_caught(
    which: tuple[int, str], claimed: str, code: str, run_copy: MakeRun
) -> None:
    run = run_copy(which)
    before = _only(run)
    relabel(run, claimed)
    after = _only(run)
    assert after.result.version == claimed
    assert "score-hash-verified" in _codes(after)
    assert "version-dev-build" not in _codes(after)
    assert code in _codes(after)
    assert code not in _codes(before)


def test_a_summary_mode_the_header_lacks_is_judged_by_the_phases(run_copy: MakeRun) -> None:
    """The summary's "(extended)" alone would switch the clock-order check off."""
    run = run_copy(HONEST_RUNS["c-isc21"])
    write(run, re.sub(r"^mode\s*=.*\n", "", text(run), count=1, flags=re.M))
    write(run, text(run, SUMMARY).replace("(standard)", "(extended)", 1), SUMMARY)
    verification = _only(run)
    assert verification.result.mode == "extended"
    assert "result-mode-contradicted" in _errors(verification)


# --- the tools' own clocks ------------------------------------------------------------------------
SHELL_RUN = (12, ".")  # io500.sh, 2020: ior_easy_write.txt ...


@pytest.mark.parametrize(
    ("which", "raw_file", "clock_line", "phase"),
    [
        (HONEST_RUNS["c-isc20"], "ior-hard-write.txt", r"^Began\s*:.*\n", "ior-hard-write"),
        (HONEST_RUNS["c-sc21"], "ior-easy-read.txt", r"^Began\s*:.*\n", "ior-easy-read"),
        (HONEST_RUNS["c-isc25"], "mdtest-hard-stat.txt", r"^-- finished at .*\n", "mdtest-hard-stat"),
        (HONEST_RUNS["c-sc20"], "mdtest-easy-write.txt", r"^-- started at .*\n", "mdtest-easy-write"),
        (SHELL_RUN, "ior_easy_write.txt", r"^Began\s*:.*\n", "ior-easy-write"),
    ],
)
def test_a_tool_clock_removed_from_its_output_is_caught(
    which: tuple[int, str], raw_file: str, clock_line: str, phase: str, run_copy: MakeRun
) -> None:
    run = run_copy(which)
    content = text(run, raw_file)
    edited, count = re.subn(clock_line, "", content, count=1, flags=re.M)
    assert count == 1
    write(run, edited, raw_file)
    verification = _only(run)
    assert [f.phase for f in verification.findings if f.code == "raw-clock-unreadable"] == [phase]
    assert not verification.valid


def test_a_garbled_tool_clock_is_caught(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-sc21"])
    content = text(run, "mdtest-easy-stat.txt")
    write(
        run,
        re.sub(r"^-- started at \S+", "-- started at 99/99/2023", content, count=1, flags=re.M),
        "mdtest-easy-stat.txt",
    )
    assert "raw-clock-unreadable" in _errors(_only(run))


def test_the_untouched_shell_run_has_readable_tool_clocks(run_copy: MakeRun) -> None:
    verification = _only(run_copy(SHELL_RUN))
    assert verification.valid
    assert "raw-clock-unreadable" not in _codes(verification)


def test_a_30_s_scc_run_relabelled_scc_false_is_one_finding(run_copy: MakeRun) -> None:
    """Short write phases of a 30-s stonewall show the 30-s minimum as well; one finding says SCC."""
    run = run_copy(HONEST_RUNS["c-isc25"])
    content = re.sub(r"-D 300\b", "-D 30", text(run))
    content = re.sub(r"-W 300\b", "-W 30", content)
    content = set_key(content, "ior-easy-write", "t_delta", "45.0000")
    write(run, content)
    set_config(run, "debug", "stonewall-time", "30")
    rehash_config(run)
    verification = _only(run)
    assert [f.code for f in verification.findings].count("scc-contradicted") == 1
    assert not [f for f in verification.findings if f.code == "invalid-line-missing"]


def test_a_line_removed_from_one_phase_is_not_excused_by_the_same_line_in_another(run_copy: MakeRun) -> None:
    """Each phase's complaint sits in its own section; two short write phases, one line left."""
    run = run_copy(HONEST_RUNS["c-sc21"])
    content = set_key(text(run), "mdtest-easy-write", "t_delta", "250.0000")
    content = set_key(content, "mdtest-hard-write", "t_delta", "250.0000")
    easy = section_text(content, "mdtest-easy-write")
    line = "; ERROR INVALID Runtime of phase (250.000000) is below stonewall time. This shouldn't happen!\n"
    content = content.replace(easy, easy.rstrip("\n") + "\n" + line + "\n", 1)
    write(run, content)
    missing = [f.phase for f in _only(run).findings if f.code == "invalid-line-missing"]
    assert "mdtest-hard-write" in missing
    assert "mdtest-easy-write" not in missing


def test_the_tool_versions_are_read_from_the_outputs_and_a_huge_first_line_costs_nothing(
    run_copy: MakeRun,
) -> None:
    run = run_copy(HONEST_RUNS["c-isc25"])
    assert _only(run).result.tool_versions == {"ior": "4.1.0+dev", "mdtest": "4.1.0+dev"}
    write(run, "IOR-" + "9" * (1 << 20) + text(run, "ior-easy-write.txt"), "ior-easy-write.txt")
    started = time.perf_counter()
    versions = _only(run).result.tool_versions
    assert time.perf_counter() - started < 2.0
    assert versions["ior"] == "4.1.0+dev"  # read from ior-hard-write.txt instead


@pytest.mark.parametrize("era", ["c-sc21", "c-isc25"])
def test_a_header_key_written_before_the_run_section_is_caught(era: str, run_copy: MakeRun) -> None:
    """Readers merge the keys before [run] with [run]'s, the first copy winning."""
    run = run_copy(HONEST_RUNS[era])
    write(run, "mode            = extended\n" + text(run))
    verification = _only(run)
    assert result_header(verification.result)["mode"] == "extended"
    assert "result-key-duplicate" in _errors(verification)


def test_a_new_key_before_the_run_section_is_caught(run_copy: MakeRun) -> None:
    run = run_copy(HONEST_RUNS["c-sc21"])
    write(run, "valid           = YES\n" + text(run))
    assert "result-section-order" in _errors(_only(run))


# --- io500-sc26's random 4 KiB read ---------------------------------------------------------------
def _sc26(submission: Callable[[int], Path], target: Path, version: str = "io500-sc26") -> Verification:
    from tests.support.sc26_sample import SOURCE_SUBMISSION, derive_sc26_run

    return _only(derive_sc26_run(submission(SOURCE_SUBMISSION), target, version))


def test_an_io500_sc26_run_is_scored_without_its_random_read(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    verification = _sc26(submission, tmp_path / "sc26")
    assert verification.valid, [f.message for f in verification.findings if f.severity is Severity.ERROR]
    assert not _codes(verification) & STRUCTURE_CODES
    # As in io500-sc26's src/main.c: the phase is group NO_SCORE, so the score, BW and the score hash
    # are those of the twelve phases, the same as the io500-sc25 run it was derived from.
    assert verification.score_matches and verification.computed.score == pytest.approx(273.836839, abs=1e-5)
    assert "score-hash-verified" in _codes(verification)
    # Its config.ini has io500-sc26's layout (main's: no [ior-rnd4K] / [ior-rnd1MB] sections).
    assert "config-hash-verified" in _codes(verification)
    assert (
        "ior-rnd4K" not in verification.result.config and "ior-rnd4K-easy-read" in verification.result.config
    )


def test_the_sc26_random_read_under_an_older_tag_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    # One release before io500-sc26: a build ahead of its tag; two: the claim is wrong.
    assert "version-ahead-of-tag" in _codes(_sc26(submission, tmp_path / "a", "io500-isc26_v2"))
    assert "version-contradicted" in _codes(_sc26(submission, tmp_path / "b", "io500-sc25"))


def test_an_sc26_claim_with_the_old_random_read_is_caught(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = submission(762) / "results/2025.10.21-12.48.03"  # io500-sc25: -z -z, -s=10000000
    copy = copy_run(run, tmp_path / "old")
    relabel(copy, "io500-sc26")
    codes = _codes(_only(copy))
    assert "version-contradicted" in codes
