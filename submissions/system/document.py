"""Reading a system description written in the IO500 community schema (see schema.py).

Every node and value is checked against the schema: node types a parent may not hold, fields its
type does not have, values of the wrong type, units that are not units of the field's kind, choices
that are not offered, and required fields left out. Each problem is keyed by the field's path in the
notation of VI4IO's cdcl tools (`Site.StorageSystem[0].Lustre.OSS[1].count`) and says what was
found and what is expected. What is valid is kept as typed values for the registry's fields.

Values are accepted in the forms the two tools write: io500.org's editor stores numbers as strings
("1109") and quantities as [number, unit] pairs (["20", "PiB"]); the cdcl scripts write "20 PiB".
An empty string or an empty quantity is a field left blank, as the editor leaves it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.readers.numbers import to_float, to_int
from submissions.system.schema import ROOT_TYPE, FieldSpec, NodeType, Schema, community_schema

DOCUMENT_KEYS = ("DATA", "GRAPH")
NODE_KEYS = ("type", "att", "childs")
# io500.org's parser needs these three under the Site: they hold the run, the storage and the machine.
REQUIRED_CHILDREN = ("IO500", "StorageSystem", "Supercomputer")
MAX_NODES = 2_000
# A number, then its unit up to the end: the unit is that rest stripped, and holds no line break. Not
# `\s*(?P<unit>.*?)\s*$`: that lazy group before trailing blanks backtracks quadratically.
_NUMBER_AND_UNIT = re.compile(
    r"^\s*(?P<number>[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)(?P<rest>.*)\Z", re.DOTALL
)


def number_and_unit(value: str) -> tuple[str, str] | None:
    """("10", "TiB") from " 10 TiB ", or None when the text is no number followed by a unit."""
    match = _NUMBER_AND_UNIT.match(value)
    if match is None:
        return None
    unit = match["rest"].strip()
    return None if "\n" in unit else (match["number"], unit)


@dataclass(frozen=True)
class Quantity:
    """A number with its unit, and the same amount in the family's base unit (Byte, Byte/s, ...)."""

    number: float
    unit: str
    base: float

    def __str__(self) -> str:
        return f"{self.number:g} {self.unit}"


Value = str | int | float | list[str] | Quantity


@dataclass
class ReadNode:
    path: str
    type_name: str
    scheme: str
    values: dict[str, Value] = field(default_factory=dict)
    children: list[ReadNode] = field(default_factory=list)
    # Fields whose value did not pass (a choice not offered, ...), as given: a lenient reader may
    # still keep such text where the registry takes free text.
    invalid: dict[str, Any] = field(default_factory=dict)

    def text_of(self, name: str) -> Any:
        """The valid value of a field, else the text given for it when it failed its check."""
        if name in self.values:
            return self.values[name]
        given = self.invalid.get(name)
        return given.strip() if isinstance(given, str) and given.strip() else None

    def kids(self, *type_names: str) -> list[ReadNode]:
        wanted = {name.casefold() for name in type_names}
        return [child for child in self.children if child.type_name.casefold() in wanted]

    def first(self, *type_names: str) -> ReadNode | None:
        found = self.kids(*type_names)
        return found[0] if found else None

    def walk(self) -> Iterator[ReadNode]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class DocumentReading:
    root: ReadNode | None
    errors: dict[str, list[str]] = field(default_factory=dict)
    missing_required: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)


def is_community_document(data: Any) -> bool:
    """Whether a parsed JSON value is written in the community schema (it has the DATA tree)."""
    return isinstance(data, dict) and "DATA" in data


def _quoted_path(path: str) -> str:
    return f'"{path}"'


def _blank(value: Any) -> bool:
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    if isinstance(value, list) and value and all(_blank(item) for item in value[:1]):
        return True  # a quantity whose number was left empty: ["", "TiB"]
    return isinstance(value, list) and not value


def _number(text: Any, integer: bool) -> int | float | None:
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        number: int | float = text
    elif isinstance(text, str):
        # The engine's parser (finite decimals only): "1e3" is an integer count, "nan" no number.
        stripped = text.strip()
        parsed = to_int(stripped) if integer else None
        read = parsed if parsed is not None else to_float(stripped)
        if read is None:
            return None
        number = read
    else:
        return None
    if isinstance(number, float):
        if not math.isfinite(number):
            return None
        if integer:
            if not number.is_integer():
                return None
            number = int(number)
    return number


def _unit_of(schema: Schema, spec: FieldSpec, given: str) -> tuple[str, float] | None:
    family = schema.units.get(spec.unit, ())
    for unit, factor in family:
        if unit == given:
            return unit, factor
    folded = [(unit, factor) for unit, factor in family if unit.casefold() == given.casefold()]
    return folded[0] if len(folded) == 1 else None


def _read_quantity(schema: Schema, spec: FieldSpec, value: Any, path: str) -> Quantity | str:
    """A Quantity, or the sentence saying what is wrong."""
    units = ", ".join(unit for unit, _ in schema.units.get(spec.unit, ()))
    example = f'[10, "{spec.default_unit}"] or "10 {spec.default_unit}"'
    if isinstance(value, list):
        if len(value) != 2 or not isinstance(value[1], str):
            return f"{_quoted_path(path)} must be a number and its unit, e.g. {example}, not {value!r}."
        number_text, unit_text = value
    elif isinstance(value, str):
        parts = number_and_unit(value)
        if parts is None:
            return f"{_quoted_path(path)} must be a number and its unit, e.g. {example}, not {value!r}."
        number_text, unit_text = parts
    elif isinstance(value, int | float) and not isinstance(value, bool):
        return (
            f"{_quoted_path(path)} is {value!r} without a unit; give it with one of {units}, e.g. {example}."
        )
    else:
        return f"{_quoted_path(path)} must be a number and its unit, e.g. {example}, not {value!r}."
    number = _number(number_text, spec.dtype == "integer")
    if number is None:
        kind = "a whole number" if spec.dtype == "integer" else "a number"
        return f"{_quoted_path(path)} must be {kind} with its unit, not {number_text!r}."
    if number < 0:
        return f"{_quoted_path(path)} cannot be negative ({number:g})."
    if not unit_text.strip():
        return (
            f"{_quoted_path(path)} is {number:g} without a unit; give it with one of {units}, e.g. {example}."
        )
    unit = _unit_of(schema, spec, unit_text.strip())
    if unit is None:
        return (
            f'{_quoted_path(path)} has the unit "{unit_text.strip()}", which is not a unit of '
            f"{spec.unit}; use one of {units}."
        )
    return Quantity(float(number), unit[0], float(number) * unit[1])


def _read_choice(spec: FieldSpec, value: Any, path: str) -> str:
    text = (
        str(value).strip() if isinstance(value, str | int | float) and not isinstance(value, bool) else None
    )
    if text is not None:
        for choice in spec.choices:
            if choice.casefold() == text.casefold():
                return choice
    offered = ", ".join(f'"{choice}"' for choice in spec.choices)
    raise ValueError(f"{_quoted_path(path)} is {value!r}, which is not one of the choices: {offered}.")


def _read_options(spec: FieldSpec, value: Any, path: str) -> list[str]:
    if isinstance(value, str):
        items: list[Any] = [item for item in re.split(r"[;,]", value) if item.strip()]
    elif isinstance(value, list):
        items = value
    else:
        raise ValueError(
            f'{_quoted_path(path)} must list options as text ("DNE1;DNE2") or a list, not {value!r}.'
        )
    return [_read_choice(spec, item, path) for item in items]


def read_value(schema: Schema, spec: FieldSpec, value: Any, path: str) -> Value:
    """The typed value of one field; raises ValueError with a sentence that names the field."""
    if spec.unit and spec.dtype in ("number", "integer"):
        quantity = _read_quantity(schema, spec, value, path)
        if isinstance(quantity, str):
            raise ValueError(quantity)
        return quantity
    if spec.dtype in ("integer", "number"):
        number = _number(value, spec.dtype == "integer")
        if number is None:
            kind = "a whole number" if spec.dtype == "integer" else "a number"
            raise ValueError(f"{_quoted_path(path)} must be {kind}, not {value!r}.")
        if number < 0:
            raise ValueError(f"{_quoted_path(path)} cannot be negative ({number:g}).")
        return number
    if spec.dtype == "choice":
        return _read_choice(spec, value, path)
    if spec.dtype == "options":
        return _read_options(spec, value, path)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"{_quoted_path(path)} must be text, not {value!r}.")
    return str(value).strip()


def _required_check(node_type: NodeType, given: dict[str, Any], path: str, reading: DocumentReading) -> None:
    # An options field may rightly be an empty selection ("no frameworks"); being present answers it.
    missing = [
        name
        for name, spec in node_type.fields.items()
        if spec.required and not (spec.dtype == "options" and name in given) and _blank(given.get(name))
    ]
    if missing:
        reading.missing_required[path] = missing


class _Reader:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.reading = DocumentReading(root=None)
        self.count = 0

    def node(self, raw: Any, path: str, node_type: NodeType, type_name: str) -> ReadNode | None:
        self.count += 1
        if self.count > MAX_NODES:
            if self.count == MAX_NODES + 1:
                self.reading.add(
                    path, f"The document has more than {MAX_NODES:,} nodes; the rest was not read."
                )
            return None
        if not isinstance(raw, dict):
            self.reading.add(path, f"{_quoted_path(path)} must be an object with type, att and childs.")
            return None
        unknown_keys = sorted(set(raw) - set(NODE_KEYS))
        if unknown_keys:
            self.reading.add(
                path,
                f"{_quoted_path(path)} has keys the schema does not know: {', '.join(unknown_keys)} "
                "(a node has only type, att and childs).",
            )
        node = ReadNode(path=path, type_name=type_name, scheme=node_type.name)
        attributes = raw.get("att", {})
        if not isinstance(attributes, dict):
            self.reading.add(f"{path}.att", f'"{path}.att" must be an object of field names and values.')
            attributes = {}
        given: dict[str, Any] = {}
        for name, value in attributes.items():
            field_path = f"{path}.{name}"
            spec = node_type.field_named(str(name))
            if spec is None:
                known = ", ".join(node_type.fields) or "none"
                self.reading.add(
                    field_path,
                    f"{_quoted_path(field_path)} is not a field of {node_type.name} in the IO500 schema "
                    f"(its fields: {known}).",
                )
                continue
            given[spec.name] = value
            if _blank(value):
                continue
            try:
                node.values[spec.name] = read_value(self.schema, spec, value, f"{path}.{spec.name}")
            except ValueError as error:
                node.invalid[spec.name] = value
                self.reading.add(f"{path}.{spec.name}", str(error))
        _required_check(node_type, given, path, self.reading)
        self.children(raw.get("childs", []), node, node_type)
        return node

    def children(self, raw: Any, parent: ReadNode, parent_type: NodeType) -> None:
        if not isinstance(raw, list):
            self.reading.add(f"{parent.path}.childs", f'"{parent.path}.childs" must be a list of nodes.')
            return
        seen: dict[str, int] = {}
        for item in raw:
            type_name = item.get("type") if isinstance(item, dict) else None
            if not isinstance(type_name, str) or not type_name.strip():
                self.reading.add(parent.path, f"A child of {_quoted_path(parent.path)} has no type.")
                continue
            spec = parent_type.child(type_name.strip())
            if spec is None:
                allowed = ", ".join(parent_type.children)
                where = f"{parent.path}.{type_name}"
                can_hold = f"it can hold: {allowed}" if allowed else "it holds no parts"
                self.reading.add(
                    where,
                    f"{_quoted_path(where)}: {parent_type.name} has no part {type_name} in the IO500 "
                    f"schema ({can_hold}).",
                )
                continue
            index = seen.get(spec.name, 0)
            seen[spec.name] = index + 1
            if index and not spec.multiple:
                self.reading.add(
                    f"{parent.path}.{spec.name}",
                    f'"{parent.path}.{spec.name}" is given {index + 1} times; {parent_type.name} holds one.',
                )
                continue
            path = f"{parent.path}.{spec.name}[{index}]" if spec.multiple else f"{parent.path}.{spec.name}"
            child = self.node(item, path, self.schema.node_type(spec.scheme), spec.name)
            if child is not None:
                parent.children.append(child)


def read_document(data: Any, schema: Schema | None = None) -> DocumentReading:
    """Check a community-schema document and read its typed values; never raises for bad input."""
    schema = schema or community_schema()
    reader = _Reader(schema)
    reading = reader.reading
    if not is_community_document(data):
        reading.add("DATA", 'A system description in the IO500 schema is an object with a "DATA" tree.')
        return reading
    unknown = sorted(set(data) - set(DOCUMENT_KEYS))
    if unknown:
        reading.add(
            unknown[0],
            f"The document has top-level keys the schema does not know: {', '.join(unknown)} "
            "(only DATA and GRAPH).",
        )
    raw_root = data["DATA"]
    root_name = raw_root.get("type") if isinstance(raw_root, dict) else None
    if not isinstance(root_name, str) or root_name.strip().casefold() != ROOT_TYPE.casefold():
        reading.add("DATA", f'The DATA tree must start with a node of type "{ROOT_TYPE}", not {root_name!r}.')
        return reading
    reading.root = reader.node(raw_root, ROOT_TYPE, schema.root, ROOT_TYPE)
    if reading.root is not None:
        for name in REQUIRED_CHILDREN:
            if not reading.root.kids(name):
                reading.missing_required.setdefault(ROOT_TYPE, []).append(name)
    return reading


def missing_required_messages(reading: DocumentReading) -> dict[str, list[str]]:
    """The required fields (and the Site's required parts) left out, as errors keyed by path."""
    errors: dict[str, list[str]] = {}
    schema_root_children = set(REQUIRED_CHILDREN)
    for path, names in reading.missing_required.items():
        for name in names:
            where = f"{path}.{name}"
            if path == ROOT_TYPE and name in schema_root_children:
                errors.setdefault(where, []).append(
                    f'"{where}" is missing: the Site needs an {name} part in an IO500 system description.'
                )
            else:
                errors.setdefault(where, []).append(
                    f'"{where}" is required by the IO500 schema but is missing.'
                )
    return errors
