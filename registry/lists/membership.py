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
  on no new list; nor is a submission a per-entry decision keeps off this list (`ListWindow.decided_out`:
  withdrawn, a duplicate of another copy of its run, excluded from this kind);
* embargo: a run whose own release is still under embargo when the list is built enters no list of
  another release (a cumulative list takes earlier releases' runs, and publishing it would make the
  embargoed run public before its release is); its own release's lists take it, and those stay
  hidden until the embargo ends. The build reports each such run (`RankedList.embargoed`);
* missing evidence (docs/evidence.md, "What a verdict rests on"): a run whose scored phases have no
  raw output behind them (verified from summaries only) enters no ranked kind (IO500, Production,
  Research, the 10-node lists, SCC) unless a committee decision names that gap
  (submissions.evidence_basis.gap_covered); the build reports each such run with its phases
  (`RankedList.evidence_gaps`). Historical and Full keep it: Historical holds everything received,
  invalid runs included, and Full every valid run, and a missing raw output is a warning that
  leaves the run valid; neither is quoted as a ranking, and both show what each entry rests on.
  io500.org's recorded lists are imported, never built by these rules, so the rule cannot remove
  anything io500.org published; imported rows without raw files have no run here to lack outputs.

Ties are broken deterministically: equal scores rank the earlier release first, then the earlier
submission (lower id), as io500.org ordered equal scores by insertion. Ranks are 1..n without gaps.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from registry.models import (
    PRODUCTION_KINDS,
    RANKED_KIND_VALUES,
    RANKED_KINDS,
    RESEARCH_KINDS,
    TEN_NODE_KINDS,
    ListKind,
)
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
    # Scored phases of the primary run that no raw output backs (verified from summaries only).
    summary_only: tuple[str, ...] = ()
    # A committee decision names exactly this gap, in this archive.
    gap_accepted: bool = False
    # The run's own release and the end of its embargo (None: never under embargo).
    release_id: int | None = None
    embargo_end: datetime.datetime | None = None


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
    # The release itself (its own runs are never held back by its own embargo) and the moment of the
    # build; without a moment every embargo counts as running, so the rule fails closed.
    release_id: int | None = None
    built_at: datetime.datetime | None = None
    # Submissions per-entry decisions keep off this list (submissions.review.decisions.decided_exclusions).
    decided_out: frozenset[int] = frozenset()


@dataclass(frozen=True)
class RankedCandidate:
    rank: int
    candidate: Candidate


def under_other_embargo(candidate: Candidate, window: ListWindow) -> bool:
    """The run belongs to another release whose embargo has not ended when the list is built."""
    if candidate.embargo_end is None or candidate.release_id == window.release_id:
        return False
    return window.built_at is None or candidate.embargo_end > window.built_at


def lacks_evidence(kind: str, candidate: Candidate) -> bool:
    """A ranked list takes no run resting on summaries alone unless the committee accepted the gap."""
    return kind in RANKED_KIND_VALUES and bool(candidate.summary_only) and not candidate.gap_accepted


def qualifies(kind: str, candidate: Candidate, window: ListWindow) -> bool:
    return (
        qualifies_by_rules(kind, candidate, window)
        and not under_other_embargo(candidate, window)
        and not lacks_evidence(kind, candidate)
    )


def qualifies_by_rules(kind: str, candidate: Candidate, window: ListWindow) -> bool:
    """Every rule but the evidence one: the run would be on the list if its evidence were complete."""
    if candidate.score is None or candidate.withdrawn or candidate.release_date > window.release_date:
        return False
    if candidate.submission_id in window.decided_out:
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
    # Runs that qualify by every other rule, left out because scored phases lack their raw outputs
    # and no committee decision names the gap (in score order; each names its phases).
    evidence_gaps: list[Candidate] = field(default_factory=list)
    # Runs that qualify by every rule but belong to another release still under embargo (score order).
    embargoed: list[Candidate] = field(default_factory=list)


def rank_with_duplicates(kind: str, candidates: list[Candidate], window: ListWindow) -> RankedList:
    qualifying = sorted((c for c in candidates if qualifies_by_rules(kind, c, window)), key=order_key)
    # Both left out before the one-per-system rule: a run that is not listed does not hold its
    # system's place (and an embargoed run must not show, even by which entry it displaces).
    embargoed = [c for c in qualifying if under_other_embargo(c, window)]
    eligible = [c for c in qualifying if not under_other_embargo(c, window)]
    evidence_gaps = [c for c in eligible if lacks_evidence(kind, c)]
    members = [c for c in eligible if not lacks_evidence(kind, c)]
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
    return RankedList(
        entries=entries, duplicates=duplicates, evidence_gaps=evidence_gaps, embargoed=embargoed
    )


def rank_candidates(kind: str, candidates: list[Candidate], window: ListWindow) -> list[RankedCandidate]:
    return rank_with_duplicates(kind, candidates, window).entries
