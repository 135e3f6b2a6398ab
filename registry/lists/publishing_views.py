"""The committee's publishing pages: a release's lists, a draft with its duplicates, publishing and
corrections; and the re-verification runs with their progress."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from registry.lists.awards import awards_shown, snapshot_awards
from registry.lists.changes import correction_changes, release_changes
from registry.lists.forms import ReleaseForm
from registry.lists.permalinks import submission_path_prefix
from registry.lists.publishing import release_drafts_build, release_publish, snapshot_publish
from registry.lists.publishing_selectors import (
    KindState,
    accepted_unlisted,
    draft_duplicates,
    draft_evidence_gaps,
    draft_get,
    draft_rows,
    release_kind_states,
    release_review_counts,
)
from registry.lists.releases import CURRENT_KINDS, release_open, release_update
from registry.lists.selectors import release_get, release_list
from registry.lists.services import (
    EMBARGO_RULE,
    ListBuildError,
    ListPublishError,
    PublishTooEarly,
    publish_too_early,
)
from registry.models import ListKind, Release, kind_label
from submissions.audits.selectors import release_objections
from submissions.models import ReverifyRun
from submissions.permissions import authenticated_user
from submissions.review.reverify import reverify_start, verdict_differences
from submissions.review.roles import committee_required
from submissions.review.views import decision_post
from submissions.selectors import submission_get_visible

PUBLISH_ERRORS = (ListBuildError, ListPublishError, PermissionDenied, ValidationError)
# The confirm step's field: the committee read the dates and publishes anyway.
CONFIRM_EARLY = "confirm_early"


def _confirm_early(
    request: HttpRequest, release: Release, error: PublishTooEarly, action: str, what: str
) -> HttpResponse:
    """The confirm step of an early publish: the dates stated, the same request again with the
    confirmation, or back."""
    context = {
        "release": release,
        "dates": error.dates,
        "action": action,
        "what": what,
        "reason": request.POST.get("reason", ""),
    }
    return render(request, "registry/publishing/confirm_early.html", context)


def _release(slug: str) -> Release:
    release = release_get(slug=slug)
    if release is None:
        raise Http404(f'There is no release "{slug}".')
    return release


def _report(request: HttpRequest, error: Exception) -> None:
    texts = error.messages if isinstance(error, ValidationError) else [str(error)]
    for text in texts:
        messages.error(request, text)


@committee_required
def releases(request: HttpRequest) -> HttpResponse:
    return render(request, "registry/publishing/releases.html", {"releases": list(release_list())})


def _form_errors(form: ReleaseForm, error: ValidationError) -> None:
    for name, texts in error.message_dict.items():
        form.add_error(name if name in form.fields else None, texts)


@committee_required
@require_http_methods(["GET", "POST"])
def release_new(request: HttpRequest) -> HttpResponse:
    """Open a new release for submissions."""
    form = ReleaseForm(
        request.POST or None,
        initial={
            "list_kinds": [kind.value for kind in CURRENT_KINDS],
            "bundled_runner_kinds": ["historical"],
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            created = release_open(name=form.cleaned_data["name"], settings=form.release_settings())
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(
                request, f"{created.name} is open for submissions until {created.closes_on:%Y-%m-%d}."
            )
            return redirect("publishing:release", release=created.slug)
    status = 400 if form.errors else 200
    return render(
        request, "registry/publishing/release_form.html", {"form": form, "release": None}, status=status
    )


@committee_required
@require_http_methods(["GET", "POST"])
def release_edit(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    form = ReleaseForm(request.POST or None, release=found)
    if request.method == "POST" and form.is_valid():
        try:
            release_update(release=found, settings=form.release_settings())
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, f"{found.name} saved.")
            return redirect("publishing:release", release=found.slug)
    status = 400 if form.errors else 200
    return render(
        request, "registry/publishing/release_form.html", {"form": form, "release": found}, status=status
    )


def published_summaries(states: list[KindState]) -> list[dict[str, Any]]:
    """Per published list of the release: its awards and how many of its entries are new on it."""
    detail_prefix = submission_path_prefix()
    summaries = []
    for state in states:
        if state.published is None:
            continue
        # What is new on it is what the previous release's list lacks, whichever version this is.
        changes = release_changes(state.published)
        summaries.append(
            {
                "kind": state.kind,
                "label": state.label,
                "snapshot": state.published,
                "previous_label": changes.previous_label if changes else None,
                "new_count": len(changes.added_ids) if changes else None,
                "awards": awards_shown(snapshot_awards(state.published), detail_prefix),
            }
        )
    return summaries


@committee_required
def release_page(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    states = release_kind_states(release=found)
    context = {
        "release": found,
        "kinds": states,
        "published": published_summaries(states),
        "counts": release_review_counts(release=found),
        "unlisted": accepted_unlisted(release=found),
    }
    return render(request, "registry/publishing/release.html", context)


@committee_required
@require_POST
def build(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    kind = request.POST.get("kind", "")
    try:
        drafts = release_drafts_build(
            user=authenticated_user(request.user), release=found, kinds=[kind] if kind else None
        )
    except PUBLISH_ERRORS as error:
        _report(request, error)
    else:
        messages.success(
            request, f"Built {len(drafts)} draft list(s) of {found.name}; review them, then publish."
        )
    return redirect("publishing:release", release=found.slug)


@committee_required
def draft_page(request: HttpRequest, release: str, kind: str) -> HttpResponse:
    found = _release(release)
    if kind not in ListKind.values:
        raise Http404(f'"{kind}" is not a kind of list.')
    draft = draft_get(release=found, kind=kind)
    rows = draft_rows(snapshot=draft) if draft else []
    objections = release_objections(found, draft) if draft else []
    context = {
        "release": found,
        "kind": kind,
        "kind_label": kind_label(kind),
        "draft": draft,
        "rows": rows,
        "duplicates": draft_duplicates(snapshot=draft) if draft else [],
        "evidence_gaps": draft_evidence_gaps(snapshot=draft) if draft else [],
        "embargoed": [row for row in draft.left_out if row.get("rule") == EMBARGO_RULE] if draft else [],
        "left_out": [row for row in draft.left_out if row.get("rule") != EMBARGO_RULE] if draft else [],
        "changes": release_changes(draft) if draft else None,
        "correction": correction_changes(draft) if draft else None,
        "carried_count": sum(1 for row in rows if row.carried) if draft else 0,
        "added_count": sum(1 for row in rows if not row.carried) if draft else 0,
        "too_early": publish_too_early(found),
        "objections": objections,
        # Upheld objections against entries still on the draft: upholding one does not exclude the
        # entry (the committee decides that, here), so the page asks for that step.
        "upheld": [objection for objection in objections if objection.upheld],  # type: ignore[attr-defined]
        "is_correction": any(
            state.kind == kind and state.published is not None for state in release_kind_states(release=found)
        ),
    }
    return render(request, "registry/publishing/draft.html", context)


@committee_required
@require_POST
def publish(request: HttpRequest, release: str, kind: str) -> HttpResponse:
    found = _release(release)
    draft = draft_get(release=found, kind=kind)
    if draft is None:
        messages.error(request, f"There is no draft {kind} list of {found.name} to publish; build it first.")
        return redirect("publishing:release", release=found.slug)
    try:
        published = snapshot_publish(
            user=authenticated_user(request.user),
            snapshot=draft,
            reason=request.POST.get("reason", ""),
            early=request.POST.get(CONFIRM_EARLY) == "yes",
        )
    except PublishTooEarly as error:
        action = reverse("publishing:publish", args=[found.slug, kind])
        return _confirm_early(request, found, error, action, f"the {kind_label(kind)} list")
    except PUBLISH_ERRORS as error:
        _report(request, error)
        return redirect("publishing:draft", release=found.slug, kind=kind)
    messages.success(request, f"Published {published} with {published.entries.count()} entries.")
    return redirect("publishing:release", release=found.slug)


@committee_required
@require_POST
def publish_all(request: HttpRequest, release: str) -> HttpResponse:
    found = _release(release)
    try:
        published = release_publish(
            user=authenticated_user(request.user),
            release=found,
            reason=request.POST.get("reason", ""),
            early=request.POST.get(CONFIRM_EARLY) == "yes",
        )
    except PublishTooEarly as error:
        action = reverse("publishing:publish-all", args=[found.slug])
        return _confirm_early(request, found, error, action, "every draft list")
    except PUBLISH_ERRORS as error:
        _report(request, error)
    else:
        messages.success(request, f"Published {len(published)} list(s) of {found.name}.")
    return redirect("publishing:release", release=found.slug)


@committee_required
def reverify_runs(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        slug = request.POST.get("release", "")
        chosen = _release(slug) if slug else None
        run = reverify_start(user=authenticated_user(request.user), release=chosen)
        messages.success(request, f"Re-verification {run.pk} of {run.total} archive(s) started.")
        return redirect("publishing:reverify-detail", pk=run.pk)
    runs = list(ReverifyRun.objects.select_related("release", "started_by")[:50])
    return render(
        request, "registry/publishing/reverify_runs.html", {"runs": runs, "releases": list(release_list())}
    )


@committee_required
def reverify_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = ReverifyRun.objects.select_related("release", "started_by").filter(pk=pk).first()
    if run is None:
        raise Http404(f"There is no re-verification {pk}.")
    changed = [
        {"item": item, "differences": verdict_differences(item.before, item.after)}
        for item in run.items.filter(changed=True).select_related("submission__storage_system")
    ]
    failed = list(run.items.exclude(error=""))
    return render(
        request,
        "registry/publishing/reverify_detail.html",
        {"run": run, "changed": changed, "failed": failed},
    )


@committee_required
@require_POST
def exclude(request: HttpRequest, release: str, kind: str) -> HttpResponse:
    """Exclude an entry of a draft from this kind of list (a confirm step first, then the draft is
    built again, so it reflects the decision at once)."""
    found = _release(release)
    if kind not in ListKind.values:
        raise Http404(f'"{kind}" is not a kind of list.')
    user = authenticated_user(request.user)
    submission = submission_get_visible(user=user, pk=int(request.POST.get("submission", "0") or 0))
    draft_url = reverse("publishing:draft", kwargs={"release": found.slug, "kind": kind})
    action_url = reverse("publishing:exclude", kwargs={"release": found.slug, "kind": kind})
    decision, answer = decision_post(request, submission, action_url=action_url, fallback_url=draft_url)
    if decision is not None:
        try:
            release_drafts_build(user=user, release=found, kinds=[kind])
        except PUBLISH_ERRORS as error:
            _report(request, error)
    return answer
