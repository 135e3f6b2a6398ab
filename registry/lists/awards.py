"""The awards of a published list, as io500.org gives them at each BoF (docs/list-rules.md, Awards).

io500.org (IO500/webpage d244008): "There are 12 awards. We will have one each for overall score,
metadata only, and bandwidth only for each of the Production and Research lists and their 10-client
counterparts" (the_lists.php); "Only submissions using at least 10 physical client nodes are eligible
to win IO500 awards" (rules_submission.php); an award is "the #1 verified bandwidth score on the
Research list at ISC25" (rules_messaging.php): the #1 of the published list by that metric, whether
the entry is new on the list or carried over. Before ISC23 the ranked lists were the IO500 and the
10 Node Challenge lists; they were awarded too (news.php, bof_sc19.php, bof_isc21.php), though no page
names their categories, so the same three apply. Full, Historical and Student Cluster Competition lists
carry no award.

`list_awards` is pure; `snapshot_awards` reads a frozen list's entries for it in one query. Published
entries never change, so the awards are computed from them (and cached with the list page) rather than
stored a second time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from registry.lists.selectors import list_entries
from registry.models import MAIN_KINDS, TEN_NODE_KINDS, ListSnapshot

AWARDED_KINDS = frozenset(kind.value for kind in (*MAIN_KINDS, *TEN_NODE_KINDS))
MIN_CLIENT_NODES = 10
# (key, label, the entry's value it ranks by, unit)
CATEGORIES = (
    ("overall", "Overall score", "score", ""),
    ("bandwidth", "Bandwidth", "bw", "GiB/s"),
    ("metadata", "Metadata", "md", "kIOP/s"),
)


@dataclass(frozen=True)
class AwardEntry:
    """One entry of a list, as the awards need it."""

    submission_id: int
    rank: int
    system: str
    institution: str
    score: float
    bw: float | None = None
    md: float | None = None
    # None: the run's node count is not known (io500.org's imported lists lack it for most entries).
    client_nodes: int | None = None

    @property
    def eligible(self) -> bool:
        # An unknown count is not taken for fewer than 10: the registry cannot show the run broke
        # the rule, and io500.org awarded those lists itself.
        return self.client_nodes is None or self.client_nodes >= MIN_CLIENT_NODES


@dataclass(frozen=True)
class Award:
    category: str
    label: str
    metric: str
    unit: str
    value: float
    # More than one: entries with the same value share the award (io500.org states no tie rule, and
    # the list orders equal values arbitrarily, so none of them is the #1 over the others).
    winners: tuple[AwardEntry, ...]

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


def list_awards(kind: str, entries: Iterable[AwardEntry]) -> tuple[Award, ...]:
    """The overall, bandwidth and metadata awards of a list of `kind`: for each, the eligible
    entries with the highest value. A list of another kind has none; a category none of whose
    eligible entries has a value (an imported list without BW or MD) has no award."""
    if kind not in AWARDED_KINDS:
        return ()
    eligible = [entry for entry in entries if entry.eligible]
    awards: list[Award] = []
    for category, label, metric, unit in CATEGORIES:
        valued = [(value, entry) for entry in eligible if (value := getattr(entry, metric)) is not None]
        if not valued:
            continue
        best = max(value for value, _ in valued)
        winners = tuple(sorted((entry for value, entry in valued if value == best), key=lambda e: e.rank))
        awards.append(Award(category, label, metric, unit, best, winners))
    return tuple(awards)


def snapshot_award_entries(snapshot: ListSnapshot) -> list[AwardEntry]:
    # Annotated names (selectors.list_entries): passed as a tuple so the type checker does not look
    # for them on the model.
    fields = ("submission_id", "rank", "score", "bw", "md", "system_name", "institution_name", "client_nodes")
    rows = list_entries(snapshot=snapshot).values(*fields)
    return [
        AwardEntry(
            submission_id=row["submission_id"],
            rank=row["rank"],
            system=row["system_name"] or "",
            institution=row["institution_name"] or "",
            score=row["score"],
            bw=row["bw"],
            md=row["md"],
            client_nodes=row["client_nodes"],
        )
        for row in rows
    ]


def snapshot_awards(snapshot: ListSnapshot) -> tuple[Award, ...]:
    """The awards of a published (or superseded) list; a draft has none yet, a list the registry
    reconstructed none (no committee awarded anything on it), and an unawarded kind costs no query."""
    if snapshot.provenance == ListSnapshot.Provenance.RECONSTRUCTED:
        return ()
    if not snapshot.is_frozen or snapshot.kind not in AWARDED_KINDS:
        return ()
    return list_awards(snapshot.kind, snapshot_award_entries(snapshot))


def awards_shown(awards: Sequence[Award], detail_prefix: str) -> list[dict[str, Any]]:
    """The awards panel's items (registry/publishing/_awards.html): each award with its winners and the links
    to their submissions; `detail_prefix` is the submission page URL without the id."""
    return [
        {
            "award": award,
            "winners": [
                {"entry": entry, "url": f"{detail_prefix}{entry.submission_id}/"} for entry in award.winners
            ],
        }
        for award in awards
    ]


def awards_payload(awards: Sequence[Award]) -> list[dict[str, Any]]:
    """The awards as the JSON download and the API give them."""
    return [
        {
            "category": award.category,
            "name": award.label,
            "metric": award.metric,
            "unit": award.unit,
            "value": award.value,
            "shared": award.shared,
            "winners": [
                {
                    "submission_id": entry.submission_id,
                    "rank": entry.rank,
                    "system": entry.system,
                    "institution": entry.institution,
                    "score": entry.score,
                    "bw": entry.bw,
                    "md": entry.md,
                    "client_nodes": entry.client_nodes,
                }
                for entry in award.winners
            ],
        }
        for award in awards
    ]
