"""Raw tool outputs: IOR errors, pfind statistics, per-rank CSVs and our runner's timelines."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.model import RankRow, TimelineBin
from scoring.readers.numbers import half_unit
from scoring.readers.raw import (
    parse_ior,
    parse_mdtest,
    parse_pfind_csv,
    parse_rank_csv,
    parse_rank_csv_with_total,
    parse_timeline,
)


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


@pytest.mark.parametrize(
    ("text", "half"),
    [("331445", 0.5), ("383.87", 0.005), ("0.012687", 5e-7), ("3.3197706294e+02", 5e-9), ("1e-3", 5e-4)],
)
def test_half_unit_is_read_from_the_printed_digits(text: str, half: float) -> None:
    assert half_unit(text) == pytest.approx(half)


def test_half_unit_of_an_exponent_beyond_any_float_is_the_largest_float_not_an_error() -> None:
    # "0e400" is a finite zero; the fuzzer found the reader raising OverflowError on it (seed 500).
    assert half_unit("0e400") == 0.5 * 10.0**308
    assert half_unit("0e-400") == 0.0


# IOR 3.2 as io500.sh ran it (submission-60): the row rounds to whole MiB/s, Max Write does not.
IOR_SHELL = (
    "Began               : Tue Nov 13 20:15:35 2018\n"
    "Command line        : ior -w -t 47008 -b 47008\n"
    "write     5439       45.91      45.91      0.068147   359.46     0.016455   359.55     0   \n"
    "Max Write: 5438.66 MiB/sec (5702.85 MB/sec)\n"
    "\nSummary of all tests:\n"
    "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    "
    "Mean(s) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize aggs(MiB)   "
    "API RefNum\n"
    "write        5438.66    5438.66    5438.66       0.00  121316.64  121316.64  121316.64       0.00  "
    "359.54878     0    950  56    1   0     1        1         0    0  45915    47008    47008 1955465.0 "
    "POSIX      0\n"
    "Finished            : Tue Nov 13 20:21:35 2018\n"
)


def test_ior_bandwidth_range_is_what_every_printed_figure_allows() -> None:
    raw = parse_ior(IOR_SHELL, "ior_hard_write.txt")
    assert raw.value_low is not None and raw.value_high is not None
    # Max Write narrows the row's 5439 +- 0.5 to 5438.66 +- 0.005 MiB/s, and the summary table's
    # aggs(MiB) / Mean(s) narrows it further (aggs is a C float: 2^-24 of it, 0.12 MiB here, not
    # the 0.05 its one printed decimal suggests); the true bandwidth stays inside.
    assert 5438.655 / 1024 <= raw.value_low < raw.value_high <= 5438.665 / 1024
    assert raw.value_high - raw.value_low < 0.0011 / 1024
    assert raw.contradictions == ()
    assert raw.value_low <= 1955465.0 / 359.54878 / 1024 <= raw.value_high
    # io500.sh divided the first row's figure: 5439 / 1024 = 5.312 as printed, not 5.311.
    assert raw.script_value == pytest.approx(5439 / 1024)
    # io500.sh printed the 8th field: total(s) in this 9-field row, wr/rd(s) in IOR 3.3's 11 fields.
    assert (raw.script_time_s, raw.time_s) == (359.55, 359.55)
    assert (raw.started, raw.finished) == (
        dt.datetime(2018, 11, 13, 20, 15, 35),
        dt.datetime(2018, 11, 13, 20, 21, 35),
    )


def test_ior_byte_count_narrows_the_bandwidth_of_a_row_without_decimals() -> None:
    text = (
        "WARNING: Using actual aggregate bytes moved = 133412421632000\n"
        "write     331445     20723      0.012687    458752000  16384      0.101932   383.74     0.031932   "
        "383.87     0   \n"
    )
    raw = parse_ior(text, "ior-easy-write.txt")
    assert raw.value_low is not None and raw.value_high is not None
    # The row says 331445 +- 0.5 MiB/s; the exact byte count over 383.87 +- 0.005 s says
    # 331441.3 to 331445.6: together 331444.5 to 331445.5.
    by_bytes = (133412421632000 / 383.875 / 1024**3, 133412421632000 / 383.865 / 1024**3)
    assert raw.value_low == pytest.approx(max(331444.5 / 1024, by_bytes[0]))
    assert raw.value_high == pytest.approx(min(331445.5 / 1024, by_bytes[1]))
    assert raw.items == 133412421632000


def test_mdtest_value_may_lie_between_its_min_and_max_columns() -> None:
    text = (
        "-- started at 06/02/2020 10:43:48 --\n"
        "SUMMARY rate: (of 1 iterations)\n"
        "   File creation             :      33730.228      33730.215      33730.222          0.003\n"
        "SUMMARY time: (of 1 iterations)\n"
        "   File creation             :        515.858        515.850        515.855          0.000\n"
        "-- finished at 06/02/2020 10:53:03 --\n"
    )
    raw = parse_mdtest(text, "mdtest-easy-write.txt", "File creation")
    assert [raw.value_low, raw.value_high] == pytest.approx([33.7302145, 33.7302285])
    assert [raw.time_low, raw.time_high] == pytest.approx([515.8495, 515.8585])
    assert (raw.started, raw.finished) == (
        dt.datetime(2020, 6, 2, 10, 43, 48),
        dt.datetime(2020, 6, 2, 10, 53, 3),
    )


def test_mdtest_rank_csv_returns_its_all_row_as_the_total() -> None:
    text = "rank,items,rate-File stat,time-File stat\nall,100,5.0e+02,2.0e-01\n0,,2.5e+02,2.0e-01\n"
    rows, total = parse_rank_csv_with_total(text, "mdtest-easy-stat")
    assert total == RankRow(rank=-1, time_s=0.2, rate=500.0, items=100.0)  # items per rank
    assert rows == (RankRow(rank=0, time_s=0.2, rate=250.0, items=None),)


def test_pfind_csv_rate_and_runtime_ranges_follow_their_decimals() -> None:
    raw, _ = parse_pfind_csv("runtime: 19.826333 rate: 477873.592562\nrank, found, total\n", "find.csv")
    assert [raw.value_low, raw.value_high] == pytest.approx([477.8735925615, 477.8735925625])
    assert [raw.time_low, raw.time_high] == pytest.approx([19.8263325, 19.8263335])


# IO500/submission-data, submission-13 (io500-isc20, DAOS), ior-easy-read.txt: the figures IOR printed.
IOR_FLOAT_AGGS = (
    "WARNING: Using actual aggregate bytes moved = 38086178242560.\n"
    "read      72350      291097     0.000125    1024000000 256.00     2.92       499.10     0.014455   "
    "502.03     0   \n"
    "Max Read:  72349.66 MiB/sec (75864.12 MB/sec)\n"
    "\n"
    "Summary of all tests:\n"
    "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    "
    "Mean(s) Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   "
    "blksiz    xsize aggs(MiB)   API RefNum\n"
    "read        72349.66   72349.66   72349.66       0.00  289398.64  289398.64  289398.64       0.00  "
    "502.03153         NA            NA     0    420   1    1   0     1        1         0    0      1 "
    "1048576000000   262144 36321808.0 DFS      0\n"
)


def test_ior_aggs_column_is_read_as_the_c_float_it_was_printed_from() -> None:
    # result.txt scored 70.653964 GiB/s (the exact bytes over IOR's double time); aggs(MiB) over
    # Mean(s) taken at its printed digits would allow only 70.653960 to 70.653961.
    raw = parse_ior(IOR_FLOAT_AGGS, "ior-easy-read.txt")
    assert raw.contradictions == ()
    assert raw.value_low is not None and raw.value_high is not None
    assert raw.value_low <= 70.653964 <= raw.value_high


def test_ior_figures_that_cannot_all_be_true_are_named() -> None:
    edited = IOR_FLOAT_AGGS.replace("Max Read:  72349.66", "Max Read:  108524.49")
    raw = parse_ior(edited, "ior-easy-read.txt")
    assert len(raw.contradictions) == 1
    assert "the Max line" in raw.contradictions[0]


def test_ior_repetitions_are_compared_one_row_at_a_time() -> None:
    # Two repetitions (-i 2; IO500/submission-data, submission-62, ior_easy_write.txt): Max is the
    # faster row, Min the slower, the value the first row.
    text = (
        "write     219714     8388608    1024.00    0.317764   219.11     0.106886   219.53     0   \n"
        "write     110861     8388608    1024.00    0.362499   434.62     0.109312   435.09     1   \n"
        "Max Write: 219713.95 MiB/sec (230386.78 MB/sec)\n"
        "Summary of all tests:\n"
        "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     "
        "StdDev    Mean(s) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    "
        "xsize aggs(MiB)   API RefNum\n"
        "write      219713.95  110861.44  165287.70   54426.26  219713.95  110861.44  165287.70   54426.26  "
        "327.31063     0   5888  32    2   1     1        1         0    0      1 8589934592  1048576 "
        "48234496.0 POSIX      0\n"
    )
    raw = parse_ior(text, "ior_easy_write.txt")
    assert raw.contradictions == ()
    assert raw.value_low is not None and raw.value_low * 1024 == pytest.approx(219713.5)
    slower_max = text.replace("Max Write: 219713.95", "Max Write: 110861.44")
    assert parse_ior(slower_max, "ior_easy_write.txt").contradictions != ()
