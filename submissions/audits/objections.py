"""The writes of objections: a submitter of a release objects to an entry of its draft list, the
committee answers (upheld or dismissed, with a text) and may revoke its answer with a reason."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from registry.models import ListSnapshot
from submissions.audits import mail
from submissions.audits.models import Objection, ObjectionAnswer
from submissions.audits.selectors import may_object, objection_current_answer
from submissions.review.roles import is_committee


def objection_file(*, user: User, snapshot: ListSnapshot, submission_id: int, reason: str) -> Objection:
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say what is wrong with this entry."})
    if snapshot.status != ListSnapshot.Status.DRAFT:
        raise ValidationError("Objections are filed against a draft list, before it is published.")
    if not may_object(user=user, release=snapshot.release):
        raise PermissionDenied(f"Only a submitter with a submission in {snapshot.release.name} may object.")
    entry = snapshot.entries.filter(submission_id=submission_id).select_related("submission").first()
    if entry is None:
        raise ValidationError("That submission is not an entry of this draft list.")
    if entry.submission.submitter_id == user.pk:
        raise ValidationError("You cannot object to your own entry; withdraw it instead.")
    objection = Objection.objects.create(
        release=snapshot.release,
        kind=snapshot.kind,
        submission=entry.submission,
        objector=user,
        reason=reason,
    )
    transaction.on_commit(lambda: mail.objection_filed(objection))
    return objection


def objection_answer(*, user: User, objection: Objection, outcome: str, text: str) -> ObjectionAnswer:
    if not is_committee(user):
        raise PermissionDenied("Only the IO500 committee answers objections.")
    text = text.strip()
    if outcome not in ObjectionAnswer.Outcome.values:
        raise ValidationError({"outcome": "Uphold or dismiss the objection."})
    if not text:
        raise ValidationError({"text": "Give the answer's reason; the objector and the submitter read it."})
    with transaction.atomic():
        Objection.objects.select_for_update().get(pk=objection.pk)
        if objection_current_answer(objection) is not None:
            raise ValidationError("This objection is answered; revoke the answer first to change it.")
        answer = ObjectionAnswer.objects.create(
            objection=objection, outcome=outcome, text=text, answered_by=user, answered_at=timezone.now()
        )
    transaction.on_commit(lambda: mail.objection_answered(answer))
    return answer


def objection_answer_revoke(*, user: User, answer: ObjectionAnswer, reason: str) -> ObjectionAnswer:
    """The answer stays on record, marked revoked; the objection is open again."""
    if not is_committee(user):
        raise PermissionDenied("Only the IO500 committee revokes its answers.")
    if not reason.strip():
        raise ValidationError({"reason": "Say why the answer is revoked."})
    if answer.revoked_at is not None:
        raise ValidationError("This answer was revoked already.")
    answer.revoked_at = timezone.now()
    answer.revoked_by = user
    answer.revoke_reason = reason.strip()
    answer.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    return answer
