"""Checks that need the submitter's system description next to what the raw outputs say.

The scoring engine only sees the benchmark files; whether a run really used the client nodes that
were declared, and whether its data and bandwidth fit the declared clients' memory, network and
storage devices, needs both. The node checks are the registry's (submissions/codes.py); the
physical plausibility is the scoring engine's (scoring/rules/plausibility.py), handed the declared
values typed. The outcome is expressed as scoring findings so it is stored and shown like every
other finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.model import Finding, RunResult, Severity
from scoring.rules.plausibility import DESCRIPTION, DeclaredFacts, declared_plausibility_findings
from submissions.codes import finding

TEN_NODES = 10


@dataclass(frozen=True)
class DeclaredSystem:
    client_nodes: int | None
    client_network_gbps: float | None  # per client node
    client_memory_bytes: float | None = None  # per client node
    storage_devices: int | None = None  # the data devices declared with their peak throughput
    storage_bytes_s: float | None = None  # their summed peak throughput
    memory_source: str = DESCRIPTION  # where the memory and network values came from
    network_source: str = DESCRIPTION


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


def _plausibility_findings(run: RunResult, declared: DeclaredSystem | None) -> list[Finding]:
    if declared is None:
        return declared_plausibility_findings(run, None)
    facts = DeclaredFacts(
        client_nodes=declared.client_nodes,
        memory_per_node_bytes=declared.client_memory_bytes,
        network_gbps_per_node=declared.client_network_gbps,
        storage_devices=declared.storage_devices,
        storage_bytes_s=declared.storage_bytes_s,
        memory_source=declared.memory_source,
        network_source=declared.network_source,
    )
    return declared_plausibility_findings(run, facts)


def system_findings(run: RunResult, declared: DeclaredSystem | None, *, ten_node: bool) -> list[Finding]:
    return _node_findings(run, declared, ten_node) + _plausibility_findings(run, declared)
