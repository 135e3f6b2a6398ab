"""A system description shaped for reading: grouped as the IO500 community schema groups it.

Two views are made. The registry's typed fields are placed in the schema's parts (Site, IO500,
StorageSystem with its metadata and data servers, Supercomputer with its client Nodes), each value
with the schema's name for it and, when it did not come from the description itself, where it came
from. A community-schema document, given or found in the archive, is shown whole as its tree of
parts, each value as given and marked when the schema does not accept it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from submissions.models import SystemDescription
from submissions.system.description import flat_names_of
from submissions.system.document import is_community_document, read_document
from submissions.system.schema import NodeType, community_schema

# What the page shows of a description a submitter wrote (a 1 MiB system.json made a 24 MiB page):
# the real ones of the corpus have at most 235 fields and no value longer than a sentence. The whole
# description stays in the archive and in the API's answer, which the page links to.
MAX_SHOWN_CHARS = 300
MAX_SHOWN_FIELDS = 400
MAX_PROBLEMS_SHOWN = 50

_BINARY_STEPS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
_DECIMAL_STEPS = ("B", "KB", "MB", "GB", "TB", "PB", "EB")


@dataclass
class ShownField:
    label: str
    value: str
    schema_name: str = ""  # the field's name in the IO500 schema, when the label is the registry's
    source: str = ""  # where the value came from, when not from the description itself
    description: str = ""  # the schema's explanation of the field
    problem: str = ""  # why the schema does not accept the value as given
    full_bytes: int = 0  # the size of the whole value (or name) when the page shows only its start


def _cut(text: str) -> tuple[str, int]:
    """(what the page shows of a text, its whole size in bytes when that is more)."""
    if len(text) <= MAX_SHOWN_CHARS:
        return text, 0
    return f"{text[:MAX_SHOWN_CHARS]}…", len(text.encode("utf-8", "surrogatepass"))


def _field(label: str, value: str, **details: str) -> ShownField:
    """A field of the given description, its name and value cut to what the page shows."""
    shown_label, label_bytes = _cut(label)
    shown_value, value_bytes = _cut(value)
    return ShownField(
        label=shown_label, value=shown_value, full_bytes=max(label_bytes, value_bytes), **details
    )


@dataclass
class Budget:
    """How many more fields and parts the page shows; what is left out is counted."""

    left: int = MAX_SHOWN_FIELDS
    left_out: int = 0
    cut: int = 0  # fields shown only in part

    def take(self) -> bool:
        if self.left > 0:
            self.left -= 1
            return True
        self.left_out += 1
        return False


@dataclass
class ShownGroup:
    title: str
    fields: list[ShownField] = field(default_factory=list)
    children: list[ShownGroup] = field(default_factory=list)
    description: str = ""

    @property
    def is_empty(self) -> bool:
        return not self.fields and all(child.is_empty for child in self.children)


@dataclass
class ShownDescription:
    groups: list[ShownGroup]
    other: list[ShownGroup]  # flat names given that no typed field shows, one group per source
    document: list[ShownGroup]  # the whole community-schema document, when there is one
    document_source: str
    problems: list[str]
    origin: str
    left_out: int = 0  # fields and parts of the description the page does not show
    cut: int = 0  # fields the page shows only the start of


def _binary(amount: float, suffix: str = "") -> str:
    step = 0
    while amount >= 1024 and step < len(_BINARY_STEPS) - 1:
        amount /= 1024
        step += 1
    return f"{amount:,.4g} {_BINARY_STEPS[step]}{suffix}"


def _decimal(amount: float, suffix: str = "") -> str:
    step = 0
    while amount >= 1000 and step < len(_DECIMAL_STEPS) - 1:
        amount /= 1000
        step += 1
    return f"{amount:,.4g} {_DECIMAL_STEPS[step]}{suffix}"


def _shown(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.6g}"
    return str(value)


def _bytes(value: Any) -> str:
    return _binary(value) if value is not None else ""


def _bytes_per_second(value: Any) -> str:
    # Network bandwidth is quoted in decimal units (GB/s), as the schema's own examples are.
    return _decimal(value, "/s") if value is not None else ""


def _gbps(value: Any) -> str:
    return f"{value:g} Gbit/s" if value else ""


# (schema field name, registry field, label, how to show the value), by schema part, in its order.
_PLACES: dict[str, list[tuple[str, str, str, Any]]] = {
    "Site": [("institution", "institution_name", "Institution", _shown)],
    "IO500": [
        ("version", "io500_version", "IO500 version", _shown),
        ("number_clientNodes", "client_nodes", "Client nodes", _shown),
        ("procsPerNode", "procs_per_node", "Processes per node", _shown),
        ("number_serverNodes", "server_nodes", "Server nodes", _shown),
        ("storage type", "storage_media", "Storage media", _shown),
        ("storage net capacity", "storage_capacity_bytes", "Net capacity", _bytes),
        (
            "clients network bandwidth",
            "client_bandwidth_bytes_s",
            "Client network, all nodes",
            _bytes_per_second,
        ),
        (
            "servers network bandwidth",
            "server_bandwidth_bytes_s",
            "Server network, all nodes",
            _bytes_per_second,
        ),
        ("type of filesystem", "filesystem_type", "File-system type", _shown),
        ("exclusive_cluster_usage", "exclusive_usage", "System used only by the run", _shown),
    ],
    "StorageSystem": [
        ("name", "filesystem_name", "File-system name", _shown),
        ("vendor", "storage_vendor", "Storage vendor", _shown),
        ("version", "filesystem_version", "File-system version", _shown),
        ("usage", "usage", "Usage", _shown),
    ],
    "Metadata servers": [
        ("count", "md_servers", "Metadata servers", _shown),
        ("StorageMedia", "md_devices", "Devices", _shown),
    ],
    "Data servers": [
        ("count", "ds_servers", "Data servers", _shown),
        ("StorageMedia", "ds_devices", "Devices", _shown),
        ("Interconnect", "server_network", "Network", _shown),
        ("StorageMedia", "storage_device_count", "Devices with a declared peak throughput", _shown),
        ("peak throughput", "storage_peak_bytes_s", "Peak throughput of those devices", _bytes_per_second),
    ],
    "Supercomputer": [("name", "system_name", "System name", _shown)],
    "Nodes": [
        ("distribution", "client_os", "Client operating system", _shown),
        ("kernel version", "client_kernel", "Kernel", _shown),
        ("Interconnect", "client_network", "Client network", _shown),
        ("speed", "client_network_gbps", "Bandwidth per node", _gbps),
        ("Memory", "client_memory_bytes", "Memory per node", _bytes),
    ],
}
_SCHEME_OF_PART = {"Metadata servers": "Servers", "Data servers": "Servers"}
_REGISTRY_FIELDS = {registry for places in _PLACES.values() for _, registry, _, _ in places}


def _description_of(part: str, name: str) -> str:
    node = community_schema().types.get(_SCHEME_OF_PART.get(part, part))
    spec = node.fields.get(name) if node else None
    return spec.description if spec else ""


def _part(description: SystemDescription, part: str) -> ShownGroup:
    group = ShownGroup(title=part)
    for name, registry, label, show in _PLACES[part]:
        text = show(getattr(description, registry))
        if text:
            group.fields.append(
                ShownField(
                    label=label,
                    schema_name=name,
                    value=text,
                    source=str(description.field_sources.get(registry, "")),
                    description=_description_of(part, name),
                )
            )
    return group


def _typed_groups(description: SystemDescription) -> list[ShownGroup]:
    site = _part(description, "Site")
    storage = _part(description, "StorageSystem")
    storage.children = [_part(description, "Metadata servers"), _part(description, "Data servers")]
    machine = _part(description, "Supercomputer")
    machine.children = [_part(description, "Nodes")]
    site.children = [_part(description, "IO500"), storage, machine]
    return [site]


def _other_fields(data: Any, budget: Budget) -> list[ShownField]:
    if not isinstance(data, dict) or is_community_document(data):
        return []
    shown = flat_names_of(_REGISTRY_FIELDS)
    fields = [
        _field(str(name), _shown(value))
        for name, value in data.items()
        if name not in shown and _shown(value) and budget.take()
    ]
    budget.cut += sum(1 for field in fields if field.full_bytes)
    return fields


def _raw_text(value: Any) -> str:
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(item, str | int | float) for item in value):
            return f"{value[0]} {value[1]}".strip()
        return "; ".join(str(item) for item in value)
    return _shown(value)


def _document_group(
    raw: dict[str, Any],
    path: str,
    node_type: NodeType | None,
    errors: dict[str, list[str]],
    budget: Budget,
) -> ShownGroup:
    title, _ = _cut(str(raw.get("type", "?")))
    group = ShownGroup(title=title)
    given = raw.get("att")
    attributes: dict[str, Any] = given if isinstance(given, dict) else {}
    for name, value in attributes.items():
        text = _raw_text(value)
        if not text or not budget.take():
            continue
        spec = node_type.field_named(str(name)) if node_type else None
        field_path = f"{path}.{spec.name if spec else name}"
        group.fields.append(
            _field(
                str(name),
                text,
                description=spec.description if spec else "",
                problem=_cut(" ".join(errors.get(field_path, [])))[0],
            )
        )
        budget.cut += 1 if group.fields[-1].full_bytes else 0
    counts: dict[str, int] = {}
    for child in raw.get("childs", []) if isinstance(raw.get("childs"), list) else []:
        if not isinstance(child, dict) or not budget.take():
            continue
        child_name = str(child.get("type", ""))
        child_spec = node_type.child(child_name) if node_type else None
        if child_spec is None:
            shown = _document_group(child, f"{path}.{child_name}", None, errors, budget)
            shown.description = _cut(" ".join(errors.get(f"{path}.{child_name}", [])))[0]
        else:
            index = counts.get(child_spec.name, 0)
            counts[child_spec.name] = index + 1
            child_path = (
                f"{path}.{child_spec.name}[{index}]" if child_spec.multiple else f"{path}.{child_spec.name}"
            )
            scheme = community_schema().node_type(child_spec.scheme)
            shown = _document_group(child, child_path, scheme, errors, budget)
            if child_spec.name != child_spec.scheme:
                shown.description = child_spec.scheme
        if not shown.is_empty or shown.description:
            group.children.append(shown)
    return group


def _document_groups(document: dict[str, Any], budget: Budget) -> list[ShownGroup]:
    if not is_community_document(document) or not isinstance(document.get("DATA"), dict):
        return []
    reading = read_document(document)
    return [_document_group(document["DATA"], "Site", community_schema().root, reading.errors, budget)]


def system_description_shown(description: SystemDescription | None) -> ShownDescription | None:
    if description is None:
        return None
    document, document_source = {}, ""
    if is_community_document(description.data):
        document, document_source = description.data, description.origin
    elif is_community_document(description.archive_data):
        document = description.archive_data
        document_source = f"archive file {_cut(description.archive_file)[0]}"
    budget = Budget()
    other = [
        group
        for group in (
            ShownGroup(
                title=f"Given through {_cut(description.origin)[0] or 'the description'}",
                fields=_other_fields(description.data, budget),
            ),
            ShownGroup(
                title=f"In the archive file {_cut(description.archive_file)[0]}",
                fields=_other_fields(description.archive_data, budget),
            ),
        )
        if group.fields
    ]
    document_groups = _document_groups(document, budget)
    problems = [str(problem) for problem in description.problems]
    return ShownDescription(
        groups=[group for group in _typed_groups(description) if not group.is_empty],
        other=other,
        document=document_groups,
        document_source=document_source,
        problems=[_cut(problem)[0] for problem in problems[:MAX_PROBLEMS_SHOWN]],
        origin=_cut(description.origin)[0],
        left_out=budget.left_out + max(0, len(problems) - MAX_PROBLEMS_SHOWN),
        cut=budget.cut,
    )
