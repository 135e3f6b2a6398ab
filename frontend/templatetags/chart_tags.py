"""Template tags giving the submission chart snippets their server-side tables (the no-JS fallback).

The snippets are included in a page that already decided the submission is visible, so no
visibility check happens here.
"""

from __future__ import annotations

from typing import Any

from django import template

from frontend.charts import data as chart_data
from frontend.charts.selectors import head_for
from submissions.models import Submission

register = template.Library()


@register.simple_tag
def submission_phase_table(submission: Submission) -> dict[str, Any]:
    return chart_data.submission_phases_data(head=head_for(submission))


@register.simple_tag
def submission_rank_table(submission: Submission) -> dict[str, Any]:
    return chart_data.submission_ranks_data(head=head_for(submission))


@register.simple_tag
def submission_timeline_table(submission: Submission) -> dict[str, Any]:
    return chart_data.submission_timeline_data(head=head_for(submission))
