"""Run tokens in the registry: issue (page, API, service), and redeem at ingest: consumed once, bound to
the account and the release, valid for the configured time, required when the release says so."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from registry.models import Release
from scoring.model import GIB_PER_S, Era, Phase, Recorded, RunResult, Severity
from scoring.tokens import expected_seeds, is_token
from submissions.models import Submission
from submissions.run_tokens.models import RunToken
from submissions.run_tokens.services import run_token_issue, run_token_redeem
from tests.conftest import PASSWORD
from tests.factories import make_release, make_submission

pytestmark = pytest.mark.django_db


def _run(token: str, start: dt.datetime) -> RunResult:
    """A run as the application writes it with --timestamp=<token>, started at `start` (UTC clock)."""
    seeds = expected_seeds(token)
    naive = start.astimezone(dt.UTC).replace(tzinfo=None).replace(microsecond=0)
    return RunResult(
        path=token,
        era=Era.C_ISC25,
        version="io500-isc26_v2",
        phases={
            "ior-easy-write": Phase(
                "ior-easy-write", 1.0, GIB_PER_S, 300.0, True, command=f"./ior -G {seeds['ior-easy']}"
            ),
            "ior-hard-write": Phase(
                "ior-hard-write", 1.0, GIB_PER_S, 300.0, True, command=f"./ior -G={seeds['ior-hard']}"
            ),
        },
        result_ini=[("run", [("result-dir", f"/results/{token}")])],
        result_recorded=[("run", Recorded()), ("ior-easy-write", Recorded(t_start=naive))],
    )


def _upload(user: Any, release: Release) -> Submission:
    return make_submission(source=Submission.Source.UPLOAD, submitter=user, release=release)


def _codes(findings: list[Any]) -> list[str]:
    return [f.code for f in findings]


@pytest.fixture
def release() -> Release:
    return make_release()


class TestIssue:
    def test_a_token_is_fresh_bound_to_the_account_and_expires_after_the_set_time(
        self, submitter: Any, release: Release, settings: Any
    ) -> None:
        settings.RUN_TOKEN_LIFETIME_HOURS = 2
        before = timezone.now()
        token = run_token_issue(user=submitter, release=release, system_name="  Lab   cluster ")
        assert is_token(token.token)
        assert token.user == submitter and token.release == release and token.system_name == "Lab cluster"
        assert before <= token.issued_at <= timezone.now()
        assert token.expires_at - token.issued_at == dt.timedelta(hours=2)
        assert token.used_by is None
        other = run_token_issue(user=submitter, release=release, system_name="Lab cluster")
        assert other.token != token.token

    def test_no_token_for_a_closed_release_or_an_unnamed_system(
        self, submitter: Any, release: Release
    ) -> None:
        closed = make_release(publication_date=timezone.localdate() - dt.timedelta(days=1))
        with pytest.raises(ValidationError, match="no longer takes submissions"):
            run_token_issue(user=submitter, release=closed, system_name="Lab cluster")
        with pytest.raises(ValidationError, match="Name the system"):
            run_token_issue(user=submitter, release=release, system_name="   ")
        assert not RunToken.objects.exists()

    def test_an_account_holds_a_limited_number_of_open_tokens(
        self, submitter: Any, release: Release, settings: Any
    ) -> None:
        settings.RUN_TOKEN_MAX_OPEN = 2
        first = run_token_issue(user=submitter, release=release, system_name="Lab")
        run_token_issue(user=submitter, release=release, system_name="Lab")
        with pytest.raises(ValidationError, match="2 unused run tokens"):
            run_token_issue(user=submitter, release=release, system_name="Lab")
        # A used token no longer counts.
        first.used_by = _upload(submitter, release)
        first.save()
        run_token_issue(user=submitter, release=release, system_name="Lab")

    def test_the_page_issues_a_token_to_a_logged_in_submitter_and_lists_theirs(
        self, client: Any, submitter: Any, other_submitter: Any, release: Release
    ) -> None:
        url = reverse("submissions:run-tokens")
        assert client.get(url).status_code == 302  # log in first
        run_token_issue(user=other_submitter, release=release, system_name="Bob's system")
        client.login(username="alice", password=PASSWORD)
        answer = client.post(url, {"release": release.slug, "system_name": "Alice's system"})
        assert answer.status_code == 200
        token = RunToken.objects.get(user=submitter)
        page = answer.content.decode()
        assert f"--timestamp={token.token}" in page
        assert "Bob&#x27;s system" not in page and "Bob's system" not in page

    def test_the_api_issues_and_lists_tokens(self, submitter: Any, release: Release) -> None:
        from rest_framework.test import APIClient

        client = APIClient()
        client.force_authenticate(submitter)
        url = reverse("submissions-api:run-token-list")
        created = client.post(url, {"release": release.slug, "system_name": "Lab"}, format="json")
        assert created.status_code == 201, created.content
        body = created.json()
        assert is_token(body["token"]) and body["timestamp_argument"] == f"--timestamp={body['token']}"
        assert body["release"] == release.slug and body["used_by"] is None
        assert [row["token"] for row in client.get(url).json()["results"]] == [body["token"]]
        closed = make_release(publication_date=timezone.localdate() - dt.timedelta(days=1))
        refused = client.post(url, {"release": closed.slug, "system_name": "Lab"}, format="json")
        assert refused.status_code == 400 and "no longer takes submissions" in refused.json()["detail"]
        assert APIClient().post(url, {"release": release.slug, "system_name": "Lab"}).status_code in (
            401,
            403,
        )


class TestRedeem:
    def test_a_token_run_verifies_and_consumes_the_token(self, submitter: Any, release: Release) -> None:
        token = run_token_issue(user=submitter, release=release, system_name="Lab")
        submission = _upload(submitter, release)
        findings = run_token_redeem(submission=submission, run=_run(token.token, timezone.now()))
        assert _codes(findings) == ["token-verified"]
        assert "seeds of its 2 seeded phase(s)" in findings[0].message
        token.refresh_from_db()
        assert token.used_by == submission and token.used_at is not None
        # The same submission ingested again (a retry) is still the token's first use.
        assert _codes(run_token_redeem(submission=submission, run=_run(token.token, timezone.now()))) == [
            "token-verified"
        ]

    def test_a_second_upload_of_the_token_is_refused_but_a_replacement_may_use_it(
        self, submitter: Any, release: Release
    ) -> None:
        token = run_token_issue(user=submitter, release=release, system_name="Lab")
        first = _upload(submitter, release)
        run_token_redeem(submission=first, run=_run(token.token, timezone.now()))
        second = _upload(submitter, release)
        findings = run_token_redeem(submission=second, run=_run(token.token, timezone.now()))
        assert _codes(findings) == ["token-reused"]
        assert findings[0].severity is Severity.ERROR and f"submission {first.pk}" in findings[0].message
        replacement = _upload(submitter, release)
        replacement.supersedes = first
        replacement.save()
        assert _codes(run_token_redeem(submission=replacement, run=_run(token.token, timezone.now()))) == [
            "token-verified"
        ]

    def test_another_accounts_token_is_refused_and_not_consumed(
        self, submitter: Any, other_submitter: Any, release: Release
    ) -> None:
        token = run_token_issue(user=other_submitter, release=release, system_name="Lab")
        findings = run_token_redeem(
            submission=_upload(submitter, release), run=_run(token.token, timezone.now())
        )
        assert _codes(findings) == ["token-foreign"]
        token.refresh_from_db()
        assert token.used_by is None

    def test_a_run_started_after_the_expiry_is_refused(self, submitter: Any, release: Release) -> None:
        token = run_token_issue(user=submitter, release=release, system_name="Lab")
        late = token.expires_at + dt.timedelta(hours=15)
        findings = run_token_redeem(submission=_upload(submitter, release), run=_run(token.token, late))
        assert _codes(findings) == ["token-started-after-expiry"]

    def test_a_token_never_issued_or_for_another_release_is_refused(
        self, submitter: Any, release: Release
    ) -> None:
        made_up = "io500-run-" + "a" * 26
        submission = _upload(submitter, release)
        assert _codes(run_token_redeem(submission=submission, run=_run(made_up, timezone.now()))) == [
            "token-unknown"
        ]
        other_release = make_release()
        token = run_token_issue(user=submitter, release=other_release, system_name="Lab")
        assert _codes(run_token_redeem(submission=submission, run=_run(token.token, timezone.now()))) == [
            "token-other-release"
        ]

    def test_a_release_that_requires_tokens_refuses_a_run_without_one(
        self, submitter: Any, release: Release
    ) -> None:
        plain = _run("io500-run-" + "b" * 26, timezone.now())
        plain.result_ini = [("run", [("result-dir", "/results/2026.11.28-03.00.00")])]
        plain.path = "2026.11.28-03.00.00"
        submission = _upload(submitter, release)
        assert run_token_redeem(submission=submission, run=plain) == []
        release.run_tokens_required = True
        release.save()
        findings = run_token_redeem(submission=submission, run=plain)
        assert _codes(findings) == ["token-required"] and findings[0].severity is Severity.ERROR


def test_a_valid_real_run_without_a_token_is_invalid_and_cannot_be_submitted_where_tokens_are_required(
    submitter: Any, create: Any
) -> None:
    from submissions.review.services import submission_submit
    from tests.submissions.helpers import real_tarball

    strict = make_release(run_tokens_required=True)
    submission, _ = create(submitter, real_tarball(33), release=strict)
    submission.refresh_from_db()
    assert submission.status == Submission.Status.INVALID and not submission.valid
    # The run breaks no other rule (it is verified where tokens are optional): the missing token alone
    # makes it invalid.
    errors = submission.findings.filter(severity="error").values_list("code", flat=True)
    assert list(errors) == ["token-required"]
    with pytest.raises(ValidationError, match="not valid under the IO500 rules"):
        submission_submit(
            user=submitter,
            submission=submission,
            reviewed=True,
            followed_rules=True,
            permission_to_publish=True,
        )
