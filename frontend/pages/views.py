"""Public pages beside the lists: one submission, one storage system over time, a side-by-side comparison,
the history of every release. Each page renders its charts' data as tables too, so it reads without
JavaScript."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from frontend.charts import data as chart_data
from frontend.charts.cache import CHARTS_TIMEOUT_S, charts_cached
from frontend.charts.compare_ids import MAX_COMPARED, MIN_COMPARED, CompareIdsError, parse_compare_ids
from frontend.charts.digests import LEADERS_TOP, digest_overview
from frontend.charts.kinds import KIND_CHOICES, KindError, kind_name, kinds_for
from frontend.charts.selectors import (
    compare_candidates,
    storage_system_get,
    system_submissions,
    visible_heads,
)
from frontend.charts.views import missing_message
from registry.core.generations import LIST_CACHE_SECONDS, charts_generation
from registry.core.messaging import inter_list_warning, messaging_status
from registry.core.public_cache import mark_public, mark_public_if_anonymous, seconds_until_next_day
from registry.core.query_params import QueryValueError, free_text
from registry.lists.facet_names import canonical
from registry.lists.selectors import submission_recorded_scores, submissions_ranked_lists
from registry.versions import declared_breaks, phase_breaks_between, version_tag
from submissions.audits.selectors import submission_audits
from submissions.evidence_basis import submission_basis
from submissions.review.views import review_context
from submissions.selectors import (
    submission_findings_ordered,
    submission_get_visible,
    submission_result_archive,
    submission_system_description,
)
from submissions.system.groups import system_description_shown
from submissions.viewer import may_cite_file

HISTORY_TABLE_TOP = LEADERS_TOP


@require_GET
def submission_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The public page of one submission (/submissions/<id>/, named submissions:detail)."""
    # The page's citation prints today's date: kept until midnight at most.
    return mark_public_if_anonymous(
        request, _submission_page(request, pk), seconds_until_next_day(cap=LIST_CACHE_SECONDS)
    )


def _submission_page(request: HttpRequest, pk: int) -> HttpResponse:
    submission = submission_get_visible(user=request.user, pk=pk)
    system = submission_system_description(submission=submission)
    results = sorted(submission.results.all(), key=lambda r: (not r.is_primary, r.path))
    findings = submission_findings_ordered(submission=submission)
    context = {
        "submission": submission,
        "results": results,
        "findings": findings,
        "citing": {finding.pk for finding in findings if may_cite_file(finding.message)},
        "system": system,
        "system_shown": system_description_shown(system),
        "archive": submission_result_archive(submission=submission),
        "files": list(submission.archives.all()),
        "basis": submission_basis(submission),
        "recorded_scores": submission_recorded_scores(submission_id=submission.pk),
        "audits": submission_audits(user=request.user, submission=submission),
        **review_context(request.user, submission),
    }
    return render(request, "frontend/pages/submission.html", context)


@require_GET
def system_page(request: HttpRequest, pk: int) -> HttpResponse:
    return mark_public_if_anonymous(request, _system_page(request, pk), LIST_CACHE_SECONDS)


def _system_page(request: HttpRequest, pk: int) -> HttpResponse:
    system = storage_system_get(pk=pk, user=request.user)
    if system is None:
        raise Http404(f"There is no storage system {pk}.")
    submissions = system_submissions(user=request.user, system_id=pk)
    history = chart_data.system_history_data(system_id=pk)
    best = max((row for row in submissions if row["score"]), key=lambda row: row["score"], default=None)
    compare_ids = [row["pk"] for row in submissions if row["score"]][-MAX_COMPARED:]
    context = {
        "system": system,
        "submissions": submissions,
        "history": history,
        "best": best,
        "balance": chart_data.system_balance_data(system_id=pk, submissions=submissions),
        "compare_latest_url": (
            reverse("pages:compare") + "?" + urlencode({"ids": ",".join(map(str, compare_ids))})
            if len(compare_ids) >= MIN_COMPARED
            else ""
        ),
    }
    return render(request, "frontend/pages/system.html", context)


@require_GET
def compare_page(request: HttpRequest) -> HttpResponse:
    if "id" in request.GET and "ids" not in request.GET:
        # The boxes ticked in a list table (?id=12&id=34): one canonical URL per comparison.
        chosen = ",".join(value.strip() for value in request.GET.getlist("id") if value.strip())
        return redirect(reverse("pages:compare") + "?" + urlencode({"ids": chosen}))
    raw = request.GET.get("ids", "")
    context: dict[str, Any] = {"ids": raw, "min": MIN_COMPARED, "max": MAX_COMPARED, "error": ""}
    context.update(_system_search(request, raw))
    try:
        ids = parse_compare_ids(raw)
    except CompareIdsError as error:
        # An empty form, or one still being filled by searching systems, is an invitation, not a mistake.
        choosing = not raw.strip() or bool(context["search"])
        context["error"] = "" if choosing else str(error)
        return render(request, "frontend/pages/compare.html", context, status=200 if choosing else 400)
    heads = visible_heads(user=request.user, ids=ids)
    missing = [pk for pk in ids if pk not in heads]
    if missing:
        context["error"] = missing_message(missing)
        return render(request, "frontend/pages/compare.html", context, status=404)
    ordered = [heads[pk] for pk in ids]
    data = chart_data.compare_data(heads=ordered)
    placed = submissions_ranked_lists(submission_ids=ids)
    context.update(
        {
            "data": data,
            "canonical_ids": ",".join(str(pk) for pk in ids),
            "config_rows": [
                {
                    **row,
                    "cells": list(zip(data["submissions"], row["values"], strict=True)),
                    # The value shared by every run that has a configuration (for the "same" table).
                    "common": next((value for value in row["values"] if value is not None), ""),
                }
                for row in data["config"]
            ],
            "configs_compared": sum(data["config_known"]),
            "config_headers": list(zip(data["submissions"], data["config_known"], strict=True)),
            "metric_rows": [_cells(row, data["submissions"]) for row in data["metrics"] + data["phases"]],
            "version_warnings": version_warnings(data["submissions"]),
            "inter_list_warning": inter_list_warning(placed),
            # Each run's Messaging Policy term: verified when it is on some published IO500 list.
            "policy_terms": [(pk, messaging_status(on_official_list=bool(placed[pk]))) for pk in ids],
        }
    )
    return render(request, "frontend/pages/compare.html", context)


def version_warnings(submissions: list[dict[str, Any]]) -> list[str]:
    """Sentences naming each phase whose values the IO500 project declared not comparable between
    the versions of these submissions."""
    versions = [submission["version"] for submission in submissions]
    warnings = []
    for rule, first, second in phase_breaks_between(
        versions, phases={rule.phase for rule in declared_breaks()}
    ):
        holders = {
            tag: ", ".join(
                submission["label"] for submission in submissions if version_tag(submission["version"]) == tag
            )
            for tag in (first, second)
        }
        warnings.append(
            f"{rule.phase} is not comparable between {first} ({holders[first]}) and {second} "
            f"({holders[second]}): the IO500 project changed what it measures in {rule.changed_in}."
        )
    return warnings


def _system_search(request: HttpRequest, raw_ids: str) -> dict[str, Any]:
    """The search by system or institution name: its matches, each with the link that adds it to the
    submissions chosen so far (kept as typed; the comparison checks them)."""
    try:
        search = free_text("system search", request.GET.get("q", ""))
    except QueryValueError as problem:
        return {"search": "", "search_error": str(problem), "candidates": []}
    chosen = [part.strip() for part in raw_ids.split(",") if part.strip()]
    candidates = [
        {
            "head": head,
            "chosen": str(head.pk) in chosen,
            "add_url": reverse("pages:compare")
            + "?"
            + urlencode({"ids": ",".join([*chosen, str(head.pk)]), "q": search}),
        }
        for head in compare_candidates(user=request.user, search=search)
    ]
    return {
        "search": search,
        "search_error": "",
        "candidates": candidates,
        "full": len(chosen) >= MAX_COMPARED,
    }


def ratio_text(ratio: float | None) -> str:
    """A fraction of the best value with two significant digits, so that a small one never reads
    "0.00": 0.83, 0.047, 0.0012, and below a ten-thousandth just "<0.0001"."""
    if ratio is None:
        return ""
    if ratio >= 0.1:
        return f"{ratio:.2f}"
    if ratio < 0.0001:
        return "<0.0001"
    return f"{ratio:.2g}" if ratio >= 0.001 else f"{ratio:.5f}".rstrip("0")


def _cells(row: dict[str, Any], submissions: list[dict[str, Any]]) -> dict[str, Any]:
    cells = [
        {"submission": s, "value": v, "best": b, "relative": r, "relative_text": ratio_text(r)}
        for s, v, b, r in zip(submissions, row["values"], row["best"], row["relative"], strict=True)
    ]
    return {**row, "cells": cells}


@require_GET
def history_page(request: HttpRequest) -> HttpResponse:
    raw_kind = request.GET.get("kind", "")
    error = ""
    try:
        kind = kind_name(raw_kind)
    except KindError as problem:
        error, kind = str(problem), "main"
    try:
        filesystem = free_text("filesystem", request.GET.get("filesystem", ""))
    except QueryValueError as problem:
        error, filesystem = str(problem), ""
    query = urlencode({key: value for key, value in (("kind", kind), ("filesystem", filesystem)) if value})
    context = {
        "kind": kind,
        "filesystem": filesystem,
        # The drop-down offers canonical names: a URL's other spelling ("gpfs") selects its name.
        "filesystem_name": canonical("filesystem", filesystem),
        "kind_choices": KIND_CHOICES,
        "error": error,
        # One small cached summary: the page never loads the thousands of points its chart draws.
        **charts_cached(
            "history-page", (kind, filesystem.lower()), partial(_history_summary, kind, filesystem)
        ),
        "generation": charts_generation(),
        "points_src": reverse("charts:history-points") + (f"?{query}" if query else ""),
        "trends_src": reverse("charts:history-trends") + f"?kind={kind}",
        "shares_src": reverse("charts:history-shares") + f"?kind={kind}",
        "shares_csv": reverse("charts:history-shares-csv") + f"?kind={kind}",
    }
    response = render(request, "frontend/pages/history.html", context, status=400 if error else 200)
    return response if error else mark_public(response, CHARTS_TIMEOUT_S)


def _history_summary(kind: str, filesystem: str) -> dict[str, Any]:
    if filesystem:
        points = _filtered_points_summary(kind, filesystem)
    else:
        # Every list's digest already holds its counts and leaders: no point is read or parsed.
        overview = digest_overview(kinds=kinds_for(kind))
        points = (
            {key: overview[key] for key in ("count", "left_out", "filesystems")},
            overview["leaders"],
        )
    shares = chart_data.history_shares_data(kind=kind)
    return {
        "points": points[0],
        # The no-JS table shows each list's leaders; whole lists are on their own pages and downloads.
        "points_table": points[1],
        "trends": chart_data.history_trends_data(kind=kind),
        "trend_metrics": (("score", "Score"), ("bw", "Bandwidth (GiB/s)"), ("md", "Metadata (kIOPS)")),
        "share_tables": [
            _share_table(shares[by], by, label)
            for by, label in (("filesystem", "file system"), ("vendor", "vendor"))
        ],
        "country_table": _share_table(chart_data.history_country_data(kind=kind), "country", "country"),
    }


def _filtered_points_summary(kind: str, filesystem: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = chart_data.history_points_data(kind=kind, filesystem=filesystem)
    summary = {"count": len(data["points"]), "left_out": data["left_out"], "filesystems": data["filesystems"]}
    return summary, [point for point in data["points"] if point["rank"] <= HISTORY_TABLE_TOP]


def _share_table(data: dict[str, Any], by: str, label: str) -> dict[str, Any]:
    rows = [
        {
            "release": row["release"],
            "total": row["total"],
            "counts": [row["counts"].get(c, 0) for c in data["categories"]],
        }
        for row in data["releases"]
    ]
    return {"by": by, "label": label, "data": data, "rows": rows}
