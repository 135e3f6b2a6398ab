"""The visibility fingerprint asked on every anonymous page view: the same rule as the visible
queryset, compiled once, with the row id and the embargo time bound afresh on every call."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from registry.core.compiled_query import CompiledQuery
from registry.models import Release
from submissions.models import ReviewState, Submission
from submissions.review.models import Questionnaire
from submissions.selectors import submission_public_fingerprint, submission_visible_queryset
from tests.factories import make_release, make_storage_system, make_submission

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)
# How far from now each release's embargo ends (None: no embargo); "no release" has no release.
EMBARGO_ENDS = {"no embargo": None, "embargo ended": -DAY, "embargo running": DAY}
EMBARGOES = ["no release", *EMBARGO_ENDS]


def _release(embargo: str) -> Release | None:
    if embargo == "no release":
        return None
    ends_in = EMBARGO_ENDS[embargo]
    return make_release(embargo_end=None if ends_in is None else timezone.now() + ends_in)


@pytest.mark.parametrize("source", [Submission.Source.IMPORT, Submission.Source.UPLOAD])
@pytest.mark.parametrize("review_state", [state.value for state in ReviewState])
@pytest.mark.parametrize("embargo", EMBARGOES)
def test_the_fingerprint_exists_exactly_for_submissions_everyone_may_see(source, review_state, embargo):
    submission = make_submission(source=source, review_state=review_state, release=_release(embargo))
    visible = submission_visible_queryset(user=AnonymousUser()).filter(pk=submission.pk).exists()
    fingerprint = submission_public_fingerprint(pk=submission.pk)
    assert (fingerprint is not None) == visible
    if visible:
        assert fingerprint is not None and fingerprint[0] == submission.pk


def test_each_call_binds_its_own_row_id():
    first, second = make_submission(), make_submission()
    assert submission_public_fingerprint(pk=first.pk)[0] == first.pk  # type: ignore[index]
    assert submission_public_fingerprint(pk=second.pk)[0] == second.pk  # type: ignore[index]
    assert submission_public_fingerprint(pk=second.pk + 1000) is None


def test_each_call_compares_the_embargo_with_the_time_it_is_given():
    end = timezone.now() + DAY
    submission = make_submission(
        source=Submission.Source.UPLOAD,
        review_state=ReviewState.PUBLISHED,
        release=make_release(embargo_end=end),
    )
    query = CompiledQuery(
        lambda pk, now: Submission.objects.filter(pk=pk, release__embargo_end__lte=now).values_list("pk")
    )
    assert query.rows(submission.pk, end - DAY) == []
    assert query.rows(submission.pk, end + DAY) == [(submission.pk,)]
    assert query.rows(submission.pk, end - DAY) == []


def test_a_query_without_its_row_id_as_a_parameter_is_refused():
    query = CompiledQuery(lambda pk, now: Submission.objects.values_list("pk"))
    with pytest.raises(ValueError, match="row id"):
        query.rows(1, timezone.now())


@pytest.mark.parametrize(
    "change",
    ["saved again", "questionnaire", "system renamed", "institution renamed"],
)
def test_the_fingerprint_changes_with_what_the_page_shows(change):
    submission = make_submission(storage_system=make_storage_system(name="Alpha"))
    before = submission_public_fingerprint(pk=submission.pk)
    if change == "saved again":
        submission.save()
    elif change == "questionnaire":
        Questionnaire.objects.create(submission=submission)
    elif change == "system renamed":
        system = submission.storage_system
        assert system is not None
        system.name = "Beta"
        system.save()
    else:
        institution = submission.storage_system.institution  # type: ignore[union-attr]
        institution.name = "Elsewhere"
        institution.save()
    assert submission_public_fingerprint(pk=submission.pk) != before
