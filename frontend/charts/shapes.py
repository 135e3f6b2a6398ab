"""Pure shaping of selector rows into chart datasets (no queries here, so it is cheap to test)."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from registry.lists.facet_names import KINDS, canonical, facet_key
from scoring.model import BW_PHASES, SCORED_PHASES

GIB = 1024**3
OTHER = "Other"
UNKNOWN = "(not stated)"


def _finite_positive(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) and number > 0 else None


def phase_unit(phase: str) -> str:
    return "GiB/s" if phase in BW_PHASES else "kIOPS"


def entry_point(row: Mapping[str, Any]) -> dict[str, Any]:
    """One list entry as the balance chart draws it."""
    return {
        "id": row["submission_id"],
        "release": row["release"],
        "release_slug": row.get("release_slug") or str(row["release"]).lower(),
        "kind": row["kind"],
        "rank": row["rank"],
        "score": row["score"],
        "bw": row["bw"],
        "md": row["md"],
        "system": row.get("system") or "",
        "institution": row.get("institution") or "",
        "filesystem": row.get("filesystem") or "",
        "vendor": row.get("vendor") or "",
        **({"reconstructed": True} if row.get("reconstructed") else {}),
    }


def history_points(rows: Iterable[Mapping[str, Any]], *, filesystem: str = "") -> dict[str, Any]:
    """Ranked entries as BW/MD points; entries without two positive values cannot sit on log axes."""
    # A file system by any spelling or slug picks the entries of every spelling of its canonical name.
    wanted = facet_key("filesystem", filesystem) if filesystem.strip() else None
    points: list[dict[str, Any]] = []
    left_out = 0
    filesystems: set[str] = set()
    releases: list[str] = []
    for row in rows:
        name = canonical("filesystem", row.get("filesystem"))
        if name:
            filesystems.add(name)
        if wanted is not None and facet_key("filesystem", row.get("filesystem")) != wanted:
            continue
        if row["release"] not in releases:
            releases.append(row["release"])
        if _finite_positive(row.get("bw")) is None or _finite_positive(row.get("md")) is None:
            left_out += 1
            continue
        points.append(entry_point(row))
    return {
        "points": points,
        "releases": releases,
        "left_out": left_out,
        "filesystems": sorted(filesystems, key=str.lower),
        "isolines": score_isolines(points),
    }


def nice_steps(low: float, high: float) -> list[float]:
    """Values 1, 2, 5 x 10^k covering [low, high] (the isoline scores a reader can name)."""
    if low <= 0 or high <= 0 or low > high:
        return []
    steps: list[float] = []
    for exponent in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for mantissa in (1, 2, 5):
            value = mantissa * 10.0**exponent
            if low <= value <= high:
                steps.append(value)
    return steps


def score_isolines(points: Sequence[Mapping[str, Any]]) -> list[float]:
    scores = [math.sqrt(p["bw"] * p["md"]) for p in points]
    if not scores:
        return []
    return score_isolines_between(min(scores), max(scores))


def score_isolines_between(low: float, high: float) -> list[float]:
    """The isoline scores for points whose scores lie between `low` and `high`."""
    steps = nice_steps(low / 2, high * 2)
    # Thin the 1-2-5 ladder on wide ranges so the chart does not drown in lines.
    return steps if len(steps) <= 9 else [s for s in steps if round(s / 10 ** math.floor(math.log10(s))) != 2]


TREND_METRICS = ("score", "bw", "md")


def trend_part(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What one list adds to its release's trend: its entry count, and per metric the sorted valid
    values and the best entry. Parts of the lists of one release merge (`release_trends_of_parts`)."""
    part: dict[str, Any] = {"count": len(entries), "values": {}, "top": {}}
    for metric in TREND_METRICS:
        valued = [e for e in entries if _finite_positive(e.get(metric)) is not None]
        part["values"][metric] = sorted(float(e[metric]) for e in valued)
        if valued:
            best = max(valued, key=lambda e: e[metric])
            part["top"][metric] = {
                "value": best[metric],
                "system": best.get("system") or "",
                "institution": best.get("institution") or "",
                "id": best["submission_id"],
            }
    return part


def release_trends_of_parts(parts: Iterable[tuple[str, str, Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """Per release: entry count, and per metric the median and the best entry (with its system).

    `parts` are (release, ISO date, trend part) in list order; a release with several lists (the
    Production and Research lists of one BoF) has its values merged before the median is taken.
    """
    merged: dict[str, dict[str, Any]] = {}
    for release, date, part in parts:
        into = merged.setdefault(release, {"date": date, "count": 0, "values": {}, "top": {}})
        into["count"] += part["count"]
        for metric in TREND_METRICS:
            into["values"].setdefault(metric, []).extend(part["values"].get(metric, []))
            top = part["top"].get(metric)
            # Strictly greater: on a tie the earlier list's entry stays the best, as in row order.
            if top is not None and (metric not in into["top"] or top["value"] > into["top"][metric]["value"]):
                into["top"][metric] = top
    trends: list[dict[str, Any]] = []
    for release, data in sorted(merged.items(), key=lambda item: item[1]["date"]):
        trend: dict[str, Any] = {"release": release, "date": data["date"], "count": data["count"]}
        for metric in TREND_METRICS:
            values = data["values"].get(metric, [])
            top = data["top"].get(metric)
            if not values or top is None:
                trend[metric] = None
                continue
            trend[metric] = {
                "median": statistics.median(values),
                "top": top["value"],
                "top_system": top["system"],
                "top_institution": top["institution"],
                "top_id": top["id"],
            }
        trends.append(trend)
    return trends


def release_trends(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per release: entry count, and per metric the median and the best entry (with its system)."""
    by_release: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    dates: dict[str, str] = {}
    for row in rows:
        by_release[row["release"]].append(row)
        dates[row["release"]] = row["release_date"].isoformat()
    return release_trends_of_parts(
        (release, dates[release], trend_part(entries)) for release, entries in by_release.items()
    )


def share_name(row: Mapping[str, Any], by: str) -> str:
    return (row.get(by) or "").strip() or UNKNOWN


# The chart and its table show this many names per dimension; the rest fold into "Other".
SHARE_LIMIT = 8


def release_shares(
    rows: Iterable[Mapping[str, Any]], *, by: str, limit: int | None = SHARE_LIMIT
) -> dict[str, Any]:
    """Share of each release's entries by file system or vendor; rare categories fold into "Other"."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        counts[(row["release"], row["release_date"].isoformat(), share_name(row, by))] += 1
    return release_shares_of_counts(
        ((release, date, name, n) for (release, date, name), n in counts.items()), by=by, limit=limit
    )


def release_shares_of_counts(
    counted: Iterable[tuple[str, str, str, int]], *, by: str, limit: int | None = SHARE_LIMIT
) -> dict[str, Any]:
    """Shares from (release, ISO date, name, number of entries) counts.

    Names are grouped by their canonical name (registry.lists.facet_names: "Lustre" and "lustre",
    "GPFS" and "Spectrum Scale" are one file system), which labels the group.
    """
    per_release: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    dates: dict[str, str] = {}
    for release, date, name, count in counted:
        key = (canonical(by, name) if by in KINDS else name.strip()) or UNKNOWN
        totals[key] += count
        per_release[release][key] += count
        dates[release] = date
    kept = [key for key, _ in totals.most_common(limit)]
    label = {key: key for key in kept}
    categories = [label[key] for key in kept]
    folds = len(totals) > len(kept)
    if folds:
        categories.append(OTHER)
    releases = []
    for release in sorted(per_release, key=lambda name: dates[name]):
        counts = per_release[release]
        row_counts = {label[key]: counts.get(key, 0) for key in kept}
        if folds:
            row_counts[OTHER] = sum(n for key, n in counts.items() if key not in label)
        total = sum(counts.values())
        releases.append(
            {
                "release": release,
                "date": dates[release],
                "total": total,
                "counts": row_counts,
                "shares": {name: (n / total if total else 0.0) for name, n in row_counts.items()},
            }
        )
    return {"by": by, "categories": categories, "releases": releases}


RADAR_AXES = (
    ("score", "Score", ""),
    ("bw", "Bandwidth", "GiB/s"),
    ("md", "Metadata", "kIOPS"),
    ("client_nodes", "Client nodes", "nodes"),
    ("total_procs", "Processes", "procs"),
)


# Each radar axis spans this many decades below its maximum: the top five of a list often differ a
# hundredfold, and on a linear axis scaled to the leader the other four shapes shrink to specks.
RADAR_DECADES = 3


def radar_position(value: float | None, top: float | None) -> float | None:
    """Where a value sits on a radar axis: 1 at the axis maximum, one third less per decade below it,
    0 (the centre) at a thousandth of it or less."""
    if value is None or not top:
        return None
    return max(0.0, 1.0 + math.log10(value / top) / RADAR_DECADES)


def radar(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The top entries on io500.org's five radar axes, each on a logarithmic scale ending at the
    maximum among them (RADAR_DECADES decades deep)."""
    maxima = {
        key: max((float(r[key]) for r in rows if _finite_positive(r.get(key)) is not None), default=None)
        for key, _, _ in RADAR_AXES
    }
    series = []
    for row in rows:
        values = []
        for key, _, _ in RADAR_AXES:
            raw = _finite_positive(row.get(key))
            top = maxima[key]
            values.append({"axis": key, "value": raw, "normalised": radar_position(raw, top)})
        series.append(
            {
                "id": row["submission_id"],
                "rank": row["rank"],
                "system": row.get("system") or "",
                "institution": row.get("institution") or "",
                "values": values,
            }
        )
    axes = [{"key": key, "label": label, "unit": unit, "max": maxima[key]} for key, label, unit in RADAR_AXES]
    return {"axes": axes, "series": series, "decades": RADAR_DECADES}


def phase_medians(values_by_submission: Mapping[int, Mapping[str, float]]) -> dict[str, float | None]:
    medians: dict[str, float | None] = {}
    for phase in SCORED_PHASES:
        present = [v[phase] for v in values_by_submission.values() if phase in v]
        medians[phase] = statistics.median(present) if present else None
    return medians


def phase_bars(
    phases: Sequence[Mapping[str, Any]],
    fallback: Mapping[str, float],
    medians: Mapping[str, float | None],
) -> list[dict[str, Any]]:
    """The 12 scored phases in score order: the measured value (or the published one) and the median."""
    measured = {p["name"]: p for p in phases}
    bars = []
    for phase in SCORED_PHASES:
        row = measured.get(phase)
        value = row["value"] if row is not None else fallback.get(phase)
        bars.append(
            {
                "phase": phase,
                "unit": row["unit"] if row is not None else phase_unit(phase),
                "group": "bw" if phase in BW_PHASES else "md",
                "value": value,
                "time_s": row["time_s"] if row is not None else None,
                "median": medians.get(phase),
            }
        )
    return bars


PLACEMENT_SCOPES = ("comparable", "node_range", "ten_node")


def bars_placed(bars: list[dict[str, Any]], placement: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The phase bars with each phase's standing among comparable runs (submissions.placement),
    drawn next to the bar; a phase without one says why."""
    placed = {row["phase"]: row for row in (placement or {}).get("phases", [])}
    for bar in bars:
        row = placed.get(bar["phase"])
        bar["placement"] = (
            {
                "comparable_with": row["comparable_with"],
                **{scope: percentile_labelled(row.get(scope)) for scope in PLACEMENT_SCOPES},
                "missing": row.get("missing", {}),
            }
            if row is not None
            else None
        )
    return bars


def percentile_labelled(standing: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A standing with its label: "P87" for a run ahead of at least 87% of the others (rounded
    down, so P100 is only ever the run ahead of all of them)."""
    if standing is None:
        return None
    percentile = standing.get("percentile")
    label = f"P{math.floor(percentile)}" if percentile is not None else None
    return {**standing, "label": label}


def placement_summary(placement: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What the switch next to the bars says: the scopes, the run's node range, and the standing
    of the unscored phases it measured (no bar shows those)."""
    if placement is None:
        return None
    summary = {key: placement[key] for key in ("mode", "nodes", "node_range", "scopes")}
    summary["unscored"] = [
        {
            "phase": row["phase"],
            "value": row["value"],
            "comparable_with": row["comparable_with"],
            **{scope: percentile_labelled(row.get(scope)) for scope in PLACEMENT_SCOPES},
            "missing": row.get("missing", {}),
        }
        for row in placement.get("phases", [])
        if row["phase"] not in SCORED_PHASES
    ]
    return summary


def rank_unit(phase_unit_name: str) -> str:
    # IOR's per-rank CSV gives MiB/s; mdtest and find give items per second.
    return "MiB/s" if phase_unit_name == "GiB/s" else "items/s"


def rank_summary(name: str, unit: str, ranks: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How uneven the ranks of one phase were: the slowest rank against the median."""
    timed = [r for r in ranks if _finite_positive(r.get("time_s")) is not None]
    rated = [r for r in ranks if _finite_positive(r.get("rate")) is not None]
    if not timed and not rated:
        return None
    summary: dict[str, Any] = {"phase": name, "ranks": len(ranks), "rate_unit": rank_unit(unit)}
    if timed:
        slowest = max(timed, key=lambda r: r["time_s"])
        median_time = statistics.median(r["time_s"] for r in timed)
        summary.update(
            {
                "median_time_s": median_time,
                "max_time_s": slowest["time_s"],
                "min_time_s": min(r["time_s"] for r in timed),
                "slowest_rank": slowest["rank"],
                "straggler_ratio": slowest["time_s"] / median_time if median_time else None,
            }
        )
    if rated:
        weakest = min(rated, key=lambda r: r["rate"])
        summary.update(
            {
                "median_rate": statistics.median(r["rate"] for r in rated),
                "min_rate": weakest["rate"],
                "max_rate": max(r["rate"] for r in rated),
                "weakest_rank": weakest["rank"],
            }
        )
    return summary


def rank_rows(ranks: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """Compact [rank, time_s, rate] rows (thousands of ranks travel as arrays, not objects)."""
    ordered = sorted(ranks, key=lambda r: r.get("rank") or 0)
    return [[r.get("rank"), _significant(r.get("time_s")), _significant(r.get("rate"))] for r in ordered]


def _significant(value: Any, digits: int = 6) -> float | None:
    # Six significant digits are far below what a chart can show and halve the JSON of big runs.
    if value is None or not math.isfinite(float(value)):
        return None
    return float(f"{float(value):.{digits}g}")


def timeline_series(name: str, unit: str, timeline: Sequence[Sequence[Any]]) -> dict[str, Any] | None:
    """Total throughput per second over all ranks, from the runner's [rank, second, amount] bins."""
    if not timeline:
        return None
    totals: dict[int, float] = defaultdict(float)
    active: dict[int, int] = defaultdict(int)
    for rank_bin in timeline:
        if len(rank_bin) != 3:
            continue
        _, second, amount = rank_bin
        if second is None or amount is None:
            continue
        totals[int(second)] += float(amount)
        if amount > 0:
            active[int(second)] += 1
    if not totals:
        return None
    # IOR bins count bytes, mdtest and find bins count items.
    scale, series_unit = (GIB, "GiB/s") if unit == "GiB/s" else (1000.0, "kIOPS")
    seconds = range(0, max(totals) + 1)
    points = [[s, totals.get(s, 0.0) / scale, active.get(s, 0)] for s in seconds]
    return {
        "phase": name,
        "unit": series_unit,
        "points": points,
        "peak": max(p[1] for p in points),
        "mean": sum(p[1] for p in points) / len(points),
        "seconds": len(points),
    }
