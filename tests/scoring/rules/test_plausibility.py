"""Physical plausibility (issue 27, item 2): the run against the memory, network and storage devices
its system description declares, and the random 4 KiB read against the sequential one.

Crafted cases must be flagged for the reason named; every run of the shared corpus, with what the
corpus declares, must not be (docs/plausibility.md gives the counts and reasons).
"""

from __future__ import annotations

import dataclasses

import pytest

from scoring.model import BW_PHASES, GIB_PER_S, Finding, IorVolume, RawOutput, RunResult, Severity
from scoring.rules.plausibility import (
    DeclaredFacts,
    declared_plausibility_findings,
    network_ceiling_gib_s,
    plausibility_rules,
    written_bytes,
)
from tests.scoring.corpus import readable_corpus_runs
from tests.scoring.run_builders import make_phase, make_run

GIB = 2**30
RUNNER = "io500-runner-1.0.0"


def _codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings if f.code != "plausibility-not-checked"]


def _with_written(run: RunResult, name: str, gib: float) -> RunResult:
    """The write phase `name` with IOR's own byte count, as the raw output gives it."""
    phase = run.phases[name]
    volume = IorVolume(bytes_low=gib * GIB, bytes_high=gib * GIB)
    raw = RawOutput(tool="ior", file=f"{name}.txt", ior_volume=volume)
    return dataclasses.replace(run, phases={**run.phases, name: dataclasses.replace(phase, raw=raw)})


def _runner_like(easy_gib: float, hard_gib: float, **values: float) -> RunResult:
    """A run as the bundled runner writes it on two ranks of one node: tiny files on a tmpfs."""
    run = make_run(version=RUNNER, nodes=1, procs=2)
    for name, value in values.items():
        run.phases[name] = make_phase(name, value)
    return _with_written(_with_written(run, "ior-easy-write", easy_gib), "ior-hard-write", hard_gib)


# --- data against client memory ------------------------------------------------------------------
def test_a_runner_like_run_with_data_far_below_ram_is_flagged_cache() -> None:
    # 2 ranks wrote 0.5 GiB on one node with 64 GiB of memory: every read can come from the page cache.
    run = _runner_like(0.4, 0.1, **{"ior-easy-write": 1.2, "ior-easy-read": 9.5})
    found = declared_plausibility_findings(run, DeclaredFacts(memory_per_node_bytes=64 * GIB))
    assert _codes(found) == ["plausibility-cache", "plausibility-read-above-write"]
    cache = found[0]
    assert cache.severity is Severity.WARNING
    assert "0.5 GiB per client node" in cache.message and "64.0 GiB of memory" in cache.message
    assert "IO500/io500 issue #88" in cache.message and "MLPerf Storage" in cache.message
    assert "7.9 times" in found[1].message


def test_data_below_ram_without_a_fast_read_is_flagged_cache_only() -> None:
    run = _runner_like(0.4, 0.1, **{"ior-easy-write": 1.2, "ior-easy-read": 1.5})
    found = declared_plausibility_findings(run, DeclaredFacts(memory_per_node_bytes=64 * GIB))
    assert _codes(found) == ["plausibility-cache"]


def test_data_above_ram_is_not_flagged_even_with_a_fast_read() -> None:
    # 10 nodes wrote 12 TiB: 1.2 TiB per node against 256 GiB. A fast read alone is a hint's
    # business (read-after-write-cached), not a physical impossibility.
    run = _with_written(_with_written(make_run(nodes=10), "ior-easy-write", 11_000), "ior-hard-write", 1_000)
    run.phases["ior-easy-read"] = make_phase("ior-easy-read", 40.0)
    assert _codes(declared_plausibility_findings(run, DeclaredFacts(memory_per_node_bytes=256 * GIB))) == []


def test_without_raw_byte_counts_the_data_is_bandwidth_times_time() -> None:
    run = make_run(nodes=10)  # no raw outputs: 12.49 GiB/s and 1.03 GiB/s for 400 s each
    assert written_bytes(run) == pytest.approx((12.490172 + 1.029291) * 400 * GIB)
    # 540 GiB per node is below 1 TiB of memory.
    found = declared_plausibility_findings(run, DeclaredFacts(memory_per_node_bytes=1024 * GIB))
    assert _codes(found) == ["plausibility-cache"]


# --- network --------------------------------------------------------------------------------------
def test_a_50_gib_s_claim_on_1_gbe_is_an_error() -> None:
    run = make_run(nodes=4)
    run.phases["ior-easy-write"] = make_phase("ior-easy-write", 50.0)
    found = declared_plausibility_findings(run, DeclaredFacts(client_nodes=4, network_gbps_per_node=1.0))
    network = [f for f in found if f.code == "plausibility-network"]
    assert network[0].phase == "ior-easy-write" and network[0].severity is Severity.ERROR
    assert "at most 0.47 GiB/s" in network[0].message
    # Every bandwidth phase of the builder's run (12 to 17 GiB/s, 1 to 1.7 GiB/s) is above 0.47 too.
    assert {f.phase for f in network} == set(BW_PHASES)


def test_each_finding_names_where_its_memory_and_network_came_from() -> None:
    run = _runner_like(0.4, 0.1, **{"ior-easy-write": 50.0})
    declared = DeclaredFacts(client_nodes=1, memory_per_node_bytes=64 * GIB, network_gbps_per_node=1.0)
    by_code = {f.code: f for f in declared_plausibility_findings(run, declared)}
    assert "(memory from the system description)" in by_code["plausibility-cache"].message
    assert "(network speed from the system description)" in by_code["plausibility-network"].message
    reported = "the client facts reported by the runner on 2026-11-20"
    facts = dataclasses.replace(declared, memory_source=reported, network_source=reported)
    by_code = {f.code: f for f in declared_plausibility_findings(run, facts)}
    assert f"memory from {reported}" in by_code["plausibility-cache"].message
    assert f"network speed from {reported}" in by_code["plausibility-network"].message


def test_a_network_only_the_runner_reported_is_a_warning_not_an_error() -> None:
    # The interfaces a node lists may miss an RDMA fabric: the runner's facts never decide a verdict.
    run = make_run(nodes=4)
    run.phases["ior-easy-write"] = make_phase("ior-easy-write", 50.0)
    facts = DeclaredFacts(client_nodes=4, network_gbps_per_node=1.0, network_source="the client facts")
    network = [f for f in declared_plausibility_findings(run, facts) if f.code == "plausibility-network"]
    assert network and all(f.severity is Severity.WARNING for f in network)


def test_bandwidth_within_the_network_is_not_flagged() -> None:
    run = make_run(nodes=10)  # at most 17.2 GiB/s; 10 x 200 Gbit/s carry 232.8 GiB/s
    assert network_ceiling_gib_s(10, 200) == pytest.approx(232.83, abs=0.01)
    assert _codes(declared_plausibility_findings(run, DeclaredFacts(network_gbps_per_node=200))) == []


def test_of_two_node_counts_the_network_takes_the_larger_and_the_memory_the_smaller() -> None:
    # The run shows 100 nodes, the description declares 10: 100 x 1 Gbit/s carry 11.6 GiB/s, so
    # only the phases above that are faster than any count allows.
    run = make_run(nodes=100)
    declared = DeclaredFacts(client_nodes=10, network_gbps_per_node=1.0, memory_per_node_bytes=64 * GIB)
    found = declared_plausibility_findings(run, declared)
    network = [f for f in found if f.code == "plausibility-network"]
    assert [f.phase for f in network] == ["ior-easy-write", "ior-easy-read"]
    assert "100 client node(s)" in network[0].message
    # 5.3 TiB over 10 nodes is 540 GiB each, above 64 GiB: no cache flag (over 100 it would be 54).
    assert "plausibility-cache" not in _codes(found)


# --- storage devices -------------------------------------------------------------------------------
def test_bandwidth_above_the_declared_devices_is_flagged() -> None:
    run = make_run(nodes=10)  # ior-easy-read 17.15 GiB/s
    declared = DeclaredFacts(storage_devices=4, storage_bytes_s=4 * 3 * GIB)  # 12 GiB/s together
    found = declared_plausibility_findings(run, declared)
    storage = [f for f in found if f.code == "plausibility-storage"]
    assert [f.phase for f in storage] == ["ior-easy-write", "ior-easy-read"]
    assert storage[0].severity is Severity.WARNING and "12.00 GiB/s together" in storage[0].message


# --- random 4 KiB read ---------------------------------------------------------------------------
def test_a_random_read_at_the_sequential_read_is_flagged() -> None:
    run = make_run()
    run.extra_phases["ior-rnd4K-easy-read"] = make_phase("ior-rnd4K-easy-read", 17.154349, scored=False)
    found = plausibility_rules(run)
    assert [(f.code, f.phase, f.severity) for f in found] == [
        ("plausibility-random-read", "ior-rnd4K-easy-read", Severity.WARNING)
    ]
    assert "#88" in found[0].message


def test_a_random_read_below_the_sequential_read_is_not() -> None:
    run = make_run()
    run.extra_phases["ior-rnd4K-easy-read"] = make_phase("ior-rnd4K-easy-read", 3.0, scored=False)
    assert plausibility_rules(run) == []
    assert run.extra_phases["ior-rnd4K-easy-read"].unit == GIB_PER_S


# --- what is not declared --------------------------------------------------------------------------
def test_nothing_declared_checks_nothing_and_says_so() -> None:
    run = make_run(nodes=None)
    [note] = declared_plausibility_findings(run, None)
    assert note.code == "plausibility-not-checked" and note.severity is Severity.INFO
    assert "number of client nodes is not known" in note.message
    assert "device count and peak throughput not declared" in note.message


def test_each_undeclared_value_is_named() -> None:
    [note] = declared_plausibility_findings(make_run(nodes=10), DeclaredFacts(network_gbps_per_node=400))
    assert "memory per client node not declared" in note.message
    assert "network speed not declared" not in note.message


# --- the shared corpus -------------------------------------------------------------------------------
def test_no_honest_run_of_the_shared_corpus_is_flagged() -> None:
    """With what the corpus declares (client nodes, in the raw outputs; no memory, network speed or
    device throughput anywhere in it), no run is flagged: only the note of what was not checked.
    Its 12 runs with a random 4 KiB read all read it slower than ior-easy-read (at most 0.45 times)."""
    runs = readable_corpus_runs()
    assert len(runs) >= 118
    flagged = [
        f"{where} {f.code} {f.phase}"
        for where, run in runs
        for f in [*plausibility_rules(run), *declared_plausibility_findings(run, DeclaredFacts())]
        if f.code != "plausibility-not-checked"
    ]
    assert flagged == []
    assert sum("ior-rnd4K-easy-read" in run.extra_phases for _, run in runs) == 12
    assert all(written_bytes(run) is not None for _, run in runs)


def test_the_corpus_against_generous_real_hardware_flags_only_the_runs_docs_examine() -> None:
    """Every corpus run against 64 GiB per client node and 1600 Gbit/s per client node (eight 200 Gbit/s
    links, the most any listed client carries): docs/plausibility.md examines the two runs flagged."""
    declared = DeclaredFacts(memory_per_node_bytes=64 * GIB, network_gbps_per_node=1600)
    flagged = {
        (where, f.code)
        for where, run in readable_corpus_runs()
        for f in declared_plausibility_findings(run, declared)
        if f.code != "plausibility-not-checked"
    }
    assert flagged == {
        ("submission-198/.", "plausibility-cache"),
        ("submission-663/results/2023.05.15-14.49.39", "plausibility-network"),
    }
