"""Which submissions a list of a given kind holds, and in what order. Pure Python, no queries.

The one place the list rules live (io500.org's the_lists.php, see ../shared/specs/registry-features.md):

* historical: everything received up to the release that has a score (SCC runs have their own list);
* full: valid under the release's rules, i.e. valid and from a release no older than its `rules_from`;
* ranked kinds (docs/list-rules.md R1-R3): the previous release's published list of the same kind
  (its lineage: the Research lists continue the IO500 lists) carried over, every entry with the
  score it was listed with, plus the runs of the releases since then that the committee accepted
  for this kind; then one entry per storage system (name + institution + file-system type: one
  StorageSystem row), the best score winning. A new run replaces the carried entries of its system
  only when it scores higher; carried entries are never merged with each other (io500.org kept some
  second entries, and that was its committee's decision). Without a previous list of the lineage (the
  first list of a kind, or the first after the rules restarted, `rules_from`) the list is built from
  every qualifying run up to the release, as before;
  ranked kinds take the submissions that opted in (10-node lists need no opt-in); ten-node kinds
  take the runs that asked for them and whose own outputs show exactly 10 client nodes
  (`client_nodes`, the primary Result's count read from the tools' outputs, never the declared
  one); a run that asked but whose outputs show no count, or another count, is left out with that
  reason; production kinds a system the committee classified as production AND rated Fully
  Reproducible (anything else goes to research), research kinds everything else (the Research list
  "also contains all valid IO500 submissions prior to the creation of the Research List");
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
  raw output behind them (checked from summaries only) enters no ranked kind (IO500, Production,
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
    MAIN_KINDS,
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
    # Client nodes as the run's own outputs show them (None: they show no count).
    client_nodes: int | None
    opted_in: bool = True
    # The submitter asked for the 10-node lists (an upload's choice; imported history: io500.org's
    # own criterion, 10 declared client nodes).
    ten_node_asked: bool = True
    declared_nodes: int | None = None
    # The committee's list category: True when it classified the system as production.
    production: bool = False
    reproducibility: str = Reproducibility.UNDEFINED
    # Accepted (or already published) by the committee; submissions still in review are on no list.
    reviewed: bool = True
    scc: bool = False
    withdrawn: bool = False
    # Made with the registry's bundled runner, not the official IO500 application.
    bundled_runner: bool = False
    # Scored phases of the primary run that no raw output backs (checked from summaries only).
    summary_only: tuple[str, ...] = ()
    # A committee decision names exactly this gap, in this archive.
    gap_accepted: bool = False
    # The run's own release and the end of its embargo (None: never under embargo).
    release_id: int | None = None
    embargo_end: datetime.datetime | None = None
    # An upload this registry's committee accepted (or published). Imported history was accepted by
    # io500.org's committee for the lists it is on, never by this one for a later list.
    committee_accepted: bool = False
    # Its rank on the previous list when it is carried over from there (None: a run new to the list).
    carried_rank: int | None = None


@dataclass(frozen=True)
class BaseList:
    """The previous published list of the same lineage, carried over into the new list."""

    # In rank order, each with the score, bw and md it was listed with and its `carried_rank`.
    entries: tuple[Candidate, ...]
    # The date of the release it belongs to: runs of later releases are new to the list (for the
    # version a correction corrects, the date of the list that version carried over).
    since: datetime.date
    snapshot_id: int | None = None
    label: str = ""


# The kinds that carry the previous list over (SCC runs are a competition of their own release).
CARRIED_KINDS = frozenset(kind.value for kind in (*MAIN_KINDS, *TEN_NODE_KINDS))
# The kinds whose published lists a new list of a kind continues, nearest first: the Research
# lists are io500.org's `io500` and `ten` types from ISC23 on (docs/list-rules.md, "The lists").
LINEAGE: dict[str, tuple[str, ...]] = {
    ListKind.RESEARCH.value: (ListKind.RESEARCH.value, ListKind.IO500.value),
    ListKind.TEN_NODE_RESEARCH.value: (ListKind.TEN_NODE_RESEARCH.value, ListKind.TEN_NODE.value),
}


def lineage(kind: str) -> tuple[str, ...]:
    return LINEAGE.get(kind, (kind,))


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
        candidate.submission_id not in window.decided_out
        and qualifies_by_rules(kind, candidate, window)
        and not under_other_embargo(candidate, window)
        and not lacks_evidence(kind, candidate)
    )


def qualifies_by_rules(kind: str, candidate: Candidate, window: ListWindow) -> bool:
    """Every rule but the evidence and embargo ones: the run would be on the list if its evidence
    were complete."""
    return qualifies_but_nodes(kind, candidate, window) and (
        kind not in TEN_NODE_KINDS or candidate.client_nodes == TEN_CLIENT_NODES
    )


def qualifies_but_nodes(kind: str, candidate: Candidate, window: ListWindow) -> bool:
    """Every rule but the evidence, embargo and output node count ones."""
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
    if kind in TEN_NODE_KINDS and not candidate.ten_node_asked:
        return False
    if kind in PRODUCTION_KINDS:
        return is_production(candidate)
    if kind in RESEARCH_KINDS:
        return not is_production(candidate)
    return kind in (ListKind.IO500, ListKind.TEN_NODE)


def order_key(candidate: Candidate) -> tuple[float, int, int, datetime.date, int]:
    """Best score first; at equal scores carried entries keep their previous order, before new runs."""
    carried = candidate.carried_rank
    return (
        -(candidate.score or 0.0),
        0 if carried is not None else 1,
        carried or 0,
        candidate.release_date,
        candidate.submission_id,
    )


@dataclass(frozen=True)
class Duplicate:
    """A qualifying submission left out because a better one of the same storage system is listed."""

    candidate: Candidate
    kept_submission_id: int


# The rules a build records when it leaves a run out (ListSnapshot.left_out's `rule`).
NODES_UNKNOWN_RULE = "nodes-unknown"
NODES_RULE = "nodes"
REPLACED_RULE = "replaced"
# A per-entry decision (ListWindow.decided_out) keeps it off this list.
DECIDED_RULE = "decision"


@dataclass(frozen=True)
class LeftOut:
    """A run (or carried entry) the build left out, by which rule; `other` names the submission that
    took its place where there is one."""

    candidate: Candidate
    rule: str
    other: int | None = None


@dataclass(frozen=True)
class RankedList:
    entries: list[RankedCandidate]
    duplicates: list[Duplicate]
    # Runs that qualify by every other rule, left out because scored phases lack their raw outputs
    # and no committee decision names the gap (in score order; each names its phases).
    evidence_gaps: list[Candidate] = field(default_factory=list)
    # Runs that qualify by every rule but belong to another release still under embargo (score order).
    embargoed: list[Candidate] = field(default_factory=list)
    # Every other run or carried entry left out, with its rule: asked for a 10-node list but the
    # outputs show no node count or another one; a carried entry a better run of its system replaced.
    left_out: list[LeftOut] = field(default_factory=list)
    # The list carried over (None: built from every qualifying run).
    base: BaseList | None = None


@dataclass
class Admitted:
    """What `admit` lets onto the list, and what it leaves out."""

    carried: list[Candidate]
    new: list[Candidate]
    embargoed: list[Candidate] = field(default_factory=list)
    evidence_gaps: list[Candidate] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)


def admit(kind: str, carried: list[Candidate], new: list[Candidate], window: ListWindow) -> Admitted:
    """The one place where entries are filtered before the one-per-system rule: a run left out here
    does not hold its system's place (and an embargoed run must not show, even by which entry it
    displaces). `carried`: the previous list's entries; `new`: the runs that qualify by the rules,
    the 10-node count aside, best first. A per-entry decision (`window.decided_out`: withdrawn, a
    duplicate, excluded from this kind) takes a carried entry off as it keeps a new run out."""
    result = Admitted(carried=[], new=[])
    for entry in carried:
        if entry.submission_id in window.decided_out:
            result.left_out.append(LeftOut(entry, DECIDED_RULE))
        elif under_other_embargo(entry, window):
            result.embargoed.append(entry)
        else:
            result.carried.append(entry)
    for run in new:
        if run.submission_id in window.decided_out:
            result.left_out.append(LeftOut(run, DECIDED_RULE))
        elif under_other_embargo(run, window):
            result.embargoed.append(run)
        elif kind in TEN_NODE_KINDS and run.client_nodes is None:
            result.left_out.append(LeftOut(run, NODES_UNKNOWN_RULE))
        elif kind in TEN_NODE_KINDS and run.client_nodes != TEN_CLIENT_NODES:
            result.left_out.append(LeftOut(run, NODES_RULE))
        elif lacks_evidence(kind, run):
            result.evidence_gaps.append(run)
        else:
            result.new.append(run)
    return result


def _one_per_system(
    carried: list[Candidate], new: list[Candidate]
) -> tuple[list[Candidate], list[Duplicate], list[LeftOut]]:
    """Carried entries stand as listed; each new run (best first) enters unless an entry of its
    storage system scores at least as much, and replaces the carried entries of its system it beats."""
    held: dict[int, list[Candidate]] = {}
    members: list[Candidate] = []
    for entry in carried:
        members.append(entry)
        if entry.storage_system_id is not None:
            held.setdefault(entry.storage_system_id, []).append(entry)
    duplicates: list[Duplicate] = []
    replaced: list[LeftOut] = []
    gone: set[int] = set()
    for run in new:
        system = run.storage_system_id
        # A submission without a storage system is its own identity.
        if system is None:
            members.append(run)
            continue
        rivals = held.get(system, [])
        best = min(rivals, key=order_key) if rivals else None
        if best is not None and (best.score or 0.0) >= (run.score or 0.0):
            duplicates.append(Duplicate(run, best.submission_id))
            continue
        for rival in rivals:
            replaced.append(LeftOut(rival, REPLACED_RULE, other=run.submission_id))
            gone.add(id(rival))
        held[system] = [run]
        members.append(run)
    return [m for m in members if id(m) not in gone], duplicates, replaced


def rank_with_duplicates(
    kind: str, candidates: list[Candidate], window: ListWindow, base: BaseList | None = None
) -> RankedList:
    """The list of `kind`: with `base` (ranked kinds), the base list carried over plus the runs of the
    releases since it that the committee accepted; without, every qualifying run up to the release."""
    carry = base is not None and kind in CARRIED_KINDS
    carried = list(base.entries) if base is not None and carry else []
    pool = candidates
    if base is not None and carry:
        # A run already carried is not new to the list (a correction carries runs of its own release).
        listed = {entry.submission_id for entry in carried}
        pool = [
            c
            for c in candidates
            if c.release_date > base.since and c.committee_accepted and c.submission_id not in listed
        ]
    qualifying = sorted((c for c in pool if qualifies_but_nodes(kind, c, window)), key=order_key)
    admitted = admit(kind, carried, qualifying, window)
    members = admitted.carried + admitted.new
    duplicates: list[Duplicate] = []
    left_out = list(admitted.left_out)
    if kind in RANKED_KINDS:
        members, duplicates, replaced = _one_per_system(admitted.carried, admitted.new)
        left_out.extend(replaced)
    members.sort(key=order_key)
    entries = [
        RankedCandidate(rank=index, candidate=candidate) for index, candidate in enumerate(members, start=1)
    ]
    return RankedList(
        entries=entries,
        duplicates=duplicates,
        evidence_gaps=admitted.evidence_gaps,
        embargoed=sorted(admitted.embargoed, key=order_key),
        left_out=left_out,
        base=base if carry else None,
    )


def rank_candidates(kind: str, candidates: list[Candidate], window: ListWindow) -> list[RankedCandidate]:
    return rank_with_duplicates(kind, candidates, window).entries
