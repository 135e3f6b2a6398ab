"""The datasets behind every chart, cached under the chart generation.

The JSON endpoints and the pages (which render the same data as tables for readers without
JavaScript) both call these, so a page and its charts never disagree.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse

from frontend.charts import selectors
from frontend.charts.cache import charts_cached
from frontend.charts.digests import (
    RECONSTRUCTED_SUFFIX,
    country_shares,
    digest_rows,
    digest_shares,
    digest_trends,
    list_phase_medians,
    points_json,
)
from frontend.charts.kinds import kind_name, kinds_for
from frontend.charts.selectors import SubmissionHead
from frontend.charts.shapes import (
    bars_placed,
    history_points,
    phase_bars,
    placement_summary,
    radar,
    rank_rows,
    rank_summary,
    release_shares,
    release_trends,
    score_isolines,
    timeline_series,
)
from registry.models import ListKind, Release
from scoring.configs import config_table
from scoring.model import SCORED_PHASES
from submissions.placement.selectors import submission_placement_by_id

RADAR_TOP = 5
RowsLoader = Callable[[], list[dict[str, Any]]]
SHARE_DIMENSIONS = ("filesystem", "vendor")


def _ranked_rows(kind: str) -> list[dict[str, Any]]:
    name = kind_name(kind)
    return charts_cached("ranked-rows", (name,), lambda: digest_rows(kinds=kinds_for(name)))


def history_points_data(*, kind: str, filesystem: str, rows: RowsLoader | None = None) -> dict[str, Any]:
    """`rows` lets a page showing several history charts load the entries once, and only on a miss."""
    name = kind_name(kind)

    def build() -> dict[str, Any]:
        data = history_points((rows or partial(_ranked_rows, name))(), filesystem=filesystem)
        data.update({"kind": name, "filesystem": filesystem.strip(), "units": {"bw": "GiB/s", "md": "kIOPS"}})
        return data

    return charts_cached("history-points", (name, filesystem.strip().lower()), build)


def history_points_body(*, kind: str, filesystem: str) -> bytes:
    """The balance chart's JSON: spliced from the stored points of each list unless filtered."""
    name = kind_name(kind)
    if not filesystem.strip():
        return points_json(kinds=kinds_for(name), name=name)
    return json_body(history_points_data(kind=name, filesystem=filesystem))


def json_body(data: Any) -> bytes:
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"), allow_nan=False).encode()


def history_trends_data(*, kind: str, rows: RowsLoader | None = None) -> dict[str, Any]:
    """`rows` (already loaded entries) or else the trend parts stored with each list. The official
    lists make `releases`; the lists reconstructed here (the runs new in a release whose official
    lists are not public) are a series of their own, `reconstructed`, never points of the first."""
    name = kind_name(kind)

    def build() -> dict[str, Any]:
        if rows is not None:
            loaded = rows()
            official = release_trends([row for row in loaded if not row.get("reconstructed")])
            rebuilt = release_trends(
                [
                    {**row, "release": str(row["release"]).removesuffix(RECONSTRUCTED_SUFFIX)}
                    for row in loaded
                    if row.get("reconstructed")
                ]
            )
        else:
            official = digest_trends(kinds=kinds_for(name))
            rebuilt = digest_trends(kinds=kinds_for(name), reconstructed=True)
        return {
            "kind": name,
            "units": {"score": "", "bw": "GiB/s", "md": "kIOPS"},
            "releases": official,
            "reconstructed": rebuilt,
        }

    return charts_cached("history-trends", (name,), build)


def history_shares_data(*, kind: str, rows: RowsLoader | None = None) -> dict[str, Any]:
    """`rows` (already loaded entries) or else the name counts stored with each list."""
    name = kind_name(kind)

    def share(dimension: str) -> dict[str, Any]:
        if rows is not None:
            return release_shares(rows(), by=dimension)
        return digest_shares(kinds=kinds_for(name), by=dimension)

    return charts_cached(
        "history-shares", (name,), lambda: {"kind": name, **{d: share(d) for d in SHARE_DIMENSIONS}}
    )


# The share table's CSV columns: one row per release, dimension and canonical name. `counted_entries`
# is what the share is of: every entry of the release's lists for file system and vendor, only the
# entries whose site names a country for country.
SHARES_CSV_HEADER = (
    "release",
    "release_date",
    "dimension",
    "name",
    "entries",
    "counted_entries",
    "share_percent",
)
SHARE_DIMENSION_LABELS = {"filesystem": "file system", "vendor": "storage vendor", "country": "country"}


def history_country_data(*, kind: str) -> dict[str, Any]:
    """The history page's shares by country: only entries whose site names a country are counted."""
    name = kind_name(kind)
    return charts_cached("history-countries", (name,), lambda: country_shares(kinds=kinds_for(name)))


def history_shares_csv(*, kind: str) -> bytes:
    """Every release's entries by canonical file system, vendor and (where a site names one) country,
    every name (none folded into "Other"), most entries first: the history page's shares as a
    download. A country's share is of the release's entries that name a country."""
    name = kind_name(kind)

    def build() -> bytes:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(SHARES_CSV_HEADER)
        tables = {by: digest_shares(kinds=kinds_for(name), by=by, limit=None) for by in SHARE_DIMENSIONS}
        # Shares of the entries whose site names a country (none of io500.org's lists names one).
        tables["country"] = country_shares(kinds=kinds_for(name), limit=None)
        for by, table in tables.items():
            for release in table["releases"]:
                counted = sorted(release["counts"].items(), key=lambda item: (-item[1], item[0].lower()))
                for label, count in counted:
                    if not count:
                        continue
                    share = 100 * count / release["total"] if release["total"] else 0.0
                    writer.writerow(
                        (
                            release["release"],
                            release["date"],
                            SHARE_DIMENSION_LABELS[by],
                            label,
                            count,
                            release["total"],
                            f"{share:.1f}",
                        )
                    )
        return out.getvalue().encode()

    return charts_cached("history-shares-csv", (name,), build)


class UnknownRelease(LookupError):
    """No release has this slug."""


def radar_data(*, release: str, kind: str) -> dict[str, Any] | None:
    """The top entries of one published list on the radar axes; None when no such list exists.
    UnknownRelease for a slug no release has: that answer is not cached, since slugs in a URL are
    anyone's to make up and each would hold a key."""

    def build() -> dict[str, Any] | None:
        snapshot = selectors.published_snapshot(release_slug=release, kind=kind)
        if snapshot is None:
            if not Release.objects.filter(slug=release.lower()).exists():
                raise UnknownRelease(release)
            return None
        data = radar(selectors.snapshot_top(snapshot=snapshot, count=RADAR_TOP))
        data.update(
            {
                "release": snapshot.release.name,
                "kind": kind,
                "title": f"{snapshot.label or snapshot.release.name} {ListKind(kind).label}",
            }
        )
        return data

    return charts_cached("radar", (release.lower(), kind), build)


def _list_medians(snapshot_id: int) -> dict[str, float | None]:
    # Stored with the published list (it never changes); the chart cache saves even that query.
    return charts_cached("list-medians", (snapshot_id,), lambda: list_phase_medians(snapshot_id))


def submission_phases_data(*, head: SubmissionHead) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        phases = selectors.primary_phase_rows(submission_id=head.pk, fields=())
        fallback = selectors.phase_values(submission_ids=[head.pk])[head.pk]
        context = selectors.context_snapshot_for(submission_id=head.pk, release_id=head.release_id)
        medians = _list_medians(context["id"]) if context else {}
        placement = submission_placement_by_id(submission_id=head.pk)
        bars = bars_placed(phase_bars(phases, fallback, medians), placement)
        return {
            "submission": head.pk,
            "label": head.label,
            "context": {"title": context["title"], "kind": context["kind"]} if context else None,
            "phases": bars,
            "measured": bool(phases),
            "placement": placement_summary(placement),
        }

    return charts_cached("submission-phases", (head.pk, head.updated_at), build)


def _submission_rank_phases(head: SubmissionHead) -> list[dict[str, Any]]:
    """The straggler summary of each phase; the rows are cached per phase (_submission_rank_rows)."""

    def build() -> list[dict[str, Any]]:
        phases = []
        for row in selectors.primary_phase_rows(submission_id=head.pk, fields=("ranks",)):
            ranks = row["ranks"] if isinstance(row["ranks"], list) else []
            summary = rank_summary(row["name"], row["unit"], ranks)
            if summary is not None:
                phases.append({**summary, "unit": row["unit"]})
        return phases

    return charts_cached("submission-rank-phases", (head.pk, head.updated_at), build)


def _submission_rank_rows(head: SubmissionHead, phase: str) -> list[list[Any]]:
    """The per-rank rows of one phase. Apart from the summaries: a page or an answer shows one
    phase's rows, and the rows of all twelve of a big run are megabytes to build and to unpickle
    from the cache at every read."""

    def build() -> list[list[Any]]:
        found = selectors.primary_phase_rows(submission_id=head.pk, fields=("ranks",), name=phase)
        ranks = found[0]["ranks"] if found and isinstance(found[0]["ranks"], list) else []
        return rank_rows(ranks)

    return charts_cached("submission-rank-rows", (head.pk, head.updated_at, phase), build)


def submission_ranks_data(*, head: SubmissionHead, phase: str = "") -> dict[str, Any]:
    """The straggler summary of every phase with per-rank rows, and the rows of one phase.

    Runs with thousands of ranks would make the rows of all twelve phases megabytes, so only the
    asked phase travels; by default the one whose slowest rank lagged the median most.
    """
    phases = _submission_rank_phases(head)
    names = [p["phase"] for p in phases]
    if phase and phase not in names:
        raise KeyError(phase)
    if not phase and phases:
        phase = max(phases, key=lambda p: p.get("straggler_ratio") or 0)["phase"]
    return {
        "submission": head.pk,
        "label": head.label,
        "phases": phases,
        "phase": phase or None,
        "rows": _submission_rank_rows(head, phase) if phase else [],
    }


def submission_timeline_data(*, head: SubmissionHead) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        series = []
        for row in selectors.primary_phase_rows(submission_id=head.pk, fields=("timeline",)):
            timeline = row["timeline"] if isinstance(row["timeline"], list) else []
            shaped = timeline_series(row["name"], row["unit"], timeline)
            if shaped is not None:
                series.append(shaped)
        return {"submission": head.pk, "label": head.label, "phases": series}

    return charts_cached("submission-timeline", (head.pk, head.updated_at), build)


def compare_data(*, heads: list[SubmissionHead]) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        ids = [head.pk for head in heads]
        values = selectors.phase_values(submission_ids=ids)
        configs = selectors.primary_configs(submission_ids=ids)
        submissions = [
            {
                "id": head.pk,
                "label": head.label,
                "system": head.system,
                "institution": head.institution,
                "filesystem": head.filesystem,
                "release": head.release,
                "url": reverse("submissions:detail", args=[head.pk]),
                "era": configs.get(head.pk, {}).get("era"),
                "version": configs.get(head.pk, {}).get("version"),
                # Client nodes and tasks as the run's own outputs print them (None: not known).
                "nodes": configs.get(head.pk, {}).get("nodes"),
                "tasks": configs.get(head.pk, {}).get("procs"),
            }
            for head in heads
        ]
        metrics = [
            _compare_row("score", "Score", "", [head.score for head in heads]),
            _compare_row("bw", "Bandwidth", "GiB/s", [head.bw for head in heads]),
            _compare_row("md", "Metadata", "kIOPS", [head.md for head in heads]),
        ]
        phases = [
            _compare_row(
                phase,
                phase,
                "GiB/s" if phase.startswith("ior") else "kIOPS",
                [values[pk].get(phase) for pk in ids],
            )
            for phase in SCORED_PHASES
        ]
        config = [
            {"key": row.key, "values": list(row.values), "differs": row.differs}
            for row in config_table([configs.get(pk, {}).get("config") for pk in ids])
        ]
        return {
            "submissions": submissions,
            "metrics": metrics,
            "phases": phases,
            "config": config,
            "config_differences": sum(1 for row in config if row["differs"]),
            "config_known": [bool(configs.get(pk, {}).get("config")) for pk in ids],
        }

    return charts_cached("compare", tuple((head.pk, head.updated_at) for head in heads), build)


def _compare_row(key: str, label: str, unit: str, values: list[float | None]) -> dict[str, Any]:
    finite = [v for v in values if v is not None and math.isfinite(v)]
    best = max(finite) if finite else None
    return {
        "key": key,
        "label": label,
        "unit": unit,
        "values": values,
        "best": [v is not None and v == best for v in values],
        # Relative to the best run, so a reader sees "0.42x" without dividing in their head.
        "relative": [(v / best) if v is not None and best else None for v in values],
    }


def system_history_data(*, system_id: int) -> dict[str, Any]:
    """The system's rank in every published ranked list it entered, one series per list kind."""

    def build() -> dict[str, Any]:
        entries = selectors.system_rank_history(system_id=system_id)
        series: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            series.setdefault(entry["kind"], []).append(
                {
                    "release": entry["release"],
                    "release_slug": entry["release_slug"],
                    "date": entry["release_date"].isoformat(),
                    "rank": entry["rank"],
                    "list_size": entry["list_size"],
                    "score": entry["score"],
                    "submission": entry["submission_id"],
                }
            )
        return {
            "system": system_id,
            "series": [
                {"kind": kind, "label": str(ListKind(kind).label), "points": points}
                for kind, points in series.items()
            ],
        }

    return charts_cached("system-history", (system_id,), build)


def system_balance_data(*, system_id: int, submissions: list[dict[str, Any]]) -> dict[str, Any]:
    """The system's submissions as BW/MD points in release order (the path its balance took)."""
    points = [
        {
            "id": row["pk"],
            "release": row["release_name"] or "",
            "date": row["release_date"].isoformat() if row["release_date"] else None,
            "score": row["score"],
            "bw": row["bw"],
            "md": row["md"],
            "valid": row["valid"],
            "ten_node": row["ten_node"],
            "messaging_term": row["messaging"].term,
        }
        for row in submissions
        if row["bw"] and row["md"] and row["bw"] > 0 and row["md"] > 0
    ]
    return {
        "system": system_id,
        "units": {"bw": "GiB/s", "md": "kIOPS"},
        "points": points,
        "left_out": len(submissions) - len(points),
        "isolines": score_isolines(points),
    }
