"""Run configurations side by side: the one way the registry flattens and compares them (the
committee's review diff and the public compare page both use it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def flatten_config(config: Any) -> dict[str, str]:
    """{section: {key: value}} as "section.key" -> text; a value of None is the empty text; a top-level
    value that is not a section is one entry; anything but a mapping has no settings."""
    flat: dict[str, str] = {}
    if not isinstance(config, Mapping):
        return flat
    for section, entries in config.items():
        if isinstance(entries, Mapping):
            for key, value in entries.items():
                flat[f"{section}.{key}"] = "" if value is None else str(value)
        else:
            flat[str(section)] = "" if entries is None else str(entries)
    return flat


@dataclass(frozen=True)
class ConfigRow:
    key: str
    # One value per compared run: None where the run lacks the setting or has no configuration.
    values: tuple[str | None, ...]
    differs: bool


def config_table(configs: Sequence[Any]) -> list[ConfigRow]:
    """Every setting of the compared runs, with its value per run and whether the runs disagree.

    A run without a configuration (None or empty: imported history without raw files) is left out
    of the comparison; a setting missing from a run that has a configuration is a difference.
    """
    flats = [flatten_config(config) if isinstance(config, Mapping) and config else None for config in configs]
    keys = sorted({key for flat in flats if flat is not None for key in flat})
    rows = []
    for key in keys:
        values = tuple(flat.get(key) if flat is not None else None for flat in flats)
        compared = {flat.get(key) for flat in flats if flat is not None}
        rows.append(ConfigRow(key, values, len(compared) > 1))
    return rows
