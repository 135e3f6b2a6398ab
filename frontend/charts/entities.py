"""Sites (institutions), vendors and file systems as entities across releases: every list entry of a
published list grouped by its canonical name (registry.lists.facet_names), with a best-score chart.

One query loads every published entry; the grouping is cached under the chart generation, so a list
change rebuilds it and an entity page costs no query on a hit. The grouped rows of the generation are
also kept in the process: hundreds of entity pages, each cold, would otherwise each read every
published entry back from the cache and group it again.
"""

from __future__ import annotations

from typing import Any, Literal

from django.db.models import F

from frontend.charts.cache import charts_cached
from frontend.charts.selectors import ENTRY_FIELDS
from frontend.charts.shapes import release_trends
from registry.core.generations import charts_generation
from registry.lists.facet_names import canonical, slug
from registry.models import MAIN_KINDS, ListEntry, ListKind, ListSnapshot
from submissions.selectors import release_out_of_embargo_q

EntityKind = Literal["institution", "vendor", "filesystem"]
# URL part and the words a page uses, per kind.
ENTITY_KINDS: dict[EntityKind, dict[str, str]] = {
    "institution": {"path": "sites", "title": "Sites", "one": "Site"},
    "vendor": {"path": "vendors", "title": "Storage vendors", "one": "Storage vendor"},
    "filesystem": {"path": "file-systems", "title": "File systems", "one": "File system"},
}
MAIN_KIND_VALUES = frozenset(kind.value for kind in MAIN_KINDS)
RECONSTRUCTED = ListSnapshot.Provenance.RECONSTRUCTED.value
KIND_LABELS = dict(ListKind.choices)
PROVENANCE_LABELS = dict(ListSnapshot.Provenance.choices)
# The short word a table cell shows; the full label is its title.
PROVENANCE_WORDS = {
    ListSnapshot.Provenance.RECORDED.value: "io500.org",
    ListSnapshot.Provenance.RECONSTRUCTED.value: "reconstructed here",
    ListSnapshot.Provenance.PUBLISHED_HERE.value: "published here",
}


def _published_rows() -> list[dict[str, Any]]:
    entries = ListEntry.objects.filter(
        release_out_of_embargo_q("snapshot__"), snapshot__status=ListSnapshot.Status.PUBLISHED
    ).order_by("snapshot__release__publication_date", "snapshot__kind", "rank")
    return list(
        entries.annotate(
            **ENTRY_FIELDS,
            provenance=F("snapshot__provenance"),
            version=F("snapshot__version"),
            list_label=F("snapshot__label"),
        ).values(
            "rank", "score", "bw", "md", "submission_id", "provenance", "version", "list_label", *ENTRY_FIELDS
        )
    )


def entry_rows() -> list[dict[str, Any]]:
    """Every entry of every published list, oldest release first, with its list's kind and provenance."""
    return charts_cached("entity-rows", (), _published_rows)


def _group(kind: EntityKind, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        name = canonical(kind, row.get(kind))
        if not name:
            continue
        key = slug(name)
        group = groups.setdefault(key, {"name": name, "slug": key, "rows": [], "spellings": set()})
        group["rows"].append(row)
        group["spellings"].add((row.get(kind) or "").strip())
    return groups


# (chart generation, kind) -> the groups of that kind; only the present generation is kept.
_GROUPS_OF_GENERATION: dict[tuple[int, EntityKind], dict[str, dict[str, Any]]] = {}


def _groups(kind: EntityKind) -> dict[str, dict[str, Any]]:
    key = (charts_generation(), kind)
    groups = _GROUPS_OF_GENERATION.get(key)
    if groups is None:
        # pop: another thread of the web process may have dropped the same stale key already.
        for stale in [old for old in list(_GROUPS_OF_GENERATION) if old[0] != key[0]]:
            _GROUPS_OF_GENERATION.pop(stale, None)
        groups = _GROUPS_OF_GENERATION[key] = _group(kind, entry_rows())
    return groups


def entity_index(kind: EntityKind) -> list[dict[str, Any]]:
    """Each entity of this kind: name, slug, entries, systems, releases and best score (by name)."""

    def build() -> list[dict[str, Any]]:
        found = []
        for group in _groups(kind).values():
            rows = group["rows"]
            scores = [row["score"] for row in rows if row["score"]]
            found.append(
                {
                    "name": group["name"],
                    "slug": group["slug"],
                    "entries": len(rows),
                    "systems": len({row["system_id"] for row in rows}),
                    "releases": len({row["release"] for row in rows}),
                    "best": max(scores, default=None),
                }
            )
        return sorted(found, key=lambda item: item["name"].casefold())

    return charts_cached("entity-index", (kind,), build)


def entity_detail(kind: EntityKind, key: str) -> dict[str, Any] | None:
    """One entity's entries (newest release first), systems, recorded spellings and per-release best."""

    def build() -> dict[str, Any] | None:
        group = _groups(kind).get(key)
        if group is None:
            return None
        rows = group["rows"]
        entries = [
            {
                **row,
                "kind_label": KIND_LABELS.get(row["kind"], row["kind"]),
                "provenance_label": PROVENANCE_LABELS.get(row["provenance"], row["provenance"]),
                "provenance_word": PROVENANCE_WORDS.get(row["provenance"], row["provenance"]),
            }
            for row in reversed(rows)
        ]
        systems: dict[int, dict[str, Any]] = {}
        for row in rows:
            system = systems.setdefault(
                row["system_id"], {"id": row["system_id"], "name": row["system"], "best": None, "entries": 0}
            )
            system["entries"] += 1
            if row["score"] and (system["best"] is None or row["score"] > system["best"]):
                system["best"] = row["score"]
        return {
            "kind": kind,
            "name": group["name"],
            "slug": group["slug"],
            "spellings": sorted(group["spellings"], key=lambda s: (s.casefold(), s)),
            "entries": entries,
            "systems": sorted(systems.values(), key=lambda s: (-(s["best"] or 0), s["name"])),
            "trends": _trends(rows),
            "submissions": len({row["submission_id"] for row in rows}),
        }

    return charts_cached("entity-detail", (kind, key), build)


def _trends(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The best (and median) score per release of this entity's entries on the main ranked lists, in
    the history trend chart's shape; entries of reconstructed lists are a series of their own."""
    official: dict[tuple[str, int], dict[str, Any]] = {}
    rebuilt: dict[tuple[str, int], dict[str, Any]] = {}
    for row in rows:
        if row["provenance"] == RECONSTRUCTED:
            rebuilt.setdefault((row["release"], row["submission_id"]), row)
        elif row["kind"] in MAIN_KIND_VALUES:
            # A run on the IO500 and the Production list of one release counts once.
            official.setdefault((row["release"], row["submission_id"]), row)
    return {
        "units": {"score": "", "bw": "GiB/s", "md": "kIOPS"},
        "releases": release_trends(list(official.values())),
        "reconstructed": release_trends(list(rebuilt.values())),
    }
