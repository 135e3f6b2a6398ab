"""The hardware a run is weighed against (docs/plausibility.md) as form fields: memory per client node
and the data storage devices' summed peak throughput, each an amount with a unit of the community
schema (a bare number is in the default unit). Before these fields, only a community-schema document
could declare them (Nodes.Memory.net capacity, StorageMedia.peak throughput)."""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import ValidationError

from scoring.readers.numbers import to_float
from submissions.system.document import number_and_unit
from submissions.system.schema import community_schema

# registry field -> (label, the schema's unit family, the unit of a bare number)
QUANTITY_FIELDS: dict[str, tuple[str, str, str]] = {
    "client_memory_bytes": ("memory per client node", "Byte", "GiB"),
    "storage_peak_bytes_s": ("peak throughput of all data storage devices together", "Byte/s", "GB/s"),
}
# A count beside them: the plausibility-storage finding names how many devices the ceiling sums.
DEVICE_COUNT_FIELD = "storage_device_count"
# Beyond any one client node or any storage system of 2026: a typo, refused with the limit named.
_MAXIMA = {"Byte": 2.0**50, "Byte/s": 1e15}


def quantity_help(name: str) -> str:
    _label, family, default = QUANTITY_FIELDS[name]
    example = "512 GiB" if family == "Byte" else "400 GB/s"
    return f'A number in {default}, or with its unit, e.g. "{example}".'


def quantity_text(name: str, value: float | None) -> str | None:
    """A stored amount in the field's default unit, with it ("512 GiB"); None stays None."""
    if value is None:
        return None
    _label, family, default = QUANTITY_FIELDS[name]
    return f"{value / dict(community_schema().units[family])[default]:g} {default}"


def clean_quantity(name: str, value: Any) -> float:
    """The amount in the family's base unit (bytes, bytes/s); ValidationError names what is wrong."""
    label, family, default = QUANTITY_FIELDS[name]
    units = dict(community_schema().units.get(family, ()))
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValidationError(f"The {label} must be a number with a unit of {family}.")
    if isinstance(value, str):
        parts = number_and_unit(value)
        if parts is None:
            raise ValidationError(
                f'The {label} must be a number with its unit, e.g. "10 {default}", not {value!r}.'
            )
        number, unit = to_float(parts[0]), parts[1] or default
    else:
        number, unit = float(value), default
    factor = units.get(unit) or next((f for u, f in units.items() if u.casefold() == unit.casefold()), None)
    if factor is None:
        raise ValidationError(f'The {label} has the unit "{unit}"; use one of {", ".join(units)}.')
    if number is None or not math.isfinite(number) or number <= 0:
        raise ValidationError(f"The {label} must be above 0, not {value!r}.")
    amount = number * factor
    if amount > _MAXIMA[family]:
        raise ValidationError(f"The {label} of {value!r} is beyond any system; check the unit.")
    return amount
