"""Writes of the review workflow. Each transition checks who may take it and from which state,
records who, when and why (a ReviewEvent for the timeline plus the simple-history change reason)
and e-mails the submitter once the change is committed."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from registry.models import Release
from submissions.evidence_basis import current_gap
from submissions.models import (
    EntryDecision,
    ListCategory,
    Questionnaire,
    Reproducibility,
    ReviewComment,
    ReviewEvent,
    ReviewState,
    Submission,
    SubmissionRevision,
    SystemDescription,
)
from submissions.review.decisions import is_marked_duplicate, run_fingerprint_of, unresolved_copies
from submissions.review.mail import comment_notify, committee_notify_submitted, review_event_notify
from submissions.review.models import QUESTIONNAIRE_SECTIONS
from submissions.review.questionnaire import questionnaire_clean, questionnaire_missing
from submissions.review.roles import is_committee
from submissions.review.rules import (
    ASSESSABLE,
    COMMITTEE_WITHDRAWABLE,
    ENTRY_DECIDABLE,
    GAP_ACCEPTABLE,
    REVOCABLE,
    SUBMITTER_EDITABLE,
    SUBMITTER_FIXABLE,
    TRANSITIONS,
    Actor,
    refusal,
)
from submissions.services import submission_create
from submissions.system.description import (
    COUNT_FIELDS,
    FORM_FIELD_NAMES,
    NETWORK_FIELD,
    TEXT_FIELDS,
    system_description_clean,
)
from submissions.system.hardware_fields import QUANTITY_FIELDS, quantity_text
from submissions.system.recheck import system_checks_rerun
from submissions.system.services import storage_system_link

MAX_COMMENT_CHARS = 10_000


def _locked(submission: Submission) -> Submission:
    # Only the submission row is locked; its release and submitter are read along (nullable joins).
    rows = Submission.objects.select_for_update(of=("self",)).select_related("submitter", "release")
    return rows.get(pk=submission.pk)


def _is_own(user: User, submission: Submission) -> bool:
    return submission.submitter_id is not None and submission.submitter_id == user.pk


def _require_own_in(user: User, submission: Submission, states: Collection[str]) -> None:
    """The submitter's own submission, in one of `states` (SUBMITTER_EDITABLE, SUBMITTER_FIXABLE)."""
    if not _is_own(user, submission):
        raise PermissionDenied("Only the submitter can change this submission.")
    if submission.review_state not in states:
        raise ValidationError(
            f"This submission is {submission.get_review_state_display().lower()}, so it can no longer be "
            "changed. If something must be corrected, write a comment to the committee."
        )


def _require_committee(user: User) -> None:
    if not is_committee(user):
        raise PermissionDenied("Only the IO500 committee can take this decision.")


def _record(
    submission: Submission, *, user: User | None, action: str, target: str, reason: str
) -> ReviewEvent:
    event = ReviewEvent.objects.create(
        submission=submission,
        actor=user,
        action=action,
        from_state=submission.review_state,
        to_state=target,
        reason=reason,
    )
    submission.review_state = target
    # simple-history keeps the same who/why on the Submission's own history row.
    # simple-history keeps at most 100 characters of a change reason; the event keeps the whole text.
    change = f"{action}: {reason}" if reason else action
    submission._change_reason = change[:100]  # type: ignore[attr-defined]
    submission._history_user = user  # type: ignore[attr-defined]
    return event


def _notify_on_commit(event: ReviewEvent) -> None:
    transaction.on_commit(lambda: review_event_notify(event))


def _transition(
    *,
    user: User | None,
    submission: Submission,
    action: str,
    reason: str = "",
    gap_phases: Sequence[str] | None = None,
) -> Submission:
    transition = TRANSITIONS[action]
    reason = reason.strip()
    if transition.actor is Actor.COMMITTEE:
        assert user is not None
        _require_committee(user)
    if transition.reason_required and not reason:
        raise ValidationError(f'Say why ("{transition.label}" is sent to the submitter with your reason).')
    with transaction.atomic():
        row = _locked(submission)
        if row.review_state == ReviewState.DUPLICATE:
            _require_one_copy(row)  # says which copy counts, rather than only the state
        problem = refusal(transition, row.review_state, row.get_review_state_display())
        if problem:
            raise ValidationError(problem)
        if action == "accept":
            _require_one_copy(row)
        gap = _gap_named(row, gap_phases) if gap_phases is not None else None
        if gap is not None:
            reason = f"{_gap_sentence(gap[0])} {reason}".strip()
        event = _record(row, user=user, action=action, target=transition.target, reason=reason)
        if gap is not None:
            event.gap_phases, event.gap_archive_sha256 = list(gap[0]), gap[1]
            event.save(update_fields=["gap_phases", "gap_archive_sha256"])
        row.save()
        _notify_on_commit(event)
    return row


# A gap in the evidence (submissions.evidence_basis): the committee accepts it by naming it.


def _gap_sentence(phases: Sequence[str]) -> str:
    return f"Accepted despite missing raw outputs of: {', '.join(phases)}."


def _gap_named(row: Submission, named: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """The gap as it is now, provided the committee named exactly it: a decision covers what the
    committee saw, so a gap that changed since the page was shown must be looked at again."""
    phases, sha = current_gap(row)
    if not phases:
        raise ValidationError(
            "Every scored phase of this run has its raw output: there is no missing evidence to accept."
        )
    if not sha:
        raise ValidationError("This submission has no result archive, so there is no gap in it to accept.")
    if sorted(named) != sorted(phases):
        raise ValidationError(
            f"The evidence changed since the page was shown: the raw outputs missing now are those of "
            f"{', '.join(phases)}. Look at them again before you accept."
        )
    return phases, sha


# The submitter's side.


def _field_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], labels: Mapping[str, str]
) -> list[dict[str, Any]]:
    return [
        {"field": name, "label": label, "before": before.get(name), "after": after.get(name)}
        for name, label in labels.items()
        if before.get(name) != after.get(name)
    ]


def _revision_add(
    submission: Submission,
    *,
    user: User,
    kind: str,
    changes: list[dict[str, Any]],
    snapshot: dict[str, Any],
) -> SubmissionRevision:
    """A new version of the description or questionnaire; once the committee has it (submitted or
    later) the edit also goes on the timeline, so it is seen on the review page."""
    number = SubmissionRevision.objects.filter(submission=submission, kind=kind).count() + 1
    revision = SubmissionRevision.objects.create(
        submission=submission, kind=kind, number=number, author=user, changes=changes, snapshot=snapshot
    )
    if submission.review_state != ReviewState.DRAFT:
        names = ", ".join(change["label"] for change in changes)
        ReviewEvent.objects.create(
            submission=submission,
            actor=user,
            action=f"edit_{kind}",
            from_state=submission.review_state,
            to_state=submission.review_state,
            reason=f"Version {number}: {names}.",
        )
    # The public page's cache key holds updated_at (submissions.selectors).
    submission.save(update_fields=["updated_at"])
    return revision


QUESTIONNAIRE_LABELS = {name: title for name, (title, _question) in QUESTIONNAIRE_SECTIONS.items()}


def questionnaire_record(
    *, user: User, submission: Submission, answers: Mapping[str, object]
) -> Questionnaire:
    """Store (or replace) the reproducibility questionnaire; the submitter's, until it is accepted.
    Every change after the first is a new version naming the answers that changed."""
    clean = questionnaire_clean(answers)
    with transaction.atomic():
        row = _locked(submission)
        _require_own_in(user, row, SUBMITTER_FIXABLE)
        existing = Questionnaire.objects.filter(submission=row).first()
        before = {name: getattr(existing, name) for name in QUESTIONNAIRE_LABELS} if existing else {}
        questionnaire, _ = Questionnaire.objects.update_or_create(submission=row, defaults=clean)
        after = {name: getattr(questionnaire, name) for name in QUESTIONNAIRE_LABELS}
        changes = _field_changes(before, after, QUESTIONNAIRE_LABELS)
        if changes:
            _revision_add(
                row, user=user, kind=SubmissionRevision.Kind.QUESTIONNAIRE, changes=changes, snapshot=after
            )
    return questionnaire


SYSTEM_LABELS = {
    **{name: label.capitalize() for name, label in TEXT_FIELDS.items()},
    **{name: label.capitalize() for name, label in COUNT_FIELDS.items()},
    NETWORK_FIELD: "Client network bandwidth per node (Gbit/s)",
    **{name: label.capitalize() for name, (label, _family, _unit) in QUANTITY_FIELDS.items()},
}


def system_description_values(description: SystemDescription | None) -> dict[str, Any]:
    """The fields a submitter edits, as stored (blank for a submission without a description)."""
    values = {name: getattr(description, name) if description else None for name in FORM_FIELD_NAMES}
    # Amounts as the form takes them back (a bare number would be read in the default unit).
    return {
        name: quantity_text(name, value) if name in QUANTITY_FIELDS else value
        for name, value in values.items()
    }


def _blank(value: Any) -> bool:
    return value is None or value == ""


def system_description_edit(
    *, user: User, submission: Submission, fields: Mapping[str, Any]
) -> SubmissionRevision:
    """The submitter fixes the system description (until accepted): the fields given replace the
    stored ones, a blank clears one, each edit is a version naming what changed. The values are
    checked as at upload; a changed name, institution or file system moves it to that storage system."""
    given = {name: value for name, value in fields.items() if name in FORM_FIELD_NAMES}
    typed = system_description_clean({}, overrides={k: v for k, v in given.items() if not _blank(v)}).fields
    if typed.get("client_nodes") == 0:
        raise ValidationError({"client_nodes": ["The number of client nodes must be at least 1."]})
    with transaction.atomic():
        row = _locked(submission)
        _require_own_in(user, row, SUBMITTER_FIXABLE)
        description = SystemDescription.objects.filter(submission=row).first()
        if description is None:
            description = SystemDescription(submission=row, origin="edited by the submitter")
        before = system_description_values(description)
        for name in given:
            blank = "" if name in TEXT_FIELDS else None
            setattr(description, name, typed.get(name, blank))
        after = system_description_values(description)
        changes = _field_changes(before, after, SYSTEM_LABELS)
        if not changes:
            raise ValidationError("Nothing changed: the description already holds these values.")
        for change in changes:
            # The submitter now vouches for the value, whatever filled it in before.
            description.field_sources.pop(change["field"], None)
        description.save()
        identity = ("system_name", "institution_name", "filesystem_type")
        if any(change["field"] in identity for change in changes):
            row.storage_system = None
            row.save(update_fields=["storage_system", "updated_at"])
            storage_system_link(row, system_description_clean({}, overrides=_identity_of(description)))
        revision = _revision_add(
            row, user=user, kind=SubmissionRevision.Kind.SYSTEM, changes=changes, snapshot=after
        )
        _recheck_on_commit(row, user)
        return revision


def _recheck_on_commit(row: Submission, user: User) -> None:
    """The findings the description checks raised may no longer hold (or new ones may): the checks
    run again on every edit, once the edit is committed, so they read the stored description."""
    pk = row.pk
    transaction.on_commit(lambda: system_checks_rerun(submission_id=pk, user=user))


def _identity_of(description: SystemDescription) -> dict[str, Any]:
    names = ("system_name", "institution_name", "filesystem_type", "storage_vendor")
    return {name: getattr(description, name) for name in names if getattr(description, name)}


def submission_publication_name_set(*, user: User, submission: Submission, anonymous: bool) -> Submission:
    with transaction.atomic():
        row = _locked(submission)
        _require_own_in(user, row, SUBMITTER_EDITABLE)
        row.anonymous = anonymous
        row._change_reason = "publish anonymously" if anonymous else "publish under the submitter's name"  # type: ignore[attr-defined]
        row.save(update_fields=["anonymous", "updated_at"])
    return row


def _submit_problems(submission: Submission) -> list[str]:
    problems: list[str] = []
    status = submission.status
    if status in Submission.IN_PROGRESS_STATUSES:
        problems.append("The archive is still being checked; submit it once its status is Checked here.")
    elif status == Submission.Status.INVALID:
        problems.append(
            "The result is not valid under the IO500 rules (see the findings); upload a valid run instead."
        )
    elif status != Submission.Status.VERIFIED:
        problems.append("The archive could not be verified (see the error); upload the result folder again.")
    if submission.release is None:
        problems.append("Choose the list release this result is submitted to.")
    if submission.storage_system_id is None:
        problems.append(
            "Describe the system first: its name, institution and file-system type identify it on the lists."
        )
    questionnaire = Questionnaire.objects.filter(submission=submission).first()
    if questionnaire is None:
        problems.append("Fill in the reproducibility questionnaire.")
    else:
        missing = questionnaire_missing({name: answer for name, _title, answer in questionnaire.answers()})
        if missing:
            problems.append("Complete these questionnaire answers: " + ", ".join(missing) + ".")
    return problems


def _check_release_for_submit(release: Release, first_time: bool) -> None:
    if not first_time:
        return  # a resubmission after changes were requested keeps its release
    if not release.is_open_for_submissions():
        raise ValidationError(
            f"The call for submissions to {release.name} closed on {release.closes_on:%Y-%m-%d}. "
            "Late submissions are at the committee's discretion: write to the committee, or choose a "
            "release that is open."
        )


def submission_submit(
    *,
    user: User,
    submission: Submission,
    reviewed: bool,
    followed_rules: bool,
    permission_to_publish: bool,
    release: Release | None = None,
    anonymous: bool | None = None,
) -> Submission:
    """draft / changes requested -> submitted, with the three confirmations IO500 asks for."""
    missing = [
        text
        for given, text in (
            (reviewed, "that you have reviewed your submission"),
            (followed_rules, "that you have read and followed the IO500 rules"),
            (permission_to_publish, "that you grant IO500 permission to publish it"),
        )
        if not given
    ]
    if missing:
        raise ValidationError("Confirm " + "; ".join(missing) + ".")
    if submission.source == Submission.Source.AUDIT:
        raise ValidationError("An audit re-run answers its audit; it is never submitted for a list.")
    transition = TRANSITIONS["submit"]
    with transaction.atomic():
        row = _locked(submission)
        if not _is_own(user, row):
            raise PermissionDenied("Only the submitter can submit this result for review.")
        problem = refusal(transition, row.review_state, row.get_review_state_display())
        if problem:
            raise ValidationError(problem)
        if release is not None:
            row.release = release
        if anonymous is not None:
            row.anonymous = anonymous
        problems = _submit_problems(row)
        if problems:
            raise ValidationError(problems)
        assert row.release is not None
        _check_release_for_submit(row.release, first_time=row.review_state == ReviewState.DRAFT)
        event = _record(row, user=user, action="submit", target=transition.target, reason="")
        row.submitted_at = timezone.now()
        row.save()
        _notify_on_commit(event)
        transaction.on_commit(lambda: committee_notify_submitted(row))
    return row


def submission_replace(
    *, user: User, submission: Submission, archive: File[bytes], original_name: str
) -> Submission:
    """A new upload replaces the tarball (until accepted): a new submission, linked as the next version
    of this one, which is kept and marked superseded. The description the submitter gave, the
    questionnaire, the release and the review (state, history, comments) carry over to it."""
    _require_own_in(user, submission, SUBMITTER_FIXABLE)
    description = SystemDescription.objects.filter(submission=submission).first()
    given = {
        name: value
        for name, value in system_description_values(description).items()
        if not _blank(value) and description is not None and name not in description.field_sources
    }
    # The release is set below, not here: a replacement asked for after the call closed still counts.
    new, created = submission_create(
        submitter=user,
        archive=archive,
        original_name=original_name,
        system_fields=given or None,
        system_origin="carried over from the replaced upload",
        ten_node=submission.ten_node,
    )
    if not created:
        raise ValidationError(
            f"You uploaded this exact archive before (submission {new.pk}); upload the corrected one."
        )
    with transaction.atomic():
        old = _locked(submission)
        _require_own_in(user, old, SUBMITTER_FIXABLE)
        row = _locked(new)
        row.supersedes = old
        row.release = old.release
        for name in ("review_state", "submitted_at", "anonymous", "category", "reproducibility"):
            setattr(row, name, getattr(old, name))
        questionnaire = Questionnaire.objects.filter(submission=old).first()
        if questionnaire is not None:
            answers = {name: getattr(questionnaire, name) for name in QUESTIONNAIRE_LABELS}
            Questionnaire.objects.create(submission=row, **answers)
        ReviewEvent.objects.create(
            submission=row,
            actor=user,
            action="replace",
            from_state=old.review_state,
            to_state=old.review_state,
            reason=f"Replaces the tarball of submission {old.pk}; its review carries over.",
        )
        row._change_reason = f"replaces submission {old.pk}"  # type: ignore[attr-defined]
        row.save()
        _record(
            old,
            user=user,
            action="replace",
            target=ReviewState.SUPERSEDED,
            reason=f"Replaced by a new upload, submission {row.pk}.",
        )
        old.save()
    return row


# The committee's side.


def submission_review_start(*, user: User, submission: Submission, reason: str = "") -> Submission:
    return _transition(user=user, submission=submission, action="start_review", reason=reason)


def submission_accept(
    *, user: User, submission: Submission, reason: str = "", gap_phases: Sequence[str] | None = None
) -> Submission:
    """Accept; with `gap_phases`, also accept the run's missing raw outputs, named (they must be the
    scored phases the run lacks them for, as the committee was shown)."""
    return _transition(
        user=user, submission=submission, action="accept", reason=reason, gap_phases=gap_phases
    )


def submission_request_changes(*, user: User, submission: Submission, reason: str) -> Submission:
    return _transition(user=user, submission=submission, action="request_changes", reason=reason)


def submission_reject(*, user: User, submission: Submission, reason: str) -> Submission:
    return _transition(user=user, submission=submission, action="reject", reason=reason)


COMMITTEE_DECISIONS = {
    "start_review": submission_review_start,
    "accept": submission_accept,
    "request_changes": submission_request_changes,
    "reject": submission_reject,
}


def submission_assess(
    *,
    user: User,
    submission: Submission,
    reproducibility: str,
    category: str,
    reason: str = "",
    ten_node: bool | None = None,
) -> Submission:
    """The committee assigns the reproducibility level and the list category (production/research),
    confirming or changing the lists the submitter asked for at upload; `ten_node` (None: as asked)
    confirms or changes the 10-node request."""
    _require_committee(user)
    if reproducibility not in Reproducibility.values:
        raise ValidationError(f'"{reproducibility}" is not a reproducibility level.')
    if category not in ListCategory.values:
        raise ValidationError(f'"{category}" is not a list category; choose production or research.')
    with transaction.atomic():
        row = _locked(submission)
        if row.review_state not in ASSESSABLE:
            raise ValidationError(
                f"A submission that is {row.get_review_state_display().lower()} cannot be assessed; "
                "assess it while it is submitted, under review or accepted."
            )
        row.reproducibility = reproducibility
        row.category = category
        summary = f"{row.get_reproducibility_display()}, {row.get_category_display()}"
        if ten_node is not None:
            if ten_node != row.ten_node:
                # The 10-node checks read the request: they run again once this is committed.
                _recheck_on_commit(row, user)
            row.ten_node = ten_node
            summary += ", 10-node lists too" if ten_node else ", not the 10-node lists"
        event = ReviewEvent.objects.create(
            submission=row,
            actor=user,
            action="assess",
            from_state=row.review_state,
            to_state=row.review_state,
            reason=f"{summary}. {reason.strip()}".strip(),
        )
        row._change_reason = f"assess: {event.reason}"  # type: ignore[attr-defined]
        row._history_user = user  # type: ignore[attr-defined]
        row.save(update_fields=["reproducibility", "category", "ten_node", "updated_at"])
        _notify_on_commit(event)
    return row


def submission_gap_accept(
    *, user: User, submission: Submission, gap_phases: Sequence[str], reason: str = ""
) -> ReviewEvent:
    """The committee accepts a run although scored phases lack their raw outputs, naming them; the
    review state stays. For runs already accepted or published (imported history, a gap found by a
    re-verification); a submission still under review takes it with its acceptance."""
    _require_committee(user)
    with transaction.atomic():
        row = _locked(submission)
        if row.review_state not in GAP_ACCEPTABLE:
            raise ValidationError(
                f"A submission that is {row.get_review_state_display().lower()} is on no list, so there "
                "is no missing evidence to accept for it."
            )
        phases, sha = _gap_named(row, gap_phases)
        event = ReviewEvent.objects.create(
            submission=row,
            actor=user,
            action="accept_gap",
            from_state=row.review_state,
            to_state=row.review_state,
            reason=f"{_gap_sentence(phases)} {reason.strip()}".strip(),
            gap_phases=list(phases),
            gap_archive_sha256=sha,
        )
        # simple-history keeps at most 100 characters of a change reason; the event keeps it all.
        row._change_reason = f"accept_gap: {', '.join(phases)}"[:100]  # type: ignore[attr-defined]
        row._history_user = user  # type: ignore[attr-defined]
        # Saving moves updated_at, which the public page's cache key holds (submissions.selectors).
        row.save(update_fields=["updated_at"])
        _notify_on_commit(event)
    return event


def submission_publish(*, user: User | None, submission: Submission, list_title: str) -> Submission:
    """accepted -> published: the committee published a list holding it (called by list publishing)."""
    return _transition(
        user=user, submission=submission, action="publish", reason=f"Published on the {list_title} list."
    )


# Per-entry decisions: taken at any time, each with a reason, recorded as an EntryDecision (which the
# list build applies, submissions.review.decisions) and a ReviewEvent (the submission's timeline).


def _require_reason(reason: str, what: str) -> str:
    text = reason.strip()
    if not text:
        raise ValidationError(f"Say why {what}: the reason is recorded with the decision and shown with it.")
    return text


def _decide(
    row: Submission,
    *,
    user: User | None,
    kind: str,
    reason: str,
    target: str | None = None,
    notify: bool = True,
    event_reason: str | None = None,
    **fields: object,
) -> EntryDecision:
    decision = EntryDecision.objects.create(
        submission=row, kind=kind, actor=user, reason=reason, state_before=row.review_state, **fields
    )
    said = decision.summary if event_reason is None else event_reason
    event = _record(row, user=user, action=kind, target=target or row.review_state, reason=said)
    row.save()
    if notify:
        _notify_on_commit(event)
    return decision


def _require_one_copy(row: Submission) -> None:
    """The same run cannot be accepted twice: the committee first says which copy counts."""
    marked = is_marked_duplicate(row.pk)
    if marked is not None:
        raise ValidationError(
            f"This copy is marked a duplicate of submission {marked.duplicate_of_id} ({marked.reason}); "
            "that copy counts, so this one cannot be accepted."
        )
    copies = unresolved_copies(row)
    if copies:
        named = ", ".join(
            f"submission {copy.pk} ({copy.get_review_state_display().lower()})" for copy in copies
        )
        raise ValidationError(
            f"The same run (the same fingerprint) is also {named}. Decide which copy counts first: mark "
            "the other one a duplicate of it, with a reason; then accept."
        )


def submission_withdraw(*, user: User, submission: Submission, reason: str) -> EntryDecision:
    """The submitter takes their submission back before it is published: it leaves the review and
    every list still to be built."""
    text = _require_reason(reason, "you withdraw it")
    with transaction.atomic():
        row = _locked(submission)
        if not _is_own(user, row):
            raise PermissionDenied("Only the submitter can withdraw this submission.")
        transition = TRANSITIONS["withdraw"]
        problem = refusal(transition, row.review_state, row.get_review_state_display())
        if problem:
            raise ValidationError(problem)
        # The submitter gets a confirmation in their words (mail "withdrawn"); the committee sees the
        # step in the timeline.
        return _decide(
            row,
            user=user,
            kind=EntryDecision.Kind.WITHDRAW,
            reason=text,
            target=transition.target,
            # The timeline names the action ("Withdrawn by the submitter"); the event keeps their words.
            event_reason=text,
        )


def submission_withdraw_published(*, user: User, submission: Submission, reason: str) -> EntryDecision:
    """The committee takes a published submission back: the next version of every list leaves it out.
    Its state stays published: the versions already published still list it, and their entries and
    permalinks must keep leading to its page; the decision on its timeline says it was withdrawn."""
    _require_committee(user)
    text = _require_reason(reason, "it is withdrawn")
    with transaction.atomic():
        row = _locked(submission)
        if row.review_state not in COMMITTEE_WITHDRAWABLE:
            raise ValidationError(
                f"This submission is {row.get_review_state_display().lower()}: only a published one is "
                "withdrawn by the committee (reject one under review; the submitter withdraws their own)."
            )
        if (
            EntryDecision.objects.active()
            .filter(submission=row, kind=EntryDecision.Kind.WITHDRAW_PUBLISHED)
            .exists()
        ):
            raise ValidationError(f"Submission {row.pk} is already withdrawn from the lists.")
        return _decide(row, user=user, kind=EntryDecision.Kind.WITHDRAW_PUBLISHED, reason=text)


def _require_decidable(row: Submission) -> None:
    if row.review_state not in ENTRY_DECIDABLE:
        raise ValidationError(
            f"This submission is {row.get_review_state_display().lower()}: it is on no list, so there is "
            "nothing to decide about its entry."
        )


def submission_exclude(
    *, user: User, submission: Submission, release: Release, list_kind: str, reason: str
) -> EntryDecision:
    """The committee excludes a submission from the `list_kind` lists of `release` and of the
    releases after it (which carry that list over)."""
    _require_committee(user)
    text = _require_reason(reason, "it is excluded")
    if list_kind not in release.list_kinds:
        offered = ", ".join(release.list_kinds) or "none"
        raise ValidationError(f'{release.name} publishes no "{list_kind}" list (its lists: {offered}).')
    with transaction.atomic():
        row = _locked(submission)
        _require_decidable(row)
        already = (
            EntryDecision.objects.active()
            .filter(
                submission=row,
                kind=EntryDecision.Kind.EXCLUDE,
                list_kind=list_kind,
                release__publication_date__lte=release.publication_date,
            )
            .first()
        )
        if already is not None:
            raise ValidationError(f"Submission {row.pk} is already {already.summary}")
        return _decide(
            row, user=user, kind=EntryDecision.Kind.EXCLUDE, reason=text, list_kind=list_kind, release=release
        )


def submission_move(*, user: User, submission: Submission, release: Release, reason: str) -> EntryDecision:
    """The committee files a submission under another release (e.g. one uploaded to the wrong call):
    its old release's next list versions leave it out, the new release's lists take it."""
    _require_committee(user)
    text = _require_reason(reason, "it is moved")
    with transaction.atomic():
        row = _locked(submission)
        _require_decidable(row)
        if row.release_id == release.pk:
            raise ValidationError(f"Submission {row.pk} is already filed under {release.name}.")
        before = row.release
        row.release = release
        return _decide(
            row, user=user, kind=EntryDecision.Kind.MOVE, reason=text, release=release, from_release=before
        )


def submission_mark_duplicate(
    *, user: User, submission: Submission, original: Submission, reason: str
) -> EntryDecision:
    """The committee says which copy of the same run counts: `submission` is a duplicate of
    `original` and stays off every list; `original` may then be accepted."""
    _require_committee(user)
    text = _require_reason(reason, "this copy is the duplicate")
    if original.pk == submission.pk:
        raise ValidationError("A submission cannot be a duplicate of itself; choose the other copy.")
    with transaction.atomic():
        row = _locked(submission)
        _require_decidable(row)
        fingerprint = run_fingerprint_of(row)
        if not fingerprint or fingerprint != run_fingerprint_of(original):
            raise ValidationError(
                f"Submission {row.pk} and submission {original.pk} do not hold the same run (their "
                "fingerprints differ); a duplicate mark is only for copies of one run."
            )
        if is_marked_duplicate(original.pk) is not None:
            raise ValidationError(
                f"Submission {original.pk} is itself marked a duplicate; the copy that counts must be one "
                "that is not."
            )
        if is_marked_duplicate(row.pk) is not None:
            raise ValidationError(f"Submission {row.pk} is already marked a duplicate.")
        # The copy that does not count leaves the review queue and the counts of what waits (its state
        # says so, wherever states are shown); revoking the mark restores the state it had. A published
        # copy stays published: the versions that list it keep leading to its page.
        published = row.review_state == ReviewState.PUBLISHED
        return _decide(
            row,
            user=user,
            kind=EntryDecision.Kind.DUPLICATE,
            reason=text,
            target=ReviewState.PUBLISHED if published else ReviewState.DUPLICATE,
            duplicate_of=original,
        )


def entry_decision_revoke(*, user: User, decision: EntryDecision, reason: str) -> EntryDecision:
    """The committee revokes one of its per-entry decisions, with a reason. The decision stays
    recorded (who revoked it, when, why) and no longer applies: the next list version takes the
    entry back; a move returns the submission to the release it came from, a duplicate mark restores
    the state it had."""
    _require_committee(user)
    text = _require_reason(reason, "the decision is revoked")
    with transaction.atomic():
        row = _locked(decision.submission)
        found = EntryDecision.objects.select_for_update().get(pk=decision.pk, submission=row)
        if found.kind not in REVOCABLE:
            raise ValidationError(
                f"{found.get_kind_display()} is the submitter's decision; the committee cannot revoke it."
            )
        if found.is_revoked:
            raise ValidationError(f"This decision was already revoked on {found.revoked_at:%Y-%m-%d}.")
        target = row.review_state
        if found.kind == EntryDecision.Kind.MOVE:
            if row.release_id != found.release_id:
                raise ValidationError(
                    f"Submission {row.pk} is no longer filed under "
                    f"{found.release.name if found.release else 'that release'}: a later move changed it; "
                    "revoke that one first."
                )
            row.release = found.from_release
        if found.kind == EntryDecision.Kind.DUPLICATE:
            target = found.state_before or ReviewState.SUBMITTED
            # Back in the workflow, it is a copy of the run again: the committee says anew which counts.
            if target == ReviewState.ACCEPTED and unresolved_copies(row):
                target = ReviewState.UNDER_REVIEW
        found.revoked_at = timezone.now()
        found.revoked_by = user
        found.revoke_reason = text
        found.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
        event = _record(
            row,
            user=user,
            action="revoke",
            target=target,
            reason=f"{found.get_kind_display()} revoked ({found.summary}): {text}",
        )
        row.save()
        _notify_on_commit(event)
    return found


# Comments.


def comment_add(
    *, user: User, submission: Submission, body: str, parent_id: int | None = None
) -> ReviewComment:
    """A comment of the committee or the submission's submitter, optionally answering another one."""
    if not (is_committee(user) or _is_own(user, submission)):
        raise PermissionDenied("Only the submitter and the IO500 committee can comment on this submission.")
    text = body.strip()
    if not text:
        raise ValidationError("Write something before sending the comment.")
    if len(text) > MAX_COMMENT_CHARS:
        raise ValidationError(f"Keep the comment under {MAX_COMMENT_CHARS:,} characters.")
    parent = None
    if parent_id is not None:
        parent = ReviewComment.objects.filter(pk=parent_id, submission=submission).first()
        if parent is None:
            raise ValidationError("The comment you answer does not belong to this submission.")
    comment = ReviewComment.objects.create(submission=submission, author=user, parent=parent, body=text)
    transaction.on_commit(lambda: comment_notify(submission, user, text))
    return comment


def entry_decision_take(
    *,
    user: User,
    submission: Submission,
    kind: str,
    reason: str,
    list_kind: str = "",
    release: Release | None = None,
    duplicate_of: Submission | None = None,
) -> EntryDecision:
    """One per-entry decision by its kind (the page and the API both take them through here)."""
    if kind == EntryDecision.Kind.WITHDRAW:
        return submission_withdraw(user=user, submission=submission, reason=reason)
    if kind == EntryDecision.Kind.WITHDRAW_PUBLISHED:
        return submission_withdraw_published(user=user, submission=submission, reason=reason)
    if kind == EntryDecision.Kind.EXCLUDE:
        target = release or submission.release
        if target is None:
            raise ValidationError("Name the release whose list the submission leaves.")
        return submission_exclude(
            user=user, submission=submission, release=target, list_kind=list_kind, reason=reason
        )
    if kind == EntryDecision.Kind.MOVE:
        if release is None:
            raise ValidationError("Name the release the submission moves to.")
        return submission_move(user=user, submission=submission, release=release, reason=reason)
    if kind == EntryDecision.Kind.DUPLICATE:
        if duplicate_of is None:
            raise ValidationError(
                "Name the copy of the run that counts (the submission this one duplicates)."
            )
        return submission_mark_duplicate(
            user=user, submission=submission, original=duplicate_of, reason=reason
        )
    raise ValidationError(
        f'"{kind}" is not a decision; the decisions are {", ".join(EntryDecision.Kind.values)}.'
    )
