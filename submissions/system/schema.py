"""The IO500 community system schema (io500.org's submission system, VI4IO's site files).

A system description in that schema is a tree of typed nodes:

    {"DATA": {"type": "Site", "att": {"institution": "LRZ", ...},
              "childs": [{"type": "IO500", "att": {...}, "childs": []},
                         {"type": "StorageSystem", "att": {...}, "childs": [{"type": "Lustre", ...}]}]},
     "GRAPH": {...}}

`schema_io500.json` beside this module is the schema's field table, reduced from the upstream file
(its `source` key names the commit): for every node type its fields (dtype, unit, choices,
required) and which child types it may hold. A node type's children are the schemes nested in it
(several allowed), its `SCHEMES` (at most one each) and its `SCHEMES_multi` (several); an entry
"OSS:Servers:text" is a child named OSS that follows the Servers scheme.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).with_name("schema_io500.json")
ROOT_TYPE = "Site"


@dataclass(frozen=True)
class FieldSpec:
    name: str
    dtype: str  # string, text, url, integer, number, choice, options
    unit: str = ""  # the unit family (UNITS key), e.g. "Byte/s"; "" for none
    default_unit: str = ""
    choices: tuple[str, ...] = ()
    required: bool = False
    description: str = ""


@dataclass(frozen=True)
class ChildSpec:
    name: str  # the node's `type` as written in a document
    scheme: str  # the NodeType it follows
    multiple: bool


@dataclass
class NodeType:
    name: str
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    children: dict[str, ChildSpec] = field(default_factory=dict)

    def child(self, type_name: str) -> ChildSpec | None:
        """The child type a document names, matched without regard to case as io500.org does."""
        if type_name in self.children:
            return self.children[type_name]
        lowered = type_name.casefold()
        return next((spec for name, spec in self.children.items() if name.casefold() == lowered), None)

    def field_named(self, name: str) -> FieldSpec | None:
        if name in self.fields:
            return self.fields[name]
        lowered = name.casefold()
        return next((spec for key, spec in self.fields.items() if key.casefold() == lowered), None)


@dataclass(frozen=True)
class Schema:
    types: dict[str, NodeType]
    units: dict[str, tuple[tuple[str, float], ...]]
    source: str

    @property
    def root(self) -> NodeType:
        return self.types[ROOT_TYPE]

    def node_type(self, name: str) -> NodeType:
        """A scheme by name; a name the schema lists as a child but never defines has no fields."""
        return self.types.get(name) or NodeType(name)


def _field(name: str, spec: dict[str, Any]) -> FieldSpec:
    return FieldSpec(
        name=name,
        dtype=spec["dtype"],
        unit=spec.get("unit", ""),
        default_unit=spec.get("default-unit", ""),
        choices=tuple(spec.get("choice", ())),
        required=bool(spec.get("required")),
        description=spec.get("desc", ""),
    )


def _child_entry(entry: str, multiple: bool) -> ChildSpec:
    parts = entry.split(":")
    name = parts[0].strip()
    scheme = parts[1].strip() if len(parts) > 1 and parts[1].strip() else name
    return ChildSpec(name=name, scheme=scheme, multiple=multiple)


def _node_type(name: str, spec: dict[str, Any], types: dict[str, NodeType]) -> NodeType:
    node = NodeType(name)
    for key, value in spec.items():
        if key == "SCHEMES":
            for entry in value:
                child = _child_entry(entry, multiple=False)
                node.children[child.name] = child
        elif key == "SCHEMES_multi":
            for entry in value:
                child = _child_entry(entry, multiple=True)
                node.children[child.name] = child
        elif "dtype" in value:
            node.fields[key] = _field(key, value)
        else:
            # A scheme nested in its parent (Site.StorageSystem): a type of its own, several allowed.
            types[key] = _node_type(key, value, types)
            node.children[key] = ChildSpec(name=key, scheme=key, multiple=True)
    return node


@cache
def community_schema() -> Schema:
    raw = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    types: dict[str, NodeType] = {}
    for name, spec in raw["SCHEMES"].items():
        types[name] = _node_type(name, spec, types)
    for name, spec in raw["SYSTEM"].items():
        types[name] = _node_type(name, spec, types)
    units = {
        family: tuple((unit, float(factor)) for unit, factor in rows) for family, rows in raw["UNITS"].items()
    }
    return Schema(types=types, units=units, source=raw["source"])
