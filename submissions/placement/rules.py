"""Where a run stands: each phase's percentile among the comparable runs (pure, no queries).

Comparable means the same comparability class, as the versions work decides it
(registry.versions): the same mode (an extended-mode run interleaves other phases, so its values
are not standard-mode values) and, for a phase whose measurement the IO500 project changed between
versions, the same side of every such declared change. A run with no known version of a changed
phase is compared only with others like it. Two narrower populations can be chosen: runs with a
node count in the same range, and runs on exactly 10 client nodes (the 10 Node Challenge).

The percentile is the share of the *other* comparable runs whose value this run's value beats,
ties counted half: 100 is ahead of all of them, 0 behind all of them. A run alone in its class has
no percentile (there is nothing to be ahead of), which is said rather than shown as 100 or 50.
Every phase is a rate (GiB/s or kIOPS), so higher is better throughout.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from registry.versions import declared_breaks, version_tag
from scoring.model import SCORED_PHASES

STANDARD = "standard"
EXTENDED = "extended"
TEN_NODES = 10
# Phases a percentile is given for: the scored ones (the bars of the submission page) and the
# unscored random read, the phase whose measurement changed between versions.
PLACED_PHASES: tuple[str, ...] = (*SCORED_PHASES, "ior-rnd4K-easy-read")


class Scope:
    """The populations a run is placed in (the switch next to the phase bars)."""

    COMPARABLE = "comparable"
    NODE_RANGE = "node_range"
    TEN_NODE = "ten_node"
    ALL = (COMPARABLE, NODE_RANGE, TEN_NODE)


SCOPE_LABELS = {
    Scope.COMPARABLE: "all comparable runs",
    Scope.NODE_RANGE: "runs with as many client nodes (same range)",
    Scope.TEN_NODE: "10-node runs",
}


@dataclass(frozen=True)
class NodeRange:
    low: int
    high: int | None  # None: no upper end

    def holds(self, nodes: int | None) -> bool:
        return nodes is not None and nodes >= self.low and (self.high is None or nodes <= self.high)

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low:,} or more client nodes"
        return f"{self.low:,} to {self.high:,} client nodes"


# Orders of magnitude: a run on 16 nodes is compared with runs on 10 to 99.
NODE_RANGES = (NodeRange(1, 9), NodeRange(10, 99), NodeRange(100, 999), NodeRange(1000, None))


def node_range(nodes: int | None) -> NodeRange | None:
    return next((candidate for candidate in NODE_RANGES if candidate.holds(nodes)), None)


def mode_class(mode: str | None) -> str:
    """Runs before the C application's modes (ISC21), and runs whose files are not public, ran the
    standard phases only; an extended run is a class of its own."""
    return EXTENDED if (mode or "").strip().lower() == EXTENDED else STANDARD


@lru_cache(maxsize=4096)
def version_class(phase: str, version: str | None) -> tuple[str, ...]:
    """The side of each declared change of `phase` that the run's version is on ("before",
    "after", or "" when its version is on neither side, e.g. a development build). Cached: it is
    asked for every pair of runs compared, and the fixture does not change while a process runs."""
    tag = version_tag(version)
    sides = []
    for rule in declared_breaks():
        if rule.phase != phase:
            continue
        sides.append("before" if tag in rule.before else "after" if tag in rule.after else "")
    return tuple(sides)


def class_label(phase: str, version: str | None, mode: str | None) -> str:
    """The comparability class in words, for the page and the API."""
    label = f"{mode_class(mode)}-mode runs"
    tag = version_tag(version)
    for rule, side in zip(
        [rule for rule in declared_breaks() if rule.phase == phase],
        version_class(phase, version),
        strict=True,
    ):
        if side == "before":
            label += f" of {', '.join(sorted(rule.before))} (before the change of {rule.changed_in})"
        elif side == "after":
            label += f" of {rule.changed_in} and later versions"
        else:
            known = f"like this run's {tag}" if tag else "or of no known version, like this run"
            label += f" of versions on neither side of the change of {rule.changed_in} ({known})"
    return label


@dataclass(frozen=True)
class Run:
    """One run as placement sees it: the values of its phases and what decides its class."""

    submission_id: int
    version: str | None
    mode: str | None
    nodes: int | None
    values: Mapping[str, float] = field(default_factory=dict)

    def value(self, phase: str) -> float | None:
        value = self.values.get(phase)
        return value if value is not None and math.isfinite(value) and value > 0 else None

    def same_class(self, other: Run, phase: str) -> bool:
        return mode_class(self.mode) == mode_class(other.mode) and version_class(
            phase, self.version
        ) == version_class(phase, other.version)


@dataclass(frozen=True)
class Standing:
    """A value among the others of its population."""

    percentile: float | None
    rank: int  # 1 + the runs with a higher value
    runs: int  # the population, this run included

    def as_dict(self) -> dict[str, Any]:
        return {"percentile": self.percentile, "rank": self.rank, "runs": self.runs}


def standing(value: float, others: Iterable[float]) -> Standing:
    """`value` among `others` (the population without the run itself)."""
    below = equal = above = 0
    for other in others:
        if other < value:
            below += 1
        elif other > value:
            above += 1
        else:
            equal += 1
    count = below + equal + above
    percentile = round(100.0 * (below + 0.5 * equal) / count, 1) if count else None
    return Standing(percentile=percentile, rank=above + 1, runs=count + 1)


@dataclass(frozen=True)
class PhasePlacement:
    phase: str
    value: float | None
    comparability: str
    standings: Mapping[str, Standing | None]
    # Why a scope has no standing (the phase was not measured, the node count is not known).
    missing: Mapping[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "value": self.value,
            "comparable_with": self.comparability,
            **{
                scope: (standing.as_dict() if standing is not None else None)
                for scope, standing in self.standings.items()
            },
            "missing": dict(self.missing),
        }


def _population(run: Run, population: Sequence[Run], phase: str) -> list[Run]:
    return [
        other
        for other in population
        if other.submission_id != run.submission_id
        and other.value(phase) is not None
        and run.same_class(other, phase)
    ]


def phase_placement(run: Run, population: Sequence[Run], phase: str) -> PhasePlacement:
    value = run.value(phase)
    comparability = class_label(phase, run.version, run.mode)
    if value is None:
        reason = "the run has no value for this phase"
        return PhasePlacement(
            phase, None, comparability, dict.fromkeys(Scope.ALL), dict.fromkeys(Scope.ALL, reason)
        )
    comparable = _population(run, population, phase)
    standings: dict[str, Standing | None] = {}
    missing: dict[str, str] = {}
    standings[Scope.COMPARABLE] = standing(value, (other.values[phase] for other in comparable))
    own_range = node_range(run.nodes)
    if own_range is None:
        standings[Scope.NODE_RANGE] = None
        missing[Scope.NODE_RANGE] = "the run's client-node count is not known"
    else:
        in_range = (other.values[phase] for other in comparable if own_range.holds(other.nodes))
        standings[Scope.NODE_RANGE] = standing(value, in_range)
    ten_node = (other.values[phase] for other in comparable if other.nodes == TEN_NODES)
    standings[Scope.TEN_NODE] = standing(value, ten_node)
    for scope, found in standings.items():
        if found is not None and found.percentile is None and scope not in missing:
            missing[scope] = "no other comparable run has a value for this phase"
    return PhasePlacement(phase, value, comparability, standings, missing)


def run_placement(
    run: Run, population: Sequence[Run], phases: Sequence[str] = PLACED_PHASES
) -> dict[str, Any]:
    """Every phase of `run` placed among `population` (which may hold the run itself), as the
    chart and the API give it."""
    own_range = node_range(run.nodes)
    return {
        "mode": mode_class(run.mode),
        "nodes": run.nodes,
        "node_range": own_range.label if own_range else None,
        "scopes": dict(SCOPE_LABELS),
        "phases": [
            phase_placement(run, population, phase).as_dict()
            for phase in phases
            # Unscored phases only where the run measured them (most runs have no random read).
            if phase in SCORED_PHASES or run.value(phase) is not None
        ],
    }
