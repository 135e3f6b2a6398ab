"""Pages of the submission pipeline: upload, my submissions, the status a page polls, the files.

The public page of one submission is presentation: frontend.pages.views.submission_page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from registry.core.errors import service_unavailable
from submissions.archives import ArchiveStorageUnavailable, ArchiveUnreachable, open_stored
from submissions.forms import SubmissionUploadForm
from submissions.models import ListCategory, Submission
from submissions.permissions import authenticated_user
from submissions.review.roles import is_committee
from submissions.review.selectors import next_step, with_next_step_facts
from submissions.selectors import (
    submission_get_status,
    submission_get_visible,
    submission_list_for_user,
)
from submissions.services import DuplicateArchive, submission_create


def _add_service_errors(form: SubmissionUploadForm, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


@login_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    form = SubmissionUploadForm(
        request.POST or None, request.FILES or None, preselect=request.GET.get("release", "")
    )
    if request.method == "POST" and form.is_valid():
        archive = form.cleaned_data["archive"]
        try:
            submission, created = submission_create(
                submitter=authenticated_user(request.user),
                archive=archive,
                original_name=archive.name or "archive",
                system=form.system_data(),
                system_fields=form.system_fields(),
                system_origin="upload form",
                release=form.cleaned_data.get("release"),
                ten_node=form.cleaned_data.get("ten_node", False),
                category=form.cleaned_data.get("category") or ListCategory.RESEARCH,
                extra_files=form.extra_files(),
            )
        except DuplicateArchive as exc:
            form.add_error("archive", exc.messages)
        except ArchiveStorageUnavailable as exc:
            form.add_error(None, str(exc))
            return render(request, "submissions/upload.html", {"form": form}, status=507)
        except ValidationError as exc:
            _add_service_errors(form, exc)
        else:
            if created:
                messages.success(request, "Your archive is stored; the registry is verifying it now.")
            else:
                messages.info(request, "You uploaded this exact archive before; here is that submission.")
            return redirect("submissions:detail", pk=submission.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "submissions/upload.html", {"form": form}, status=status)


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    rows = [
        (row, next_step(row))
        for row in with_next_step_facts(submission_list_for_user(user=authenticated_user(request.user)))
    ]
    return render(request, "submissions/mine.html", {"rows": rows})


@login_required
@require_GET
def after_login(request: HttpRequest) -> HttpResponse:
    """Where a login without a `next` lands: the committee on its review queue, everyone else on
    their own submissions."""
    return redirect("review:queue" if is_committee(request.user) else "submissions:mine")


def status_payload(submission: Submission) -> dict[str, object]:
    return {
        "id": submission.pk,
        "status": submission.status,
        "status_label": submission.get_status_display(),
        "progress": submission.progress,
        "final": submission.is_final,
        "error": submission.error,
        "score": submission.score,
        "valid": submission.valid,
        "page": reverse("submissions:detail", args=[submission.pk]),
    }


@never_cache
@require_GET
def status(request: HttpRequest, pk: int) -> JsonResponse:
    """The small JSON the pages poll while a submission is verified."""
    submission = submission_get_status(user=request.user, pk=pk)
    return JsonResponse(status_payload(submission))


@require_GET
def download(request: HttpRequest, pk: int, archive_id: int) -> HttpResponseBase:
    submission = submission_get_visible(user=request.user, pk=pk)
    archive = next((a for a in submission.archives.all() if a.pk == archive_id), None)
    if archive is None:
        raise Http404("No such file in this submission.")
    try:
        stored = open_stored(str(archive.file.name))
    except ArchiveUnreachable as exc:
        return service_unavailable(request, str(exc))
    # Served as an opaque download whatever its content, so an uploaded file can never run as a page.
    response = FileResponse(
        stored,
        as_attachment=True,
        filename=archive.original_name,
        content_type="application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Digest"] = f"sha-256={archive.sha256}"
    return response
