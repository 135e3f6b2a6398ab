"""The site's information pages: the rules in our words, how to run the benchmark, the call for
submissions and what this registry is. The same for every reader, so the public cache keeps them."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from frontend.pages import sources
from frontend.pages.selectors import call_state, provenance_counts
from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.public_cache import mark_public, seconds_until_next_day
from registry.core.site import site_url


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    context = {"rules": sources.RULES, "sources": sources.rule_sources()}
    return mark_public(render(request, "frontend/pages/rules.html", context), LIST_CACHE_SECONDS)


@require_GET
def how_to_run_page(request: HttpRequest) -> HttpResponse:
    context = {
        "readme": sources.IO500_README,
        "benchmark": sources.BENCHMARK_PAGE,
        "submission_rules": sources.SUBMISSION_RULES,
        # The submit tool needs the registry's canonical address (the same for every reader).
        "site_url": site_url(),
    }
    return mark_public(render(request, "frontend/pages/how_to_run.html", context), LIST_CACHE_SECONDS)


@require_GET
def call_page(request: HttpRequest) -> HttpResponse:
    # Whether a call is open turns with the date: kept until midnight at most (and a release edit
    # moves the list generation, which drops it sooner).
    response = render(request, "frontend/pages/call.html", {"call": call_state()})
    return mark_public(response, seconds_until_next_day(cap=LIST_CACHE_SECONDS))


@require_GET
def about_page(request: HttpRequest) -> HttpResponse:
    context = {
        "counts": provenance_counts(),
        "webpage_commit": sources.WEBPAGE_SNAPSHOT,
        "submission_data_commit": sources.SUBMISSION_DATA_COMMIT,
        "about_sources": (sources.THE_LISTS, sources.ABOUT_PAGE, sources.SCORE_CODE),
    }
    return mark_public(render(request, "frontend/pages/about.html", context), LIST_CACHE_SECONDS)


@require_GET
def faq_page(request: HttpRequest) -> HttpResponse:
    """The questions are a section of the about page; /faq/ is where people look for them."""
    return redirect(reverse("pages:about") + "#faq", permanent=True)
