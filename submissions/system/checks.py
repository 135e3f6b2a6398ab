"""Checks that need the submitter's system description next to what the raw outputs say.

The scoring engine only sees the benchmark files; whether a run really used the client nodes that
were declared, and whether its bandwidth fits through the declared client network, needs both. The
outcome is expressed as scoring findings so it is stored and shown like every other finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.model import BW_PHASES, Finding, RunResult, Severity

TEN_NODES = 10
_GIB = 2**30


@dataclass(frozen=True)
class DeclaredSystem:
    client_nodes: int | None
    client_network_gbps: float | None


def network_ceiling_gib_s(nodes: int, gbps_per_node: float) -> float:
    """What `nodes` clients with `gbps_per_node` Gbit/s links can move at most, in GiB/s."""
    return nodes * gbps_per_node * 1e9 / 8 / _GIB


def _node_findings(run: RunResult, declared: DeclaredSystem | None, ten_node: bool) -> list[Finding]:
    findings: list[Finding] = []
    declared_nodes = declared.client_nodes if declared else None
    if run.nodes is None:
        if ten_node or declared_nodes is not None:
            findings.append(
                Finding(
                    "nodes-unknown",
                    Severity.WARNING if ten_node else Severity.INFO,
                    "The number of client nodes could not be read from the raw outputs, so the declared "
                    "node count could not be confirmed.",
                )
            )
    elif declared_nodes is not None and run.nodes != declared_nodes:
        findings.append(
            Finding(
                "nodes-mismatch",
                Severity.WARNING,
                f"The system description declares {declared_nodes} client nodes, but the raw outputs "
                f"show the benchmark ran on {run.nodes}.",
            )
        )
    if ten_node:
        if declared_nodes is not None and declared_nodes != TEN_NODES:
            findings.append(
                Finding(
                    "ten-node-declared",
                    Severity.ERROR,
                    f"The submission is for the 10-node lists, which need exactly 10 client nodes, but the "
                    f"system description declares {declared_nodes}.",
                )
            )
        if run.nodes is not None and run.nodes != TEN_NODES:
            # A warning, not an error: the run itself is valid, only its 10-node eligibility is in
            # doubt, and the tools count every process as a node when they cannot tell hosts apart.
            counted_processes = run.procs is not None and run.nodes == run.procs
            findings.append(
                Finding(
                    "ten-node-count",
                    Severity.WARNING,
                    f"The submission is for the 10-node lists, which need exactly 10 client nodes, but the "
                    f"raw outputs show the benchmark ran on {run.nodes}"
                    + (
                        f" (as many as its {run.procs} processes: the tools may have counted every "
                        "process as a node)."
                        if counted_processes
                        else "."
                    )
                    + " The committee checks the node count before the entry joins a 10-node list.",
                )
            )
    return findings


def _network_findings(run: RunResult, declared: DeclaredSystem | None) -> list[Finding]:
    if declared is None or declared.client_network_gbps is None:
        return []
    nodes = declared.client_nodes or run.nodes
    if not nodes:
        return []
    ceiling = network_ceiling_gib_s(nodes, declared.client_network_gbps)
    findings: list[Finding] = []
    for name in BW_PHASES:
        phase = run.phases.get(name)
        if phase is not None and phase.value > ceiling:
            findings.append(
                Finding(
                    "bandwidth-above-network",
                    Severity.WARNING,
                    f"{name} reached {phase.value:,.2f} GiB/s, but {nodes} client nodes with "
                    f"{declared.client_network_gbps:g} Gbit/s each can move at most {ceiling:,.2f} GiB/s; "
                    "the data may have been served from a cache or the network is declared too low.",
                    phase=name,
                )
            )
    return findings


def system_findings(run: RunResult, declared: DeclaredSystem | None, *, ten_node: bool) -> list[Finding]:
    return _node_findings(run, declared, ten_node) + _network_findings(run, declared)
