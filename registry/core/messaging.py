"""The IO500 Messaging Policy's terms of art, in one place: what makes a result "verified" or
"unverified", the rules on comparisons and derived metrics, and the sentence every page, citation,
API record and download shows with a result's term.

The quotes are exact, from IO500/webpage templates/Pages/rules_messaging.php at commit
275f0324fceebc38f6f0da2a2a12cf787f806f7f (shown at io500.org under Rules, "Messaging Policy"; the
definitions read the same at d244008, the snapshot frontend.pages.sources names, except for the
registered-trademark sign). When io500.org changes the policy, the quotes and POLICY_COMMIT change
together here.

Which of the registry's lists count as "a published IO500 List": those io500.org published (recorded)
and those the registry's committee published here; a list the registry reconstructed from the public
data was published by no IO500 committee, so a place on it makes no result verified.
"""

from __future__ import annotations

from dataclasses import dataclass

POLICY_REPO = "https://github.com/IO500/webpage"
POLICY_PATH = "templates/Pages/rules_messaging.php"
POLICY_COMMIT = "275f0324fceebc38f6f0da2a2a12cf787f806f7f"
POLICY_URL = "https://io500.org/pages/rules-messaging"
POLICY_SOURCE_URL = f"{POLICY_REPO}/blob/{POLICY_COMMIT}/{POLICY_PATH}"
POLICY_NAME = "IO500 Messaging Policy"

VERIFIED = "verified"
UNVERIFIED = "unverified"
TERMS = (VERIFIED, UNVERIFIED)

VERIFIED_DEFINITION = (
    "If a submission is officially listed on a published IO500® List, then mention of the IO500 "
    "benchmark result must be listed as “verified”. A “verified” submission has been audited by the "
    "committee for correctness of the whole submission package."
)
UNVERIFIED_DEFINITION = (
    "If an IO500 benchmark result is not on any IO500 list, and therefore has not been verified by the "
    "IO500 committee, the result must be stated as being “unverified”."
)
LIST_INSTANCE_RULE = (
    "Any mention of a result must explicitly state the list on which the submission exists (e.g., "
    "Production List, Research List) and the specific Birds of a Feather (BoF) session from which the "
    "list was derived (e.g., SC25)."
)
RANKING_RULE = (
    "When specifying a ranking, you must provide the precise rank for the metric that was published. "
    "If an entry is ranked #5 based on overall score on the Production list, it must be cited as "
    '"#5 on the Production list at SC25."'
)
PUBLISHED_METRICS_RULE = (
    "When creating custom comparisons, you may only use existing columns published by the IO500 (or "
    "values derived from these columns). You cannot invent metrics if that data point is not a "
    "standard IO500 column."
)
NO_INTER_LIST_RULE = (
    "Comparisons must be made within a single metric on a specific list. Comparing a bandwidth score "
    "from the Research List against one from the Production List is prohibited, since the criteria for "
    "placement in the two lists is different."
)

# The list provenances (registry.models.ListSnapshot.Provenance values) that are IO500 lists.
OFFICIAL_PROVENANCES = frozenset({"recorded", "published_here"})

RECONSTRUCTED_NOTE = (
    "A list this registry reconstructed from the public data was published by no IO500 committee: a "
    "place on it makes no result verified."
)
# What the registry's own check of a run's files is called, never "verified" (that is the policy's).
CHECKED_HERE = "checked here"
DERIVED_VIEW_NOTE = (
    "A derived view of this registry, not an IO500 metric or list: its ranks and values are not "
    "IO500 ranks. The IO500 Messaging Policy allows custom comparisons only on IO500's published "
    f"columns or values derived from them: “{PUBLISHED_METRICS_RULE}”"
)


@dataclass(frozen=True)
class MessagingStatus:
    """A result's term under the Messaging Policy and the sentence that explains it."""

    term: str
    sentence: str

    @property
    def verified(self) -> bool:
        return self.term == VERIFIED

    def as_dict(self) -> dict[str, str]:
        return {"term": self.term, "sentence": self.sentence, "policy": POLICY_URL}


def is_official_provenance(provenance: str) -> bool:
    """Whether a list of this provenance is a published IO500 list."""
    return provenance in OFFICIAL_PROVENANCES


def messaging_status(*, on_official_list: bool) -> MessagingStatus:
    """The term of a result: verified when it is on a published IO500 list anyone may read."""
    if on_official_list:
        return MessagingStatus(
            VERIFIED,
            "Officially listed on a published IO500 list, so the IO500 Messaging Policy asks that any "
            "mention of it call it “verified” and name that list and its BoF.",
        )
    return MessagingStatus(
        UNVERIFIED,
        "On no published IO500 list, so the IO500 Messaging Policy asks that any mention of it call "
        "it “unverified” (and state any change to the benchmark's execution).",
    )


def list_messaging_status(provenance: str) -> MessagingStatus:
    """The term an entry of a list of this provenance may be quoted with, for its place there."""
    if is_official_provenance(provenance):
        return messaging_status(on_official_list=True)
    return MessagingStatus(
        UNVERIFIED,
        "“Unverified” for a place on this list: this registry reconstructed it from the public data and "
        "no IO500 committee published it.",
    )


def inter_list_warning(lists_by_run: dict[int, set[tuple[str, str]]]) -> str:
    """Why runs compared side by side are no comparison the policy allows, else "": they share no
    ranked IO500 list (one release, one kind). `lists_by_run` names each run's lists as
    (release, list name) pairs."""
    if len(lists_by_run) < 2:
        return ""
    shared = set.intersection(*lists_by_run.values())
    if shared:
        return ""
    placed = []
    for pk, lists in lists_by_run.items():
        names = ", ".join(f"{kind} list at {release}" for release, kind in sorted(lists)) or "no IO500 list"
        placed.append(f"#{pk}: {names}")
    return (
        "These runs are not all on one IO500 list (" + "; ".join(placed) + "). The IO500 Messaging "
        f"Policy: “{NO_INTER_LIST_RULE}” Quote each result with its own list and term."
    )
