"""The "Cite this result" card of a submission page (the list page builds its own in its context).

The card is included in a page that already decided the submission may be seen by its reader; it is
a citation only when everyone may see the submission, since a permalink others cannot open cites
nothing.
"""

from __future__ import annotations

from typing import Any

from django import template

from frontend.lists.citation import placement_of, retrieval_date, submission_citation
from registry.core.messaging import MessagingStatus, list_messaging_status
from registry.lists.selectors import submission_placements
from submissions.models import Submission
from submissions.selectors import submission_messaging_status, submission_public_fingerprint

register = template.Library()


@register.inclusion_tag("frontend/_citation.html")
def submission_citation_card(submission: Submission) -> dict[str, Any]:
    public = submission_public_fingerprint(pk=submission.pk) is not None
    placements = (
        [placement_of(entry) for entry in submission_placements(submission_id=submission.pk)]
        if public
        else []
    )
    return {
        "citation": submission_citation(submission, placements, public=public, retrieved=retrieval_date())
    }


@register.simple_tag
def messaging_status_of(submission: Submission) -> MessagingStatus:
    """The submission's term under the IO500 Messaging Policy, with the sentence that explains it."""
    return submission_messaging_status(submission=submission)


@register.filter
def list_messaging(provenance: str) -> MessagingStatus:
    """The term the entries of a list of this provenance are quoted with."""
    return list_messaging_status(provenance)
