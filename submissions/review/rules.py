"""The review workflow as data: which action moves a submission from which states to which, and
whose action it is. No queries here; the services enforce it and the pages offer only what fits.

    draft ──submit──> submitted ──start_review──> under_review ──accept──> accepted ──publish──> published
      ▲                  │                           │    │
      └── (submitter edits; changes_requested ──submit──┘    └──reject──> rejected

Before acceptance the submitter may replace the tarball by a new upload, which leaves this one
superseded. Per-entry decisions (submissions.review.services, "Per-entry decisions") stand beside
this path: the submitter withdraws before publication (the "withdraw" transition, -> withdrawn; it
is recorded as a decision too), the committee withdraws after it (the state
stays published: earlier list versions still show the run; the next ones leave it out), and the
committee excludes a submission from a kind of list, moves it to another release or marks it a
duplicate of another copy of the same run at any time. Only the duplicate mark changes the state
(-> duplicate, out of the queue; a published copy stays published); each of these committee
decisions can be revoked with a reason, which restores what it changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from submissions.models import EntryDecision, ReviewState


class Actor(Enum):
    SUBMITTER = "submitter"  # the submission's own submitter
    COMMITTEE = "committee"
    SYSTEM = "system"  # the registry itself, when the committee publishes a list


@dataclass(frozen=True)
class Transition:
    action: str
    label: str
    sources: frozenset[str]
    target: str
    actor: Actor
    reason_required: bool = False
    # How the button looks: "primary" moves it towards the lists, "neutral" asks for more,
    # "destructive" takes it off them; a destructive one is confirmed on a page of its own.
    consequence: str = "neutral"

    @property
    def destructive(self) -> bool:
        return self.consequence == "destructive"


TRANSITIONS: dict[str, Transition] = {
    t.action: t
    for t in (
        Transition(
            "submit",
            "Submit for review",
            frozenset({ReviewState.DRAFT, ReviewState.CHANGES_REQUESTED}),
            ReviewState.SUBMITTED,
            Actor.SUBMITTER,
        ),
        Transition(
            "start_review",
            "Start the review",
            frozenset({ReviewState.SUBMITTED}),
            ReviewState.UNDER_REVIEW,
            Actor.COMMITTEE,
        ),
        Transition(
            "accept",
            "Accept",
            frozenset({ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW}),
            ReviewState.ACCEPTED,
            Actor.COMMITTEE,
            consequence="primary",
        ),
        Transition(
            "request_changes",
            "Request changes",
            frozenset({ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW, ReviewState.ACCEPTED}),
            ReviewState.CHANGES_REQUESTED,
            Actor.COMMITTEE,
            reason_required=True,
        ),
        Transition(
            "reject",
            "Reject",
            frozenset({ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW, ReviewState.ACCEPTED}),
            ReviewState.REJECTED,
            Actor.COMMITTEE,
            reason_required=True,
            consequence="destructive",
        ),
        Transition(
            "publish",
            "Publish",
            frozenset({ReviewState.ACCEPTED}),
            ReviewState.PUBLISHED,
            Actor.SYSTEM,
        ),
        Transition(
            "withdraw",
            "Withdraw",
            frozenset(
                {
                    ReviewState.DRAFT,
                    ReviewState.SUBMITTED,
                    ReviewState.UNDER_REVIEW,
                    ReviewState.CHANGES_REQUESTED,
                    ReviewState.ACCEPTED,
                }
            ),
            ReviewState.WITHDRAWN,
            Actor.SUBMITTER,
            reason_required=True,
            consequence="destructive",
        ),
    )
}

# The states in which the submitter may still change what they submitted.
SUBMITTER_EDITABLE = frozenset({ReviewState.DRAFT, ReviewState.CHANGES_REQUESTED})
# The states in which the submitter may still fix the system description and the questionnaire (a
# new version each, which the committee sees) or replace the tarball: until the submission is accepted.
SUBMITTER_FIXABLE = frozenset(
    {ReviewState.DRAFT, ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW, ReviewState.CHANGES_REQUESTED}
)
# The states in which the committee may assign the reproducibility level and the list category.
ASSESSABLE = frozenset({ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW, ReviewState.ACCEPTED})
# The states in which the committee may accept a run's missing raw outputs on their own (a run
# under review takes it with "Accept"; imported history is published already).
GAP_ACCEPTABLE = frozenset(
    {ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW, ReviewState.ACCEPTED, ReviewState.PUBLISHED}
)
# The states the submitter may withdraw from: anything not yet on a published list.
SUBMITTER_WITHDRAWABLE = TRANSITIONS["withdraw"].sources
# Once published, taking a run back is the committee's decision (a correction of the lists follows).
COMMITTEE_WITHDRAWABLE = frozenset({ReviewState.PUBLISHED})
# Exclusions, moves and duplicate marks: every state but the ones that leave the workflow.
# A superseded one is on no list either: the new upload that replaced it is.
ENTRY_DECIDABLE = frozenset(ReviewState.values) - {
    ReviewState.WITHDRAWN,
    ReviewState.REJECTED,
    ReviewState.SUPERSEDED,
    ReviewState.DUPLICATE,
}
# The per-entry decisions the committee may revoke (with a reason): its own. A submitter's withdrawal
# is theirs; to list the run again they upload it again.
REVOCABLE = frozenset(
    {
        EntryDecision.Kind.EXCLUDE,
        EntryDecision.Kind.MOVE,
        EntryDecision.Kind.WITHDRAW_PUBLISHED,
        EntryDecision.Kind.DUPLICATE,
    }
)
# The review queue: everything waiting for a committee decision.
AWAITING_REVIEW = (ReviewState.SUBMITTED, ReviewState.UNDER_REVIEW)


def committee_actions(state: str) -> list[Transition]:
    """The decisions the committee can take on a submission in this state, in display order."""
    return [t for t in TRANSITIONS.values() if t.actor is Actor.COMMITTEE and state in t.sources]


def refusal(transition: Transition, state: str, state_label: str) -> str | None:
    """Why this transition cannot happen from `state`, or None when it can."""
    if state in transition.sources:
        return None
    if transition.action == "submit":
        return (
            f"This submission is {state_label.lower()}; only a draft or a submission with changes "
            "requested can be submitted for review."
        )
    if transition.action == "withdraw":
        return (
            f"This submission is {state_label.lower()}; only a submission not yet published can be "
            "withdrawn. To take a published result off a list, write to the committee."
        )
    return f'A submission that is {state_label.lower()} cannot be moved on with "{transition.label}".'
