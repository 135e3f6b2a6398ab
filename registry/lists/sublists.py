"""Sublists: the entries of a published list that match the filters, ranked among themselves.

A sublist (all Lustre systems of SC24, the 10-99 node runs of ISC23, ...) keeps every entry's
official rank and adds its rank inside the sublist, in the official order, with equal official
ranks sharing one sublist rank; and it has statistics of its own. Nothing here touches the database.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

from registry.lists.facet_names import Kind, canonical

# Shares list this many names, the rest as one "other" line.
SHARE_TOP = 6
METRICS = (("score", "Score", ""), ("bw", "Bandwidth", "GiB/s"), ("md", "Metadata", "kIOPS"))
SHARE_FIELDS = (
    ("filesystem", "File systems"),
    ("storage_vendor", "Storage vendors"),
    ("reproducibility_label", "Reproducibility"),
)
NOT_STATED = "(not stated)"
# Shares count a product or company once, under its canonical name (BeeGFS and beegfs together).
SHARE_KINDS: dict[str, Kind] = {"filesystem": "filesystem", "storage_vendor": "vendor"}


def sublist_rank(rows: Sequence[MutableMapping[str, Any]]) -> None:
    """Set `sublist_rank` on every row: its place among these rows by official rank."""
    ordered = sorted(rows, key=lambda row: row["rank"] if row.get("rank") is not None else math.inf)
    previous: Any = object()
    place = 0
    for position, row in enumerate(ordered, start=1):
        if row.get("rank") != previous:
            place = position
            previous = row.get("rank")
        row["sublist_rank"] = place


def _positive(values: Iterable[Any]) -> list[float]:
    return [float(v) for v in values if isinstance(v, int | float) and math.isfinite(v) and v > 0]


def _metric(rows: Sequence[Mapping[str, Any]], key: str, label: str, unit: str) -> dict[str, Any]:
    values = _positive(row.get(key) for row in rows)
    if not values:
        return {"key": key, "label": label, "unit": unit, "count": 0}
    return {
        "key": key,
        "label": label,
        "unit": unit,
        "count": len(values),
        "best": max(values),
        "median": statistics.median(values),
        # The IO500 score is itself a geometric mean: the typical entry of a sublist is its geometric
        # mean too, not the arithmetic one that its few largest systems would dominate.
        "geometric_mean": statistics.geometric_mean(values),
        "lowest": min(values),
    }


def _shares(rows: Sequence[Mapping[str, Any]], key: str) -> list[dict[str, Any]]:
    kind = SHARE_KINDS.get(key)
    if kind is None:
        counts = Counter((str(row.get(key) or "").strip() or NOT_STATED) for row in rows)
    else:
        counts = Counter((canonical(kind, row.get(key)) or NOT_STATED) for row in rows)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0].lower()))
    shown = ranked[:SHARE_TOP]
    rest = sum(count for _, count in ranked[SHARE_TOP:])
    total = len(rows)
    shares = [
        {"name": name, "count": count, "percent": round(100 * count / total, 1)} for name, count in shown
    ]
    if rest:
        shares.append(
            {
                "name": f"{len(ranked) - SHARE_TOP} other",
                "count": rest,
                "percent": round(100 * rest / total, 1),
            }
        )
    return shares


def sublist_statistics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Count, the spread of score, bandwidth and metadata, client nodes, and the shares of file
    systems, vendors and reproducibility levels of these rows."""
    nodes = [int(v) for v in _positive(row.get("client_nodes") for row in rows)]
    return {
        "entries": len(rows),
        "metrics": [_metric(rows, key, label, unit) for key, label, unit in METRICS],
        "client_nodes": {
            "known": len(nodes),
            "lowest": min(nodes) if nodes else None,
            "median": statistics.median(nodes) if nodes else None,
            "highest": max(nodes) if nodes else None,
        },
        "shares": [
            {"key": key, "label": label, "items": _shares(rows, key)} for key, label in SHARE_FIELDS if rows
        ],
    }
