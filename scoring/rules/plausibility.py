"""Physical plausibility: could the run's bandwidth have come from the system it claims to run on?

The other rules check that a run's files agree with each other; none of them sees whether the
numbers fit through the hardware. These rules compare the run's own outputs with what the system
description declares (client nodes, memory per client node, client network speed, storage devices)
and flag the classic traps: reads served from the clients' page cache because the data written fits
in their memory, a random 4 KiB read at or above the sequential read, bandwidth faster than the
client network or the declared storage devices can carry. Every threshold and its source is in
docs/plausibility.md.

`plausibility_rules` needs only the run (a rule family of `RULES`); `declared_plausibility_findings`
needs the declared system, which the registry reads from the description and passes in typed.
A value the description does not declare checks nothing: one info note says what was not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.codes import finding
from scoring.model import BW_PHASES, Finding, Phase, RunResult, Severity

GIB = 2**30
DESCRIPTION = "the system description"
GBIT = 1e9 / 8  # bytes per second in one Gbit/s
RANDOM_READ = "ior-rnd4K-easy-read"
# The data the read phases read back: what the two IOR write phases wrote and left in place.
WRITES = ("ior-easy-write", "ior-hard-write")
# ior-easy-read this many times faster than ior-easy-write, with the data below client memory, is
# flagged as read from the cache. 10 of the 118 corpus runs read at 2 times their write or more (the
# largest, 10 times, with 573 GiB per client node, far above any node's memory), so the ratio alone
# never flags; it only names the cache's effect when the memory rule already holds
# (docs/plausibility.md).
READ_OVER_WRITE = 2.0
# The bandwidth phases whose value is bytes over time through the clients' links.
LINK_PHASES = (*BW_PHASES, RANDOM_READ)


@dataclass(frozen=True)
class DeclaredFacts:
    """What the system description declares, typed, in base units; None where it declares nothing.

    `client_nodes` is the declared count; the run's own count (`RunResult.nodes`, from the raw
    outputs) is weighed against it, each check taking the one that flags less. Memory and network
    are per client node. The storage ceiling is the summed declared peak throughput of the data
    devices (`storage_devices` of them).
    """

    client_nodes: int | None = None
    memory_per_node_bytes: float | None = None
    network_gbps_per_node: float | None = None
    storage_devices: int | None = None
    storage_bytes_s: float | None = None
    # Where each per-node value came from, named in the finding: the description, or the client facts
    # the bundled runner reported (a declaration by the submitter's machine, not proof).
    memory_source: str = DESCRIPTION
    network_source: str = DESCRIPTION


def _value(run: RunResult, name: str) -> Phase | None:
    phase = run.phases.get(name) or run.extra_phases.get(name)
    return phase if phase is not None and phase.value > 0 else None


def written_bytes(run: RunResult) -> float | None:
    """Bytes the IOR write phases left for the reads: IOR's own byte count where its output is in
    the archive, else the phase's bandwidth times its time (the application's own definition of the
    value). None when neither write phase tells."""
    total = 0.0
    known = False
    for name in WRITES:
        phase = _value(run, name)
        if phase is None:
            continue
        volume = phase.raw.ior_volume if phase.raw is not None else None
        if volume is not None and volume.bytes_low is not None:
            total += volume.bytes_low
            known = True
        elif phase.time_s is not None and phase.time_s > 0:
            total += phase.value * GIB * phase.time_s
            known = True
    return total if known else None


def _random_read(run: RunResult) -> list[Finding]:
    random = _value(run, RANDOM_READ)
    sequential = _value(run, "ior-easy-read")
    if random is None or sequential is None or random.unit != sequential.unit:
        return []
    if random.value < sequential.value:
        return []
    return [
        finding(
            "plausibility-random-read",
            phase=RANDOM_READ,
            value=random.value,
            sequential=sequential.value,
            unit=random.unit,
        )
    ]


def plausibility_rules(run: RunResult) -> list[Finding]:
    """What the run alone shows: a random 4 KiB read at or above the sequential read."""
    return _random_read(run)


def _cache(run: RunResult, nodes: int, memory: float, source: str) -> list[Finding]:
    written = written_bytes(run)
    if written is None:
        return []
    per_node = written / nodes
    if per_node >= memory:
        return []
    found = [
        finding(
            "plausibility-cache",
            written=written / GIB,
            nodes=nodes,
            per_node=per_node / GIB,
            memory=memory / GIB,
            memory_source=f"memory from {source}",
        )
    ]
    write = _value(run, "ior-easy-write")
    read = _value(run, "ior-easy-read")
    if write is not None and read is not None and read.value >= READ_OVER_WRITE * write.value:
        found.append(
            finding(
                "plausibility-read-above-write",
                phase="ior-easy-read",
                read=read.value,
                write=write.value,
                ratio=read.value / write.value,
                per_node=per_node / GIB,
                memory=memory / GIB,
            )
        )
    return found


def network_ceiling_gib_s(nodes: int, gbps_per_node: float) -> float:
    """What `nodes` clients with `gbps_per_node` Gbit/s each can move at most, in GiB/s."""
    return nodes * gbps_per_node * GBIT / GIB


def _network(run: RunResult, nodes: int, gbps: float, source: str) -> list[Finding]:
    ceiling = network_ceiling_gib_s(nodes, gbps)
    found = []
    for name in LINK_PHASES:
        phase = _value(run, name)
        if phase is not None and phase.unit == "GiB/s" and phase.value > ceiling:
            found.append(
                finding(
                    "plausibility-network",
                    phase=name,
                    value=phase.value,
                    nodes=nodes,
                    gbps=gbps,
                    ceiling=ceiling,
                    gbps_source=f"network speed from {source}",
                )
            )
    if source != DESCRIPTION:
        # Only a declared network makes this an error: the interfaces a node lists may not be the
        # whole fabric (RDMA adapters without a network interface are not seen), so what the runner
        # reported is a warning for the committee, never the verdict.
        found = [replace(item, severity=Severity.WARNING) for item in found]
    return found


def _storage(run: RunResult, devices: int, total: float) -> list[Finding]:
    ceiling = total / GIB
    found = []
    for name in LINK_PHASES:
        phase = _value(run, name)
        if phase is not None and phase.unit == "GiB/s" and phase.value > ceiling:
            found.append(
                finding(
                    "plausibility-storage",
                    phase=name,
                    value=phase.value,
                    devices=devices,
                    ceiling=ceiling,
                )
            )
    return found


def _node_counts(run: RunResult, declared: DeclaredFacts) -> list[int]:
    return [count for count in (declared.client_nodes, run.nodes) if count]


def declared_plausibility_findings(run: RunResult, declared: DeclaredFacts | None) -> list[Finding]:
    """The run against the declared system; one info note names what could not be checked.

    Where the declared node count and the raw outputs' disagree (nodes-mismatch says so), each check
    takes the count that flags less: the network ceiling the larger (more links), the data per node
    the smaller (more data on each). A flag then holds whichever count is true.
    """
    declared = declared or DeclaredFacts()
    counts = _node_counts(run, declared)
    found: list[Finding] = []
    unchecked: list[str] = []
    if not counts:
        unchecked.append("everything per client node (the number of client nodes is not known)")
    else:
        if declared.memory_per_node_bytes:
            if written_bytes(run) is None:
                unchecked.append("data written against client memory (no IOR write phase tells its bytes)")
            found.extend(_cache(run, min(counts), declared.memory_per_node_bytes, declared.memory_source))
        else:
            unchecked.append("data written against client memory (memory per client node not declared)")
        if declared.network_gbps_per_node:
            found.extend(_network(run, max(counts), declared.network_gbps_per_node, declared.network_source))
        else:
            unchecked.append("bandwidth against the client network (network speed not declared)")
    if declared.storage_devices and declared.storage_bytes_s:
        found.extend(_storage(run, declared.storage_devices, declared.storage_bytes_s))
    else:
        unchecked.append(
            "bandwidth against the storage devices (device count and peak throughput not declared)"
        )
    if unchecked:
        found.append(finding("plausibility-not-checked", what="; ".join(unchecked)))
    return found
