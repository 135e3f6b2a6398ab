"""Lists io500.org published but never made public, rebuilt where the registry's rules decide alone.

After ISC21 the only public list is the plotted `io500` / Research list (registry.importer.plotted).
For the others of SC21 and later, the Historical and Full lists follow from the data and the rules
(membership.qualifies: everything received; everything valid under the release's rules), so they
are rebuilt here and marked *reconstructed*. So is one 10-node list per release: the runs whose own
outputs (IOR's `nodes` line, mdtest's launch line) show exactly 10 client nodes, best per storage
system, whatever io500.org's split into Production and Research was (the registry does not know it
for these runs), with how many runs of the release have a node count at all. The other ranked lists
are not: Production needs the committee's Production classification and a Fully Reproducible
rating, and Research is what remains after that decision. Those stay unpublished, and the list page
says why (`unpublished_reason`).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from registry.importer.releases import ordered_kinds
from registry.importer.source import IO500Data
from registry.lists.membership import Candidate, RankedCandidate, rank_candidates
from registry.lists.public_record import release_has_public_runs
from registry.lists.selectors import list_candidates
from registry.lists.services import list_window, ranked_entries
from registry.models import ListEntry, ListKind, ListSnapshot, RecordedListChange, Release

RECONSTRUCTED_KINDS = (ListKind.FULL.value, ListKind.HISTORICAL.value)
# The 10-node list is rebuilt under the pre-split kind in every release, ISC23 and later included:
# io500.org's two 10-node lists of those releases divide the same runs by a decision not public.
TEN_NODE_KIND = ListKind.TEN_NODE.value
CHANGES_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "io500_list_changes.json"
RECONSTRUCTED_SOURCE = (
    "Reconstructed by this registry from the public IO500 data with its own list rules, not published "
    "by io500.org: the runs of IO500/submission-data recomputed here, the rows of io500.org's SQL "
    "tables and the entries of io500.org's plotted lists, up to {release}. The public data holds no "
    "{kind} list of io500.org's for {release}; runs it received but never made public are missing "
    "here, and a raw run counts as valid by this registry's verdict, not the committee's."
)
TEN_NODE_SOURCE = (
    "Reconstructed here from public raw data by our rules, not published by io500.org: the valid runs "
    "since {rules_from} whose own outputs (IOR's nodes line, mdtest's launch line) show exactly 10 "
    "client nodes, the best per storage system; the declared node count is not used. {known} of the "
    "{total} runs of {release} have a node count their outputs show; the other {unknown} (no public "
    "raw output, or an output that prints none) can be neither on nor off this list. The public data holds "
    "none of io500.org's own 10-node {lists} of {release}."
)


@dataclass(frozen=True)
class ReconstructedList:
    release: str
    kind: str
    # 0 with `skipped`: no public run belongs to the release, so no list carries its name.
    entries: int
    skipped: bool = False


def reconstructable_releases(
    data: IO500Data, releases: dict[str, Release], today: datetime.date
) -> list[Release]:
    """Past releases newer than every public list table (the SQL tables end with ISC21)."""
    tabled = {listing.release_acronym for listing in data.listings()}
    newest_table = max(
        (release.publication_date for release in releases.values() if release.name in tabled), default=None
    )
    return sorted(
        (
            release
            for release in releases.values()
            if release.publication_date <= today
            and (newest_table is None or release.publication_date > newest_table)
        ),
        key=lambda release: release.publication_date,
    )


def import_reconstructed(data: IO500Data, releases: dict[str, Release]) -> list[ReconstructedList]:
    """Build the Full, Historical and 10-node lists of every past release that lacks them and has public
    runs of its own. A release without one gets no list: its Full list would be the previous release's,
    rank for rank, under its name, and be cited as its data."""
    existing = set(ListSnapshot.objects.values_list("release__name", "kind"))
    built: list[ReconstructedList] = []
    for release in reconstructable_releases(data, releases, timezone.localdate()):
        if not release_has_public_runs(release):
            built.extend(
                ReconstructedList(release=release.name, kind=kind, entries=0, skipped=True)
                for kind in RECONSTRUCTED_KINDS
                if kind in release.list_kinds and (release.name, kind) not in existing
            )
            continue
        candidates = list_candidates(release=release)
        for kind in RECONSTRUCTED_KINDS:
            if kind not in release.list_kinds or (release.name, kind) in existing:
                continue
            source = RECONSTRUCTED_SOURCE.format(release=release.name, kind=ListKind(kind).label)
            built.append(
                _publish(release, kind, rank_candidates(kind, candidates, list_window(release, kind)), source)
            )
        # A release no public run belongs to gets no 10-node list: it would be the previous release's
        # under a new name.
        if (release.name, TEN_NODE_KIND) not in existing and ten_node_counts(release, candidates)[1]:
            built.append(_reconstruct_ten_node(release, candidates))
    return built


def ten_node_counts(release: Release, candidates: list[Candidate]) -> tuple[int, int]:
    """(runs of the release whose outputs show a node count, runs of the release with a score)."""
    own = [candidate for candidate in candidates if candidate.release_id == release.pk]
    return sum(candidate.client_nodes is not None for candidate in own), len(own)


def _reconstruct_ten_node(release: Release, candidates: list[Candidate]) -> ReconstructedList:
    if TEN_NODE_KIND not in release.list_kinds:
        # The release's tabs show the list: the pre-split kind takes its place among them.
        release.list_kinds = list(ordered_kinds({*release.list_kinds, TEN_NODE_KIND}))
        release.save(update_fields=["list_kinds"])
    known, total = ten_node_counts(release, candidates)
    split = any(
        kind in release.list_kinds for kind in (ListKind.TEN_NODE_PRODUCTION, ListKind.TEN_NODE_RESEARCH)
    )
    source = TEN_NODE_SOURCE.format(
        rules_from=(release.rules_from or release).name,
        known=known,
        total=total,
        unknown=total - known,
        release=release.name,
        lists="Production and Research lists" if split else "list",
    )
    window = list_window(release, TEN_NODE_KIND)
    return _publish(release, TEN_NODE_KIND, rank_candidates(TEN_NODE_KIND, candidates, window), source)


def _publish(release: Release, kind: str, ranked: list[RankedCandidate], source: str) -> ReconstructedList:
    snapshot = ListSnapshot.objects.create(
        release=release,
        kind=kind,
        version=1,
        label=release.name,
        status=ListSnapshot.Status.PUBLISHED,
        provenance=ListSnapshot.Provenance.RECONSTRUCTED,
        source=source,
        published_at=timezone.now(),
    )
    ListEntry.objects.bulk_create(ranked_entries(snapshot, ranked))
    return ReconstructedList(release=release.name, kind=kind, entries=len(ranked))


def import_recorded_changes(releases: dict[str, Release]) -> int:
    """The changes public SQL patches made to lists after ISC21 (fixtures/io500_list_changes.json)."""
    with CHANGES_FIXTURE.open(encoding="utf-8") as handle:
        changes: list[dict[str, Any]] = json.load(handle)["changes"]
    created = 0
    for change in changes:
        release = releases.get(change["release"])
        if release is None:
            continue
        _, was_created = RecordedListChange.objects.get_or_create(
            source_file=change["file"],
            statement=change["statement"],
            defaults={
                "release": release,
                "kind": change["kind"],
                "action": change["action"],
                "io500_table": change["table"],
                "io500_submission_id": change["submission_id"],
                "io500_row_id": change["row_id"],
                "score": change["score"],
                "source_commit": change["commit"],
                "committed_on": datetime.date.fromisoformat(change["committed_on"]),
                "effect": change["effect"],
            },
        )
        created += was_created
    return created
