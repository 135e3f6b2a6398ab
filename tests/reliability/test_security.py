"""Security of the web side: CSRF everywhere, abuse limits, deploy settings, escaping, tokens, downloads."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from frontend.lists.table import rows_html
from submissions.accounts.tokens import api_token_issue, token_digest
from submissions.json_input import MAX_BYTES, MAX_VALUES
from submissions.models import ApiToken, Finding, Institution, StorageSystem, Submission
from submissions.services import submission_create
from submissions.system.description import TEXT_FIELDS
from submissions.system.files import MAX_PROBLEMS_LISTED
from submissions.system.groups import MAX_SHOWN_CHARS, MAX_SHOWN_FIELDS
from tests.conftest import PASSWORD
from tests.reliability.records import record
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.support.data import REPO

pytestmark = pytest.mark.django_db

LIST_URL = "/api/v1/submissions/"
PAYLOAD = '<script>alert("owned")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;"


# --- CSRF ------------------------------------------------------------------------------------------


def _sample_path(route: str) -> str:
    """A concrete path for a route: every converter filled with a plausible value."""
    import re

    samples = {
        "int": "1",
        "str": "x",
        "slug": "x",
        "uuid": "00000000-0000-0000-0000-000000000000",
        "path": "x",
    }
    return re.sub(r"<(?:(\w+):)?\w+>", lambda m: samples.get(m.group(1) or "str", "x"), route)


def _routes(patterns: list[Any], prefix: str = "") -> list[str]:
    found: list[str] = []
    for pattern in patterns:
        route = str(pattern.pattern)
        if route.startswith("^") or "(?P" in route:
            continue  # regex routes are Django admin's and static files', tested upstream
        if isinstance(pattern, URLResolver):
            found += _routes(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern):
            found.append("/" + _sample_path(prefix + route))
    return sorted(set(found))


def test_every_page_refuses_a_post_without_a_csrf_token(submitter: Any) -> None:
    """Every route of the site, the forms of other apps included as they appear, is CSRF-protected.

    The API's token authentication is exempt by design (no cookies); a session-authenticated API
    call is not, which the second half checks.
    """
    client = Client(enforce_csrf_checks=True)
    client.force_login(submitter)
    routes = [r for r in _routes(get_resolver().url_patterns) if not r.startswith(("/admin/", "/api/"))]
    assert {"/accounts/login/", "/submissions/upload/"} <= set(routes)
    unprotected = {route: code for route in routes if (code := client.post(route, {}).status_code) != 403}
    assert unprotected == {}
    api = client.post(LIST_URL, {"archive": real_tarball(33)})
    assert api.status_code == 403 and "CSRF" in api.json()["detail"]
    record("security", "csrf", routes_checked=len(routes) + 1, unprotected=len(unprotected))


def test_the_upload_form_works_with_its_csrf_token(submitter: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(submitter)
    page = client.get(reverse("submissions:upload"))
    token = page.context["csrf_token"]
    form = {
        **SYSTEM,
        "archive": real_tarball(33),
        "client_network_gbps": "200",
        "csrfmiddlewaretoken": str(token),
    }
    response = client.post(reverse("submissions:upload"), form)
    assert response.status_code == 302


# --- abuse limits ------------------------------------------------------------------------------------


def _login(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_failed_logins_lock_the_guessing_address_out_of_that_account_only(
    submitter: Any, settings: Any
) -> None:
    settings.LOGIN_FAILURE_RATE = "3/15m"
    client = Client()
    for _ in range(3):
        assert _login(client, "alice", "wrong password").status_code == 200
    locked = _login(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert "Too many failed log-in attempts" in locked.content.decode()
    assert 0 < int(locked["Retry-After"]) <= 900
    # The owner, from their own address, is not locked out by a stranger's guesses...
    assert _login(Client(), "alice", PASSWORD, address="10.0.0.2").status_code == 302
    # ...and the guessing address may still try another account (within the per-address limit).
    assert _login(client, "bob", "anything").status_code == 200
    record("security", "login rate limit", failures_allowed=3, locked_status=429)


# "alice" in fullwidth letters: Django's log-in form folds it to "alice" (NFKC), the lock counted it apart.
FULLWIDTH_ALICE = "\uff41\uff4c\uff49\uff43\uff45"


def test_other_spellings_of_a_user_name_count_against_the_same_lock(submitter: Any, settings: Any) -> None:
    settings.LOGIN_FAILURE_RATE = "3/15m"
    client = Client()
    for spelling in ("alice", "ALICE", FULLWIDTH_ALICE):
        assert _login(client, spelling, "wrong password").status_code == 200
    # Before, each spelling was a lock of its own, and the fullwidth one logged in as alice.
    for spelling in ("alice", "Alice", FULLWIDTH_ALICE, f" {FULLWIDTH_ALICE.upper()} "):
        assert _login(client, spelling, PASSWORD).status_code == 429, spelling
    # The owner, elsewhere, logs in with any of them.
    for spelling in ("Alice", FULLWIDTH_ALICE):
        assert _login(Client(), spelling, PASSWORD, address="10.0.0.9").status_code == 302
    record("security", "login lock by user-name spelling", spellings=4, locked_status=429)


SIGNUP = {"email": "mallory@example.org", "password1": PASSWORD, "password2": PASSWORD}
CYRILLIC_A = "\u0430"
CEO_IN_CYRILLIC = "\u0441\u0435\u043e"


def test_sign_up_refuses_hidden_characters_and_names_that_pass_for_another(submitter: Any) -> None:
    User.objects.create_user(username="ceo", email="ceo@example.org", password=PASSWORD)
    refused = {
        "bidi control": ("alice\u202eecila", "invisible or text-direction characters (U+202E)"),
        "zero-width space": ("al\u200bice", "invisible or text-direction characters (U+200B)"),
        "Cyrillic a among Latin letters": (f"{CYRILLIC_A}lice", "mixes letters of different scripts"),
        "ceo in Cyrillic letters": (CEO_IN_CYRILLIC, "looks like the name of an existing account"),
        "alice in fullwidth letters": (FULLWIDTH_ALICE, "looks like the name of an existing account"),
    }
    for what, (name, reason) in refused.items():
        answer = Client().post(reverse("accounts:signup"), {**SIGNUP, "username": name})
        assert answer.status_code == 400, what
        assert reason in answer.content.decode(), what
    assert User.objects.count() == 2
    # A name in one script that looks like no other is welcome.
    ivan = "\u0418\u0432\u0430\u043d"
    assert Client().post(reverse("accounts:signup"), {**SIGNUP, "username": ivan}).status_code == 200
    assert User.objects.filter(username=ivan).exists()
    record("security", "look-alike user names at sign-up", tried=len(refused), accepted=0)


def test_one_address_spraying_many_accounts_is_stopped(settings: Any) -> None:
    settings.LOGIN_FAILURE_RATE = "3/15m"
    settings.LOGIN_IP_FAILURE_RATE = "5/15m"
    for number in range(5):
        assert _login(Client(), f"user{number}", "guess", address="10.0.0.7").status_code == 200
    assert _login(Client(), "user9", "guess", address="10.0.0.7").status_code == 429
    assert _login(Client(), "user9", "guess", address="10.0.0.8").status_code == 200


def test_the_admin_log_in_is_limited_by_the_same_limiter(submitter: Any, settings: Any) -> None:
    settings.LOGIN_FAILURE_RATE = "2/15m"
    url = reverse("admin:login")
    form = {"username": "alice", "password": "wrong password", "next": "/admin/"}
    for _ in range(2):
        assert Client().post(url, form, REMOTE_ADDR="10.0.0.5").status_code == 200
    refused = Client().post(url, {**form, "password": PASSWORD}, REMOTE_ADDR="10.0.0.5")
    assert refused.status_code == 429
    # The site's own form shares the bucket: the same pair stays locked there too.
    assert _login(Client(), "alice", PASSWORD, address="10.0.0.5").status_code == 429


def test_concurrent_guesses_never_exceed_the_limit(settings: Any) -> None:
    settings.LOGIN_FAILURE_RATE = "10/15m"
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    def guess(_: int) -> int:
        try:
            return int(_login(Client(), "carol", "guess", address="10.0.0.9").status_code)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(guess, range(24)))
    assert statuses.count(200) == 10 and statuses.count(429) == 14


def test_successful_logins_do_not_count_against_the_limit(submitter: Any, settings: Any) -> None:
    settings.LOGIN_FAILURE_RATE = "2/15m"
    for _ in range(5):
        assert _login(Client(), "alice", PASSWORD).status_code == 302


@pytest.mark.parametrize("route", ["accounts:signup", "accounts:password_reset"])
def test_forms_that_send_mail_are_rate_limited_per_address(route: str, settings: Any) -> None:
    settings.ACCOUNT_FORM_RATE = "2/h"
    url = reverse(route)
    form = {"username": "spam", "email": "victim@example.org", "password1": "x", "password2": "y"}
    for _ in range(2):
        assert Client().post(url, form, REMOTE_ADDR="10.9.9.9").status_code != 429
    refused = Client().post(url, form, REMOTE_ADDR="10.9.9.9")
    assert refused.status_code == 429 and "too often" in refused.content.decode()
    assert Client().post(url, form, REMOTE_ADDR="10.9.9.10").status_code != 429


def test_api_uploads_are_throttled_per_user(
    api_client_for: Any, submitter: Any, other_submitter: Any, settings: Any
) -> None:
    settings.UPLOAD_RATE = "2/h"
    alice = api_client_for(submitter)
    for number in (33, 585):
        assert alice.post(LIST_URL, {"archive": real_tarball(number)}, format="multipart").status_code == 202
    throttled = alice.post(LIST_URL, {"archive": real_tarball(6)}, format="multipart")
    assert throttled.status_code == 429
    assert "throttled" in throttled.json()["detail"]
    assert int(throttled["Retry-After"]) > 0
    # Reading is not throttled, and another submitter is not affected.
    assert alice.get(LIST_URL).status_code == 200
    bob = api_client_for(other_submitter)
    assert bob.post(LIST_URL, {"archive": real_tarball(6)}, format="multipart").status_code == 202
    record("security", "api upload throttle", rate="2/h", throttled_status=429)


def test_the_web_form_and_the_api_share_one_upload_budget(
    api_client_for: Any, submitter: Any, settings: Any
) -> None:
    settings.UPLOAD_RATE = "1/h"
    assert (
        api_client_for(submitter)
        .post(LIST_URL, {"archive": real_tarball(33)}, format="multipart")
        .status_code
        == 202
    )
    client = Client()
    client.force_login(submitter)
    response = client.post(reverse("submissions:upload"), {"archive": real_tarball(585)})
    assert response.status_code == 429
    assert "uploaded too much" in response.content.decode()


def test_the_web_form_refuses_an_upload_over_the_limit_before_reading_its_body(
    submitter: Any, settings: Any
) -> None:
    """A 900 MiB body from a user over the limit: answered 429 having read none of it."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_started
    from django.db import close_old_connections

    settings.UPLOAD_RATE = "0/h"
    settings.MAX_REQUEST_BYTES = 2 * 2**30
    client = Client()
    client.force_login(submitter)

    class CountingBody(io.RawIOBase):
        read_bytes = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            CountingBody.read_bytes += len(buffer)
            buffer[:] = b"x" * len(buffer)
            return len(buffer)

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": reverse("submissions:upload"),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BufferedReader(CountingBody()),
        "CONTENT_TYPE": "multipart/form-data; boundary=xyz",
        "CONTENT_LENGTH": str(900 * 2**20),
        "HTTP_COOKIE": f"sessionid={client.cookies['sessionid'].value}",
        "REMOTE_ADDR": "10.1.1.1",
    }
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
        statuses.append(status)
        return lambda data: None

    # As Django's test client does: the test's own connection must stay open inside its transaction.
    request_started.disconnect(close_old_connections)
    try:
        body = b"".join(WSGIHandler()(environ, start_response))
    finally:
        request_started.connect(close_old_connections)
    assert statuses[0].startswith("429") and b"uploaded too much" in body
    assert CountingBody.read_bytes == 0


def test_review_comments_are_rate_limited_per_user(submitter: Any, settings: Any) -> None:
    from tests.factories import make_submission

    settings.COMMENT_RATE = "2/h"
    submission = make_submission(submitter=submitter)
    client = Client()
    client.force_login(submitter)
    url = reverse("submissions:comment", args=[submission.pk])
    for _ in range(2):
        assert client.post(url, {"body": "Which stripe count?"}).status_code == 302
    refused = client.post(url, {"body": "Third"})
    assert refused.status_code == 429 and "many comments" in refused.content.decode()


def test_the_daily_upload_volume_is_limited_per_user(
    api_client_for: Any, submitter: Any, settings: Any
) -> None:
    settings.UPLOAD_BYTES_PER_DAY = 100_000
    alice = api_client_for(submitter)
    assert alice.post(LIST_URL, {"archive": real_tarball(33)}, format="multipart").status_code == 202
    big = ContentFile(secrets.token_bytes(120_000), name="big.tgz")
    assert alice.post(LIST_URL, {"archive": big}, format="multipart").status_code == 429


def test_a_request_above_the_size_cap_is_refused_before_it_is_read(
    api_client_for: Any, submitter: Any, settings: Any
) -> None:
    settings.MAX_REQUEST_BYTES = 50_000
    big = ContentFile(secrets.token_bytes(60_000), name="big.tgz")
    response = api_client_for(submitter).post(LIST_URL, {"archive": big}, format="multipart")
    assert response.status_code == 413
    assert "accepts at most" in response.content.decode()
    assert not Submission.objects.exists()


# --- deployment settings ------------------------------------------------------------------------------


def _production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_", "SESSION_", "CSRF_"))
    }
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="registry.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy-check.sqlite3'}",
        REDIS_URL="",
        CACHE_URL="",
        DJANGO_SETTINGS_MODULE="registry.settings",
        **extra,
    )
    return env


def test_check_deploy_is_clean_under_production_settings(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=_production_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    record("security", "check --deploy", issues=0)


def test_check_deploy_flags_an_insecure_configuration(tmp_path: Path) -> None:
    # The check is only worth something if it can fail: the same settings with cookies made insecure.
    env = _production_env(tmp_path, SESSION_COOKIE_SECURE="false", SECURE_HSTS_SECONDS="0")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "security.W012" in result.stderr + result.stdout
    assert "security.W004" in result.stderr + result.stdout


def test_production_responses_carry_the_security_headers(client: Any, settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    assert client.get("/healthz").status_code == 301  # plain HTTP goes to HTTPS
    response = client.get("/healthz", secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


# --- escaping ---------------------------------------------------------------------------------------


def test_user_supplied_text_is_escaped_on_every_page_that_shows_it(
    submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any
) -> None:
    system = {**SYSTEM, **{field: f"{field} {PAYLOAD}" for field in TEXT_FIELDS}}
    with django_capture_on_commit_callbacks(execute=True):
        submission, _ = submission_create(
            submitter=submitter,
            archive=real_tarball(33),
            original_name=f"{PAYLOAD}.tgz",
            system=system,
        )
    Finding.objects.create(
        submission=submission, code="x", severity="warning", phase=PAYLOAD, message=f"finding {PAYLOAD}"
    )
    Submission.objects.filter(pk=submission.pk).update(error=f"error {PAYLOAD}")
    storage = StorageSystem.objects.get(name__startswith="system_name")
    pages = {
        "submission": reverse("submissions:detail", args=[submission.pk]),
        "mine": reverse("submissions:mine"),
        "system": reverse("pages:system", args=[storage.pk]),
    }
    for user in (submitter, committee_member):
        client = Client()
        client.force_login(user)
        for name, url in pages.items():
            response = client.get(url)
            html = response.content.decode()
            assert response.status_code == 200, name
            assert PAYLOAD not in html, f"unescaped user text on the {name} page"
            assert "<script>alert" not in html
    detail = Client()
    detail.force_login(submitter)
    html = detail.get(pages["submission"]).content.decode()
    assert html.count(ESCAPED) >= 3  # the finding, the error and the system description at least
    record("security", "escaping", pages=len(pages), payload_fields=len(TEXT_FIELDS) + 4)


# --- tokens and downloads -------------------------------------------------------------------------


def test_api_tokens_are_stored_only_as_digests(submitter: Any) -> None:
    token = api_token_issue(user=submitter)
    stored = ApiToken.objects.get(user=submitter)
    assert stored.digest == token_digest(token) and token not in stored.digest
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM submissions_apitoken")
        rows = cursor.fetchall()
    assert not any(token in str(value) for row in rows for value in row)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get(LIST_URL).status_code == 200
    # A new token replaces the old one, which stops working at once.
    newer = api_token_issue(user=submitter)
    assert Client(HTTP_AUTHORIZATION=f"Token {newer}").get(LIST_URL).status_code == 200
    refused = client.get(LIST_URL)
    assert refused.status_code == 401
    assert "not valid" in refused.json()["detail"]
    record("security", "hashed tokens", plain_tokens_in_database=0)


def test_a_password_reset_revokes_the_api_tokens_and_says_so(
    submitter: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    token = api_token_issue(user=submitter)
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/submissions/").status_code == 200
    client = Client()
    client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    (reset_mail,) = mailoutbox
    link = re.search(r"https?://[^/\s]+(/\S+)", reset_mail.body)
    assert link is not None, reset_mail.body
    confirm = client.get(link[1], follow=True)
    new = "another horse battery staple"
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            confirm.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
        )
    # Whoever held the account before the reset can no longer upload with a token issued then.
    assert api.get("/api/v1/submissions/").status_code == 401
    assert not ApiToken.objects.filter(user=submitter).exists()
    assert b"API token of your account was revoked" in done.content
    revoked = mailoutbox[-1]
    assert revoked.to == ["alice@example.org"] and "revoked" in revoked.subject
    record("security", "api tokens after a password reset", tokens_left=0, old_token_status=401)


def test_an_inactive_account_cannot_use_its_token(submitter: Any) -> None:
    token = api_token_issue(user=submitter)
    User.objects.filter(pk=submitter.pk).update(is_active=False)
    assert Client(HTTP_AUTHORIZATION=f"Token {token}").get(LIST_URL).status_code == 401


def test_the_token_migration_hashes_and_removes_the_old_plain_keys(submitter: Any) -> None:
    migration = importlib.import_module("submissions.migrations.0005_api_token")
    plain = secrets.token_hex(20)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id integer)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s)", [plain, submitter.pk])
    from django.apps import apps

    with connection.schema_editor() as editor:
        migration.hash_plain_tokens(apps, editor)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
    assert ApiToken.objects.get(user=submitter).digest == token_digest(plain)
    assert Client(HTTP_AUTHORIZATION=f"Token {plain}").get(LIST_URL).status_code == 200


def test_raw_archives_download_as_attachments_that_browsers_never_sniff(
    submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    html = ContentFile(b"<html><script>alert(1)</script></html>", name="page.html")
    submission, _ = submission_create(submitter=submitter, archive=html, original_name="page.html")
    archive = submission.archives.get()
    client = Client()
    client.force_login(submitter)
    response = client.get(reverse("submissions:download", args=[submission.pk, archive.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Type"] == "application/octet-stream"
    assert response.getvalue() == b"<html><script>alert(1)</script></html>"
    record("security", "raw downloads", disposition="attachment", nosniff=True)


def test_rates_are_read_as_count_per_period() -> None:
    from registry.core.ratelimit import Rate, parse_rate

    assert parse_rate("30/h") == Rate(30, 3600)
    assert parse_rate("10/15m") == Rate(10, 900)
    assert parse_rate("") is None
    with pytest.raises(ValueError, match="is not a rate"):
        parse_rate("thirty per hour")


def test_the_limits_let_requests_through_when_the_cache_is_down(
    submitter: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # A real, unreachable Redis (nothing listens on port 1): a Redis restart must not lock people out.
    settings.CACHES = {
        "default": {
            "BACKEND": "registry.core.cache_backend.ReusingRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    settings.LOGIN_FAILURE_RATE = "1/15m"
    for _ in range(3):
        assert _login(Client(), "alice", "wrong password").status_code == 200
    assert _login(Client(), "alice", PASSWORD).status_code == 302
    assert "cannot be reached" in caplog.text


@pytest.mark.parametrize(
    ("method", "url", "data"),
    [
        # Found by benchmarks/fuzz.py: a NUL byte in the release slug reached PostgreSQL as a 500.
        ("post", LIST_URL, {"release": "sc\x0024"}),
        ("get", f"{LIST_URL}99999999999999999999999/", None),
    ],
)
def test_input_the_database_cannot_represent_is_a_400_not_a_500(
    method: str, url: str, data: dict[str, str] | None, api_client_for: Any, submitter: Any
) -> None:
    client = api_client_for(submitter)
    if data is not None:
        response = client.post(url, {**data, "archive": real_tarball(33)}, format="multipart")
    else:
        response = client.get(url)
    assert response.status_code in (400, 404), response.content
    assert "Traceback" not in response.content.decode()


# --- content security policy, API docs, caching of personal pages ------------------------------


def _policy(response: Any) -> dict[str, str]:
    directives = (part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    return {name: value[0] if value else "" for name, *value in directives}


def test_html_pages_forbid_inline_scripts_and_foreign_origins(client: Any, submitter: Any) -> None:
    from tests.support.chart_data import build_history

    build_history()
    signed_in = Client()
    signed_in.force_login(submitter)
    answers = {
        "list": client.get("/lists/isc41/io500/"),
        "list from the public cache": client.get("/lists/isc41/io500/"),
        "login": client.get(reverse("login")),
        "upload": signed_in.get(reverse("submissions:upload")),
        "404": client.get("/lists/nowhere/"),
    }
    for name, response in answers.items():
        policy = _policy(response)
        assert policy["default-src"] == "'self'", name
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'", name
        assert policy["frame-ancestors"] == "'none'" and policy["form-action"] == "'self'", name
        assert policy["img-src"] == "'self' data:" and policy["object-src"] == "'none'", name
    assert "ETag" in answers["list from the public cache"]
    # JSON is not a document: no policy to send.
    assert "Content-Security-Policy" not in client.get("/charts/history/trends.json")
    record("security", "content security policy", pages=len(answers), unsafe_inline=0)


def test_no_template_has_an_inline_script_handler_or_style_attribute() -> None:
    """What the policy forbids would silently stop working: the pages must not rely on it."""
    import re

    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|\sstyle\s*=|<style", re.IGNORECASE)
    templates = [path for path in REPO.glob("*/templates/**/*.html") if "node_modules" not in path.parts]
    assert len(templates) > 20
    offenders = {
        str(path.relative_to(REPO)): found
        for path in templates
        if (found := inline.findall(path.read_text())) and path.name != "api_docs.html"
    }
    assert offenders == {}


def test_the_api_docs_load_their_scripts_from_our_own_static_files(client: Any) -> None:
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in html
    assert "cdn" not in html and "googleapis" not in html and "https://" not in html
    policy = _policy(response)
    assert policy["script-src"] == "'self'"
    # Redoc injects its styles and runs its search in a blob: worker; nothing else is allowed more.
    assert policy["style-src"] == "'self' 'unsafe-inline'" and policy["worker-src"] == "blob:"
    record("security", "api docs", cdn_scripts=0)


def _uploaded(submitter: Any) -> Submission:
    submission, _ = submission_create(submitter=submitter, archive=real_tarball(33), original_name="run.tgz")
    return submission


def test_pages_made_for_one_person_are_never_kept_by_a_shared_cache(
    client: Any, submitter: Any, committee_member: Any, api_client_for: Any
) -> None:
    submission = _uploaded(submitter)
    owner = Client()
    owner.force_login(submitter)
    committee = Client()
    committee.force_login(committee_member)
    personal = {
        "own unpublished submission": owner.get(reverse("submissions:detail", args=[submission.pk])),
        "my submissions": owner.get(reverse("submissions:mine")),
        "API token": owner.get(reverse("accounts:api-token")),
        "list seen logged in": owner.get("/"),
        "review queue": committee.get(reverse("review:queue")),
        "review of a submission": committee.get(reverse("review:detail", args=[submission.pk])),
        "log-in form (CSRF token)": client.get(reverse("login")),
        "API with a token": api_client_for(submitter).get(LIST_URL),
        "API detail with a token": api_client_for(submitter).get(f"{LIST_URL}{submission.pk}/"),
    }
    for name, response in personal.items():
        assert response.status_code == 200, name
        directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
        assert {"private", "no-store"} <= directives, name
        assert "public" not in directives, name
    # What is the same for everyone stays cacheable.
    assert "private" not in Client().get("/charts/history/trends.json")["Cache-Control"]
    record("security", "private pages", checked=len(personal), shared_cacheable=0)


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: the text after it reads backwards


def test_bidi_controls_in_names_never_reach_a_page(
    submitter: Any, committee_member: Any, django_capture_on_commit_callbacks: Any
) -> None:
    system = {
        **SYSTEM,
        "system_name": f"Wolf{RLO}exe.pdf",
        "institution_name": f"Intel{RLO}x",
        "comment": RLO,
    }
    with django_capture_on_commit_callbacks(execute=True):
        submission, _ = submission_create(
            submitter=submitter, archive=real_tarball(33), original_name="s.tgz", system=system
        )
    storage = StorageSystem.objects.get()
    # Taken off the typed fields at upload; the description as given keeps them.
    assert RLO not in storage.name and RLO not in storage.institution.name
    # Names stored before (or by the importer) and an older account's name are shown neutralised.
    StorageSystem.objects.filter(pk=storage.pk).update(name=f"old{RLO}name", vendor=f"v{RLO}")
    Institution.objects.filter(pk=storage.institution_id).update(name=f"inst{RLO}itute")
    User.objects.filter(pk=submitter.pk).update(username=f"alice{RLO}")
    pages = {
        "submission": reverse("submissions:detail", args=[submission.pk]),
        "mine": reverse("submissions:mine"),
        "system": reverse("pages:system", args=[storage.pk]),
        "review queue": reverse("review:queue"),
        "review": reverse("review:detail", args=[submission.pk]),
    }
    shown = 0
    for user in (User.objects.get(pk=submitter.pk), committee_member):
        client = Client()
        client.force_login(user)
        for name, url in pages.items():
            response = client.get(url)
            if response.status_code == 403:
                continue
            assert response.status_code == 200, name
            html = response.content.decode()
            assert RLO not in html, f"a bidi control on the {name} page"
            shown += 1
    owner = Client()
    owner.force_login(User.objects.get(pk=submitter.pk))
    html = owner.get(pages["submission"]).content.decode()
    assert "<bdi>oldname</bdi>" in html and "<bdi>alice</bdi>" in html
    row = {"rank": 1, "id": submission.pk, "system": f"a{RLO}b", "institution": f"c{RLO}d", "submitter": RLO}
    assert RLO not in rows_html([row], detail_prefix="/submissions/", with_custom=False)
    record("security", "bidi controls on pages", pages=shown, raw_controls=0)


# --- input no view can read -------------------------------------------------------------------------


# Deep enough for a RecursionError, short enough to be read (submissions.json_input.MAX_BYTES).
DEEP = "[" * 60_000


def test_a_deeply_nested_system_description_is_a_400_with_the_reason(
    api_client_for: Any, submitter: Any
) -> None:
    api = api_client_for(submitter).post(
        LIST_URL, {"archive": real_tarball(33), "system": DEEP}, format="multipart"
    )
    assert api.status_code == 400, api.content[:300]
    assert "nested more than 32 levels" in api.json()["system"][0]
    web = Client()
    web.force_login(submitter)
    form = web.post(
        reverse("submissions:upload"), {**SYSTEM, "archive": real_tarball(33), "system_json": DEEP}
    )
    assert form.status_code == 400
    assert "nested more than 32 levels" in form.content.decode()
    # Nested but shallow enough is still read (and refused only for not being an object).
    shallow = web.post(
        reverse("submissions:upload"),
        {**SYSTEM, "archive": real_tarball(33), "system_json": "[" * 5 + "]" * 5},
    )
    assert "must be a JSON object" in shallow.content.decode()
    assert not Submission.objects.exists()
    record("security", "deep json", depth=len(DEEP), status=400)


def _many_names(count: int, width: int = 8) -> dict[str, int]:
    return {f"k{number:0{width}d}": 1 for number in range(count)}


def test_a_huge_system_field_is_refused_before_it_is_read_in_a_short_answer(
    api_client_for: Any, submitter: Any
) -> None:
    # 6.7 MiB of made-up names: before, 6.5 s, +560 MiB and an answer of 113 MiB naming every one.
    huge = json.dumps(_many_names(500_000))
    assert len(huge) > 6.5 * 2**20
    api = api_client_for(submitter)
    started = time.perf_counter()
    answer = api.post(LIST_URL, {"archive": real_tarball(33), "system": huge}, format="multipart")
    seconds = time.perf_counter() - started
    assert answer.status_code == 400
    assert f"at most {MAX_BYTES:,} bytes" in answer.json()["system"][0]
    assert len(answer.content) < 2_000
    web = Client()
    web.force_login(submitter)
    fields = {**SYSTEM, "system_name": "s" * 1_000_000, "client_nodes": "9" * 1_000_000}
    form = web.post(
        reverse("submissions:upload"), {**fields, "archive": real_tarball(33), "system_json": huge}
    )
    assert form.status_code == 400
    assert f"at most {MAX_BYTES:,} bytes" in form.content.decode()
    assert len(form.content) < 200_000  # the form page, without the text sent back
    assert not Submission.objects.exists()
    record(
        "security",
        "huge system field",
        sent_mib=round(len(huge) / 2**20, 1),
        status=400,
        answer_bytes=len(answer.content),
        seconds=round(seconds, 2),
        before="6.5 s, +560 MiB, a 113 MiB answer (issue 23's probe)",
    )


def test_a_description_with_thousands_of_wrong_names_gets_a_bounded_list_of_them(
    api_client_for: Any, submitter: Any
) -> None:
    api = api_client_for(submitter)
    many = json.dumps({**SYSTEM, **_many_names(2_400, width=4)})
    assert len(many) < MAX_BYTES
    answer = api.post(LIST_URL, {"archive": real_tarball(33), "system": many}, format="multipart")
    assert answer.status_code == 400
    errors = answer.json()["system"]
    assert len(errors) == MAX_PROBLEMS_LISTED + 1
    assert "2,380 more fields are wrong" in errors["other_fields"][0]
    # A name as long as the limit allows is repeated only in part.
    long_name = json.dumps({**SYSTEM, "n" * 60_000: 1})
    answer = api.post(LIST_URL, {"archive": real_tarball(33), "system": long_name}, format="multipart")
    assert answer.status_code == 400 and len(answer.content) < 2_000
    assert "60,000 characters" in answer.content.decode()
    # Values nested inside count too.
    values = json.dumps({**SYSTEM, "comment": [0] * (MAX_VALUES + 1)})
    answer = api.post(LIST_URL, {"archive": real_tarball(33), "system": values}, format="multipart")
    assert answer.status_code == 400
    assert f"more than {MAX_VALUES:,} names and values" in answer.json()["system"][0]
    # Unknown form fields of their own are named the same way.
    fields = {f"{'x' * 500}{number}": "1" for number in range(900)}
    answer = api.post(LIST_URL, {"archive": real_tarball(33), **fields}, format="multipart")
    assert answer.status_code == 400 and len(answer.content) < 5_000
    assert "and 880 more" in answer.json()["detail"]
    record("security", "wrong names in a description", names=2_400, listed=MAX_PROBLEMS_LISTED, status=400)


def test_the_submission_page_shows_a_bounded_part_of_a_large_system_json(
    submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.submissions.system.test_upload_paths import tarball_with

    document = {"comment": "c" * 20_000, **{f"field{number:04d}": "v" * 10 for number in range(1_500)}}
    raw = json.dumps(document).encode()
    assert len(raw) <= MAX_BYTES
    with django_capture_on_commit_callbacks(execute=True):
        submission, _ = submission_create(
            submitter=submitter, archive=tarball_with(33, {"system.json": raw}), original_name="s.tgz"
        )
    client = Client()
    client.force_login(submitter)
    page = client.get(reverse("submissions:detail", args=[submission.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "field0000" in html and f"field{MAX_SHOWN_FIELDS + 10:04d}" not in html
    assert "c" * (MAX_SHOWN_CHARS + 1) not in html and "20,000" not in html
    assert "truncated, 20000 bytes in all" in html
    assert 'data-role="description-truncated"' in html
    assert reverse("submissions-api:submission-detail", args=[submission.pk]) in html
    assert len(page.content) < 400_000
    record(
        "security",
        "large system.json on the submission page",
        description_bytes=len(raw),
        page_bytes=len(page.content),
        fields_shown=MAX_SHOWN_FIELDS,
        # The same upload on the code before: every field and problem listed in full.
        page_bytes_before=524_399,
    )


# --- the page cache's own Redis -------------------------------------------------------------------


def test_the_page_cache_runs_in_a_bounded_redis_of_its_own() -> None:
    import yaml

    compose = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    cache_command = services["cache"]["command"]
    assert cache_command[cache_command.index("--maxmemory") + 1]
    assert cache_command[cache_command.index("--maxmemory-policy") + 1] == "allkeys-lru"
    environment = services["web"]["environment"]
    assert environment["CACHE_URL"].startswith("redis://cache:")
    assert environment["REDIS_URL"].startswith("redis://redis:")
    # The broker and the abuse counters live where nothing is evicted.
    assert "noeviction" in services["redis"]["command"]
    assert environment["LIMITS_CACHE_URL"].startswith("redis://redis:")


# --- the proxy's budgets ---------------------------------------------------------------------------


def _directive(text: str, name: str, *args: str) -> str:
    """The value of the one `name [args] value;` line of an nginx configuration text."""
    import re

    prefix = r"\s+".join(re.escape(part) for part in (name, *args))
    (value,) = re.findall(rf"^\s*{prefix}\s+([^;\s]+);", text, re.MULTILINE)
    return str(value)


def _block(text: str, opening: str) -> str:
    """From `opening` to the first closing brace: a location without nested blocks."""
    start = text.index(opening)
    return text[start : text.index("}", start)]


def _mib(size: str) -> int:
    units = {"k": 1 / 1024, "m": 1, "g": 1024}
    return int(float(size[:-1]) * units[size[-1].lower()]) if size[-1].isalpha() else int(size) // 2**20


def test_the_proxy_temp_space_holds_every_body_its_limits_admit() -> None:
    """nginx.conf's limits admit N bodies of a given size at once; compose gives each temp folder a
    file system of bounded size that holds them all, and nginx the descriptors its limits need."""
    import re

    import yaml

    main = (REPO / "docker" / "nginx-main.conf").read_text()
    site = (REPO / "docker" / "nginx.conf").read_text()
    proxy = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text())["services"]["proxy"]
    mounts = {m["target"]: m for m in proxy["volumes"] if isinstance(m, dict)}
    binds = {line.split(":")[1] for line in proxy["volumes"] if isinstance(line, str)}
    assert {"/etc/nginx/nginx.conf", "/etc/nginx/conf.d/default.conf"} <= binds
    everywhere, pages, uploads = (
        site[: site.index("server {")],
        _block(site, "location / {"),
        _block(site, "location @upload {"),
    )
    budgets = {
        _directive(everywhere, "client_body_temp_path"): (
            int(_directive(pages, "limit_conn", "bodies_all"))
            * _mib(_directive(everywhere, "client_max_body_size"))
        ),
        _directive(uploads, "client_body_temp_path"): (
            int(_directive(uploads, "limit_conn", "uploads_all"))
            * _mib(_directive(uploads, "client_max_body_size"))
        ),
    }
    for folder, needed_mib in budgets.items():
        assert mounts[folder]["type"] == "tmpfs", folder
        assert needed_mib <= mounts[folder]["tmpfs"]["size"] // 2**20 <= needed_mib * 1.1, folder
    # One worker alone holds every admitted request (client, gunicorn and temp file descriptors each)
    # with room for connections still sending their headers; the container allows the descriptors.
    connections = int(re.findall(r"worker_connections\s+(\d+);", main)[0])
    assert 3 * int(_directive(pages, "limit_conn", "all_clients")) <= connections * 3 // 4
    rlimit = int(_directive(main, "worker_rlimit_nofile"))
    assert 3 * connections <= rlimit <= proxy["ulimits"]["nofile"]["hard"]
    record("proxy-bodies", "temp space", **{f"{Path(f).name}_mib": mib for f, mib in budgets.items()})
