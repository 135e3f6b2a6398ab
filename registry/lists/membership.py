"""Which submissions a list of a given kind holds, and in what order. Pure Python, no queries.

The one place the list rules live (io500.org's the_lists.php, see ../shared/specs/registry-features.md):

* historical: everything received up to the release that has a score (SCC runs have their own list);
* full: valid under the release's rules, i.e. valid and from a release no older than its `rules_from`;
* ranked kinds: the full list, restricted to the submissions that opted in (10-node lists need no
  opt-in), one entry per storage
  system (name + institution + file-system type), the best score winning;
  ten-node kinds need exactly 10 client nodes, production kinds a system the committee classified
  as production AND rated Fully Reproducible (anything else goes to research), research kinds
  everything else (the Research list "also contains all valid IO500
  submissions prior to the creation of the Research List");
* scc: the Student Cluster Competition runs, which never count for the regular lists;
* uploads enter lists only once the committee accepted them (imported history was published);
* runs of the registry's bundled runner enter only the lists the release's committee opened for
  them (by default the Historical list: IO500 asks list submissions to use the official release);
* withdrawn submissions (io500.org deleted them as duplicates, only old lists still name them) are
  on no new list.

Ties are broken deterministically: equal scores rank the earlier release first, then the earlier
submission (lower id), as io500.org ordered equal scores by insertion. Ranks are 1..n without gaps.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from registry.models import PRODUCTION_KINDS, RANKED_KINDS, RESEARCH_KINDS, TEN_NODE_KINDS, ListKind
from submissions.models import Reproducibility

TEN_CLIENT_NODES = 10


@dataclass(frozen=True)
class Candidate:
    """What the rules need to know of one submission."""

    submission_id: int
    storage_system_id: int | None
    release_date: datetime.date
    score: float | None
    bw: float | None
    md: float | None
    valid: bool | None
    client_nodes: int | None
    opted_in: bool = True
    # The committee's list category: True when it classified the system as production.
    production: bool = False
    reproducibility: str = Reproducibility.UNDEFINED
    # Accepted (or already published) by the committee; submissions still in review are on no list.
    reviewed: bool = True
    scc: bool = False
    withdrawn: bool = False
    # Made with the registry's bundled runner, not the official IO500 application.
    bundled_runner: bool = False


def is_production(candidate: Candidate) -> bool:
    """Only Fully Reproducible production systems may enter the Production lists (IO500 rules)."""
    return candidate.production and candidate.reproducibility == Reproducibility.FULLY


@dataclass(frozen=True)
class ListWindow:
    """The release a list is built for: its date and the oldest release its rules still accept."""

    release_date: datetime.date
    rules_from_date: datetime.date
    # The kinds that take runs of the registry's bundled runner (the release's committee rule).
    bundled_runner_kinds: frozenset[str] = frozenset({ListKind.HISTORICAL.value})


@dataclass(frozen=True)
class RankedCandidate:
    rank: int
    candidate: Candidate


def qualifies(kind: str, candidate: Candidate, window: ListWindow) -> bool:
    if candidate.score is None or candidate.withdrawn or candidate.release_date > window.release_date:
        return False
    if not candidate.reviewed:
        return False
    if candidate.bundled_runner and kind not in window.bundled_runner_kinds:
        return False
    if kind == ListKind.SCC:
        return candidate.scc and candidate.valid is True and candidate.release_date >= window.rules_from_date
    if candidate.scc:
        return False
    if kind == ListKind.HISTORICAL:
        return True
    if candidate.valid is not True or candidate.release_date < window.rules_from_date:
        return False
    if kind == ListKind.FULL:
        return True
    if candidate.score <= 0:
        return False
    # The opt-in (io500.org's include_in_io500) is for the main ranked lists: its 10-node lists hold
    # opted-out entries with exactly ten nodes too (13 of ISC21's 55).
    if not candidate.opted_in and kind not in TEN_NODE_KINDS:
        return False
    if kind in TEN_NODE_KINDS and candidate.client_nodes != TEN_CLIENT_NODES:
        return False
    if kind in PRODUCTION_KINDS:
        return is_production(candidate)
    if kind in RESEARCH_KINDS:
        return not is_production(candidate)
    return kind in (ListKind.IO500, ListKind.TEN_NODE)


def order_key(candidate: Candidate) -> tuple[float, datetime.date, int]:
    return (-(candidate.score or 0.0), candidate.release_date, candidate.submission_id)


@dataclass(frozen=True)
class Duplicate:
    """A qualifying submission left out because a better one of the same storage system is listed."""

    candidate: Candidate
    kept_submission_id: int


@dataclass(frozen=True)
class RankedList:
    entries: list[RankedCandidate]
    duplicates: list[Duplicate]


def rank_with_duplicates(kind: str, candidates: list[Candidate], window: ListWindow) -> RankedList:
    members = sorted((c for c in candidates if qualifies(kind, c, window)), key=order_key)
    duplicates: list[Duplicate] = []
    if kind in RANKED_KINDS:
        kept: dict[int, int] = {}
        best: list[Candidate] = []
        for candidate in members:
            # A submission without a storage system is its own identity.
            if candidate.storage_system_id is not None:
                if candidate.storage_system_id in kept:
                    duplicates.append(Duplicate(candidate, kept[candidate.storage_system_id]))
                    continue
                kept[candidate.storage_system_id] = candidate.submission_id
            best.append(candidate)
        members = best
    entries = [
        RankedCandidate(rank=index, candidate=candidate) for index, candidate in enumerate(members, start=1)
    ]
    return RankedList(entries=entries, duplicates=duplicates)


def rank_candidates(kind: str, candidates: list[Candidate], window: ListWindow) -> list[RankedCandidate]:
    return rank_with_duplicates(kind, candidates, window).entries
