"""What changed between two versions of a list: pure Python, no queries.

One function, `list_diff`, computes it for every place that shows it (the committee's draft page,
the "Changes since ..." panel of a published list, `build_list`) and for the guard that refuses a
correction changing nothing. The caller supplies the entries of both versions and what it knows of
why entries left or came (per-entry decisions, the embargo and evidence rules); the one-per-system
rule is seen here, from the entries themselves: a run that leaves while another run of its storage
system arrives was superseded by that run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Scores are stored as floats; a re-computation that moves a score by less than this is no change.
SCORE_TOLERANCE = 1e-9
NO_LONGER_QUALIFIES = "no longer qualifies under the list rules"
# A list recorded as io500.org published it: its removals are io500.org's decisions, never explained.
NOT_EXPLAINED_BY_IO500 = "not on io500.org's list; io500.org records no reason"


@dataclass(frozen=True)
class DiffEntry:
    """One entry of a list version, as the diff needs it."""

    submission_id: int
    rank: int
    score: float
    # The storage system (one entry per system on ranked lists); None: the entry is its own identity.
    system_id: int | None = None
    name: str = ""
    # The name of the release the run was submitted to.
    release: str = ""

    @property
    def system_key(self) -> tuple[str, int]:
        return (
            ("system", self.system_id) if self.system_id is not None else ("submission", self.submission_id)
        )


@dataclass(frozen=True)
class Change:
    entry: DiffEntry
    reason: str


@dataclass(frozen=True)
class Rerank:
    entry: DiffEntry
    rank_before: int
    score_before: float
    # Its place among the entries on both versions changed: another entry passed it or it passed
    # one. An entry only pushed down by a newcomer above it (or pulled up by a removal) keeps its
    # order, so a cumulative list does not call every entry below a new run "re-ranked".
    order_changed: bool = False

    @property
    def places_up(self) -> int:
        """Positive when the entry moved up the list."""
        return self.rank_before - self.entry.rank

    @property
    def rescored(self) -> bool:
        return abs(self.score_before - self.entry.score) > SCORE_TOLERANCE * max(1.0, abs(self.score_before))


# What a diff compares with: the version before of the same list (a correction), or the previous
# release's list (what is new on this list).
VERSION = "version"
RELEASE = "release"


@dataclass(frozen=True)
class ListDiff:
    previous_label: str
    added: tuple[Change, ...]
    removed: tuple[Change, ...]
    # Entries on both versions whose order among them or whose score changed, in the new version's order.
    reranked: tuple[Rerank, ...]
    # The new #1 when another storage system leads (None: the same system leads, or no previous entry).
    new_top: DiffEntry | None
    previous_top: DiffEntry | None
    # Added entries of a storage system the previous version did not list at all.
    new_systems: tuple[DiffEntry, ...]
    # VERSION or RELEASE: which comparison this is, so each is labelled by what it compares with.
    compared_with: str = RELEASE

    @property
    def heading(self) -> str:
        if self.compared_with == VERSION:
            return f"Correction: changes since {self.previous_label}, the version it corrects"
        return f"Changes since {self.previous_label} (the previous release's list)"

    @property
    def unchanged(self) -> bool:
        """The same entries at the same ranks with the same scores."""
        return not (self.added or self.removed or self.reranked)

    @property
    def added_ids(self) -> frozenset[int]:
        """The submissions new on this list: the rows the list page marks "new"."""
        return frozenset(change.entry.submission_id for change in self.added)

    @property
    def moved(self) -> tuple[Rerank, ...]:
        return tuple(r for r in self.reranked if r.order_changed)

    @property
    def rescored(self) -> tuple[Rerank, ...]:
        return tuple(r for r in self.reranked if r.rescored)


def _added_reason(
    entry: DiffEntry, replaced: DiffEntry | None, release: str, given: Mapping[int, str]
) -> str:
    if entry.submission_id in given:
        return given[entry.submission_id]
    if replaced is not None:
        better = "a better" if entry.score > replaced.score else "another"
        return (
            f"{better} run of the same storage system, replacing submission {replaced.submission_id} "
            f"({replaced.score:.2f} -> {entry.score:.2f})"
        )
    if release and entry.release == release:
        return f"accepted for {release}"
    if entry.release:
        return f"a run of {entry.release} not on the previous list"
    return "not on the previous list"


def _removed_reason(
    entry: DiffEntry, successor: DiffEntry | None, given: Mapping[int, str], unexplained: str
) -> str:
    if entry.submission_id in given:
        return given[entry.submission_id]
    if successor is not None:
        if successor.score > entry.score:
            return (
                f"superseded by a better run of the same storage system: submission "
                f"{successor.submission_id} ({successor.score:.2f})"
            )
        return (
            f"replaced by another run of the same storage system: submission {successor.submission_id} "
            f"({entry.score:.2f} -> {successor.score:.2f})"
        )
    return unexplained


def list_diff(
    previous: Sequence[DiffEntry],
    current: Sequence[DiffEntry],
    *,
    previous_label: str = "",
    release: str = "",
    removed_reasons: Mapping[int, str] | None = None,
    added_reasons: Mapping[int, str] | None = None,
    unexplained: str = NO_LONGER_QUALIFIES,
    compared_with: str = RELEASE,
) -> ListDiff:
    """The changes from `previous` to `current` (each in rank order, or any order: ranks decide).

    `release` is the list's own release (its new runs are "accepted for" it); `removed_reasons` and
    `added_reasons` map a submission id to what the caller knows of why it left or came, and win
    over what the entries themselves show; `unexplained` is said of a removal nothing explains."""
    before = sorted(previous, key=lambda e: e.rank)
    after = sorted(current, key=lambda e: e.rank)
    before_ids = {e.submission_id: e for e in before}
    after_ids = {e.submission_id: e for e in after}
    removed_entries = [e for e in before if e.submission_id not in after_ids]
    added_entries = [e for e in after if e.submission_id not in before_ids]
    # The one-per-system rule: a system's run that leaves while another of its runs arrives.
    arriving = {e.system_key: e for e in added_entries if e.system_id is not None}
    leaving = {e.system_key: e for e in removed_entries if e.system_id is not None}
    added = tuple(
        Change(e, _added_reason(e, leaving.get(e.system_key), release, added_reasons or {}))
        for e in added_entries
    )
    removed = tuple(
        Change(e, _removed_reason(e, arriving.get(e.system_key), removed_reasons or {}, unexplained))
        for e in removed_entries
    )
    # The order among the entries on both versions, before and after.
    common_before = [e.submission_id for e in before if e.submission_id in after_ids]
    common_after = [e.submission_id for e in after if e.submission_id in before_ids]
    position_before = {pk: index for index, pk in enumerate(common_before)}
    changes = (
        Rerank(
            e,
            before_ids[e.submission_id].rank,
            before_ids[e.submission_id].score,
            order_changed=position_before[e.submission_id] != index,
        )
        for index, e in enumerate(after_ids[pk] for pk in common_after)
    )
    reranked = tuple(r for r in changes if r.order_changed or r.rescored)
    previous_systems = {e.system_key for e in before}
    new_systems = tuple(e for e in added_entries if e.system_key not in previous_systems)
    top_changed = bool(before) and bool(after) and before[0].system_key != after[0].system_key
    return ListDiff(
        previous_label=previous_label,
        added=added,
        removed=removed,
        reranked=reranked,
        new_top=after[0] if top_changed else None,
        previous_top=before[0] if top_changed else None,
        new_systems=new_systems,
        compared_with=compared_with,
    )


def diff_lines(diff: ListDiff) -> list[str]:
    """The diff as plain lines (the `build_list` command, a correction note)."""
    lines = [
        f"{diff.heading}: {len(diff.added)} added, {len(diff.removed)} removed, "
        f"{len(diff.moved)} re-ranked, {len(diff.rescored)} rescored, {len(diff.new_systems)} new system(s)."
    ]
    if diff.unchanged:
        lines.append("  No change: the same entries at the same ranks with the same scores.")
    if diff.new_top is not None and diff.previous_top is not None:
        lines.append(
            f"  New #1: submission {diff.new_top.submission_id} {diff.new_top.name} "
            f"(before: submission {diff.previous_top.submission_id} {diff.previous_top.name})."
        )
    for change in diff.added:
        entry = change.entry
        lines.append(f"  + #{entry.rank} submission {entry.submission_id} {entry.name}: {change.reason}")
    for change in diff.removed:
        lines.append(
            f"  - (was #{change.entry.rank}) submission {change.entry.submission_id} {change.entry.name}: "
            f"{change.reason}"
        )
    for rerank in diff.moved:
        lines.append(
            f"  ~ submission {rerank.entry.submission_id} {rerank.entry.name}: #{rerank.rank_before} -> "
            f"#{rerank.entry.rank}"
        )
    for rerank in diff.rescored:
        entry = rerank.entry
        lines.append(
            f"  ~ submission {entry.submission_id} {entry.name}: score {rerank.score_before:.2f} -> "
            f"{entry.score:.2f}"
        )
    return lines
