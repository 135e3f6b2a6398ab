"""The registry's typed fields (SystemDescription) from a community-schema document.

Which schema field fills which registry field follows io500.org's own reader of these documents
(its `information_*` columns): the Site's institution, the Supercomputer's name, the IO500 part's
counts, the StorageSystem's name, vendor, version and software, the compute Nodes' distribution,
kernel and interconnect, and the server counts and media of the file system's server roles.
"""

from __future__ import annotations

from typing import Any

from scoring.readers.numbers import to_float
from submissions.system.document import Quantity, ReadNode

GBIT = 1e9 / 8  # bytes per second in one Gbit/s
# The child types that hold a file system's servers, by role; DAOS, Weka and NAS servers do both.
METADATA_ROLES = ("MDS", "Metadata Server", "Metadata Servers")
DATA_ROLES = ("OSS", "OSD", "Storage Server", "Data Servers", "Servers")
MAX_TEXT = 255


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ";".join(str(item) for item in value)
    return str(value).strip()


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _joined(*parts: Any) -> str:
    return " ".join(text for part in parts if (text := _text(part)))


def _role_servers(storage: ReadNode, roles: tuple[str, ...]) -> list[ReadNode]:
    """The server nodes of the given roles anywhere under the storage system's file-system part.

    SpectrumScale wraps them once more ("Data Servers" holds a Servers node), hence the descent."""
    found: list[ReadNode] = []
    for node in storage.walk():
        if node is storage:
            continue
        for role in node.kids(*roles):
            inner = role.kids("Servers")
            found.extend(inner if inner and "count" not in role.values else [role])
    return found


def _count(nodes: list[ReadNode]) -> int | None:
    counts = [node.values["count"] for node in nodes if isinstance(node.values.get("count"), int)]
    return sum(counts) if counts else None  # type: ignore[arg-type]


def _media(nodes: list[ReadNode]) -> str:
    described = []
    for server in nodes:
        for media in server.kids("StorageMedia"):
            values = media.values
            kind = _joined(values.get("vendor"), values.get("model"), values.get("type"))
            interface = _text(values.get("interface"))
            capacity = values.get("net capacity")
            text = _joined(f"{values['count']} x" if "count" in values else "", kind)
            extras = ", ".join(part for part in (interface, str(capacity) if capacity else "") if part)
            described.append(f"{text} ({extras})" if extras else text)
    return _short("; ".join(part for part in described if part))


def _network(nodes: list[ReadNode]) -> str:
    names = []
    for node in nodes:
        for link in node.kids("Interconnect"):
            text = _joined(link.values.get("type"), link.values.get("speed"))
            if text and text not in names:
                names.append(text)
    return _short(", ".join(names))


def _speed_gbps(speed: Any) -> float | None:
    """'100 Gbit' -> 100.0, '100 Mbit' -> 0.1 (the schema's Interconnect speed choices)."""
    text = _text(speed)
    number, _, unit = text.partition(" ")
    value = to_float(number)  # finite decimals only: "nan Gbit" is no speed
    if value is None:
        return None
    return value / 1000 if unit.lower().startswith("mbit") else value


def _io500_part(io500: ReadNode, fields: dict[str, Any]) -> None:
    values = io500.values
    direct = {
        "number_clientNodes": "client_nodes",
        "procsPerNode": "procs_per_node",
        "number_serverNodes": "server_nodes",
        "version": "io500_version",
        "storage type": "storage_media",
        "type of filesystem": "filesystem_type",
    }
    for name, target in direct.items():
        if name in values:
            fields[target] = values[name]
    quantities = {
        "storage net capacity": "storage_capacity_bytes",
        "clients network bandwidth": "client_bandwidth_bytes_s",
        "servers network bandwidth": "server_bandwidth_bytes_s",
    }
    for name, target in quantities.items():
        quantity = values.get(name)
        if isinstance(quantity, Quantity):
            fields[target] = quantity.base
    if "exclusive_cluster_usage" in values:
        fields["exclusive_usage"] = values["exclusive_cluster_usage"] == "yes"


def _storage_part(storage: ReadNode, fields: dict[str, Any]) -> None:
    values = storage.values
    for name, target in {
        "name": "filesystem_name",
        "version": "filesystem_version",
        "vendor": "storage_vendor",
        "usage": "usage",
    }.items():
        if name in values:
            fields.setdefault(target, _short(_text(values[name])))
    if "software" in values:
        fields.setdefault("filesystem_type", _short(_text(values["software"])))
    capacity = values.get("net capacity")
    if isinstance(capacity, Quantity):
        fields.setdefault("storage_capacity_bytes", capacity.base)
    metadata = _role_servers(storage, METADATA_ROLES)
    data = [node for node in _role_servers(storage, DATA_ROLES) if node not in metadata]
    for role_nodes, count_field, media_field in (
        (metadata, "md_servers", "md_devices"),
        (data, "ds_servers", "ds_devices"),
    ):
        if (count := _count(role_nodes)) is not None:
            fields[count_field] = count
        if media := _media(role_nodes):
            fields[media_field] = media
    if network := _network(data or metadata):
        fields["server_network"] = network


def _client_part(nodes: ReadNode, fields: dict[str, Any]) -> None:
    values = nodes.values
    if os_text := _joined(nodes.text_of("distribution"), values.get("distribution version")):
        fields["client_os"] = _short(os_text)
    if "kernel version" in values:
        fields["client_kernel"] = _short(_text(values["kernel version"]))
    if network := _network([nodes]):
        fields["client_network"] = network
    link = nodes.first("Interconnect")
    if link is not None and (gbps := _speed_gbps(link.values.get("speed"))):
        links = link.values.get("links")
        fields["client_network_gbps"] = gbps * (links if isinstance(links, int) and links > 0 else 1)


def fields_from_document(root: ReadNode | None) -> dict[str, Any]:
    """SystemDescription field name -> value, for what the document holds validly."""
    fields: dict[str, Any] = {}
    if root is None:
        return fields
    if "institution" in root.values:
        fields["institution_name"] = _short(_text(root.values["institution"]))
    if (io500 := root.first("IO500")) is not None:
        _io500_part(io500, fields)
    if (storage := root.first("StorageSystem")) is not None:
        _storage_part(storage, fields)
    if (machine := root.first("Supercomputer")) is not None:
        if "name" in machine.values:
            fields["system_name"] = _short(_text(machine.values["name"]))
        if (nodes := machine.first("Nodes")) is not None:
            _client_part(nodes, fields)
    total = fields.get("client_bandwidth_bytes_s")
    nodes_count = fields.get("client_nodes")
    if total and nodes_count:
        # The aggregate the submitter measured for the benchmark's clients beats a link's nominal speed.
        fields["client_network_gbps"] = total / nodes_count / GBIT
    return fields


def _base(node: ReadNode, name: str) -> float | None:
    quantity = node.values.get(name)
    return quantity.base if isinstance(quantity, Quantity) and quantity.base > 0 else None


def client_memory_bytes(root: ReadNode | None) -> float | None:
    """The memory of one client node: the Memory parts of the Supercomputer's Nodes that ran the
    benchmark (the IO500 part's `nodeTypeName`, else the first Nodes), summed; the schema's Nodes
    describe one node of their kind (`count` says how many), and a node may hold several kinds of
    memory (DDR and HBM, ...). None when any of them leaves its capacity out."""
    if root is None or (machine := root.first("Supercomputer")) is None:
        return None
    kinds = machine.kids("Nodes")
    io500 = root.first("IO500")
    wanted = _text(io500.values.get("nodeTypeName")) if io500 is not None else ""
    nodes = next((kind for kind in kinds if wanted and _text(kind.values.get("name")) == wanted), None)
    nodes = nodes or (kinds[0] if kinds else None)
    memories = nodes.kids("Memory") if nodes is not None else []
    capacities = [_base(memory, "net capacity") for memory in memories]
    if not capacities or any(capacity is None for capacity in capacities):
        return None
    return sum(capacity for capacity in capacities if capacity is not None)


def storage_devices(root: ReadNode | None) -> tuple[int, float] | None:
    """(device count, their summed peak bytes/s) of the file system's data servers' media, when
    every medium declares its count and peak throughput; None otherwise.

    The schema defines a medium's count as the devices "in one server", so it is multiplied by its
    server node's count (the Servers part describes one server of the kind).
    """
    if root is None or (storage := root.first("StorageSystem")) is None:
        return None
    metadata = _role_servers(storage, METADATA_ROLES)
    servers = [node for node in _role_servers(storage, DATA_ROLES) if node not in metadata] or metadata
    count = 0
    total = 0.0
    for server in servers:
        servers_of_kind = server.values.get("count")
        multiplier = servers_of_kind if isinstance(servers_of_kind, int) and servers_of_kind > 0 else 1
        for media in server.kids("StorageMedia"):
            media_count = media.values.get("count")
            speed = _base(media, "peak throughput")
            if not isinstance(media_count, int) or media_count <= 0 or speed is None:
                return None
            count += multiplier * media_count
            total += multiplier * media_count * speed
    return (count, total) if count else None
