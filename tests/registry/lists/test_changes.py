"""Changes since the previous list on drafts, published versions and build_list (issue 25 item 3):
which list a version is compared with, why entries left, and the correction that changes nothing."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from registry.lists.changes import (
    correction_changes,
    previous_snapshot,
    release_changes,
    snapshot_changes,
)
from registry.lists.diff import RELEASE, VERSION
from registry.lists.publishing import release_drafts_build, snapshot_publish
from registry.lists.services import ListPublishError
from registry.models import ListSnapshot
from submissions.models import ReviewState
from submissions.review.services import submission_exclude
from tests.factories import make_release, make_submission, publish_list
from tests.submissions.review.helpers import client_for, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def publish_research(release: Any, user: Any, reason: str = "") -> ListSnapshot:
    [draft] = release_drafts_build(user=user, release=release, kinds=["research"])
    # The test release's call is still open: publishing it now is an early publish, confirmed.
    return snapshot_publish(user=user, snapshot=draft, reason=reason, early=True)


@pytest.fixture
def published(submitter: Any, committee_member: Any) -> dict[str, Any]:
    """A release whose Research list is published with two entries, A (#1) and B (#2)."""
    release = open_release()
    first = verified_upload(submitter, release, system=storage("A"), score=90.0, review_state="accepted")
    second = verified_upload(submitter, release, system=storage("B"), score=50.0, review_state="accepted")
    snapshot = publish_research(release, committee_member)
    return {"release": release, "first": first, "second": second, "snapshot": snapshot}


def test_a_correction_that_changes_nothing_is_refused(
    published: dict[str, Any], committee_member: Any
) -> None:
    with pytest.raises(ListPublishError, match="there is nothing to correct"):
        publish_research(published["release"], committee_member, reason="Submission A removed.")
    assert (
        ListSnapshot.objects.filter(release=published["release"], kind="research", status="published").count()
        == 1
    )


def test_a_correction_shows_the_real_diff_on_the_public_list_page(
    published: dict[str, Any], committee_member: Any
) -> None:
    release, first, second = published["release"], published["first"], published["second"]
    submission_exclude(
        user=committee_member,
        submission=first,
        release=release,
        list_kind="research",
        reason="filed too late",
    )
    corrected = publish_research(release, committee_member, reason="Submission A excluded.")
    # The reason is recorded with the version, as it held when the version was built.
    assert [(row["submission_id"], row["rule"]) for row in corrected.left_out] == [(first.pk, "decision")]
    changes = snapshot_changes(corrected)
    assert changes is not None
    assert [(c.entry.submission_id, c.reason) for c in changes.removed] == [
        (first.pk, "excluded from the research lists from ISC40 on: filed too late")
    ]
    assert changes.new_top is not None and changes.new_top.submission_id == second.pk

    page = client_for(None).get(
        reverse("frontend:list", kwargs={"release": release.slug, "kind": "research"})
    )
    body = page.content.decode()
    assert (
        "Correction: changes since version 1 of this list (ISC40 Research), the version it corrects" in body
    )
    removed = body.split('data-role="removed"')[1].split("</ul>")[0]
    assert f'data-submission="{first.pk}"' in removed and "filed too late" in removed
    assert f'data-submission="{second.pk}"' not in removed  # still listed, so never called removed
    assert 'data-role="new-top"' in body


def test_the_draft_page_shows_what_the_draft_changes(
    published: dict[str, Any], submitter: Any, committee_member: Any
) -> None:
    release = published["release"]
    newcomer = verified_upload(submitter, release, system=storage("C"), score=70.0, review_state="accepted")
    release_drafts_build(user=committee_member, release=release, kinds=["research"])
    page = client_for(committee_member).get(
        reverse("publishing:draft", kwargs={"release": release.slug, "kind": "research"})
    )
    body = page.content.decode()
    added = body.split('data-role="added"')[1].split("</ul>")[0]
    assert (
        f'data-submission="{newcomer.pk}"' in added
        and "accepted for ISC40" in added
        and "new system" in added
    )
    # B only moved down because C came in above it: it kept its order, so it is not re-ranked.
    assert 'data-role="reranked"' not in body


def test_build_list_prints_the_changes_since_the_previous_list(
    published: dict[str, Any], committee_member: Any
) -> None:
    release, first = published["release"], published["first"]
    submission_exclude(
        user=committee_member, submission=first, release=release, list_kind="research", reason="wrong list"
    )
    output = io.StringIO()
    call_command("build_list", release.slug, "research", stdout=output)
    text = output.getvalue()
    assert (
        "Correction: changes since version 1 of this list (ISC40 Research), the version it corrects: "
        "0 added, 1 removed, 0 re-ranked" in text
    )
    assert f"- (was #1) submission {first.pk} " in text and "wrong list" in text


def test_the_first_list_of_a_kind_has_nothing_to_compare_with(committee_member: Any, submitter: Any) -> None:
    release = open_release()
    verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
    [draft] = release_drafts_build(user=committee_member, release=release, kinds=["research"])
    assert previous_snapshot(draft) is None
    output = io.StringIO()
    call_command("build_list", release.slug, "research", stdout=output)
    assert "The first list of its kind" in output.getvalue()


def test_a_release_is_compared_with_the_last_list_of_an_earlier_release_and_research_continues_io500() -> (
    None
):
    older = make_release(name="SC30", publication_date=datetime.date(2030, 1, 1))
    old = make_release(name="SC31", publication_date=datetime.date(2030, 6, 1))
    new = make_release(name="ISC32", publication_date=datetime.date(2031, 1, 1), list_kinds=["research"])
    publish_list(older, "io500", [make_submission(release=older)])
    last = publish_list(old, "io500", [make_submission(release=old)])
    draft = ListSnapshot.objects.create(release=new, kind="research", status=ListSnapshot.Status.DRAFT)
    assert previous_snapshot(draft) == last


def test_a_better_run_of_a_listed_system_supersedes_its_entry_in_the_next_release(
    published: dict[str, Any], submitter: Any, committee_member: Any
) -> None:
    earlier = published["release"]
    later = open_release(
        "SC40", publication_date=earlier.publication_date + datetime.timedelta(days=1), rules_from=earlier
    )
    better = verified_upload(submitter, later, system=storage("B"), score=95.0, review_state="accepted")
    [draft] = release_drafts_build(user=committee_member, release=later, kinds=["research"])
    changes = snapshot_changes(draft)
    assert changes is not None and changes.previous_label == "ISC40 Research"
    [removed] = changes.removed
    assert removed.entry.submission_id == published["second"].pk
    assert f"superseded by a better run of the same storage system: submission {better.pk}" in removed.reason
    assert changes.new_systems == ()


def test_an_entry_carried_over_from_the_previous_list_leaves_it_when_a_decision_excludes_it(
    published: dict[str, Any], submitter: Any, committee_member: Any
) -> None:
    earlier = published["release"]
    later = open_release(
        "SC40", publication_date=earlier.publication_date + datetime.timedelta(days=1), rules_from=earlier
    )
    [before] = release_drafts_build(user=committee_member, release=later, kinds=["research"])
    carried = set(before.entries.filter(carried=True).values_list("submission_id", flat=True))
    assert carried == {published["first"].pk, published["second"].pk}
    submission_exclude(
        user=committee_member,
        submission=published["first"],
        release=later,
        list_kind="research",
        reason="not a research system",
    )
    [draft] = release_drafts_build(user=committee_member, release=later, kinds=["research"])
    assert list(draft.entries.values_list("submission_id", "carried")) == [(published["second"].pk, True)]
    [row] = [row for row in draft.left_out if row["submission_id"] == published["first"].pk]
    assert row["rule"] == "decision" and "not a research system" in str(row["reason"])


def test_a_list_still_under_its_release_embargo_is_compared_with_nothing() -> None:
    from django.utils import timezone

    hidden = make_release(
        name="SC31",
        publication_date=datetime.date(2030, 6, 1),
        embargo_end=timezone.now() + datetime.timedelta(days=3),
    )
    new = make_release(name="ISC32", publication_date=datetime.date(2031, 1, 1))
    publish_list(hidden, "io500", [make_submission(release=hidden)])
    draft = ListSnapshot.objects.create(release=new, kind="io500", status=ListSnapshot.Status.DRAFT)
    assert previous_snapshot(draft) is None


def test_a_removal_from_a_list_recorded_from_io500_org_says_io500_org_gave_no_reason() -> None:
    from registry.lists.diff import NOT_EXPLAINED_BY_IO500

    old = make_release(name="SC30", publication_date=datetime.date(2030, 1, 1))
    new = make_release(name="ISC31", publication_date=datetime.date(2030, 6, 1))
    kept, dropped = make_submission(release=old), make_submission(release=old, bw=1.0)
    publish_list(old, "io500", [kept, dropped], provenance=ListSnapshot.Provenance.RECORDED)
    recorded = publish_list(new, "io500", [kept], provenance=ListSnapshot.Provenance.RECORDED)
    changes = snapshot_changes(recorded)
    assert changes is not None
    assert [(c.entry.submission_id, c.reason) for c in changes.removed] == [
        (dropped.pk, NOT_EXPLAINED_BY_IO500)
    ]


@pytest.fixture
def corrected_next_release(
    published: dict[str, Any], submitter: Any, committee_member: Any
) -> dict[str, Any]:
    """ISC40's Research list (A, B) carried into SC40 with a new run C; SC40 v1 published, then A
    excluded from SC40 and v2 published as a correction."""
    earlier = published["release"]
    later = open_release(
        "SC40", publication_date=earlier.publication_date + datetime.timedelta(days=1), rules_from=earlier
    )
    newcomer = verified_upload(submitter, later, system=storage("C"), score=70.0, review_state="accepted")
    first = publish_research(later, committee_member)
    submission_exclude(
        user=committee_member,
        submission=published["first"],
        release=later,
        list_kind="research",
        reason="moved",
    )
    corrected = publish_research(later, committee_member, reason="A excluded")
    return {**published, "later": later, "newcomer": newcomer, "v1": first, "v2": corrected}


def test_a_correction_compares_what_is_new_with_the_previous_release_and_what_it_fixes_with_v1(
    corrected_next_release: dict[str, Any],
) -> None:
    # Issue 25, after a correction: "new on this list" was compared with version 1 of the same list
    # ("0 new entries since ISC40 Production"); it must be the previous release's list.
    data = corrected_next_release
    v2, newcomer, first = data["v2"], data["newcomer"], data["first"]
    new = release_changes(v2)
    assert new is not None and new.compared_with == RELEASE
    assert new.previous_label == "ISC40 Research"
    assert new.added_ids == {newcomer.pk}
    assert [c.entry.submission_id for c in new.removed] == [first.pk]
    fix = correction_changes(v2)
    assert fix is not None and fix.compared_with == VERSION
    assert fix.previous_label == "version 1 of this list (SC40 Research)"
    assert fix.added_ids == frozenset() and [c.entry.submission_id for c in fix.removed] == [first.pk]
    assert correction_changes(data["v1"]) is None

    body = (
        client_for(None)
        .get(reverse("frontend:list", kwargs={"release": data["later"].slug, "kind": "research"}))
        .content.decode()
    )
    assert "Correction: changes since version 1 of this list (SC40 Research), the version it corrects" in body
    assert "Changes since ISC40 Research (the previous release&#x27;s list)" in body
    assert "1 entry new on this list: not on ISC40 Research, the previous release's list." in body


def test_the_release_page_counts_what_is_new_since_the_previous_release_after_a_correction(
    corrected_next_release: dict[str, Any], committee_member: Any
) -> None:
    body = (
        client_for(committee_member)
        .get(reverse("publishing:release", kwargs={"release": corrected_next_release["later"].slug}))
        .content.decode()
    )
    assert "1 new entry since ISC40 Research" in body
    assert "since SC40 Research" not in body


def test_a_correction_draft_carries_over_the_version_it_corrects(
    published: dict[str, Any], committee_member: Any
) -> None:
    # Issue 25: a correction draft said "no earlier published list to carry over" and marked every
    # row "added"; it carries over the published version it corrects and is compared with it.
    release, first, second = published["release"], published["first"], published["second"]
    submission_exclude(
        user=committee_member, submission=first, release=release, list_kind="research", reason="late"
    )
    [draft] = release_drafts_build(user=committee_member, release=release, kinds=["research"])
    assert draft.carried_from_id == published["snapshot"].pk
    assert list(draft.entries.values_list("submission_id", "carried")) == [(second.pk, True)]
    body = (
        client_for(committee_member)
        .get(reverse("publishing:draft", kwargs={"release": release.slug, "kind": "research"}))
        .content.decode()
    )
    assert "no earlier published list" not in body
    assert f"A correction of {published['snapshot']}, carried over from it" in body
    correction = body.split('data-role="correction"')[1].split("</section>")[0]
    assert "version 1 of this list" in correction
    assert f'data-submission="{first.pk}"' in correction.split('data-role="removed"')[1]
    origins = body.split('data-role="origin">')[1:]
    assert [origin.split("<")[0] for origin in origins] == ["carried"]


def test_a_revoked_exclusion_brings_the_entry_back_in_the_next_correction(
    published: dict[str, Any], committee_member: Any
) -> None:
    from submissions.review.services import entry_decision_revoke

    release, first = published["release"], published["first"]
    decision = submission_exclude(
        user=committee_member, submission=first, release=release, list_kind="research", reason="late"
    )
    second_version = publish_research(release, committee_member, reason="A excluded")
    assert first.pk not in set(second_version.entries.values_list("submission_id", flat=True))
    revoked = entry_decision_revoke(user=committee_member, decision=decision, reason="it was on time")
    # The draft the committee reads says why the entry is back: the revocation, not an acceptance.
    [draft] = release_drafts_build(user=committee_member, release=release, kinds=["research"])
    back = f"exclusion revoked on {revoked.revoked_at:%Y-%m-%d}: it was on time"
    on_draft = correction_changes(draft)
    assert on_draft is not None
    assert [(c.entry.submission_id, c.reason) for c in on_draft.added] == [(first.pk, back)]
    third = snapshot_publish(user=committee_member, snapshot=draft, reason="A back", early=True)
    assert first.pk in set(third.entries.values_list("submission_id", flat=True))
    fix = correction_changes(third)
    assert fix is not None and fix.added_ids == {first.pk}
    assert [c.reason for c in fix.added] == [back]
    # Compared with the previous release's list, the entry is simply new on this release's list.
    since_release = release_changes(third)
    assert since_release is None or all(c.reason != back for c in since_release.added)
    assert fix.previous_label == "version 2 of this list (ISC40* Research)"
