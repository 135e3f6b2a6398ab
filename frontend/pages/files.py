"""The inline viewer of a submission's stored files: the members of an archive, and one member's text.

Who may see them is exactly who may download the archive: the submission page's visibility
(`submission_get_visible`: embargo, private runs, the owner and the committee) and the archive must be
one of that submission's. Nothing here is publicly cached: the pages answer per request, the member
index is cached by the archive's hash (`submissions.viewer`).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from registry.core.errors import service_unavailable
from scoring.readers.walk import ArchiveRejected
from submissions.archives import ArchiveUnreachable
from submissions.models import Archive, Submission
from submissions.selectors import submission_get_visible, submission_result_archive
from submissions.viewer import (
    MAX_SHOWN_BYTES,
    archive_member_index,
    archive_member_read,
    finding_citation,
    member_text,
    page_of_line,
)


def _visible_archive(request: HttpRequest, pk: int, archive_id: int) -> tuple[Submission, Archive]:
    # The same checks as the download (submissions.views.download), so the two never disagree.
    submission = submission_get_visible(user=request.user, pk=pk)
    archive = next((a for a in submission.archives.all() if a.pk == archive_id), None)
    if archive is None:
        raise Http404("No such file in this submission.")
    return submission, archive


def _page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "1")
    return int(raw) if raw.isdigit() and len(raw) < 9 else 1


def member_url(pk: int, archive_id: int, index: int, line: int | None = None) -> str:
    url = reverse("submissions:file", args=[pk, archive_id, index])
    if line is None:
        return url
    page = page_of_line(line)
    return f"{url}{f'?page={page}' if page > 1 else ''}#L{line}"


def _page_window(page: int, pages: int) -> list[int]:
    # A megabyte of short lines is thousands of pages: the first, the last and the ten around this one.
    return sorted({1, pages, *range(max(1, page - 5), min(pages, page + 5) + 1)})


@require_GET
def archive_files(request: HttpRequest, pk: int, archive_id: int) -> HttpResponseBase:
    submission, archive = _visible_archive(request, pk, archive_id)
    try:
        index = archive_member_index(archive=archive)
    except ArchiveUnreachable as exc:
        return service_unavailable(request, str(exc))
    context = {"submission": submission, "archive": archive, "index": index}
    return render(request, "frontend/pages/files.html", context)


@require_GET
def archive_file(request: HttpRequest, pk: int, archive_id: int, member: int) -> HttpResponseBase:
    submission, archive = _visible_archive(request, pk, archive_id)
    try:
        index = archive_member_index(archive=archive)
        chosen = next((m for m in index.members if m.index == member), None)
        if chosen is None or not chosen.viewable:
            raise Http404("No such file in this archive.")
        text = None
        if chosen.is_text:
            content = archive_member_read(archive=archive, member=chosen)
            text = member_text(chosen, content, _page_number(request))
    except ArchiveUnreachable as exc:
        return service_unavailable(request, str(exc))
    except ArchiveRejected as exc:
        raise Http404(str(exc)) from exc
    context = {
        "submission": submission,
        "archive": archive,
        "member": chosen,
        "text": text,
        "max_shown": MAX_SHOWN_BYTES,
        "page_range": _page_window(text.page, text.pages) if text else [],
    }
    response = render(request, "frontend/pages/file.html", context)
    # The content is the submitter's: escaped by the template, and this page runs no script of its own.
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def finding_source(request: HttpRequest, pk: int, finding_id: int) -> HttpResponse:
    """The file and line a finding's message cites, in the viewer; 404 when it cites none."""
    submission = submission_get_visible(user=request.user, pk=pk)
    finding = next((f for f in submission.findings.all() if f.pk == finding_id), None)
    archive = submission_result_archive(submission=submission)
    if finding is None or archive is None:
        raise Http404("This finding cites no stored file.")
    try:
        index = archive_member_index(archive=archive)
    except ArchiveUnreachable as exc:
        return service_unavailable(request, str(exc))
    cited = finding_citation(finding.message, index.members)
    if cited is None:
        raise Http404("This finding cites no file of the archive.")
    chosen, line = cited
    return redirect(member_url(submission.pk, archive.pk, chosen.index, line))
