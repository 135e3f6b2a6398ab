"""The facts the cross-phase physics compares, read from IOR and mdtest output of several versions."""

from __future__ import annotations

import pytest

from scoring.readers.volumes import ior_volume, mdtest_volume

IOR_31 = """IOR-3.1.0: MPI Coordinated Test of Parallel I/O
Summary:
\tapi                = POSIX
\taccess             = file-per-process
\tclients            = 16 (1 per node)
\trepetitions        = 1
\txfersize           = 4 MiB
\tblocksize          = 320 GiB
Summary of all tests:
Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt blksiz xsize aggsize API RefNum
read        12316.44   12316.44   12316.44       0.00    3079.11    3079.11    3079.11       0.00  425.68158 0 16 1 1 1 1 1 0 0 1 343597383680 4194304 5497558138880 POSIX 0
"""  # noqa: E501  (IOR's own line lengths)

IOR_34 = """IOR-3.4.0+dev: MPI Coordinated Test of Parallel I/O
api                 : {api}
access              : single-shared-file
segments            : 10000000
nodes               : 32
tasks               : 2048
repetitions         : 1
xfersize            : 47008 bytes
blocksize           : 47008 bytes
stoneWallingWearOut : 1
access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter
------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----
stonewalling pairs accessed min: 3943 max: 5556 -- min data: 0.2 GiB mean data: 0.2 GiB time: 300.1s
{warning}write     1421.72    31732      315.68      45.91      45.91      0.217008   358.58     0.005211   358.80     0
"""  # noqa: E501  (IOR's own line lengths)
MOVED = "WARNING: Using actual aggregate bytes moved = 534889365504\n"


def test_ior_31_gives_its_exact_aggregate_size_and_geometry() -> None:
    volume = ior_volume(IOR_31)
    assert (volume.bytes_low, volume.bytes_high, volume.bytes_source) == (
        5497558138880,
        5497558138880,
        "aggsize",
    )
    assert (volume.transfer_size, volume.block_size, volume.segments) == (4194304, 343597383680, 1)
    assert volume.file_per_process is True
    assert volume.pairs_max is None


def test_ior_34_gives_the_bytes_it_moved_and_its_stonewall_pairs() -> None:
    volume = ior_volume(IOR_34.format(api="POSIX", warning=MOVED))
    assert volume.bytes_low == volume.bytes_high == 534889365504
    assert (volume.pairs_min, volume.pairs_max, volume.wear_out) == (3943, 5556, True)
    assert volume.pairs_max * 2048 * volume.transfer_size == volume.bytes_low  # type: ignore[operator]
    assert (volume.nodes, volume.file_per_process) == (32, False)


def test_without_ior_byte_count_the_geometry_counts_unless_the_api_hides_the_count() -> None:
    full = ior_volume(IOR_34.format(api="POSIX", warning=""))
    assert full.bytes_source == "geometry"
    assert full.bytes_low == full.bytes_high == 2048 * 47008 * 10000000
    # IOR prints no byte count for DAOS, HDF5 and NCMPI even when the stonewall cut the phase short.
    silent = ior_volume(IOR_34.format(api="DAOS", warning=""))
    assert silent.bytes_low is None and silent.bytes_source is None


def test_aggs_mib_is_a_float_and_keeps_its_rounding_in_the_range() -> None:
    text = IOR_31.replace("aggsize", "aggs(MiB)").replace("5497558138880", "5242880.0")
    volume = ior_volume(text)
    assert volume.bytes_source == "aggs(MiB)"
    assert volume.bytes_low is not None and volume.bytes_high is not None
    assert volume.bytes_low < 5242880 * 2**20 < volume.bytes_high
    assert (volume.bytes_high - volume.bytes_low) / (5242880 * 2**20) < 1e-6


MDTEST_33 = """600 tasks, 600000000 files
Continue stonewall hit min: 7762 max: 7911 avg: 7843.1
SUMMARY rate: (of 1 iterations)
   File creation             :      14508.550      14508.541      14508.546          0.002
SUMMARY time: (of 1 iterations)
   File creation             :        327.159        327.159        327.159          0.000
"""


def test_mdtest_items_are_rate_times_time_and_the_stonewall_counts_per_rank() -> None:
    volume = mdtest_volume(MDTEST_33, "File creation")
    assert (volume.stonewall_min, volume.stonewall_max, volume.nominal_files) == (7762, 7911, 600000000)
    assert volume.items_low is not None and volume.items_high is not None
    assert volume.items_low <= 7911 * 600 <= volume.items_high
    assert volume.items_high - volume.items_low < 1e-5 * 7911 * 600


def test_mdtest_pairs_each_ranks_rate_with_its_own_time() -> None:
    # mdtest 3.3: one rank took 167.8 s, the others 61.6 s; each rank's rate is items / own time.
    text = (
        "SUMMARY rate: (of 1 iterations)\n"
        "   File read                 :      46750.641      17161.916      46503.965       2689.781\n"
        "SUMMARY time: (of 1 iterations)\n"
        "   File read                 :        167.813         61.603         62.489          9.655\n"
    )
    volume = mdtest_volume(text, "File read")
    assert volume.items_low is not None and volume.items_high is not None
    assert volume.items_low <= 2880000 <= volume.items_high
    assert (volume.items_high - volume.items_low) / 2880000 < 1e-4


def test_a_zero_mdtest_rate_beside_a_real_time_states_no_items() -> None:
    text = (
        "SUMMARY rate: (of 1 iterations)\n"
        "   File stat                       0.000          0.000          0.000          0.000\n"
        "SUMMARY time: (of 1 iterations)\n"
        "   File stat                     625.595        625.595        625.595          0.000\n"
    )
    volume = mdtest_volume(text, "File stat")
    assert volume.items_low is None and volume.items_high is None


@pytest.mark.parametrize("text", ["", "garbage\n" * 10, "stonewalling pairs accessed min: x max: y\n"])
def test_unreadable_text_gives_no_facts(text: str) -> None:
    assert ior_volume(text).bytes_low is None
    assert mdtest_volume(text, "File stat").items_low is None
