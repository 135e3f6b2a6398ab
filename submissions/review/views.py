"""Pages of the review workflow: the submitter's questionnaire and submission, the comments, and the
committee's queue and decisions. Views parse, call one service or selector, and answer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from submissions.evidence_basis import submission_basis
from submissions.models import Submission
from submissions.permissions import authenticated_user
from submissions.review.diff import review_diff
from submissions.review.forms import (
    AssessForm,
    CommentForm,
    DecisionForm,
    GapAcceptForm,
    QuestionnaireForm,
    ReplaceForm,
    SubmitForm,
    SystemEditForm,
    WithdrawForm,
)
from submissions.review.roles import committee_required, is_committee
from submissions.review.rules import (
    GAP_ACCEPTABLE,
    SUBMITTER_EDITABLE,
    SUBMITTER_FIXABLE,
    TRANSITIONS,
    committee_actions,
)
from submissions.review.selectors import (
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
    questionnaire_record,
    submission_accept,
    submission_assess,
    submission_gap_accept,
    submission_publication_name_set,
    submission_replace,
    submission_submit,
    submission_withdraw,
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
        "may_withdraw": own and submission.review_state in TRANSITIONS["withdraw"].sources,
        "revisions": submission_revisions(submission=submission) if following else [],
        "earlier_versions": versions[:-1],
        "questionnaire": questionnaire_get(submission=submission),
        "following_review": following,
        "timeline": review_timeline(submission=submission) if following else [],
        "comments": review_comments(submission=submission) if following else [],
        "comment_form": CommentForm() if following else None,
        "may_edit": own and submission.review_state in SUBMITTER_EDITABLE,
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
        except (ValidationError, PermissionDenied) as error:
            if isinstance(error, PermissionDenied):
                raise
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
        except (ValidationError, PermissionDenied) as error:
            if isinstance(error, PermissionDenied):
                raise
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
@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw before publication, with a reason; the first POST shows a confirmation page, so the
    step is confirmed without JavaScript."""
    user, submission = _own_submission(request, pk)
    form = WithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not form.cleaned_data["confirmed"]:
            return render(
                request,
                "submissions/review/confirm.html",
                {
                    "submission": submission,
                    "question": f"Withdraw submission {submission.pk}?",
                    "consequence": "It goes on no list. This cannot be undone; to submit it again, "
                    "upload it as a new submission.",
                    "action_url": reverse("submissions:withdraw", args=[submission.pk]),
                    "fields": {"reason": form.cleaned_data["reason"]},
                    "reason": form.cleaned_data["reason"],
                    "confirm_label": "Yes, withdraw it",
                    "cancel_url": reverse("submissions:detail", args=[submission.pk]),
                },
            )
        try:
            submission_withdraw(user=user, submission=submission, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, f"Submission {submission.pk} is withdrawn.")
            return redirect("submissions:detail", pk=submission.pk)
    context = {"submission": submission, "form": form}
    return render(request, "submissions/review/withdraw.html", context, status=400 if form.errors else 200)


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
        except (ValidationError, PermissionDenied) as error:
            if isinstance(error, PermissionDenied):
                raise
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
        "basis": submission_basis(submission),
        "gap_acceptable": submission.review_state in GAP_ACCEPTABLE,
        "destructive": [a.action for a in committee_actions(submission.review_state) if a.destructive],
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
