"""The pages of audits and objections: the submitter's audit request (with the re-run upload), the
objections page of a release, and the committee's audit page of a release."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from registry.models import ListSnapshot, Release
from submissions.audits.draw import TOLERANCE
from submissions.audits.forms import AuditAnswerForm, ObjectionAnswerForm, ObjectionForm, RevokeForm
from submissions.audits.models import AuditRequest, Objection, ObjectionAnswer
from submissions.audits.objections import objection_answer, objection_answer_revoke, objection_file
from submissions.audits.selectors import (
    deadline_passed,
    draft_entries,
    draw_requests,
    may_object,
    objections_visible,
    release_audit_draw,
    release_objections,
)
from submissions.audits.services import audit_answer_upload, audit_draw
from submissions.permissions import authenticated_user
from submissions.review.roles import committee_required, is_committee


def _release(slug: str) -> Release:
    release = Release.objects.filter(slug=slug).first()
    if release is None:
        raise Http404(f'There is no release "{slug}".')
    return release


def _report(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    for text in error.messages if isinstance(error, ValidationError) else [str(error)]:
        messages.error(request, text)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def audit_page(request: HttpRequest, pk: int) -> HttpResponse:
    user = authenticated_user(request.user)
    audit = (
        AuditRequest.objects.select_related("submission", "draw__release", "run_token", "answer")
        .filter(pk=pk)
        .first()
    )
    if audit is None or not (audit.submission.submitter_id == user.pk or is_committee(user)):
        raise Http404("There is no such audit of yours.")
    form = AuditAnswerForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        archive = form.cleaned_data["archive"]
        try:
            answer = audit_answer_upload(user=user, audit=audit, archive=archive, original_name=archive.name)
        except (ValidationError, PermissionDenied) as error:
            _report(request, error)
        else:
            messages.success(request, f"Re-run uploaded as submission {answer.pk}; it is being checked.")
            return redirect("submissions:audit", pk=audit.pk)
    context = {
        "audit": audit,
        "form": form,
        "tolerance": TOLERANCE,
        "open": audit.outcome == "pending" and timezone.now() <= audit.deadline,
        "own": audit.submission.submitter_id == user.pk,
    }
    return render(request, "submissions/audits/audit.html", context, status=400 if form.errors else 200)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def objections_page(request: HttpRequest, release: str) -> HttpResponse:
    """A release's draft lists as its submitters may object to them, and their objections."""
    user = authenticated_user(request.user)
    found = _release(release)
    allowed = may_object(user=user, release=found)
    if not (allowed or is_committee(user)):
        raise PermissionDenied(f"Only submitters of {found.name} see its draft lists.")
    form = ObjectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        snapshot = ListSnapshot.objects.filter(pk=form.cleaned_data["snapshot"], release=found).first()
        try:
            if snapshot is None:
                raise ValidationError("That draft list does not exist any more; reload the page.")
            objection_file(
                user=user,
                snapshot=snapshot,
                submission_id=form.cleaned_data["submission"],
                reason=form.cleaned_data["reason"],
            )
        except (ValidationError, PermissionDenied) as error:
            _report(request, error)
        else:
            messages.success(request, "Objection filed; the committee answers it before publishing.")
            return redirect("submissions:objections", release=found.slug)
    context = {
        "release": found,
        "drafts": draft_entries(found) if allowed else [],
        "objections": objections_visible(user=user, release=found),
        "form": form,
        "user_id": user.pk,
    }
    return render(request, "submissions/audits/objections.html", context)


@committee_required
def release_audit_page(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    draw = release_audit_draw(found)
    context = {
        "release": found,
        "draw": draw,
        "requests": list(draw_requests(draw)) if draw else [],
        "deadline_passed": deadline_passed(found, timezone.now()),
        "objections": release_objections(found),
        "answer_form": ObjectionAnswerForm(),
        "revoke_form": RevokeForm(),
        "tolerance": TOLERANCE,
    }
    return render(request, "submissions/audits/release_audit.html", context)


@committee_required
@require_POST
def release_audit_draw_now(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    try:
        draw = audit_draw(release=found, user=authenticated_user(request.user))
    except (ValidationError, PermissionDenied) as error:
        _report(request, error)
    else:
        messages.success(request, f"Drew {len(draw.drawn)} of {len(draw.candidates)} submission(s).")
    return redirect("audits:release", release=found.slug)


@committee_required
@require_POST
def objection_answer_post(request: HttpRequest, pk: int) -> HttpResponse:
    objection = Objection.objects.select_related("release").filter(pk=pk).first()
    if objection is None:
        raise Http404("There is no such objection.")
    form = ObjectionAnswerForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError("Choose upheld or dismissed and write the answer.")
        objection_answer(
            user=authenticated_user(request.user),
            objection=objection,
            outcome=form.cleaned_data["outcome"],
            text=form.cleaned_data["text"],
        )
    except (ValidationError, PermissionDenied) as error:
        _report(request, error)
    else:
        messages.success(request, f"Objection {objection.pk} answered.")
    return redirect(request.POST.get("next") or f"/review/releases/{objection.release.slug}/audit/")


@committee_required
@require_POST
def objection_revoke_post(request: HttpRequest, pk: int) -> HttpResponse:
    answer = ObjectionAnswer.objects.select_related("objection__release").filter(pk=pk).first()
    if answer is None:
        raise Http404("There is no such answer.")
    form = RevokeForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError("Say why the answer is revoked.")
        objection_answer_revoke(
            user=authenticated_user(request.user), answer=answer, reason=form.cleaned_data["reason"]
        )
    except (ValidationError, PermissionDenied) as error:
        _report(request, error)
    else:
        messages.success(
            request, f"The answer to objection {answer.objection_id} is revoked; it is open again."
        )
    return redirect("audits:release", release=answer.objection.release.slug)
