"""The client facts the bundled runner writes into the result directory (`client-facts.json`, see
runner/README.md "Client facts"): what each client node said about itself, grouped by identical nodes.

They are facts a submitter's machine reported: a declaration, not proof. The registry fills blank
description fields from them (the submitter's own entries win) and the plausibility checks use them
where the description declares nothing, each finding naming its source. A file that is not what the
runner writes, or holds absurd values, is reported as problems and never stops an ingest.

The client part is the IO500 community schema's `Site.Supercomputer.Nodes` (field names as
VI4IO/cdcl-schema-tools@487b471cd97e3bee466394c1a199a1a6c6cea88b `cdcl_add_osinfo.py` writes them),
read with the same reader as a description document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from submissions.system.document import Quantity, ReadNode, read_document

FACTS_FILE = "client-facts.json"
MAX_FACTS_BYTES = 4 * 2**20
GBIT = 1e9 / 8
# Beyond any client node built by 2026: larger values are a broken or edited file, not a machine.
MAX_MEMORY_BYTES = 2**50  # 1 PiB in one node
MAX_NIC_GBPS = 3200.0  # the schema's largest choice is 800 Gbit; four of them per interface at most


@dataclass(frozen=True)
class FoundFacts:
    path: str  # relative to the archive's top
    text: str


@dataclass
class ClientFacts:
    """What the facts file says, typed; None where it says nothing usable."""

    path: str
    collected: str = ""
    nodes: int | None = None
    # Per client node; across unequal groups the value that flags less (the smallest memory, the
    # fastest node's links), so that a flag holds for every node.
    memory_per_node_bytes: float | None = None
    network_gbps_per_node: float | None = None
    kernel: str = ""
    processor: str = ""
    filesystem: str = ""
    mount_options: str = ""
    client_version: str = ""
    problems: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str:
        when = self.collected[:10] or "an unknown date"
        return f"the client facts reported by the runner on {when} in {self.path}, a declaration, not proof"


def find_client_facts(folder: Path) -> FoundFacts | None:
    """The shallowest facts file under `folder` (a regular file, not a link)."""
    candidates = sorted(
        (p for p in folder.rglob(FACTS_FILE) if p.is_file() and not p.is_symlink()),
        key=lambda p: (len(p.parts), str(p)),
    )
    if not candidates:
        return None
    path = candidates[0]
    relative = path.relative_to(folder).as_posix()
    if path.stat().st_size > MAX_FACTS_BYTES:
        return FoundFacts(relative, "")
    return FoundFacts(relative, path.read_bytes().decode("utf-8", errors="replace"))


def _quantity(node: ReadNode, name: str) -> float | None:
    value = node.values.get(name)
    return value.base if isinstance(value, Quantity) else None


def _node_memory(node: ReadNode, facts: ClientFacts) -> float | None:
    capacities = [_quantity(memory, "net capacity") for memory in node.kids("Memory")]
    if not capacities or any(c is None or c <= 0 for c in capacities):
        return None
    total = sum(c for c in capacities if c is not None)
    if total > MAX_MEMORY_BYTES:
        facts.problems.append(
            f"{node.path}: {total / 2**40:,.0f} TiB of memory in one node is not believable."
        )
        return None
    return total


def _node_network(node: ReadNode, facts: ClientFacts) -> float | None:
    speeds = [_quantity(nic, "peak throughput") for nic in node.kids("Interconnect")]
    known = [speed / GBIT for speed in speeds if speed is not None and speed > 0]
    if not known:
        return None
    for gbps in known:
        if gbps > MAX_NIC_GBPS:
            facts.problems.append(f"{node.path}: a {gbps:,.0f} Gbit/s network interface is not believable.")
            return None
    return sum(known)


def _runner_part(data: dict[str, Any], facts: ClientFacts) -> None:
    runner = data.get("runner")
    if not isinstance(runner, dict):
        facts.problems.append('The file has no "runner" part: it was not written by the bundled runner.')
        return
    collected = runner.get("collected")
    facts.collected = collected if isinstance(collected, str) else ""
    groups = runner.get("groups")
    directories: list[dict[str, Any]] = [
        group["data directory"]
        for group in (groups if isinstance(groups, list) else [])
        if isinstance(group, dict) and isinstance(group.get("data directory"), dict)
    ]
    if directories:
        first = directories[0]
        facts.filesystem = str(first.get("file system", ""))[:128]
        facts.mount_options = str(first.get("mount options", ""))[:1024]
        facts.client_version = str(first.get("client version", ""))[:128]


def read_client_facts(found: FoundFacts) -> ClientFacts:
    """The facts file as typed values; every problem becomes a sentence, nothing raises."""
    facts = ClientFacts(path=found.path)
    if not found.text:
        facts.problems.append(f"The file is larger than {MAX_FACTS_BYTES:,} bytes and was not read.")
        return facts
    try:
        data = json.loads(found.text)
    except (ValueError, RecursionError) as exc:
        facts.problems.append(f"The file is not JSON: {exc}.")
        return facts
    if not isinstance(data, dict):
        facts.problems.append("The file is not a JSON object.")
        return facts
    facts.data = data
    _runner_part(data, facts)
    reading = read_document({"DATA": data.get("DATA")})
    facts.problems.extend(message for messages in reading.errors.values() for message in messages)
    machine = reading.root.first("Supercomputer") if reading.root is not None else None
    groups = machine.kids("Nodes") if machine is not None else []
    if not groups:
        facts.problems.append("The file describes no client nodes (Site.Supercomputer.Nodes).")
        return facts
    counts = [group.values.get("count") for group in groups]
    if all(isinstance(count, int) and count > 0 for count in counts):
        facts.nodes = sum(count for count in counts if isinstance(count, int))
    memories = [_node_memory(group, facts) for group in groups]
    if all(memory is not None for memory in memories):
        facts.memory_per_node_bytes = min(memory for memory in memories if memory is not None)
    networks = [_node_network(group, facts) for group in groups]
    if all(network is not None for network in networks):
        facts.network_gbps_per_node = max(network for network in networks if network is not None)
    facts.kernel = str(groups[0].values.get("kernel version", ""))[:255]
    processor = groups[0].first("Processor")
    facts.processor = str(processor.values.get("model", "")) if processor is not None else ""
    return facts
