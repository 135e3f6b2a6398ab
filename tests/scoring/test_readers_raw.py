"""Raw tool outputs: IOR errors, pfind statistics, per-rank CSVs and our runner's timelines."""

from __future__ import annotations

from scoring.model import RankRow, TimelineBin
from scoring.readers.raw import parse_ior, parse_mdtest, parse_pfind_csv, parse_rank_csv, parse_timeline


def test_ior_data_verification_errors_are_counted() -> None:
    text = (
        "Command line        : ./ior -r -R\n"
        "WARNING: incorrect data on read (12 errors found).\n"
        "ior ERROR: read(-1) failed, errno 5\n"
        "read      100.00     0.0   0.0   1024   1024   0.01   10.0   0.01   10.02   0\n"
    )
    raw = parse_ior(text, "ior-easy-read.txt")
    assert raw.errors == 13
    assert (raw.value, raw.time_s, raw.command) == (100.0 / 1024, 10.02, "./ior -r -R")


def test_ior_output_without_a_result_row_has_no_value() -> None:
    raw = parse_ior("IOR-3.3.0: MPI Coordinated Test of Parallel I/O\ntasks               : 8\n", "x.txt")
    assert (raw.value, raw.time_s, raw.tasks, raw.nodes) == (None, None, 8, None)


def test_mdtest_picks_the_row_of_the_phase_operation() -> None:
    text = (
        "mdtest-3.4.0+dev was launched with 4 total task(s) on 2 node(s)\n"
        "SUMMARY rate: (of 1 iterations)\n"
        "   File creation     :       1000.000       1000.000       1000.000          0.000\n"
        "   File removal      :       3000.000       3000.000       3000.000          0.000\n"
        "SUMMARY time: (of 1 iterations)\n"
        "   File removal      :        300.500        300.500        300.500          0.000\n"
    )
    raw = parse_mdtest(text, "mdtest-easy-delete.txt", "File removal")
    assert (raw.value, raw.time_s, raw.tasks, raw.nodes) == (3.0, 300.5, 4, 2)


def test_pfind_csv_sums_the_ranks_and_keeps_them() -> None:
    text = (
        "runtime: 19.826333 rate: 477873.592562\n"
        "rank, errors, unknown, found, total, checked\n"
        "0, 0, 0, 1755, 79380, 74148\n"
        "1, 1, 0, 45, 620, 0\n"
    )
    raw, ranks = parse_pfind_csv(text, "find.csv")
    assert (raw.time_s, raw.value, raw.found, raw.items, raw.errors) == (
        19.826333,
        477.873592562,
        1800,
        80000,
        1,
    )
    assert ranks == (
        RankRow(rank=0, time_s=None, rate=None, items=79380, found=1755),
        RankRow(rank=1, time_s=None, rate=None, items=620, found=45),
    )


def test_a_pfind_csv_with_a_broken_row_gives_no_totals() -> None:
    raw, ranks = parse_pfind_csv(
        "runtime: 1.0 rate: 2.0\nrank, errors, unknown, found, total\n0, 0, 0, x, 5\n", "f.csv"
    )
    assert (raw.found, raw.items, ranks) == (None, None, ())


def test_mdtest_rank_csv_skips_the_all_row_and_reads_the_phase_columns() -> None:
    text = (
        "rank,items,rate-File stat,time-File stat\n"
        "all,100,5.0e+02,2.0e-01\n0,,2.5e+02,2.0e-01\n1,,nan,2.0e-01\n"
    )
    assert parse_rank_csv(text, "mdtest-easy-stat") == (
        RankRow(rank=0, time_s=0.2, rate=250.0, items=None),
        RankRow(rank=1, time_s=0.2, rate=None, items=None),
    )


def test_ior_rank_csv_converts_throughput_to_mib_per_second() -> None:
    text = (
        "access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput\n"
        "write,3,2.0e+00,1.5e+00,2097152,4194304\n"
    )
    assert parse_rank_csv(text, "ior-easy-write") == (RankRow(rank=3, time_s=2.0, rate=2.0),)


def test_timeline_rows_become_bins_and_odd_rows_are_left_out() -> None:
    text = "rank,second,amount\n0,0,1048576\n0,1,2097152\n1,0,oops\n2,1\n"
    assert parse_timeline(text) == (
        TimelineBin(rank=0, second=0, amount=1048576.0),
        TimelineBin(rank=0, second=1, amount=2097152.0),
    )


def test_a_timeline_with_another_header_is_not_read() -> None:
    assert parse_timeline("second,rank,amount\n0,0,1\n") == ()
