"""The committee opens a release with its dates and lists, and changes them; from the pages and the
commands. The demo opens the next release and makes its two accounts."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from registry.lists.releases import ReleaseDates, ReleaseSettings, release_update
from registry.management.commands.demo_setup import next_conference
from registry.models import ListSnapshot, Release
from submissions.audits.models import AuditDraw
from submissions.review.roles import is_committee
from tests.submissions.review.helpers import open_release

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def form_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "ISC41",
        "publication_date": (TODAY + datetime.timedelta(days=90)).isoformat(),
        "submission_deadline": (TODAY + datetime.timedelta(days=60)).isoformat(),
        "embargo_end": "",
        "list_kinds": ["production", "research", "full"],
        "accepted_versions": "isc26_v2, sc26",
        "audit_share_percent": "10",
        "audit_answer_days": "14",
    }
    data.update(changes)
    return data


def test_the_committee_opens_a_release_and_submitters_can_choose_it(committee_member, client):
    client.force_login(committee_member)
    assert client.get("/review/releases/new/").status_code == 200
    response = client.post("/review/releases/new/", form_data())
    assert response.status_code == 302
    release = Release.objects.get(name="ISC41")
    assert release.is_open_for_submissions()
    assert release.list_kinds == ["production", "research", "full"]
    assert release.accepted_versions == ["isc26_v2", "sc26"]
    assert release in Release.objects.open_for_submissions()


def test_a_wrong_name_a_late_deadline_and_an_unknown_version_tag_are_explained(committee_member, client):
    client.force_login(committee_member)
    late = (TODAY + datetime.timedelta(days=120)).isoformat()
    response = client.post(
        "/review/releases/new/", form_data(name="Summer27", submission_deadline=late, accepted_versions="v 1")
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "is not a version tag" in str(errors["accepted_versions"]).lower() or "Not a version tag" in str(
        errors["accepted_versions"]
    )
    assert not Release.objects.filter(name__iexact="summer27").exists()
    response = client.post("/review/releases/new/", form_data(submission_deadline=late))
    assert response.status_code == 400
    assert "after the publication day" in str(response.context["form"].errors["submission_deadline"])
    response = client.post("/review/releases/new/", form_data(name="Summer27"))
    assert "is not a release name" in str(response.context["form"].errors["name"])


def test_a_release_that_exists_is_not_opened_twice(committee_member, client):
    open_release("ISC41")
    client.force_login(committee_member)
    response = client.post("/review/releases/new/", form_data())
    assert response.status_code == 400
    assert "exists already" in str(response.context["form"].errors["name"])


def test_the_committee_moves_a_deadline_and_sets_an_embargo(committee_member, client):
    release = open_release("ISC41")
    client.force_login(committee_member)
    embargo = (TODAY + datetime.timedelta(days=91)).isoformat() + "T12:00"
    response = client.post(
        f"/review/releases/{release.slug}/edit/",
        form_data(
            name="ignored",
            submission_deadline=(TODAY - datetime.timedelta(days=1)).isoformat(),
            embargo_end=embargo,
        ),
    )
    assert response.status_code == 302
    release.refresh_from_db()
    assert release.name == "ISC41"  # the name is not edited
    assert not release.is_open_for_submissions()
    assert release.embargo_end is not None


def test_a_list_kind_that_has_a_list_cannot_be_dropped(committee_member, client):
    release = open_release("ISC41")
    ListSnapshot.objects.create(release=release, kind="research", version=1)
    client.force_login(committee_member)
    response = client.post(f"/review/releases/{release.slug}/edit/", form_data(list_kinds=["production"]))
    assert response.status_code == 400
    assert "Research" in str(response.context["form"].errors["list_kinds"])


def test_submitters_cannot_open_releases(submitter, client):
    client.force_login(submitter)
    assert client.get("/review/releases/new/").status_code == 403
    assert client.post("/review/releases/new/", form_data()).status_code == 403
    assert not Release.objects.exists()


def test_the_open_release_command_opens_a_release_and_explains_bad_dates():
    out = io.StringIO()
    publication = (TODAY + datetime.timedelta(days=200)).isoformat()
    call_command("open_release", "sc41", "--publication-date", publication, stdout=out)
    assert "SC41: open for submissions" in out.getvalue()
    with pytest.raises(CommandError, match="not a date"):
        call_command("open_release", "ISC42", "--publication-date", "next june")


def test_the_committee_member_command_adds_and_removes_an_account(submitter):
    out = io.StringIO()
    call_command("committee_member", "alice", stdout=out)
    assert "alice is on the committee" in out.getvalue()
    assert is_committee(type(submitter).objects.get(pk=submitter.pk))
    call_command("committee_member", "alice", "--remove", stdout=io.StringIO())
    assert not is_committee(type(submitter).objects.get(pk=submitter.pk))
    with pytest.raises(CommandError, match="no account"):
        call_command("committee_member", "nobody")


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (datetime.date(2026, 11, 23), ("ISC27", datetime.date(2027, 6, 24))),
        (datetime.date(2027, 3, 1), ("ISC27", datetime.date(2027, 6, 24))),
        (datetime.date(2027, 6, 10), ("SC27", datetime.date(2027, 11, 18))),
    ],
)
def test_the_demo_opens_the_next_conference_whose_call_is_still_open(today, expected):
    assert next_conference(today) == expected


def test_demo_setup_refuses_a_real_database_and_opens_the_next_release_on_request(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "postgresql")
    with pytest.raises(CommandError, match="SQLite"):
        call_command("demo_setup")
    out = io.StringIO()
    call_command("demo_setup", "--any-database", stdout=out)
    assert Release.objects.open_for_submissions().exists()
    assert "Log in as the committee member: committee / demo-committee" in out.getvalue()
    call_command("demo_setup", "--any-database", stdout=io.StringIO())  # again: nothing twice
    assert Release.objects.count() == 1


def test_the_committee_sets_which_lists_take_the_bundled_runner(committee_member, client):
    client.force_login(committee_member)
    response = client.post(
        "/review/releases/new/", form_data(bundled_runner_kinds=["historical", "ten-node"])
    )
    assert response.status_code == 400
    assert "10 Node Challenge" in str(response.context["form"].errors["bundled_runner_kinds"])
    response = client.post("/review/releases/new/", form_data(bundled_runner_kinds=["full"]))
    assert response.status_code == 302
    assert Release.objects.get(name="ISC41").bundled_runner_kinds == ["full"]
    assert Release.objects.create(name="SC41", slug="sc41", publication_date=TODAY).bundled_runner_kinds == [
        "historical"
    ]


def test_an_embargo_cannot_be_set_on_runs_another_release_already_published(
    committee_member, submitter, client
):
    from registry.lists.publishing import release_drafts_build, release_publish
    from submissions.models import ReviewState
    from tests.submissions.review.helpers import verified_upload

    earlier = open_release("ISC41")
    later = open_release("SC41", publication_date=TODAY + datetime.timedelta(days=120), rules_from=earlier)
    shown = verified_upload(submitter, earlier, review_state=ReviewState.ACCEPTED)
    release_drafts_build(user=committee_member, release=later, kinds=["historical"])
    # Published before its date, as the committee confirmed (registry.lists.services.PublishTooEarly).
    release_publish(user=committee_member, release=later, early=True)
    client.force_login(committee_member)
    embargo = (TODAY + datetime.timedelta(days=91)).isoformat() + "T12:00"
    response = client.post(f"/review/releases/{earlier.slug}/edit/", form_data(embargo_end=embargo))
    assert response.status_code == 400
    message = str(response.context["form"].errors["embargo_end"])
    assert f"submission {shown.pk} on SC41" in message and "cannot hide them" in message
    earlier.refresh_from_db()
    assert earlier.embargo_end is None
    # An embargo that has ended already hides nothing, so it may be recorded.
    ended = (TODAY - datetime.timedelta(days=1)).isoformat() + "T12:00"
    assert (
        client.post(f"/review/releases/{earlier.slug}/edit/", form_data(embargo_end=ended)).status_code == 302
    )


def test_the_committee_turns_run_tokens_on_for_a_release_and_off_again(committee_member, client):
    release = open_release("ISC41")
    assert not release.run_tokens_required  # off by default
    client.force_login(committee_member)
    page = client.get(f"/review/releases/{release.slug}/edit/").content.decode()
    assert 'name="run_tokens_required"' in page
    assert (
        client.post(f"/review/releases/{release.slug}/edit/", form_data(run_tokens_required="on")).status_code
        == 302
    )
    release.refresh_from_db()
    assert release.run_tokens_required
    assert client.post(f"/review/releases/{release.slug}/edit/", form_data()).status_code == 302
    release.refresh_from_db()
    assert not release.run_tokens_required


def test_the_committee_sets_the_audit_share_and_the_days_to_answer_on_the_release_form(
    committee_member, client
):
    client.force_login(committee_member)
    page = client.get("/review/releases/new/").content.decode()
    assert 'name="audit_share_percent"' in page and 'name="audit_answer_days"' in page
    assert "re-run one phase" in page  # the help text says what the share does
    response = client.post(
        "/review/releases/new/", form_data(audit_share_percent="25", audit_answer_days="7")
    )
    assert response.status_code == 302
    release = Release.objects.get(name="ISC41")
    assert (release.audit_share_percent, release.audit_answer_days) == (25.0, 7)
    response = client.post(
        f"/review/releases/{release.slug}/edit/", form_data(audit_share_percent="2.5", audit_answer_days="21")
    )
    assert response.status_code == 302
    release.refresh_from_db()
    assert (release.audit_share_percent, release.audit_answer_days) == (2.5, 21)


@pytest.mark.parametrize(
    ("share", "days", "field"),
    [
        ("0", "14", "audit_share_percent"),
        ("100.5", "14", "audit_share_percent"),
        ("10", "0", "audit_answer_days"),
    ],
)
def test_an_audit_share_outside_0_to_100_percent_or_no_day_to_answer_is_refused(
    committee_member, client, share, days, field
):
    client.force_login(committee_member)
    response = client.post(
        "/review/releases/new/", form_data(audit_share_percent=share, audit_answer_days=days)
    )
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not Release.objects.exists()


def test_the_service_refuses_an_audit_share_of_zero_which_would_draw_no_run():
    release = open_release("ISC41")
    settings = ReleaseSettings(
        dates=ReleaseDates(publication_date=release.publication_date), audit_share_percent=0
    )
    with pytest.raises(ValidationError, match="at least one run is drawn"):
        release_update(release=release, settings=settings)


def test_the_audit_settings_are_kept_once_the_draw_is_recorded_and_the_form_says_so(committee_member, client):
    release = open_release("ISC41")
    AuditDraw.objects.create(
        release=release, seed="s", algorithm="a", share_percent=10.0, drawn_at=timezone.now()
    )
    client.force_login(committee_member)
    page = client.get(f"/review/releases/{release.slug}/edit/").content.decode()
    assert "The draw is recorded, so these settings can no longer change." in page
    assert response_field_disabled(page, "audit_share_percent")
    assert response_field_disabled(page, "audit_answer_days")
    # A forged post does not move them; the other settings still save.
    response = client.post(
        f"/review/releases/{release.slug}/edit/",
        form_data(audit_share_percent="50", audit_answer_days="3", run_tokens_required="on"),
    )
    assert response.status_code == 302
    release.refresh_from_db()
    assert (release.audit_share_percent, release.audit_answer_days) == (10.0, 14)
    assert release.run_tokens_required
    settings = ReleaseSettings(
        dates=ReleaseDates(publication_date=release.publication_date), audit_answer_days=3
    )
    with pytest.raises(ValidationError, match="the draw is recorded"):
        release_update(release=release, settings=settings)


def response_field_disabled(page: str, name: str) -> bool:
    start = page.index(f'name="{name}"')
    tag = page[page.rindex("<", 0, start) : page.index(">", start)]
    return " disabled" in tag


def test_the_admin_keeps_the_audit_settings_once_the_draw_is_recorded(admin_client):
    release = open_release("ISC41")
    url = f"/admin/registry/release/{release.pk}/change/"
    assert 'name="audit_share_percent"' in admin_client.get(url).content.decode()
    AuditDraw.objects.create(
        release=release, seed="s", algorithm="a", share_percent=10.0, drawn_at=timezone.now()
    )
    page = admin_client.get(url).content.decode()
    assert 'name="audit_share_percent"' not in page and 'name="audit_answer_days"' not in page
