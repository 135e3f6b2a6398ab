"""Reading and validating the system description a submitter gives with a result.

Two forms are accepted:

* a flat object of names and values. The registry's own keys are the field names of
  `SystemDescription`; the names of the IO500 system-information file (`io500_info_client_nodes`),
  of io500.org's database (`information_client_nodes`) and of the 2017-2019 io500.sh
  (`io500_info_num_client_nodes`) are accepted as they are;
* a document in the IO500 community schema (`{"DATA": {"type": "Site", ...}}`, see
  submissions/system), as io500.org's submission system and VI4IO's tools write it.

`system_description_clean` is strict (an upload): an unknown name, an ill-typed value, a wrong unit
or a missing required field is a ValidationError naming each one, and nothing is stored.
`system_description_read` is lenient (a file found in an archive or an imported folder): it keeps
what is valid and says, in `problems`, what could not be read. Everything given is kept in `data`;
the typed fields are what the registry checks and shows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

from registry.core.text import without_bidi_controls
from scoring.readers.numbers import to_float, to_int
from submissions.json_input import clip
from submissions.system.document import (
    is_community_document,
    missing_required_messages,
    read_document,
)
from submissions.system.extract import fields_from_document
from submissions.system.files import MAX_PROBLEMS_LISTED, listed_problems
from submissions.system.hardware_fields import DEVICE_COUNT_FIELD, QUANTITY_FIELDS, clean_quantity

TEXT_FIELDS: dict[str, str] = {
    "system_name": "system name",
    "institution_name": "institution",
    "storage_vendor": "storage vendor",
    "filesystem_type": "file-system type",
    "filesystem_name": "file-system name",
    "filesystem_version": "file-system version",
    "client_os": "client operating system",
    "client_kernel": "client kernel version",
    "client_network": "client network",
    "md_devices": "metadata storage devices",
    "ds_devices": "data storage devices",
    "server_network": "server network",
}
COUNT_FIELDS: dict[str, str] = {
    "client_nodes": "number of client nodes",
    "procs_per_node": "processes per client node",
    "md_servers": "number of metadata servers",
    "ds_servers": "number of data servers",
    DEVICE_COUNT_FIELD: "number of data storage devices",
}
NETWORK_FIELD = "client_network_gbps"
# Typed fields the community schema's IO500 part adds (flat names accepted too where they exist).
SCHEMA_TEXT_FIELDS: dict[str, str] = {
    "io500_version": "IO500 version",
    "storage_media": "storage media type",
    "usage": "system usage",
}
SCHEMA_COUNT_FIELDS: dict[str, str] = {"server_nodes": "number of server nodes"}
SCHEMA_AMOUNT_FIELDS: dict[str, str] = {
    "storage_capacity_bytes": "net storage capacity (bytes)",
    "client_bandwidth_bytes_s": "aggregate client network bandwidth (bytes/s)",
    "server_bandwidth_bytes_s": "aggregate server network bandwidth (bytes/s)",
}
SCHEMA_FLAG_FIELDS: dict[str, str] = {"exclusive_usage": "exclusive use of the system for the run"}
# The registry's flat names a submitter may give one by one (upload form fields, API form fields).
FORM_FIELD_NAMES = (*TEXT_FIELDS, *COUNT_FIELDS, NETWORK_FIELD, *QUANTITY_FIELDS)
MAX_TEXT = 255
MAX_COUNT = 10_000_000
MAX_GBPS = 100_000.0

# Names of the IO500 system-information file, the io500.org database and the 2017-2019 io500.sh, by
# the field they fill (the first name given wins).
_ALIASES: dict[str, tuple[str, ...]] = {
    "system_name": ("system",),
    "institution_name": ("institution", "institute_name"),
    "storage_vendor": ("storage_vendor",),
    "filesystem_type": ("filesystem_type", "filesysem", "filesystem"),
    "filesystem_name": ("filesystem_name",),
    "filesystem_version": ("filesystem_version",),
    "client_nodes": ("client_nodes", "num_client_nodes"),
    "procs_per_node": ("client_procs_per_node",),
    "client_os": ("client_operating_system",),
    "client_kernel": ("client_kernel_version",),
    "client_network": ("client_network",),
    "md_servers": ("md_nodes", "num_metadata_server_nodes"),
    "md_devices": ("md_storage_devices", "num_metadata_storage_devices"),
    "ds_servers": ("ds_nodes", "num_data_server_nodes"),
    "ds_devices": ("ds_storage_devices", "num_data_storage_devices"),
    "server_network": ("ds_network", "md_network", "storage_network"),
    "server_nodes": ("server_nodes",),
    "usage": ("system_classification",),
    "storage_media": ("ds_storage_type", "data_storage_type"),
}
# Names of those files that fill no typed field of their own: accepted and kept in `data`.
_KEPT_NAMES = (
    "submitter",
    "include-in-io500",
    "include-in-10node",
    "URL",
    "storage_install_date",
    "storage_refresh_date",
    "storage_age_in_months",
    "client_operating_system_version",
    "client_total_procs",
    "md_storage_type",
    "md_volatile_memory_capacity",
    "md_storage_interface",
    "md_software_version",
    "md_operating_system_version",
    "md_overhead",
    "ds_volatile_memory_capacity",
    "ds_storage_interface",
    "ds_software_version",
    "ds_operating_system_version",
    "ds_overhead",
    "metadata_storage_type",
    "storage_interface",
    "whatever",
    "comment",
    "note",
    "10_node_challenge",
    "list_name",
    "identifier",
    "submission_date",
    "embargo_end_date",
    "best",
    "data",
)
_PREFIXES = ("", "io500_info_", "information_")
_TYPED_NAMES = (
    *TEXT_FIELDS,
    *COUNT_FIELDS,
    NETWORK_FIELD,
    *SCHEMA_TEXT_FIELDS,
    *SCHEMA_COUNT_FIELDS,
    *SCHEMA_AMOUNT_FIELDS,
    *SCHEMA_FLAG_FIELDS,
    *QUANTITY_FIELDS,
)
KNOWN_FLAT_NAMES = frozenset(
    prefix + name
    for prefix in _PREFIXES
    for name in (*_TYPED_NAMES, *(alias for names in _ALIASES.values() for alias in names), *_KEPT_NAMES)
)
# The server-side details a devices field sums up, by (count name, type name, interface name).
_DEVICE_DETAILS = {
    "md_devices": ("md_storage_type", "md_storage_interface"),
    "ds_devices": ("ds_storage_type", "ds_storage_interface"),
}

# Matched against the stripped text: `\s*(unit)?\s*$` around an optional unit would try every split
# of a long run of blanks.
_RATE = re.compile(
    r"^(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>(?:[kmgt](?:bit|b|bps|be)?(?:/s|ps)?)?)$", re.IGNORECASE
)
_UNIT_TO_GBPS = {"k": 1e-6, "m": 1e-3, "g": 1.0, "t": 1e3, "": 1.0}


@dataclass
class CleanSystem:
    """The typed fields, ready for `SystemDescription(**fields)`, the full data as given, and (when
    read leniently) what could not be read."""

    fields: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    format: str = "flat"  # "flat" or "community"
    problems: list[str] = field(default_factory=list)

    @property
    def identity(self) -> tuple[str, str, str] | None:
        """(system, institution, file-system type): the IO500 identity of a storage system."""
        parts = (
            self.fields.get("system_name", ""),
            self.fields.get("institution_name", ""),
            self.fields.get("filesystem_type", ""),
        )
        return parts if all(parts) else None


def flat_names_of(fields: Any) -> set[str]:
    """Every flat name (with its file prefixes) that fills one of the given typed fields."""
    return {
        prefix + candidate
        for name in fields
        for prefix in _PREFIXES
        for candidate in (name, *_ALIASES.get(name, ()))
    }


def _lookup(data: dict[str, Any], name: str) -> tuple[str, Any] | None:
    for prefix in _PREFIXES:
        for candidate in (name, *_ALIASES.get(name, ())):
            key = prefix + candidate
            if key in data and data[key] not in (None, ""):
                return key, data[key]
    return None


def _value_of(data: dict[str, Any], name: str) -> Any:
    for prefix in _PREFIXES:
        value = data.get(prefix + name)
        if value not in (None, ""):
            return value
    return None


def _clean_text(label: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValidationError(f"The {label} must be text.")
    # Bidi controls would turn the text around a name wherever it is shown (registry.core.text); the
    # description as given keeps them.
    text = without_bidi_controls(str(value)).strip()
    if len(text) > MAX_TEXT:
        raise ValidationError(f"The {label} is {len(text)} characters long; at most {MAX_TEXT} are allowed.")
    return text


def _clean_count(label: str, value: Any) -> int:
    if isinstance(value, bool):
        raise ValidationError(f"The {label} must be a whole number.")
    if isinstance(value, str):
        value = value.strip()
        # The readers' parser, not int(): int() refuses digits isdigit() passes ("²") and more than
        # 4,300 digits, and both would escape as a crash instead of this message.
        number = to_int(value) if value.isdigit() else None
        if number is None:
            raise ValidationError(f'The {label} must be a whole number, not "{value}".')
        value = number
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise ValidationError(f"The {label} must be a whole number, not {value!r}.")
    if value < 0 or value > MAX_COUNT:
        raise ValidationError(f"The {label} must be between 0 and {MAX_COUNT:,}, not {value}.")
    return value


def _clean_amount(label: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValidationError(f"The {label} must be a number.")
    # Text goes through the readers' parser, which refuses "nan", "inf" and "1_000" as everywhere else.
    amount = to_float(value) if isinstance(value, str) else float(value)
    if amount is None:
        raise ValidationError(f"The {label} must be a number, not {value!r}.")
    if not math.isfinite(amount) or amount < 0:
        raise ValidationError(f"The {label} must be a number of at least 0, not {value!r}.")
    return amount


def _clean_flag(label: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("yes", "true", "1"):
        return True
    if text in ("no", "false", "0"):
        return False
    raise ValidationError(f'The {label} must be yes or no, not "{value}".')


def parse_gbps(value: Any) -> float:
    """Per-node network bandwidth in Gbit/s from 100, "100", "100 Gbit/s", "25GbE" or "400 Mbps"."""
    label = "client network bandwidth"
    if isinstance(value, bool):
        raise ValidationError(f"The {label} must be a number of Gbit/s.")
    if isinstance(value, int | float):
        gbps = float(value)
    elif isinstance(value, str) and (match := _RATE.match(value.strip())):
        unit = match["unit"][:1].lower()
        gbps = (to_float(match["value"]) or 0.0) * _UNIT_TO_GBPS[unit]  # digits: always a number
    else:
        raise ValidationError(
            f'The {label} must be the per-node bandwidth in Gbit/s, e.g. 100 or "100 Gbit/s", not {value!r}.'
        )
    if not math.isfinite(gbps) or gbps <= 0 or gbps > MAX_GBPS:
        raise ValidationError(
            f"The {label} must be above 0 and at most {MAX_GBPS:,.0f} Gbit/s, not {gbps:g}."
        )
    return gbps


def _cleaner(name: str) -> tuple[str, Any]:
    """(label, function) that validates the value of a typed field."""
    for table, function in (
        (TEXT_FIELDS, _clean_text),
        (SCHEMA_TEXT_FIELDS, _clean_text),
        (COUNT_FIELDS, _clean_count),
        (SCHEMA_COUNT_FIELDS, _clean_count),
        (SCHEMA_AMOUNT_FIELDS, _clean_amount),
        (SCHEMA_FLAG_FIELDS, _clean_flag),
    ):
        if name in table:
            return table[name], function
    if name in QUANTITY_FIELDS:
        return QUANTITY_FIELDS[name][0], lambda _label, value: clean_quantity(name, value)
    return "client network bandwidth", lambda _label, value: parse_gbps(value)


def _combined(data: dict[str, Any], name: str, found_key: str, value: Any) -> Any:
    """A text field that its file spreads over several names (OS and its version, device count, type
    and interface), joined; a field given under the registry's own name is taken as it is."""
    if found_key == name or isinstance(value, bool) or not isinstance(value, str | int | float):
        return value
    text = str(value).strip()
    if name == "client_os":
        version = _value_of(data, "client_operating_system_version")
        if version is not None and str(version).strip() not in text:
            return f"{text} {str(version).strip()}"
    if name in _DEVICE_DETAILS:
        kind, interface = (_value_of(data, key) for key in _DEVICE_DETAILS[name])
        described = f"{text} devices" + (f": {str(kind).strip()}" if kind else "")
        if interface and str(interface).strip() != str(kind or "").strip():
            described += f" ({str(interface).strip()})"
        return described[:MAX_TEXT] if kind or interface else value
    return value


def _flat_errors(data: dict[str, Any]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for key, value in data.items():
        if key not in KNOWN_FLAT_NAMES:
            errors[key] = [
                f'"{clip(key)}" is not a field of a system description: not a name of the registry, of '
                "the IO500 system-information file or of io500.org's database (or give the whole "
                'description in the IO500 community schema, {"DATA": ...}).'
            ]
        elif isinstance(value, dict | list):
            errors[key] = [
                f'"{clip(key)}" must be a single value (text or a number), not {type(value).__name__}.'
            ]
    return errors


def _typed_from_flat(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    fields: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for name in _TYPED_NAMES:
        found = _lookup(data, name)
        if found is None:
            continue
        label, clean = _cleaner(name)
        try:
            fields[name] = clean(label, _combined(data, name, found[0], found[1]))
        except ValidationError as exc:
            errors[name] = [
                f'"{found[0]}": {message}' if found[0] != name else message for message in exc.messages
            ]
    return fields, errors


def _typed_from_document(
    data: dict[str, Any], *, strict: bool
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    reading = read_document(data)
    errors = dict(reading.errors)
    if strict:
        for path, messages in missing_required_messages(reading).items():
            errors.setdefault(path, []).extend(messages)
    fields: dict[str, Any] = {}
    for name, value in fields_from_document(reading.root).items():
        label, clean = _cleaner(name)
        try:
            fields[name] = clean(label, value)
        except ValidationError as exc:
            errors.setdefault(name, []).extend(exc.messages)
    return fields, errors


def _read(data: Any, *, strict: bool) -> tuple[CleanSystem, dict[str, list[str]]]:
    if not isinstance(data, dict):
        raise ValidationError("The system description must be a JSON object (name: value pairs).")
    if is_community_document(data):
        fields, errors = _typed_from_document(data, strict=strict)
        clean = CleanSystem(fields=fields, data=data, format="community")
    else:
        errors = _flat_errors(data)
        fields, type_errors = _typed_from_flat(data)
        for name, messages in type_errors.items():
            errors.setdefault(name, []).extend(messages)
        clean = CleanSystem(fields=fields, data=data)
    if clean.fields.get("client_nodes") == 0:
        clean.fields.pop("client_nodes")
        errors.setdefault("client_nodes", []).append("The number of client nodes must be at least 1.")
    return clean, errors


# The longest sentence an error about one field may be (a value it repeats is cut, not the whole).
MAX_MESSAGE = 1_000


def bounded_errors(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    """The errors as an answer may carry them: the first MAX_PROBLEMS_LISTED fields, each name and
    sentence cut to a bounded length, and how many more there are. Every unknown name of a 6.7 MiB
    description, repeated in full, made a 113 MiB answer."""
    shown: dict[str, list[str]] = {}
    names = list(errors)
    for name in names[:MAX_PROBLEMS_LISTED]:
        shown.setdefault(clip(name), []).extend(clip(message, MAX_MESSAGE) for message in errors[name])
    if len(names) > MAX_PROBLEMS_LISTED:
        shown["other_fields"] = [
            f"... and {len(names) - MAX_PROBLEMS_LISTED:,} more fields are wrong; they are not listed."
        ]
    return shown


def system_description_clean(data: Any, *, overrides: dict[str, Any] | None = None) -> CleanSystem:
    """Validate a system description (flat or community schema); raises ValidationError naming every
    field that is unknown or wrong. `overrides` are registry fields given one by one (form fields);
    they win over the same fields of the description."""
    clean, errors = _read(data, strict=True)
    if overrides:
        override_errors = _flat_errors(overrides)
        typed, type_errors = _typed_from_flat(overrides)
        for name, messages in {**override_errors, **type_errors}.items():
            errors.setdefault(name, []).extend(messages)
        clean.fields.update(typed)
        if clean.format == "flat":
            clean.data = {**clean.data, **overrides}
    if errors:
        raise ValidationError(bounded_errors(errors))
    return clean


def system_description_read(data: Any) -> CleanSystem:
    """What a system description holds that is valid; every other thing is named in `problems`."""
    try:
        clean, errors = _read(data, strict=False)
    except ValidationError as exc:
        return CleanSystem(data={}, problems=list(exc.messages))
    for name, messages in bounded_errors(errors).items():
        for message in messages:
            clean.problems.append(message if name in message else f"{name}: {message}")
    clean.problems = listed_problems(clean.problems)
    return clean
