"""The writes of run tokens: issue one, and redeem it when a run that names it is ingested."""

from __future__ import annotations

import base64
import datetime as dt
import secrets

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone

from registry.models import Release
from scoring.model import Finding, RunResult, Severity
from scoring.tokens import TOKEN_PREFIX, IssuedToken, is_token, printed_seeds, run_token, token_findings
from submissions.codes import finding
from submissions.models import Submission
from submissions.run_tokens.models import RunToken

_CLOCK = "%Y-%m-%d %H:%M"


def _new_token() -> str:
    body = base64.b32encode(secrets.token_bytes(16)).decode("ascii").rstrip("=").lower()
    token = TOKEN_PREFIX + body
    # The format is the contract with scoring/tokens.py, which recognises a token run by it.
    assert is_token(token)
    return token


def run_token_issue(*, user: User, release: Release, system_name: str) -> RunToken:
    """A new token for one run of `system_name` for `release`, valid RUN_TOKEN_LIFETIME_HOURS."""
    name = " ".join(system_name.split())
    if not name:
        raise ValidationError({"system_name": "Name the system the run will be made on."})
    if len(name) > RunToken._meta.get_field("system_name").max_length:  # type: ignore[operator]
        raise ValidationError({"system_name": "The system name is longer than 255 characters."})
    if not release.is_open_for_submissions():
        raise ValidationError({"release": f"{release.name} no longer takes submissions."})
    now = timezone.now()
    open_tokens = RunToken.objects.filter(user=user, used_by__isnull=True, expires_at__gt=now).count()
    if open_tokens >= settings.RUN_TOKEN_MAX_OPEN:
        raise ValidationError(
            f"You have {open_tokens} unused run tokens that have not expired; use them or wait until "
            "they expire before asking for more."
        )
    return RunToken.objects.create(
        user=user,
        release=release,
        system_name=name,
        token=_new_token(),
        issued_at=now,
        expires_at=now + dt.timedelta(hours=settings.RUN_TOKEN_LIFETIME_HOURS),
    )


def _versions_of(submission: Submission) -> set[int]:
    """The submission and every earlier version it replaced (Submission.supersedes)."""
    ids: set[int] = set()
    current: Submission | None = submission
    while current is not None and current.pk not in ids:
        ids.add(current.pk)
        current = current.supersedes
    return ids


def run_token_redeem(*, submission: Submission, run: RunResult) -> list[Finding]:
    """The token findings of the listed run, marking the token used by this submission.

    Called inside the ingest's transaction: the token row is locked, so two uploads of one token
    cannot both be its first. A token is consumed by the first upload of its own account whatever
    the run shows, so that a refused run cannot be edited and tried again under the same token.
    """
    release = submission.release
    name = run_token(run)
    if name is None:
        if release is not None and release.run_tokens_required:
            return [finding("token-required", release=release.name)]
        return []
    token = RunToken.objects.select_for_update().select_related("release").filter(token=name).first()
    if token is None:
        return [finding("token-unknown", token=name)]
    if token.user_id != submission.submitter_id:
        return [finding("token-foreign", token=name)]
    findings: list[Finding] = []
    if token.used_by_id is not None and token.used_by_id not in _versions_of(submission):
        used_at = token.used_at.strftime(_CLOCK) if token.used_at else "an earlier day"
        findings.append(finding("token-reused", token=name, first=token.used_by_id, used_at=used_at))
    if release is not None and token.release_id != release.pk:
        findings.append(
            finding("token-other-release", token=name, token_release=token.release.name, release=release.name)
        )
    findings.extend(
        token_findings(run, IssuedToken(token=name, issued_at=token.issued_at, expires_at=token.expires_at))
    )
    if token.used_by_id is None:
        token.used_by = submission
        token.used_at = timezone.now()
        token.save(update_fields=["used_by", "used_at"])
    if not any(f.severity is Severity.ERROR for f in findings):
        findings.append(
            finding(
                "token-verified",
                token=name,
                issued=token.issued_at.strftime(_CLOCK),
                system=token.system_name,
                seeded=len({phase for phase, *_ in printed_seeds(run)}),
            )
        )
    return findings


def run_token_issue_for_audit(
    *, user: User, release: Release, system_name: str, now: dt.datetime
) -> RunToken:
    """A token for an audit re-run: the call is closed by then, and the account's open tokens do not
    count against it (the committee asked for this run)."""
    return RunToken.objects.create(
        user=user,
        release=release,
        system_name=" ".join(system_name.split())[:255],
        token=_new_token(),
        issued_at=now,
        expires_at=now + dt.timedelta(days=max(release.audit_answer_days, 1)),
    )
