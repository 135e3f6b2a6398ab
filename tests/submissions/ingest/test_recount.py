"""Stored runs get their node and task counts, the outputs that printed them and their start clock
from the ingest, and `recount_runs` reads them again for runs stored before (issue 26, item 4)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from submissions.models import Result
from tests.submissions.helpers import real_tarball

pytestmark = pytest.mark.django_db


def test_the_ingest_stores_the_counts_with_the_outputs_that_printed_them(submitter: Any, create: Any) -> None:
    submission, _ = create(submitter, real_tarball(777))
    result = Result.objects.get(submission=submission, is_primary=True)
    assert (result.nodes, result.procs) == (10, 320)
    assert result.nodes_source.endswith(".txt") and result.nodes_source in result.files
    assert result.procs_source == "result.txt"
    # results/result_466 is no timestamp; result.txt's "; START" is the run's own clock.
    assert result.timestamp == ""
    assert result.started == "2025-11-04 15:24:13"


def test_recount_runs_fills_runs_stored_without_them(submitter: Any, create: Any) -> None:
    submission, _ = create(submitter, real_tarball(585))
    Result.objects.filter(submission=submission).update(
        nodes=None, procs=None, nodes_source="", procs_source="", started=""
    )
    out = io.StringIO()
    call_command("recount_runs", "--submission", str(submission.pk), stdout=out)
    assert "1 archive(s) read, 1 run(s) matched, 1 updated." in out.getvalue()
    result = Result.objects.get(submission=submission)
    assert (result.nodes, result.procs, result.started) == (640, 640, "2021-10-20 18:11:23")
    assert result.nodes_source and result.procs_source
    # A second pass finds nothing to change.
    call_command("recount_runs", "--submission", str(submission.pk), stdout=out)
    assert "1 run(s) matched, 0 updated." in out.getvalue()
