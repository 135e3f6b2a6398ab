"""Reading and validating the system-information questionnaire a submitter gives with a result.

The registry's own keys are the field names of `SystemDescription`. The names used by the IO500
tools and the old io500.org database (`io500_info_client_nodes`, `information_client_nodes`, ...) are
accepted as aliases so an existing questionnaire can be pasted as it is. Everything given is kept in
`data`; the typed fields are what the registry checks and shows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

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
}
NETWORK_FIELD = "client_network_gbps"
MAX_TEXT = 255
MAX_COUNT = 10_000_000
MAX_GBPS = 100_000.0

# Names of the IO500 system-information file and the io500.org database, by the field they fill.
_ALIASES: dict[str, tuple[str, ...]] = {
    "system_name": ("system",),
    "institution_name": ("institution",),
    "storage_vendor": ("storage_vendor",),
    "filesystem_type": ("filesystem_type",),
    "filesystem_name": ("filesystem_name",),
    "filesystem_version": ("filesystem_version",),
    "client_nodes": ("client_nodes",),
    "procs_per_node": ("client_procs_per_node",),
    "client_os": ("client_operating_system",),
    "client_kernel": ("client_kernel_version",),
    "client_network": ("client_network",),
    "md_servers": ("md_nodes",),
    "md_devices": ("md_storage_devices",),
    "ds_servers": ("ds_nodes",),
    "ds_devices": ("ds_storage_devices",),
    "server_network": ("ds_network",),
}
_PREFIXES = ("", "io500_info_", "information_")

_RATE = re.compile(
    r"^\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>(?:[kmgt](?:bit|b|bps|be)?(?:/s|ps)?)?)\s*$", re.IGNORECASE
)
_UNIT_TO_GBPS = {"k": 1e-6, "m": 1e-3, "g": 1.0, "t": 1e3, "": 1.0}


@dataclass
class CleanSystem:
    """The typed fields, ready for `SystemDescription(**fields)`, and the full data as given."""

    fields: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def identity(self) -> tuple[str, str, str] | None:
        """(system, institution, file-system type): the IO500 identity of a storage system."""
        parts = (
            self.fields.get("system_name", ""),
            self.fields.get("institution_name", ""),
            self.fields.get("filesystem_type", ""),
        )
        return parts if all(parts) else None


def _lookup(data: dict[str, Any], name: str) -> tuple[str, Any] | None:
    for prefix in _PREFIXES:
        for candidate in (name, *_ALIASES.get(name, ())):
            key = prefix + candidate
            if key in data and data[key] not in (None, ""):
                return key, data[key]
    return None


def _clean_text(label: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValidationError(f"The {label} must be text.")
    text = str(value).strip()
    if len(text) > MAX_TEXT:
        raise ValidationError(f"The {label} is {len(text)} characters long; at most {MAX_TEXT} are allowed.")
    return text


def _clean_count(label: str, value: Any) -> int:
    if isinstance(value, bool):
        raise ValidationError(f"The {label} must be a whole number.")
    if isinstance(value, str):
        value = value.strip()
        if not value.isdigit():
            raise ValidationError(f'The {label} must be a whole number, not "{value}".')
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise ValidationError(f"The {label} must be a whole number, not {value!r}.")
    if value < 0 or value > MAX_COUNT:
        raise ValidationError(f"The {label} must be between 0 and {MAX_COUNT:,}, not {value}.")
    return value


def parse_gbps(value: Any) -> float:
    """Per-node network bandwidth in Gbit/s from 100, "100", "100 Gbit/s", "25GbE" or "400 Mbps"."""
    label = "client network bandwidth"
    if isinstance(value, bool):
        raise ValidationError(f"The {label} must be a number of Gbit/s.")
    if isinstance(value, int | float):
        gbps = float(value)
    elif isinstance(value, str) and (match := _RATE.match(value)):
        unit = match["unit"][:1].lower()
        gbps = float(match["value"]) * _UNIT_TO_GBPS[unit]
    else:
        raise ValidationError(
            f'The {label} must be the per-node bandwidth in Gbit/s, e.g. 100 or "100 Gbit/s", not {value!r}.'
        )
    if not math.isfinite(gbps) or gbps <= 0 or gbps > MAX_GBPS:
        raise ValidationError(
            f"The {label} must be above 0 and at most {MAX_GBPS:,.0f} Gbit/s, not {gbps:g}."
        )
    return gbps


def system_description_clean(data: Any) -> CleanSystem:
    """Validate a questionnaire; raises ValidationError naming every field that is wrong."""
    if not isinstance(data, dict):
        raise ValidationError("The system description must be a JSON object (name: value pairs).")
    clean = CleanSystem(data=data)
    errors: dict[str, list[str]] = {}
    for name, label in TEXT_FIELDS.items():
        if (found := _lookup(data, name)) is not None:
            try:
                clean.fields[name] = _clean_text(label, found[1])
            except ValidationError as exc:
                errors[name] = exc.messages
    for name, label in COUNT_FIELDS.items():
        if (found := _lookup(data, name)) is not None:
            try:
                clean.fields[name] = _clean_count(label, found[1])
            except ValidationError as exc:
                errors[name] = exc.messages
    if (found := _lookup(data, NETWORK_FIELD)) is not None:
        try:
            clean.fields[NETWORK_FIELD] = parse_gbps(found[1])
        except ValidationError as exc:
            errors[NETWORK_FIELD] = exc.messages
    if clean.fields.get("client_nodes") == 0:
        errors.setdefault("client_nodes", []).append("The number of client nodes must be at least 1.")
    if errors:
        raise ValidationError(errors)
    return clean
