"""Whether the registry's lists support a claim about an IO500 result (a sentence read by
registry.lists.claims), and the citation the IO500 Messaging Policy asks for.

A claim names a list by its BoF and kind ("#1 on the SC25 Production list"); it is checked against
the versions of that list anyone may read, the current one first. A list the registry reconstructed
is no IO500 list: it can show what it holds, never support a claim about an official list.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from registry.core.messaging import (
    LIST_INSTANCE_RULE,
    POLICY_SOURCE_URL,
    POLICY_URL,
    RANKING_RULE,
    RECONSTRUCTED_NOTE,
    UNVERIFIED,
    VERIFIED,
    is_official_provenance,
    list_messaging_status,
)
from registry.lists.claims import BANDWIDTH, METADATA, SCORE, Claim, Number, parse_claim
from registry.lists.permalinks import list_entry_id, list_permalink, submission_permalink
from registry.lists.selectors import list_entries, visible_snapshots
from registry.models import MAIN_KINDS, ListSnapshot, Release, kind_label

SUPPORTED, NOT_SUPPORTED, CANNOT_CHECK = "supported", "not-supported", "cannot-check"
VERDICT_LABELS = {
    SUPPORTED: "Supported by the registry's lists",
    NOT_SUPPORTED: "Not supported by the registry's lists",
    CANNOT_CHECK: "Cannot be checked as written",
}
METRIC_WORDS = {SCORE: "score", BANDWIDTH: "bandwidth score", METADATA: "metadata score"}
METRIC_UNITS = {SCORE: "", BANDWIDTH: "GiB/s", METADATA: "kIOPS"}


@dataclass(frozen=True)
class CheckedEntry:
    rank: int
    system: str
    institution: str
    value: float | None
    submission_url: str
    entry_id: str
    metric_rank: int = 0  # the rank by the claim's metric (the list's rank for the score)


@dataclass
class ClaimCheck:
    claim: Claim
    verdict: str = CANNOT_CHECK
    reasons: list[str] = field(default_factory=list)
    snapshot: ListSnapshot | None = None
    entry: CheckedEntry | None = None
    citation: str = ""

    @property
    def claim_kind_label(self) -> str:
        return kind_label(self.claim.kind) if self.claim.kind else ""

    @property
    def list_label(self) -> str:
        """ "SC20 IO500 list, version 1" """
        if self.snapshot is None:
            return ""
        name = self.snapshot.label or self.snapshot.release.name
        return f"{name} {kind_label(self.snapshot.kind)} list, version {self.snapshot.version}"

    @property
    def list_url(self) -> str:
        return list_permalink(self.snapshot) if self.snapshot is not None else ""

    @property
    def verdict_label(self) -> str:
        return VERDICT_LABELS[self.verdict]

    @property
    def official(self) -> bool:
        return self.snapshot is not None and is_official_provenance(self.snapshot.provenance)

    @property
    def term(self) -> str:
        if self.snapshot is None or self.entry is None:
            return UNVERIFIED
        return list_messaging_status(self.snapshot.provenance).term

    def as_dict(self) -> dict[str, Any]:
        snapshot, entry, claim = self.snapshot, self.entry, self.claim
        return {
            "claim": claim.text,
            "read": {
                "rank": claim.rank,
                "release": claim.release,
                "kind": claim.kind,
                "metric": claim.metric,
                "numbers": [number.value for number in claim.numbers],
                "term": claim.term,
            },
            "verdict": self.verdict,
            "verdict_label": self.verdict_label,
            "reasons": self.reasons,
            "list": None
            if snapshot is None
            else {
                "release": snapshot.release.name,
                "name": snapshot.label or snapshot.release.name,
                "kind": snapshot.kind,
                "kind_label": kind_label(snapshot.kind),
                "version": snapshot.version,
                "status": snapshot.status,
                "provenance": snapshot.provenance,
                "provenance_label": str(snapshot.get_provenance_display()),
                "official": self.official,
                "url": list_permalink(snapshot),
            },
            "entry": None
            if entry is None
            else {
                "rank": entry.rank,
                "rank_by_metric": entry.metric_rank,
                "system": entry.system,
                "institution": entry.institution,
                "metric": claim.metric,
                "value": entry.value,
                "unit": METRIC_UNITS[claim.metric] or None,
                "submission_url": entry.submission_url,
                "list_entry_id": entry.entry_id,
            },
            "messaging_term": self.term if entry is not None else None,
            "citation": self.citation or None,
            "policy": {"url": POLICY_URL, "source": POLICY_SOURCE_URL},
        }


def _release(claim: Claim) -> Release | None:
    slug = (claim.release or "").rstrip("*")
    return Release.objects.filter(slug=slug).first() if slug else None


def _candidate_lists(release: Release, kind: str, starred: bool) -> list[ListSnapshot]:
    """The versions of one list anyone may read: a starred label ("SC18*") first if asked, then the
    current version, then older ones."""
    found = list(
        visible_snapshots()
        .filter(release=release, kind=kind)
        .select_related("release")
        .order_by("-status", "-version")
    )
    current = [s for s in found if s.status == ListSnapshot.Status.PUBLISHED]
    older = [s for s in found if s.status != ListSnapshot.Status.PUBLISHED]
    ordered = current + older
    if starred:
        ordered.sort(key=lambda s: not (s.label or "").endswith("*"))
    return ordered


def _ranked(snapshot: ListSnapshot, metric: str) -> list[tuple[int, CheckedEntry]]:
    """The entries with their rank by the metric: the list's own rank for the score, else the
    position by that value (ties share the better rank), as io500.org's awards rank them."""
    rows = list(list_entries(snapshot=snapshot))
    entries = []
    for row in rows:
        value = {SCORE: row.score, BANDWIDTH: row.bw, METADATA: row.md}[metric]
        entries.append(
            CheckedEntry(
                rank=row.rank,
                system=str(getattr(row, "system_name", "") or ""),
                institution=str(getattr(row, "institution_name", "") or ""),
                value=value,
                submission_url=submission_permalink(row.submission_id),
                entry_id=list_entry_id(
                    release_slug=snapshot.release.slug,
                    kind=snapshot.kind,
                    version=snapshot.version,
                    rank=row.rank,
                ),
            )
        )
    if metric == SCORE:
        return [(entry.rank, _with_rank(entry, entry.rank)) for entry in entries]
    valued = sorted((e for e in entries if e.value is not None), key=lambda e: -(e.value or 0.0))
    ranked: list[tuple[int, CheckedEntry]] = []
    for index, entry in enumerate(valued):
        tied = ranked and ranked[-1][1].value == entry.value
        ranked.append((ranked[-1][0] if tied else index + 1, entry))
    return ranked


def _matching(numbers: tuple[Number, ...], value: float | None) -> bool:
    return value is not None and any(number.matches(value) for number in numbers)


def _check_list(claim: Claim, snapshot: ListSnapshot) -> tuple[bool, CheckedEntry | None, str]:
    """Whether one list version supports the claim: (supported, the entry it names, why not)."""
    ranked = _ranked(snapshot, claim.metric)
    words = METRIC_WORDS[claim.metric]
    unit = METRIC_UNITS[claim.metric]
    if claim.rank is not None:
        at_rank = [_with_rank(entry, rank) for rank, entry in ranked if rank == claim.rank]
        if not at_rank:
            return (
                False,
                None,
                f"The list has no entry ranked #{claim.rank} by {words} ({len(ranked)} ranked).",
            )
        entry = at_rank[0]
        if claim.numbers and not _matching(claim.numbers, entry.value):
            quoted = ", ".join(number.text for number in claim.numbers)
            return (
                False,
                entry,
                f"#{claim.rank} by {words} is {entry.system} with {entry.value:,} {unit}".rstrip()
                + f", not {quoted}.",
            )
        return True, entry, ""
    if claim.numbers:
        for rank, entry in ranked:
            if _matching(claim.numbers, entry.value):
                return True, _with_rank(entry, rank), ""
        quoted = ", ".join(number.text for number in claim.numbers)
        return False, None, f"No entry of the list has a {words} of {quoted}."
    return False, None, "The sentence names neither a rank nor a number to check."


def _with_rank(entry: CheckedEntry, rank: int) -> CheckedEntry:
    return dataclasses.replace(entry, metric_rank=rank)


def _citation(claim: Claim, snapshot: ListSnapshot, entry: CheckedEntry, rank: int) -> str:
    """The placement as the policy asks it to be quoted: the term, the precise rank for the metric,
    the list and its BoF; then where to trace it."""
    status = list_messaging_status(snapshot.provenance)
    label = snapshot.label or snapshot.release.name
    metric = "" if claim.metric == SCORE else f" {METRIC_WORDS[claim.metric]}"
    who = f"{entry.system} ({entry.institution})" if entry.institution else entry.system
    kind = kind_label(snapshot.kind)
    if status.term == VERIFIED and claim.metric == SCORE:
        placed = f"a verified placement of #{rank} on the {kind} list at {label}"
    elif status.term == VERIFIED:
        placed = f"the #{rank} verified{metric} on the {kind} list at {label}"
    else:
        placed = (
            f"an unverified{metric or ' score'} that is #{rank} on the registry's reconstruction of the "
            f"{kind} list at {label}, which is no IO500 list"
        )
    return f"{who} achieved {placed} (IO500 list entry {entry.entry_id}; {list_permalink(snapshot)})."


def check_claim(text: str) -> ClaimCheck:
    """Read a sentence and check it against the lists anyone may read."""
    claim = parse_claim(text)
    check = ClaimCheck(claim=claim)
    if not claim.text:
        check.reasons.append("Paste a sentence that quotes an IO500 result.")
        return check
    if claim.release is None:
        check.reasons.append(f"It names no BoF (e.g. SC25, ISC24). The policy: “{LIST_INSTANCE_RULE}”")
        return check
    release = _release(claim)
    if release is None:
        check.verdict = NOT_SUPPORTED
        check.reasons.append(f"The registry knows no release {claim.release_label}.")
        return check
    kind = claim.kind
    if kind is None:
        published = visible_snapshots().filter(release=release, kind__in=MAIN_KINDS)
        main = sorted(set(published.values_list("kind", flat=True)))
        if len(main) != 1:
            names = " or ".join(kind_label(k) for k in main) or "none"
            check.reasons.append(
                f"It names no list ({release.name} published: {names}). The policy: “{LIST_INSTANCE_RULE}”"
            )
            return check
        kind = main[0]
        check.reasons.append(
            f"It names no list; {release.name}'s one main list, {kind_label(kind)}, is checked."
        )
    if claim.rank is None and not claim.numbers:
        check.reasons.append(f"It names neither a rank nor a number. The policy: “{RANKING_RULE}”")
        return check
    versions = _candidate_lists(release, kind, starred=(claim.release or "").endswith("*"))
    if not versions:
        check.verdict = NOT_SUPPORTED
        check.reasons.append(f"{release.name} has no published {kind_label(kind)} list anyone may read.")
        return check
    first_reason = ""
    for snapshot in versions:
        supported, entry, why = _check_list(claim, snapshot)
        if supported and entry is not None:
            check.snapshot, check.entry = snapshot, entry
            break
        if not first_reason:
            first_reason = why
            check.snapshot, check.entry = snapshot, entry
    else:
        check.verdict = NOT_SUPPORTED
        check.reasons.append(first_reason)
        return check
    snapshot, entry = check.snapshot, check.entry
    assert snapshot is not None and entry is not None
    check.citation = _citation(claim, snapshot, entry, entry.metric_rank)
    if snapshot.status != ListSnapshot.Status.PUBLISHED:
        check.reasons.append(f"Found on version {snapshot.version}, since superseded by a corrected version.")
    if not is_official_provenance(snapshot.provenance):
        check.verdict = NOT_SUPPORTED
        check.reasons.append(
            f"The entry is on the registry's reconstruction of this list, not on an official IO500 list. "
            f"{RECONSTRUCTED_NOTE}"
        )
        return check
    if claim.term == UNVERIFIED:
        check.reasons.append("The result is on a published IO500 list: the policy has it called “verified”.")
    elif claim.term is None:
        check.reasons.append(
            "The sentence does not say “verified”: the policy asks for it (see the citation)."
        )
    if claim.metric == SCORE and not claim.metric_named and claim.rank is not None:
        check.reasons.append("Read as the overall score; say “bandwidth” or “metadata” for those ranks.")
    check.verdict = SUPPORTED
    return check
