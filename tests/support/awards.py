"""Two published Research lists for the awards and "new on this list" tests (page and browser)."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from tests.factories import publish_list
from tests.submissions.review.helpers import open_release, storage, verified_upload


def two_research_lists(submitter: Any) -> dict[str, Any]:
    """ISC40's Research list ranks A and B; SC40's carries them over and adds C (new, best bandwidth)
    and D (new, best metadata but on 4 client nodes, so it wins nothing)."""
    today = timezone.localdate()
    first = open_release("ISC40", publication_date=today - datetime.timedelta(days=200))
    second = open_release("SC40", publication_date=today - datetime.timedelta(days=10))
    a = verified_upload(submitter, first, system=storage("Alpha", "Lab A"), score=300.0)
    b = verified_upload(submitter, first, system=storage("Beta", "Lab B"), score=200.0)
    c = verified_upload(submitter, second, system=storage("Gamma", "Lab C"), score=250.0, nodes=12)
    d = verified_upload(submitter, second, system=storage("Delta", "Lab D"), score=100.0, nodes=4)
    c.bw, d.md = 900.0, 5000.0
    publish_list(first, "research", [a, b])
    publish_list(second, "research", [a, c, b, d])
    return {"first": first, "second": second, "a": a, "b": b, "c": c, "d": d}
