"""The io500.sh script era (SC17 to ISC20), checked on exact values of real files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.model import GIB_PER_S, KIOPS, Era
from scoring.readers.locate import read_runs


def test_it_reads_a_2018_gb_labelled_run_with_its_console_log_and_raw_files(
    submission: Callable[[int], Path],
) -> None:
    (run,) = read_runs(submission(162))
    assert run.era is Era.SHELL
    assert run.path == "results"
    assert run.version is None and run.mode is None
    assert run.timestamp == "2018.11.04-20.11.50"
    # "[RESULT] BW phase 1 ior_easy_write 10.971 GB/s : time 364.59 seconds": the label means GiB/s.
    easy_write = run.phases["ior-easy-write"]
    assert (easy_write.value, easy_write.unit, easy_write.time_s) == (10.971, GIB_PER_S, 364.59)
    assert easy_write.command is not None and easy_write.command.startswith(
        "/usr/lib64/openmpi/bin/mpirun -np 80"
    )
    assert easy_write.raw is not None
    assert easy_write.raw.value == pytest.approx(11234.39 / 1024)  # "Max Write: 11234.39 MiB/sec"
    assert (easy_write.raw.tasks, easy_write.raw.nodes, easy_write.raw.stonewall_s) == (80, 10, 300.1)
    assert run.phases["mdtest-hard-delete"].value == 5.766
    assert run.phases["mdtest-hard-delete"].unit == KIOPS
    assert run.claimed is not None
    assert (run.claimed.bw, run.claimed.md, run.claimed.score) == (2.31499, 57.8941, 11.5769)
    assert run.procs == 80 and run.nodes == 10


def test_it_takes_the_find_counts_from_the_console_log(submission: Callable[[int], Path]) -> None:
    (run,) = read_runs(submission(162))
    find = run.phases["find"]
    # "[FIND] MATCHED 51360/35294166 in 116.9326 seconds"
    assert find.raw is not None
    assert (find.raw.found, find.raw.items, find.raw.time_s) == (51360, 35294166, 116.9326)
    assert find.raw.value == pytest.approx(35294166 / 116.9326 / 1000)


def test_it_reads_the_tunables_of_an_io500_sh_next_to_the_results_folder(
    submission: Callable[[int], Path],
) -> None:
    (run,) = read_runs(submission(162))
    assert run.config_source == "../io500.sh"  # relative to the run directory "results"
    assert run.config["io500.sh"]["io500_stonewall_timer"] == "300"
    # The console log's variable dump is the effective configuration.
    assert run.config["io-500-summary"]["io500_ior_easy_params"] == "-t 4m -b 51200m -F -a POSIX"


def test_it_reads_old_mdtest_colon_tables_and_ior_3_1_client_lines(submission: Callable[[int], Path]) -> None:
    (run,) = read_runs(submission(135))
    stat = run.phases["mdtest-easy-stat"].raw
    assert stat is not None
    # mdtest-1.9.3 "SUMMARY: (of 1 iterations)" with "File stat : 129050.376 ..."
    assert stat.value == pytest.approx(129.050376)
    assert (stat.tasks, stat.nodes) == (16, 16)
    read = run.phases["ior-easy-read"].raw
    assert read is not None
    # IOR-3.1.0 "clients = 16 (1 per node)" and "Max Read: 12316.44 MiB/sec"
    assert (read.tasks, read.nodes, read.time_s) == (16, 16, 425.68)
    assert read.value == pytest.approx(12316.44 / 1024)
    assert read.items == 5497558138880  # the 3.1 "aggsize" column is in bytes


def test_it_reads_the_gib_labelled_script_half_of_an_isc20_dual_run(
    submission: Callable[[int], Path],
) -> None:
    (run,) = read_runs(submission(465))
    assert run.era is Era.SHELL_GIB
    assert run.path == "results/results/2020.09.28-02.46.18-scr"
    assert run.timestamp == "2020.09.28-02.46.18"  # without the -scr suffix
    assert run.phases["ior-easy-write"].value == 8.435
    assert run.phases["ior-easy-write"].time_s == 2850.89
    assert run.claimed is not None
    assert (run.claimed.bw, run.claimed.md, run.claimed.score) == (16.3918, 156.099, 50.584)
    assert run.config_source == "../../io500.sh"


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


def test_it_recognises_the_sc17_product_total(submission: Callable[[int], Path], tmp_path: Path) -> None:
    # No SC17 summary is in the shared corpus, so a real 2018 one gets bc's SC17 TOTAL = BW * MD.
    run_dir = _copy(submission(162) / "results", tmp_path / "results")
    summary = run_dir / "result_summary.txt"
    text = summary.read_text()
    product = round(2.31499 * 57.8941, 2)
    summary.write_text(text.replace("TOTAL 11.5769", f"TOTAL {product}"))
    (run,) = read_runs(run_dir)
    assert run.era is Era.SHELL_SC17
    assert run.claimed is not None and run.claimed.score == product


def test_it_keeps_invalid_markers_of_the_script(submission: Callable[[int], Path], tmp_path: Path) -> None:
    run_dir = _copy(submission(162) / "results", tmp_path / "results")
    summary = run_dir / "result_summary.txt"
    text = summary.read_text()
    text = text.replace("[RESULT] BW   phase 2", "[RESULT-invalid] BW   phase 2").replace(
        "[SCORE]", "[SCORE-invalid]"
    )
    summary.write_text(text)
    (run,) = read_runs(run_dir)
    assert run.phases["ior-hard-write"].invalid_marker
    assert not run.phases["ior-easy-write"].invalid_marker
    assert run.claimed is not None and run.claimed.invalid


def test_it_reads_the_console_log_when_result_summary_is_missing(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run_dir = _copy(submission(162) / "results", tmp_path / "results")
    (run_dir / "result_summary.txt").unlink()
    (run,) = read_runs(run_dir)
    assert run.phases["ior-easy-write"].value == 10.971
    assert run.claimed is not None and run.claimed.score == 11.5769
