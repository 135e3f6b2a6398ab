"""Figures the reliability tests and benchmarks leave behind for docs/reliability.md.

Each record is one small JSON file, `<topic>/<key>.json`, overwritten when the same check runs again,
so the report always shows the latest run of every check. `make reliability` clears the folder
first and renders the table with `benchmarks/reliability_report.py`.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RECORDS_DIR = Path(os.environ.get("RELIABILITY_RECORDS", REPO / "test-artifacts" / "reliability"))


def record(topic: str, key: str, **fields: Any) -> Path:
    folder = RECORDS_DIR / topic
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", key).strip("-") or "record"
    path = folder / f"{slug}.json"
    payload = {"topic": topic, "key": key, "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **fields}
    path.write_text(json.dumps(payload, indent=1, sort_keys=True, default=str))
    return path


def load_records(folder: Path = RECORDS_DIR) -> dict[str, list[dict[str, Any]]]:
    topics: dict[str, list[dict[str, Any]]] = {}
    if not folder.is_dir():
        return topics
    for path in sorted(folder.glob("*/*.json")):
        data = json.loads(path.read_text())
        topics.setdefault(data["topic"], []).append(data)
    return topics
