"""Small lookups several rule families share."""

from __future__ import annotations

import datetime as dt

from scoring.hashes import run_timestamp, timestamp_date
from scoring.model import RunResult


def config_value(run: RunResult, section: str, key: str) -> str | None:
    """A configuration value, matching section and key case-insensitively as the application does."""
    for name, options in run.config.items():
        if name.lower() != section.lower():
            continue
        for option, value in options.items():
            if option.lower() == key.lower():
                return value.strip()
    return None


def config_source(run: RunResult) -> str:
    return run.config_source or "the configuration"


def result_header(run: RunResult) -> dict[str, str]:
    """The keys before the first phase section of result.txt (`[run]` from B4 on)."""
    header: dict[str, str] = {}
    for name, options in run.result_ini:
        if name.lower() in ("", "run"):
            for key, value in options:
                header.setdefault(key, value)
    return header


def timestamp_of(run: RunResult) -> str | None:
    """The run timestamp the application used: result-dir in result.txt, else the folder name."""
    return run_timestamp(result_header(run).get("result-dir")) or run_timestamp(run.timestamp)


def run_date(run: RunResult) -> dt.date | None:
    return timestamp_date(timestamp_of(run))
