"""Checks that need the submitter's system description next to what the raw outputs say.

The scoring engine only sees the benchmark files; whether a run really used the client nodes that
were declared, and whether its bandwidth fits through the declared client network, needs both. The
outcome is expressed as scoring findings so it is stored and shown like every other finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.model import BW_PHASES, Finding, RunResult, Severity
from submissions.codes import finding

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
                finding("nodes-unknown", severity=Severity.WARNING if ten_node else Severity.INFO)
            )
    elif declared_nodes is not None and run.nodes != declared_nodes:
        findings.append(finding("nodes-mismatch", declared=declared_nodes, nodes=run.nodes))
    if ten_node:
        if declared_nodes is not None and declared_nodes != TEN_NODES:
            findings.append(finding("ten-node-declared", declared=declared_nodes))
        if run.nodes is not None and run.nodes != TEN_NODES:
            # A warning, not an error: the run itself is valid, only its 10-node eligibility is in
            # doubt, and the tools count every process as a node when they cannot tell hosts apart.
            counted_processes = run.procs is not None and run.nodes == run.procs
            ending = (
                f" (as many as its {run.procs} processes: the tools may have counted every process as a "
                "node)."
                if counted_processes
                else "."
            )
            findings.append(finding("ten-node-count", nodes=run.nodes, ending=ending))
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
                finding(
                    "bandwidth-above-network",
                    phase=name,
                    value=phase.value,
                    nodes=nodes,
                    gbps=declared.client_network_gbps,
                    ceiling=ceiling,
                )
            )
    return findings


def system_findings(run: RunResult, declared: DeclaredSystem | None, *, ten_node: bool) -> list[Finding]:
    return _node_findings(run, declared, ten_node) + _network_findings(run, declared)
