"""Pages of the review workflow: the submitter's questionnaire and submission, the comments, and the
committee's queue and decisions. Views parse, call one service or selector, and answer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from registry.models import ListKind, Release
from submissions.evidence_basis import submission_basis
from submissions.models import EntryDecision, Submission
from submissions.permissions import authenticated_user
from submissions.review.decisions import (
    after_publication,
    entry_decisions,
    is_marked_duplicate,
    same_run_copies,
)
from submissions.review.diff import review_diff
from submissions.review.forms import (
    AssessForm,
    CommentForm,
    DecisionForm,
    EntryDecisionForm,
    GapAcceptForm,
    QuestionnaireForm,
    ReplaceForm,
    SubmitForm,
    SystemEditForm,
)
from submissions.review.roles import committee_required, is_committee
from submissions.review.rules import (
    ASSESSABLE,
    COMMITTEE_WITHDRAWABLE,
    ENTRY_DECIDABLE,
    GAP_ACCEPTABLE,
    REVOCABLE,
    SUBMITTER_EDITABLE,
    SUBMITTER_FIXABLE,
    SUBMITTER_WITHDRAWABLE,
    TRANSITIONS,
    committee_actions,
)
from submissions.review.selectors import (
    duplicate_of_id,
    may_follow_review,
    next_step,
    questionnaire_get,
    review_comments,
    review_queue,
    review_timeline,
    submission_revisions,
    submission_versions,
    submission_with_next_step_facts,
)
from submissions.review.services import (
    COMMITTEE_DECISIONS,
    comment_add,
    entry_decision_revoke,
    entry_decision_take,
    questionnaire_record,
    submission_accept,
    submission_assess,
    submission_gap_accept,
    submission_publication_name_set,
    submission_replace,
    submission_submit,
    system_description_edit,
    system_description_values,
)
from submissions.selectors import (
    submission_findings_ordered,
    submission_get_visible,
    submission_system_description,
)


def error_messages(error: ValidationError | PermissionDenied) -> list[str]:
    if isinstance(error, ValidationError):
        return list(error.messages)
    return [str(error) or "You are not allowed to do this."]


def _own_submission(request: HttpRequest, pk: int) -> tuple[User, Submission]:
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    if submission.submitter_id != user.pk:
        raise PermissionDenied("Only the submitter can change this submission.")
    return user, submission


def review_context(user: User | AnonymousUser, submission: Submission) -> dict[str, Any]:
    """What the submission page adds about the review (the timeline and comments only for the
    submitter and the committee)."""
    following = may_follow_review(user, submission)
    own = user.is_authenticated and submission.submitter_id == user.pk
    versions = submission_versions(submission=submission) if following else [submission]
    return {
        "next_step": next_step(submission_with_next_step_facts(submission=submission)) if own else None,
        "may_fix": own and submission.review_state in SUBMITTER_FIXABLE,
        "revisions": submission_revisions(submission=submission) if following else [],
        "earlier_versions": versions[:-1],
        "questionnaire": questionnaire_get(submission=submission),
        "following_review": following,
        "timeline": review_timeline(submission=submission) if following else [],
        "comments": review_comments(submission=submission) if following else [],
        "comment_form": CommentForm() if following else None,
        "may_edit": own and submission.review_state in SUBMITTER_EDITABLE,
        "may_withdraw": own and submission.review_state in SUBMITTER_WITHDRAWABLE,
        "entry_decisions": entry_decisions(submission=submission) if following else [],
        "duplicate_of": duplicate_of_id(submission),
        # Public: a published run the committee took off lists keeps its page, which says so.
        "taken_off": after_publication(submission=submission),
        "is_committee": is_committee(user),
    }


@login_required
@require_http_methods(["GET", "POST"])
def questionnaire_edit(request: HttpRequest, pk: int) -> HttpResponse:
    user, submission = _own_submission(request, pk)
    existing = questionnaire_get(submission=submission)
    initial = {name: answer for name, _title, answer in existing.answers()} if existing else {}
    form = QuestionnaireForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            questionnaire_record(user=user, submission=submission, answers=form.cleaned_data)
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                for field, errors in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                form.add_error(None, error.messages)
        else:
            messages.success(request, "The questionnaire is saved.")
            return redirect("submissions:detail", pk=submission.pk)
    context = {
        "submission": submission,
        "form": form,
        "editable": submission.review_state in SUBMITTER_FIXABLE,
    }
    return render(
        request, "submissions/review/questionnaire.html", context, status=400 if form.errors else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest, pk: int) -> HttpResponse:
    user, submission = _own_submission(request, pk)
    form = SubmitForm(request.POST or None, initial={"anonymous": submission.anonymous})
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            submission_submit(
                user=user,
                submission=submission,
                reviewed=data["reviewed"],
                followed_rules=data["followed_rules"],
                permission_to_publish=data["permission_to_publish"],
                release=data.get("release"),
                anonymous=data["anonymous"],
            )
        except (ValidationError, PermissionDenied) as error:
            problems = error_messages(error)
        else:
            messages.success(request, "Your submission is with the IO500 committee; you will hear by e-mail.")
            return redirect("submissions:detail", pk=submission.pk)
    status = 400 if problems or form.errors else 200
    context = {"submission": submission, "form": form, "problems": problems}
    return render(request, "submissions/review/submit.html", context, status=status)


def _form_errors(form: Any, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


@login_required
@require_http_methods(["GET", "POST"])
def system_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The submitter fixes the system description; each save is a version the committee sees."""
    user, submission = _own_submission(request, pk)
    current = submission_system_description(submission=submission)
    initial = {k: v for k, v in system_description_values(current).items() if v is not None}
    form = SystemEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            revision = system_description_edit(user=user, submission=submission, fields=form.cleaned_data)
        except ValidationError as error:  # PermissionDenied goes on to Django's 403
            _form_errors(form, error)
        else:
            messages.success(request, f"The system description is saved as version {revision.number}.")
            return redirect("submissions:detail", pk=submission.pk)
    context = {
        "submission": submission,
        "form": form,
        "editable": submission.review_state in SUBMITTER_FIXABLE,
    }
    return render(request, "submissions/review/system_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def replace(request: HttpRequest, pk: int) -> HttpResponse:
    """A new upload replaces the tarball; it becomes the next version and this one is kept."""
    user, submission = _own_submission(request, pk)
    form = ReplaceForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        archive = form.cleaned_data["archive"]
        try:
            new = submission_replace(
                user=user, submission=submission, archive=archive, original_name=archive.name or "archive"
            )
        except ValidationError as error:  # PermissionDenied goes on to Django's 403
            _form_errors(form, error)
        else:
            messages.success(
                request, f"The new upload replaces submission {submission.pk}; the registry is verifying it."
            )
            return redirect("submissions:detail", pk=new.pk)
    context = {
        "submission": submission,
        "form": form,
        "editable": submission.review_state in SUBMITTER_FIXABLE,
    }
    return render(request, "submissions/review/replace.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def publication_name(request: HttpRequest, pk: int) -> HttpResponse:
    user, submission = _own_submission(request, pk)
    try:
        submission_publication_name_set(
            user=user, submission=submission, anonymous=request.POST.get("anonymous") == "on"
        )
    except (ValidationError, PermissionDenied) as error:
        for message in error_messages(error):
            messages.error(request, message)
    return redirect("submissions:detail", pk=submission.pk)


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return fallback


@login_required
@require_POST
def comment_post(request: HttpRequest, pk: int) -> HttpResponse:
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    form = CommentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Write something before sending the comment (at most 10,000 characters).")
    else:
        try:
            comment_add(
                user=user,
                submission=submission,
                body=form.cleaned_data["body"],
                parent_id=form.cleaned_data.get("parent"),
            )
        except ValidationError as error:  # PermissionDenied goes on to Django's 403
            for message in error_messages(error):
                messages.error(request, message)
        else:
            messages.success(request, "Your comment is posted.")
    # A URL, never a view name: redirect() would try to reverse a `next` such as "x" and fail on it.
    return HttpResponseRedirect(_back(request, submission_page(submission)))


def submission_page(submission: Submission) -> str:
    return reverse("submissions:detail", args=[submission.pk]) + "#comments"


# The committee's pages.


@committee_required
def queue(request: HttpRequest) -> HttpResponse:
    return render(request, "submissions/review/queue.html", {"submissions": list(review_queue())})


@committee_required
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    submission = submission_get_visible(user=request.user, pk=pk)
    releases = list(Release.objects.order_by("-publication_date"))
    context = {
        "submission": submission,
        "findings": submission_findings_ordered(submission=submission),
        "system": submission_system_description(submission=submission),
        "diff": review_diff(submission),
        "actions": committee_actions(submission.review_state),
        "decision_form": DecisionForm(),
        "assess_form": AssessForm(
            initial={
                "reproducibility": submission.reproducibility,
                "category": submission.category,
                "ten_node": "yes" if submission.ten_node else "no",
            }
        ),
        # The service refuses an assessment in any other state (a duplicate copy among them).
        "assessable": submission.review_state in ASSESSABLE,
        "basis": submission_basis(submission),
        "gap_acceptable": submission.review_state in GAP_ACCEPTABLE,
        "destructive": [a.action for a in committee_actions(submission.review_state) if a.destructive],
        "entry_decidable": submission.review_state in ENTRY_DECIDABLE,
        "committee_withdrawable": submission.review_state in COMMITTEE_WITHDRAWABLE
        and not any(
            d.kind == EntryDecision.Kind.WITHDRAW_PUBLISHED and not d.is_revoked
            for d in entry_decisions(submission=submission)
        ),
        "revocable_kinds": REVOCABLE,
        "copies": same_run_copies(submission),
        "marked_duplicate": is_marked_duplicate(submission.pk),
        "releases": releases,
        "move_targets": [release for release in releases if release.pk != submission.release_id],
        "list_kinds": ListKind.choices,
        **review_context(request.user, submission),
    }
    return render(request, "submissions/review/detail.html", context)


@committee_required
@require_POST
def decide(request: HttpRequest, pk: int) -> HttpResponse:
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of the decisions offered.")
        return redirect("review:detail", pk=pk)
    action = form.cleaned_data["action"]
    if TRANSITIONS[action].destructive and not form.cleaned_data["confirmed"]:
        return _confirm_decision(request, submission, form)
    if form.cleaned_data["accept_gap"] and action != "accept":
        messages.error(request, "Missing raw outputs are accepted with “Accept”, not with another decision.")
        return redirect("review:detail", pk=pk)
    try:
        if form.cleaned_data["accept_gap"]:
            updated = submission_accept(
                user=user,
                submission=submission,
                reason=form.cleaned_data["reason"],
                gap_phases=form.named_phases(),
            )
        else:
            updated = COMMITTEE_DECISIONS[action](
                user=user, submission=submission, reason=form.cleaned_data["reason"]
            )
    except (ValidationError, PermissionDenied) as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, f"Submission {pk} is now {updated.get_review_state_display().lower()}.")
    return redirect("review:detail", pk=pk)


def _confirm_decision(request: HttpRequest, submission: Submission, form: DecisionForm) -> HttpResponse:
    """A page asking to confirm a destructive decision, carrying the form's values back."""
    transition = TRANSITIONS[form.cleaned_data["action"]]
    context = {
        "submission": submission,
        "question": f"{transition.label} submission {submission.pk}?",
        "consequence": "The submitter is told by e-mail with your reason, and the run goes on no list.",
        "action_url": reverse("review:decide", args=[submission.pk]),
        "fields": {
            "action": transition.action,
            "reason": form.cleaned_data["reason"],
            "gap_phases": form.cleaned_data.get("gap_phases") or "",
        },
        "reason": form.cleaned_data["reason"],
        "confirm_label": f"Yes, {transition.label.lower()}",
        "cancel_url": reverse("review:detail", args=[submission.pk]),
    }
    return render(request, "submissions/review/confirm.html", context)


@committee_required
@require_POST
def assess(request: HttpRequest, pk: int) -> HttpResponse:
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    form = AssessForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a reproducibility level and a list category.")
        return redirect("review:detail", pk=pk)
    try:
        updated = submission_assess(
            user=user,
            submission=submission,
            reproducibility=form.cleaned_data["reproducibility"],
            category=form.cleaned_data["category"],
            reason=form.cleaned_data["reason"],
            ten_node=form.cleaned_data["ten_node"],
        )
    except (ValidationError, PermissionDenied) as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            f"Submission {pk}: {updated.get_reproducibility_display()}, {updated.get_category_display()}.",
        )
    return redirect("review:detail", pk=pk)


@committee_required
@require_POST
def accept_gap(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept a run although scored phases lack their raw outputs, naming them (the state stays)."""
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    form = GapAcceptForm(request.POST)
    form.is_valid()
    try:
        event = submission_gap_accept(
            user=user,
            submission=submission,
            gap_phases=form.named_phases(),
            reason=form.cleaned_data.get("reason") or "",
        )
    except (ValidationError, PermissionDenied) as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, f"Submission {pk}: {event.reason}")
    return redirect("review:detail", pk=pk)


# Per-entry decisions: every one goes through a confirm step (a page of its own, no script needed)
# that says what it does and takes the reason; only the confirmed post takes the decision.

# (title, what happens, destructive): destructive decisions take something off the lists.
DECISION_CONSEQUENCES: dict[str, tuple[str, str, bool]] = {
    EntryDecision.Kind.WITHDRAW: (
        "Withdraw submission {pk}",
        "It leaves the review and every list built from now on. This cannot be undone: to list the run "
        "later, upload it again.",
        True,
    ),
    EntryDecision.Kind.WITHDRAW_PUBLISHED: (
        "Withdraw published submission {pk}",
        "The next version of every list leaves it out (publish a correction of the lists that show it); "
        "the versions already published stay readable as they were.",
        True,
    ),
    EntryDecision.Kind.EXCLUDE: (
        "Exclude submission {pk} from the {list_kind} lists",
        "The next {list_kind} list of {release} and of every later release leaves it out; its other lists "
        "keep it.",
        True,
    ),
    EntryDecision.Kind.MOVE: (
        "Move submission {pk} to {release}",
        "It is filed under {release} from now on: the lists of its old release leave it out from their "
        "next version, those of {release} take it.",
        False,
    ),
    EntryDecision.Kind.DUPLICATE: (
        "Mark submission {pk} a duplicate of submission {duplicate_of}",
        "This copy stays off every list; submission {duplicate_of} is the copy of the run that counts "
        "and may be accepted.",
        True,
    ),
}


def decision_confirm_response(
    request: HttpRequest,
    submission: Submission,
    data: dict[str, Any],
    *,
    action_url: str,
    cancel_url: str,
    problems: list[str] | None = None,
) -> HttpResponse:
    """The confirm step of a decision: what it does, the reason to give, Confirm or Cancel."""
    release = data.get("release")
    names = {
        "pk": submission.pk,
        "list_kind": data.get("list_kind") or "",
        "release": release.name if release is not None else "its release",
        "duplicate_of": data.get("duplicate_of") or "",
    }
    title, consequence, destructive = DECISION_CONSEQUENCES[data["kind"]]
    context = {
        "submission": submission,
        "title": title.format(**names),
        "consequence": consequence.format(**names),
        "destructive": destructive,
        "data": data,
        "release_slug": release.slug if release is not None else "",
        "action_url": action_url,
        "cancel_url": cancel_url,
        "problems": problems or [],
    }
    status = 400 if problems else 200
    return render(request, "submissions/review/confirm_decision.html", context, status=status)


def decision_post(
    request: HttpRequest,
    submission: Submission,
    *,
    action_url: str,
    fallback_url: str,
    posted: QueryDict | None = None,
) -> tuple[EntryDecision | None, HttpResponse]:
    """Parse a posted decision (`posted`: the request's form, as a page fixed it): the confirm step
    until it is confirmed with a reason, then the decision itself (None and the answer when it was
    not taken)."""
    user = authenticated_user(request.user)
    form = EntryDecisionForm(request.POST if posted is None else posted)
    cancel_url = _back(request, fallback_url)
    if not form.is_valid():
        messages.error(request, "Choose one of the decisions offered, with what it needs.")
        return None, HttpResponseRedirect(cancel_url)
    data = form.cleaned_data
    if not data["confirmed"]:
        return None, decision_confirm_response(
            request, submission, data, action_url=action_url, cancel_url=cancel_url
        )
    if not data["reason"].strip():
        problems = ["Say why: the reason is recorded with the decision and shown with it."]
        return None, decision_confirm_response(
            request, submission, data, action_url=action_url, cancel_url=cancel_url, problems=problems
        )
    duplicate_of = (
        Submission.objects.filter(pk=data["duplicate_of"]).first() if data["duplicate_of"] else None
    )
    try:
        decision = entry_decision_take(
            user=user,
            submission=submission,
            kind=data["kind"],
            reason=data["reason"],
            list_kind=data["list_kind"],
            release=data["release"],
            duplicate_of=duplicate_of,
        )
    except (ValidationError, PermissionDenied) as error:
        return None, decision_confirm_response(
            request,
            submission,
            data,
            action_url=action_url,
            cancel_url=cancel_url,
            problems=error_messages(error),
        )
    messages.success(request, f"Submission {submission.pk}: {decision.summary}")
    return decision, HttpResponseRedirect(cancel_url)


@committee_required
@require_POST
def entry_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """A committee decision on one entry: exclude, move, withdraw after publication, duplicate."""
    submission = submission_get_visible(user=request.user, pk=pk)
    url = reverse("review:entry-decide", args=[pk])
    _decision, answer = decision_post(
        request, submission, action_url=url, fallback_url=reverse("review:detail", args=[pk])
    )
    return answer


@committee_required
@require_POST
def entry_revoke(request: HttpRequest, pk: int, decision_pk: int) -> HttpResponse:
    """The committee revokes one of its per-entry decisions, with a reason (kept on record)."""
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=pk)
    decision = get_object_or_404(EntryDecision, pk=decision_pk, submission=submission)
    try:
        entry_decision_revoke(user=user, decision=decision, reason=request.POST.get("reason", ""))
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            f"Submission {pk}: {decision.get_kind_display().lower()} revoked; the next list version "
            "reflects it.",
        )
    return redirect("review:detail", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """The submitter withdraws their submission before publication (a confirm step first)."""
    _user, submission = _own_submission(request, pk)
    url = reverse("submissions:withdraw", args=[pk])
    back = reverse("submissions:detail", args=[pk])
    if request.method == "GET":
        data = {"kind": EntryDecision.Kind.WITHDRAW, "reason": "", "release": None}
        return decision_confirm_response(request, submission, data, action_url=url, cancel_url=back)
    # This page takes the submitter's one decision: whatever kind is posted, it is a withdrawal (the
    # committee's decisions stay behind review:entry-decide).
    posted = request.POST.copy()
    posted["kind"] = EntryDecision.Kind.WITHDRAW
    _decision, answer = decision_post(request, submission, action_url=url, fallback_url=back, posted=posted)
    return answer
