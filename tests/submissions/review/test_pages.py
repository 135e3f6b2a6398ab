"""The committee's review pages: the queue, findings first, the diff against earlier submissions,
and the questionnaire rule of at least ten words per answer."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from scoring.model import SCORED_PHASES
from submissions.models import Finding, ReviewState
from submissions.review.diff import config_diff, review_diff
from submissions.review.questionnaire import questionnaire_clean
from tests.factories import add_phases, make_result
from tests.submissions.review.helpers import answers, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def test_every_answer_needs_ten_words_and_each_short_one_is_named() -> None:
    given = answers()
    given["caching"] = "No caches."
    given["trust"] = ""
    with pytest.raises(ValidationError) as refused:
        questionnaire_clean(given)
    errors = refused.value.message_dict
    assert set(errors) == {"caching", "trust"}
    assert errors["caching"] == ["Caching: answer with at least 10 words; this answer has 2."]
    assert "needs an answer of at least 10 words" in errors["trust"][0]
    assert questionnaire_clean(answers(words=10))["feedback"].count("-word") == 10


def test_the_feedback_on_the_questionnaire_is_optional_but_bounded() -> None:
    """Feedback is about the questionnaire, not the system: io500.org only asks it be non-empty on the
    server, so an empty or short one is accepted here; the other sections keep their ten words."""
    given = answers()
    given["feedback"] = ""
    assert questionnaire_clean(given)["feedback"] == ""
    given["feedback"] = "  Fine as is.  "
    assert questionnaire_clean(given)["feedback"] == "Fine as is."
    given["feedback"] = "x" * 20_001
    with pytest.raises(ValidationError) as refused:
        questionnaire_clean(given)
    assert set(refused.value.message_dict) == {"feedback"}


def test_the_queue_lists_what_awaits_a_decision_oldest_first(submitter: Any, committee_member: Any) -> None:
    release = open_release()
    first = verified_upload(submitter, release, system=storage("A"), review_state=ReviewState.SUBMITTED)
    second = verified_upload(submitter, release, system=storage("B"), review_state=ReviewState.UNDER_REVIEW)
    for state in (ReviewState.DRAFT, ReviewState.ACCEPTED, ReviewState.REJECTED):
        verified_upload(submitter, release, system=storage(state), review_state=state)
    Finding.objects.create(submission=second, code="x", severity="error", message="Broken")
    client = Client()
    client.force_login(committee_member)
    queue = client.get("/review/").context["submissions"]
    assert [s.pk for s in queue] == [first.pk, second.pk]
    assert (queue[1].error_count, queue[1].warning_count) == (1, 0)


def test_the_review_page_puts_errors_before_warnings(submitter: Any, committee_member: Any) -> None:
    waiting = verified_upload(submitter, open_release(), review_state=ReviewState.SUBMITTED)
    Finding.objects.create(submission=waiting, code="dev", severity="warning", message="Development build")
    Finding.objects.create(submission=waiting, code="hash", severity="error", message="Config hash mismatch")
    client = Client()
    client.force_login(committee_member)
    html = client.get(f"/review/{waiting.pk}/").content.decode()
    assert html.index("Config hash mismatch") < html.index("Development build")


def test_the_diff_flags_phases_that_moved_more_than_twenty_percent(submitter: Any) -> None:
    release = open_release()
    wolf = storage("Wolf")
    earlier = verified_upload(submitter, release, system=wolf, score=100.0)
    later = verified_upload(submitter, release, system=wolf, score=130.0)
    config = {"ior-easy": {"transferSize": "1m", "blockSize": "10g"}, "global": {"api": "POSIX"}}
    before = make_result(submission=earlier, version="io500-isc23", config=config)
    changed = {**config, "ior-easy": {"transferSize": "4m", "blockSize": "10g"}}
    after = make_result(submission=later, version="io500-isc24", config=changed)
    add_phases(before, dict.fromkeys(SCORED_PHASES, 10.0))
    add_phases(after, {**dict.fromkeys(SCORED_PHASES, 11.0), "ior-easy-write": 15.0})
    diff = review_diff(later)
    assert diff.previous == earlier
    flagged = {row.label for row in diff.flagged_phases}
    assert flagged == {"ior-easy-write", "Score", "Bandwidth (GiB/s)", "Metadata (kIOPS)"}
    version = next(row for row in diff.versions if row.label == "IO500 version")
    assert (version.before, version.after) == ("io500-isc23", "io500-isc24")
    assert [(row.label, row.before, row.after) for row in diff.config] == [
        ("ior-easy.transferSize", "1m", "4m")
    ]
    assert diff.config_unchanged == 2


def test_config_keys_on_one_side_only_are_differences() -> None:
    rows, same = config_diff({"a": {"x": "1"}}, {"a": {"x": "1", "y": "2"}})
    assert [(r.label, r.before, r.after) for r in rows] == [("a.y", None, "2")]
    assert same == 1


def test_a_first_submission_has_nothing_to_compare(submitter: Any) -> None:
    assert review_diff(verified_upload(submitter, open_release())).previous is None


def test_the_submit_page_links_the_rules_it_asks_to_confirm(submitter: Any) -> None:
    draft = verified_upload(submitter, open_release())
    client = Client()
    client.force_login(submitter)
    html = client.get(f"/submissions/{draft.pk}/submit/").content.decode()
    assert "I have read and followed the IO500 rules." in html
    assert '<a href="/rules/" data-role="rules-link">' in html
