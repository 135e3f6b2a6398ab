"""JSON endpoints of the charts. Each answers from the chart cache; only the visibility check of a
submission, system or comparison runs a query on a cached request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_GET

from frontend.charts import data as chart_data
from frontend.charts.cache import CHARTS_TIMEOUT_S, charts_cached
from frontend.charts.compare_ids import CompareIdsError, parse_compare_ids
from frontend.charts.entities import EntityKind, entity_detail
from frontend.charts.kinds import KindError, kind_name
from frontend.charts.selectors import SubmissionHead, storage_system_get, system_submissions, visible_heads
from registry.core.public_cache import mark_public, mark_public_if_anonymous
from registry.core.query_params import QueryValueError, free_text
from registry.models import RANKED_KIND_VALUES

# Public list data may sit in a browser or proxy briefly; a publish is seen within this many seconds.
PUBLIC_MAX_AGE_S = 60


_json_body = chart_data.json_body


def _cached_body(name: str, parts: tuple[object, ...], build: Callable[[], bytes]) -> HttpResponse:
    return HttpResponse(charts_cached(f"json:{name}", parts, build), content_type="application/json")


def _cached_json(name: str, parts: tuple[object, ...], build: Callable[[], Any]) -> HttpResponse:
    # The encoded body is cached, not only the data: a cached request then costs no serialisation.
    return _cached_body(name, parts, lambda: _json_body(build()))


def _public(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE_S)
    return mark_public(response, CHARTS_TIMEOUT_S)


def _private(response: HttpResponse) -> HttpResponse:
    # Visibility depends on who asks (an uploader sees their own unpublished runs).
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Authorization"))
    return response


def missing_message(missing: list[int]) -> str:
    if len(missing) == 1:
        return f"Submission {missing[0]} does not exist or is not public."
    names = ", ".join(str(pk) for pk in missing)
    return f"Submissions {names} do not exist or are not public."


def json_error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_GET
def history_points(request: HttpRequest) -> HttpResponse:
    try:
        kind = kind_name(request.GET.get("kind", ""))
    except KindError as error:
        return json_error(str(error), 400)
    try:
        filesystem = free_text("filesystem", request.GET.get("filesystem", ""))
    except QueryValueError as error:
        return json_error(str(error), 400)
    return _public(
        _cached_body(
            "history-points",
            (kind, filesystem.lower()),
            lambda: chart_data.history_points_body(kind=kind, filesystem=filesystem),
        )
    )


@require_GET
def history_trends(request: HttpRequest) -> HttpResponse:
    try:
        kind = kind_name(request.GET.get("kind", ""))
    except KindError as error:
        return json_error(str(error), 400)
    return _public(_cached_json("history-trends", (kind,), lambda: chart_data.history_trends_data(kind=kind)))


@require_GET
def history_shares(request: HttpRequest) -> HttpResponse:
    try:
        kind = kind_name(request.GET.get("kind", ""))
    except KindError as error:
        return json_error(str(error), 400)
    return _public(_cached_json("history-shares", (kind,), lambda: chart_data.history_shares_data(kind=kind)))


@require_GET
def history_shares_csv(request: HttpRequest) -> HttpResponse:
    try:
        kind = kind_name(request.GET.get("kind", ""))
    except KindError as error:
        return json_error(str(error), 400)
    response = HttpResponse(chart_data.history_shares_csv(kind=kind), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="io500-shares-{kind}.csv"'
    return _public(response)


@require_GET
def radar(request: HttpRequest, release: str, kind: str) -> HttpResponse:
    if kind not in RANKED_KIND_VALUES:
        return json_error(f'"{kind}" is not a ranked list, so it has no top-5 radar.', 404)
    try:
        data = chart_data.radar_data(release=release, kind=kind)
    except chart_data.UnknownRelease:
        data = None
    if data is None:
        return json_error(f"No {kind} list of {release.upper()} has been published.", 404)
    return _public(_cached_json("radar", (release.lower(), kind), lambda: data))


def _visible_head(request: HttpRequest, pk: int) -> SubmissionHead | None:
    return visible_heads(user=request.user, ids=[pk]).get(pk)


def _submission_chart(
    request: HttpRequest, pk: int, name: str, build: Callable[[SubmissionHead], dict[str, Any]]
) -> HttpResponse:
    head = _visible_head(request, pk)
    if head is None:
        return json_error(f"Submission {pk} does not exist or is not public.", 404)
    response = _private(_cached_json(name, (pk, head.updated_at), lambda: build(head)))
    return mark_public_if_anonymous(request, response, CHARTS_TIMEOUT_S)


@require_GET
def submission_phases(request: HttpRequest, pk: int) -> HttpResponse:
    return _submission_chart(
        request, pk, "submission-phases", lambda head: chart_data.submission_phases_data(head=head)
    )


@require_GET
def submission_ranks(request: HttpRequest, pk: int) -> HttpResponse:
    head = _visible_head(request, pk)
    if head is None:
        return json_error(f"Submission {pk} does not exist or is not public.", 404)
    phase = request.GET.get("phase", "").strip()
    try:
        data = chart_data.submission_ranks_data(head=head, phase=phase)
    except KeyError:
        return json_error(f'Submission {pk} has no per-rank rows for a phase called "{phase}".', 404)
    response = _private(_cached_json("submission-ranks", (pk, head.updated_at, data["phase"]), lambda: data))
    return mark_public_if_anonymous(request, response, CHARTS_TIMEOUT_S)


@require_GET
def submission_timeline(request: HttpRequest, pk: int) -> HttpResponse:
    return _submission_chart(
        request, pk, "submission-timeline", lambda head: chart_data.submission_timeline_data(head=head)
    )


@require_GET
def system_history(request: HttpRequest, pk: int) -> HttpResponse:
    # Published list entries are public, so the rank history needs no visibility check.
    if storage_system_get(pk=pk, user=request.user) is None:
        return json_error(f"There is no storage system {pk}.", 404)
    return _public(
        _cached_json("system-history", (pk,), lambda: chart_data.system_history_data(system_id=pk))
    )


@require_GET
def system_balance(request: HttpRequest, pk: int) -> HttpResponse:
    if storage_system_get(pk=pk, user=request.user) is None:
        return json_error(f"There is no storage system {pk}.", 404)
    rows = system_submissions(user=request.user, system_id=pk)
    data = chart_data.system_balance_data(system_id=pk, submissions=rows)
    return _private(HttpResponse(_json_body(data), content_type="application/json"))


@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    try:
        ids = parse_compare_ids(request.GET.get("ids", ""))
    except CompareIdsError as error:
        return json_error(str(error), 400)
    heads = visible_heads(user=request.user, ids=ids)
    missing = [pk for pk in ids if pk not in heads]
    if missing:
        return json_error(missing_message(missing), 404)
    ordered = [heads[pk] for pk in ids]
    return _private(
        _cached_json(
            "compare",
            tuple((head.pk, head.updated_at) for head in ordered),
            lambda: chart_data.compare_data(heads=ordered),
        )
    )


@require_GET
def entity_trends(request: HttpRequest, kind: EntityKind, slug: str) -> HttpResponse:
    """A site's, vendor's or file system's best and median score per release (history trend shape)."""
    entity = entity_detail(kind, slug)
    if entity is None:
        return json_error(f'No published list entry names "{slug}".', 404)
    return _public(_cached_json("entity-trends", (kind, slug), lambda: entity["trends"]))
