"""The claim checker: paste a sentence quoting an IO500 result, see whether the published lists
support it and the citation the IO500 Messaging Policy asks for (registry.lists.claim_check)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from registry.core import messaging
from registry.core.generations import LIST_CACHE_SECONDS
from registry.core.public_cache import mark_public
from registry.lists.claim_check import check_claim
from registry.lists.claims import MAX_CLAIM_CHARS

# The sentences the page offers to try, each the policy's own form of a placement.
EXAMPLES = (
    "#1 on the SC20 IO500 list with 7,043",
    "ranked 3rd in the ISC21 10 Node list",
    "the #1 verified bandwidth score on the IO500 list at ISC20",
)


@require_GET
def claim_check_page(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("claim", "")
    context = {
        "claim": text[:MAX_CLAIM_CHARS],
        "max_chars": MAX_CLAIM_CHARS,
        "check": check_claim(text) if text.strip() else None,
        "examples": EXAMPLES,
        "policy": messaging,
    }
    # The answer changes only when a list is published (the list generation drops it then).
    return mark_public(render(request, "frontend/pages/claims.html", context), LIST_CACHE_SECONDS)
