"""The draft page tells the committee what an upheld objection leaves to do: upholding it does not
take the entry off the list, the committee excludes it there."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client

from registry.models import ListEntry, ListSnapshot
from submissions.audits.objections import objection_answer, objection_answer_revoke, objection_file
from submissions.models import ReviewState, Submission
from tests.factories import add_phases, make_release, make_result, make_submission

pytestmark = pytest.mark.django_db

DRAFT_URL = "/review/releases/isc40/lists/production/"


def _run(user: Any, release: Any, state: str) -> Submission:
    submission = make_submission(
        source=Submission.Source.UPLOAD, submitter=user, release=release, review_state=state
    )
    add_phases(make_result(submission=submission, is_primary=True), {"ior-easy-write": 10.0})
    return submission


@pytest.fixture
def objected(submitter: Any, other_submitter: Any) -> tuple[Submission, Any]:
    release = make_release(name="ISC40", slug="isc40", publication_date=dt.date(2040, 6, 20),
                           submission_deadline=dt.date(2040, 6, 1), list_kinds=["production"])  # fmt: skip
    entry = _run(submitter, release, ReviewState.ACCEPTED)
    _run(other_submitter, release, ReviewState.SUBMITTED)
    draft = ListSnapshot.objects.create(release=release, kind="production", status=ListSnapshot.Status.DRAFT)
    ListEntry.objects.create(snapshot=draft, rank=1, submission=entry, score=1.0)
    objection = objection_file(user=other_submitter, snapshot=draft, submission_id=entry.pk, reason="Cached.")
    return entry, objection


def _upheld_notices(page: str) -> list[str]:
    return re.findall(r'<div class="notice[^"]*"[^>]*data-role="objection-upheld".*?</div>', page, re.S)


def test_an_upheld_objection_asks_the_committee_to_exclude_the_entry_with_the_action_at_hand(
    objected: tuple[Submission, Any], committee_member: Any, client: Client
) -> None:
    entry, objection = objected
    objection_answer(user=committee_member, objection=objection, outcome="upheld", text="It read from cache.")
    client.force_login(committee_member)
    page = client.get(DRAFT_URL).content.decode()
    (notice,) = _upheld_notices(page)
    assert f"Objection {objection.pk} was upheld" in notice
    assert "does not take the entry off the list" in notice
    assert 'action="/review/releases/isc40/lists/production/exclude/"' in notice
    assert f'name="submission" value="{entry.pk}"' in notice
    assert f'href="#entry-{entry.pk}"' in notice and f'id="entry-{entry.pk}"' in page
    # The form's fields lead to the exclusion's confirm step for that entry.
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', notice))
    confirm = client.post("/review/releases/isc40/lists/production/exclude/", fields)
    assert confirm.status_code == 200
    assert f"submission {entry.pk}" in confirm.content.decode().lower()


def test_a_dismissed_or_revoked_answer_asks_for_no_exclusion(
    objected: tuple[Submission, Any], committee_member: Any, client: Client
) -> None:
    _entry, objection = objected
    client.force_login(committee_member)
    upheld = objection_answer(user=committee_member, objection=objection, outcome="upheld", text="Yes.")
    objection_answer_revoke(user=committee_member, answer=upheld, reason="Wrong objection.")
    assert _upheld_notices(client.get(DRAFT_URL).content.decode()) == []
    objection_answer(user=committee_member, objection=objection, outcome="dismissed", text="No.")
    assert _upheld_notices(client.get(DRAFT_URL).content.decode()) == []
