"""python manage.py decide SUBMISSION DECISION --reason TEXT --user NAME [--release SLUG] [--list KIND]
[--of SUBMISSION] [--accept-gap PHASES] [--decision ID]

The committee's decisions from the command line, through the services the pages and the API call:
the review decisions (start-review, accept, request-changes, reject) and the per-entry ones (exclude
from a list, move to another release, withdraw, duplicate-of another copy of the same run), and
`revoke` of one of those per-entry decisions (`--decision ID`, or the only one in force). A refusal
exits non-zero with the service's reason; nothing is recorded then.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from registry.models import Release
from submissions.models import EntryDecision, ReviewState, Submission
from submissions.review.rules import REVOCABLE
from submissions.review.services import (
    COMMITTEE_DECISIONS,
    entry_decision_revoke,
    entry_decision_take,
    submission_accept,
)

REVIEW = {name.replace("_", "-"): name for name in COMMITTEE_DECISIONS}
ENTRY = {
    "exclude": EntryDecision.Kind.EXCLUDE,
    "move": EntryDecision.Kind.MOVE,
    "withdraw": EntryDecision.Kind.WITHDRAW,
    "duplicate-of": EntryDecision.Kind.DUPLICATE,
}


class Command(BaseCommand):
    help = "Take a committee decision on a submission (review or per-entry), with a reason."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("submission", type=int, help="The submission's id.")
        parser.add_argument("decision", choices=[*REVIEW, *ENTRY, "revoke"])
        parser.add_argument("--reason", default="", help="Why; recorded with the decision and shown with it.")
        parser.add_argument("--user", required=True, help="The committee member taking the decision.")
        parser.add_argument("--release", default="", help="exclude: the release's list; move: the target.")
        parser.add_argument("--list", dest="list_kind", default="", help="exclude: the list kind.")
        parser.add_argument("--of", type=int, default=None, help="duplicate-of: the copy that counts.")
        parser.add_argument(
            "--accept-gap",
            default=None,
            help="accept: the scored phases without raw outputs accepted with the run, comma-separated.",
        )
        parser.add_argument(
            "--decision",
            dest="decision_id",
            type=int,
            default=None,
            help="revoke: the id of the decision revoked (default: the submission's only one in force).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f'There is no account "{options["user"]}".')
        submission = _submission(options["submission"])
        decision = options["decision"]
        try:
            gap = options["accept_gap"]
            if gap is not None and decision != "accept":
                raise CommandError("--accept-gap goes with accept only.")
            if decision == "accept":
                phases = (
                    [name.strip() for name in gap.split(",") if name.strip()] if gap is not None else None
                )
                row = submission_accept(
                    user=user, submission=submission, reason=options["reason"], gap_phases=phases
                )
                self.stdout.write(f"Submission {row.pk} is now {row.get_review_state_display().lower()}.")
                return
            if decision == "revoke":
                revoked = entry_decision_revoke(
                    user=user,
                    decision=_revocable(submission, options["decision_id"]),
                    reason=options["reason"],
                )
                self.stdout.write(
                    f"Submission {submission.pk}: revoked the decision {revoked.pk} ({revoked.summary})."
                )
                return
            if decision in REVIEW:
                row = COMMITTEE_DECISIONS[REVIEW[decision]](
                    user=user, submission=submission, reason=options["reason"]
                )
                self.stdout.write(f"Submission {row.pk} is now {row.get_review_state_display().lower()}.")
                return
            kind = ENTRY[decision]
            if kind == EntryDecision.Kind.WITHDRAW and submission.review_state == ReviewState.PUBLISHED:
                # The committee withdraws a published run; before publication it is the submitter's step.
                kind = EntryDecision.Kind.WITHDRAW_PUBLISHED
            taken = entry_decision_take(
                user=user,
                submission=submission,
                kind=kind,
                reason=options["reason"],
                list_kind=options["list_kind"],
                release=_release(options["release"]),
                duplicate_of=_submission(options["of"]) if options["of"] is not None else None,
            )
        except (ValidationError, PermissionDenied) as error:
            said = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            raise CommandError(f"Refused: {said}") from error
        self.stdout.write(f"Submission {submission.pk}: {taken.summary}")


def _submission(pk: int) -> Submission:
    found = Submission.objects.filter(pk=pk).first()
    if found is None:
        raise CommandError(f"There is no submission {pk}.")
    return found


def _release(slug: str) -> Release | None:
    if not slug:
        return None
    found = Release.objects.filter(slug=slug.lower()).first()
    if found is None:
        raise CommandError(f'There is no release "{slug}".')
    return found


def _revocable(submission: Submission, decision_id: int | None) -> EntryDecision:
    """The decision named, or the submission's only committee decision in force."""
    decisions = EntryDecision.objects.filter(submission=submission)
    if decision_id is not None:
        found = decisions.filter(pk=decision_id).first()
        if found is None:
            raise CommandError(f"Submission {submission.pk} has no decision {decision_id}.")
        return found
    active = list(decisions.active().filter(kind__in=REVOCABLE))
    if len(active) != 1:
        listed = ", ".join(f"{d.pk} ({d.summary})" for d in active) or "none"
        raise CommandError(
            f"Name the decision to revoke with --decision; submission {submission.pk}'s decisions in force: "
            f"{listed}."
        )
    return active[0]
