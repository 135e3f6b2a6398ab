"""The C application's output of every era, checked on exact values of real files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.model import GIB_PER_S, KIOPS, Era, ReadError
from scoring.readers.locate import read_runs

Submission = Callable[[int], Path]


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


def test_it_reads_an_isc20_run_with_its_gb_labelled_score(submission: Submission) -> None:
    (run,) = read_runs(submission(45))
    assert run.era is Era.C_ISC20
    assert run.version == "io500-isc20_v4"
    assert run.mode is None
    # "[SCORE] Bandwidth 47.439998 GB/s ..." with result.txt's hash.
    assert run.claimed is not None
    assert (run.claimed.bw, run.claimed.md, run.claimed.score) == (47.439998, 229.328552, 104.304104)
    assert run.claimed.hash == "5F141BF5" and not run.claimed.invalid
    assert run.config_hash == "65073174"
    assert run.timestamp == "2020.07.14-01.17.59"  # result-dir ".../2020.07.14-01.17.59-app"
    # B1 has no [run] header: the keys before the first phase sit in the unnamed section.
    assert run.result_ini[0] == (
        "",
        [
            ("version", "io500-isc20_v4"),
            ("config-hash", "65073174"),
            ("result-dir", "./results//2020.07.14-01.17.59-app"),
        ],
    )
    assert run.header_errors == ()  # the "; WARNING Using internal pfind" comment is no error
    easy_write = run.phases["ior-easy-write"]
    assert (easy_write.value, easy_write.time_s, easy_write.unit) == (483.719797, 789.8664, GIB_PER_S)
    assert easy_write.command is not None and easy_write.command.startswith("./ior -C -Q 1 -g -G 271")
    assert easy_write.values["throughput-stonewall"] == "1331690.67"
    assert run.phases["find"].values["total-files"] == "2190910686"
    # B1 writes a [timestamp] section without a score: an unscored dummy phase of value 0.
    assert run.extra_phases["timestamp"].value == 0.0
    assert run.config_source == "config.ini"
    assert run.config["debug"]["stonewall-time"] == "300"


def test_it_reads_an_sc20_run_and_an_empty_version(submission: Submission) -> None:
    (run,) = read_runs(submission(468))
    assert run.era is Era.C_SC20  # "[SCORE] Bandwidth ... GiB/s" without a release tag
    assert run.version == ""  # "IO500 version " and "version         = "


def test_it_reads_isc21_blank_tag_lines(submission: Submission) -> None:
    (run,) = read_runs(submission(552))
    assert run.era is Era.C_ISC21
    assert run.mode == "standard"
    # "[      ]            timestamp        0.000000 kIOPS : time 0.000 seconds"
    timestamp = run.extra_phases["timestamp"]
    assert (timestamp.value, timestamp.unit, timestamp.scored) == (0.0, KIOPS, False)


def test_it_reads_the_extended_scorex_of_submission_582(submission: Submission) -> None:
    (run,) = read_runs(submission(582))
    assert run.era is Era.C_SC21
    assert run.mode == "extended"
    assert run.claimed_extended is not None
    extended = run.claimed_extended
    assert (extended.bw, extended.md, extended.score, extended.hash) == (
        1.958556,
        81.864024,
        12.662357,
        "5640BB11",
    )
    assert run.claimed is not None and run.claimed.hash == "D9B2B24E"
    assert run.extra_phases["find-easy"].value == 943.351165
    assert run.extra_phases["find-easy"].raw is not None  # from find-easy.csv
    assert run.extra_phases["ior-rnd4K-write"].unit == GIB_PER_S
    assert run.extra_phases["mdworkbench-bench"].values["scoreIteration0"] == "112.515927"
    assert set(run.phases) == {
        "ior-easy-write", "ior-hard-write", "ior-easy-read", "ior-hard-read", "mdtest-easy-write",
        "mdtest-hard-write", "find", "mdtest-easy-stat", "mdtest-hard-stat", "mdtest-easy-delete",
        "mdtest-hard-read", "mdtest-hard-delete",
    }  # fmt: skip


def test_it_reads_the_unscored_rnd4k_easy_read_of_isc25(submission: Submission) -> None:
    (run,) = read_runs(submission(738))
    assert run.era is Era.C_ISC25
    rnd = run.extra_phases["ior-rnd4K-easy-read"]
    assert (rnd.value, rnd.time_s, rnd.unit, rnd.scored) == (10.745562, 35.5102, GIB_PER_S, False)
    assert "ior-rnd4K-easy-read" not in run.phases


def test_it_keeps_error_invalid_comments_of_the_result_header(submission: Submission) -> None:
    (run,) = read_runs(submission(642))
    assert run.header_errors == ("ERROR INVALID stonewall-time < 30s",)
    assert run.result_ini[1][0] == "run"
    assert ("procs", "160") in run.result_ini[1][1]
    assert run.procs == 160
    assert run.timestamp == "2023.03.22-18.10.33"  # folder "good-2023.03.22-18.10.33"
    # The copy of result_summary.txt at the top of the submission is not a second run.
    assert [note.code for note in run.read_notes] == ["read-duplicate-summary"]


def test_a_different_summary_without_result_txt_is_its_own_summary_only_run(submission: Submission) -> None:
    top, full = read_runs(submission(714))
    assert (top.path, full.path) == (".", "results/2024.09.13-12.11.52")
    assert "read-summary-only" in [note.code for note in top.read_notes]
    assert top.claimed is not None and top.claimed.score == 500.204840 and top.claimed.hash is None
    assert full.claimed is not None and full.claimed.score == 495.360612


def test_it_reads_raw_outputs_and_per_rank_files(submission: Submission) -> None:
    (run,) = read_runs(submission(702))
    hard_write = run.phases["ior-hard-write"]
    assert hard_write.raw is not None
    assert (hard_write.raw.nodes, hard_write.raw.tasks, hard_write.raw.time_s) == (15, 240, 356.57)
    assert hard_write.raw.value == pytest.approx(2112.23 / 1024)
    assert hard_write.raw.stonewall_s == 300.0 and hard_write.raw.errors == 0
    assert len(hard_write.ranks) == 240
    first = hard_write.ranks[0]
    assert (first.rank, first.time_s) == (0, 356.56326199)
    assert first.rate == pytest.approx(9.2285446955e06 / 2**20)  # bytes/s -> MiB/s
    md_write = run.phases["mdtest-hard-write"]
    assert md_write.raw is not None
    assert (md_write.raw.value, md_write.raw.time_s, md_write.raw.nodes) == (76.057986, 326.754, 15)
    assert [row.rank for row in md_write.ranks] == list(range(240))  # the "all" row is left out
    find = run.phases["find"]
    assert find.raw is not None
    assert find.raw.time_s == 40.78681
    assert find.raw.value == pytest.approx(3681.690318474)
    assert (find.ranks[0].found, find.ranks[0].items) == (18754, 23703804)
    assert (find.raw.found, find.raw.items) == (1167432, 150164402)  # equal to result.txt's counts
    assert run.nodes == 15 and run.procs == 240


def test_invalid_markers_of_every_c_era_are_kept(submission: Submission, tmp_path: Path) -> None:
    # The corpus has no invalid run, so real summaries get the markers the app prints.
    run_dir = _copy(submission(582), tmp_path / "run")
    summary = run_dir / "result_summary.txt"
    text = summary.read_text()
    text = text.replace("time 322.019 seconds", "time 322.019 seconds [INVALID]")
    text = text.replace("TOTAL 12.549643", "TOTAL 12.549643 [INVALID]")
    summary.write_text(text)
    (run,) = read_runs(run_dir)
    assert run.phases["mdtest-hard-write"].invalid_marker
    assert not run.phases["ior-easy-write"].invalid_marker
    assert run.claimed is not None and run.claimed.invalid


@pytest.mark.parametrize("score_tag", ["[SCORE-invalid]", "[SCORE INVALID]"])
def test_isc20_invalid_score_tags_are_read(submission: Submission, tmp_path: Path, score_tag: str) -> None:
    run_dir = _copy(submission(45), tmp_path / "run")
    (run_dir / "result.txt").unlink()
    summary = run_dir / "result_summary.txt"
    text = summary.read_text().replace(
        "[RESULT]       ior-hard-write", "[RESULT-invalid]       ior-hard-write"
    )
    summary.write_text(text.replace("[SCORE]", score_tag))
    (run,) = read_runs(run_dir)
    assert run.phases["ior-hard-write"].invalid_marker
    assert run.claimed is not None and run.claimed.invalid and run.claimed.score == 104.304104


def test_result_txt_alone_is_enough(submission: Submission, tmp_path: Path) -> None:
    run_dir = _copy(submission(702) / "results" / "2024.04.24-22.14.03", tmp_path / "2024.04.24-22.14.03")
    (run_dir / "result_summary.txt").unlink()
    (run,) = read_runs(run_dir)
    assert run.version == "io500-isc24_v3" and run.mode == "standard"
    assert len(run.phases) == 12 and run.claimed is not None and run.claimed.hash == "5468A6C3"


def test_a_value_that_differs_between_result_txt_and_the_summary_is_reported(
    submission: Submission, tmp_path: Path
) -> None:
    run_dir = _copy(submission(45), tmp_path / "run")
    summary = run_dir / "result_summary.txt"
    summary.write_text(summary.read_text().replace("483.719797", "583.719797"))
    (run,) = read_runs(run_dir)
    assert run.phases["ior-easy-write"].value == 483.719797  # result.txt carries the hash: it wins
    notes = [note for note in run.read_notes if note.code == "read-sources-disagree"]
    assert len(notes) == 1 and notes[0].phase == "ior-easy-write"


@pytest.mark.parametrize("bad", ["nan", "inf", "-5.000000", "12,5", "fast"])
def test_unreadable_phase_values_become_read_notes(submission: Submission, tmp_path: Path, bad: str) -> None:
    run_dir = _copy(submission(45), tmp_path / "run")
    result = run_dir / "result.txt"
    result.write_text(result.read_text().replace("score           = 483.719797", f"score           = {bad}"))
    summary = run_dir / "result_summary.txt"
    summary.write_text(summary.read_text().replace("483.719797", bad))
    (run,) = read_runs(run_dir)
    assert "ior-easy-write" not in run.phases
    assert [note.phase for note in run.read_notes if note.code == "read-value-unreadable"] == [
        "ior-easy-write"
    ]


def test_a_summary_with_no_phase_line_is_a_read_error(tmp_path: Path) -> None:
    run_dir = tmp_path / "2024.01.01-00.00.00"
    run_dir.mkdir()
    (run_dir / "result_summary.txt").write_text("IO500 version io500-sc23_v1 (standard)\n")
    with pytest.raises(ReadError, match="No phase result could be read"):
        read_runs(run_dir)


def test_an_empty_version_of_a_later_release_is_an_empty_string(submission: Submission) -> None:
    (run,) = read_runs(submission(588))
    assert run.version == ""  # "IO500 version  (standard)"
    assert run.mode == "standard"
    assert run.era is Era.C_SC21  # no tag to go by: the [run] header of result.txt places it


def test_it_reads_the_new_random_read_of_an_io500_sc26_run(submission: Submission, tmp_path: Path) -> None:
    from tests.support.sc26_sample import SOURCE_SUBMISSION, derive_sc26_run

    (run,) = read_runs(derive_sc26_run(submission(SOURCE_SUBMISSION), tmp_path / "sc26"))
    assert (run.version, run.era) == ("io500-sc26", Era.C_ISC25)
    rnd = run.extra_phases["ior-rnd4K-easy-read"]
    # The same lines as every release since isc25: a score line, a '[      ]' summary line, unscored.
    assert (rnd.value, rnd.time_s, rnd.unit, rnd.scored) == (16.161684, 353.6668, GIB_PER_S, False)
    command = rnd.command or ""
    assert "-z -z -z" in command and "-s=-1" in command and command.endswith("-C -Q 2")
    assert "ior-rnd4K-easy-read" not in run.phases
    assert rnd.raw is not None  # its IOR log, with -s=-1 and no segment geometry
