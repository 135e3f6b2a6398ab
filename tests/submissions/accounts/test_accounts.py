"""Accounts: sign-up with e-mail activation, password reset, the API token page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.test import Client

from submissions.accounts.models import ApiToken
from submissions.accounts.tokens import api_token_issue
from tests.conftest import PASSWORD

# E-mails leave when the account is committed, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

SIGNUP = {"username": "dora", "email": "dora@example.org", "password1": PASSWORD, "password2": PASSWORD}


def link_in(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)


def test_a_new_account_is_inactive_until_its_e_mail_link_is_opened(mailoutbox: list[Any]) -> None:
    client = Client()
    response = client.post("/accounts/signup/", SIGNUP)
    assert response.status_code == 200 and b"dora@example.org" in response.content
    user = User.objects.get(username="dora")
    assert not user.is_active
    assert not client.login(username="dora", password=PASSWORD)
    (mail,) = mailoutbox
    assert mail.to == ["dora@example.org"] and "Activate" in mail.subject
    activate = link_in(mail.body)
    assert client.get(activate).status_code == 302
    assert User.objects.get(username="dora").is_active
    assert client.login(username="dora", password=PASSWORD)
    again = Client().get(activate)  # a used link stops working
    assert again.status_code == 400 and b"not valid" in again.content


def test_logging_in_before_activation_says_so_and_offers_the_mail_again(
    mailoutbox: list[Any], settings: Any
) -> None:
    settings.ACTIVATION_RESEND_RATE = "2/h"
    client = Client()
    client.post("/accounts/signup/", SIGNUP)
    assert len(mailoutbox) == 1
    wrong = client.post("/accounts/login/", {"username": "dora", "password": "not-" + PASSWORD})
    # A wrong password learns nothing about the account: the usual answer, no resend button.
    assert b"not activated yet" not in wrong.content and b"resend-activation" not in wrong.content
    assert Client().post("/accounts/resend-activation/").status_code == 302
    assert len(mailoutbox) == 1
    right = client.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert right.status_code == 200
    html = right.content.decode()
    assert "not activated yet" in html and "/accounts/resend-activation/" in html
    assert "correct username and password" not in html
    sent = client.post("/accounts/resend-activation/")
    assert sent.status_code == 302 and sent["Location"] == "/accounts/login/"
    assert len(mailoutbox) == 2 and mailoutbox[1].to == ["dora@example.org"]
    assert client.post("/accounts/resend-activation/").status_code == 302
    assert client.post("/accounts/resend-activation/").status_code == 429  # per account: 2/h
    assert len(mailoutbox) == 3
    assert client.get(link_in(mailoutbox[2].body)).status_code == 302  # the re-sent link works
    assert client.post("/accounts/login/", {"username": "dora", "password": PASSWORD}).status_code == 302


def test_sign_up_refuses_a_used_e_mail_and_a_mangled_link_is_explained(
    submitter: Any, mailoutbox: list[Any]
) -> None:
    response = Client().post("/accounts/signup/", {**SIGNUP, "email": "ALICE@example.org"})
    assert response.status_code == 400
    assert b"exists already" in response.content
    assert mailoutbox == []
    broken = Client().get("/accounts/activate/Mg/not-a-token/")
    assert broken.status_code == 400 and b"activation link is not valid" in broken.content


def test_the_password_reset_mail_leads_to_a_new_password(submitter: Any, mailoutbox: list[Any]) -> None:
    client = Client()
    assert client.post("/accounts/password_reset/", {"email": "alice@example.org"}).status_code == 302
    (mail,) = mailoutbox
    confirm = client.get(link_in(mail.body), follow=True)
    assert confirm.status_code == 200 and confirm.context["validlink"]
    new = "another horse battery staple"
    done = client.post(confirm.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert Client().login(username="alice", password=new)


def test_the_token_page_shows_a_new_token_once_and_the_api_accepts_it(submitter: Any) -> None:
    client = Client()
    client.force_login(submitter)
    assert b"no API token yet" in client.get("/accounts/token/").content
    issued = client.post("/accounts/token/")
    token = re.search(rb'id="api-token-value">([^<]+)<', issued.content)
    assert token is not None
    plain = token.group(1).decode()
    assert plain.encode() not in client.get("/accounts/token/").content  # never shown again
    api = Client(HTTP_AUTHORIZATION=f"Token {plain}")
    assert api.get("/api/v1/submissions/").status_code == 200
    client.post("/accounts/token/")  # replacing it revokes the old one
    assert api.get("/api/v1/submissions/").status_code == 401


def test_the_token_page_needs_a_login() -> None:
    response = Client().get("/accounts/token/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- the check nginx makes before it reads an upload's body ------------------------------------------

UPLOAD_ALLOWED = "/accounts/upload-allowed/"


def test_an_anonymous_request_may_not_upload() -> None:
    response = Client().get(UPLOAD_ALLOWED)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert "API token" in response.content.decode()


def test_a_logged_in_session_may_upload(submitter: Any) -> None:
    client = Client()
    client.force_login(submitter)
    response = client.get(UPLOAD_ALLOWED)
    assert response.status_code == 204 and response["X-Upload-User"] == str(submitter.pk)


def test_a_valid_api_token_may_upload_and_checking_it_writes_nothing(submitter: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from submissions.accounts.tokens import api_token_issue

    token = api_token_issue(user=submitter)
    with CaptureQueriesContext(connection) as queries:
        response = Client(HTTP_AUTHORIZATION=f"Token {token}").get(UPLOAD_ALLOWED)
    assert response.status_code == 204 and response["X-Upload-User"] == str(submitter.pk)
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    assert statements == ["SELECT"]


@pytest.mark.parametrize(
    "header",
    [
        "Token io500_not-a-token",
        "Token",
        "Token t\u00f6ken",
        "Bearer {token}",
        "Token {token} extra",
        "Basic eDp4",
    ],
)
def test_an_unknown_or_malformed_token_may_not_upload(submitter: Any, header: str) -> None:
    from submissions.accounts.tokens import api_token_issue

    token = api_token_issue(user=submitter)
    response = Client(HTTP_AUTHORIZATION=header.format(token=token)).get(UPLOAD_ALLOWED)
    assert response.status_code == 401


def test_the_token_of_an_inactive_account_may_not_upload(submitter: Any) -> None:
    from submissions.accounts.tokens import api_token_issue

    token = api_token_issue(user=submitter)
    User.objects.filter(pk=submitter.pk).update(is_active=False)
    assert Client(HTTP_AUTHORIZATION=f"Token {token}").get(UPLOAD_ALLOWED).status_code == 401


def test_a_password_change_revokes_the_api_tokens_but_a_rehash_at_log_in_does_not(submitter: Any) -> None:
    api_token_issue(user=submitter)
    # The same password re-hashed at log-in (a salt too short for today's hasher) is no new password.
    weak = make_password(PASSWORD, salt="a", hasher="md5")
    User.objects.filter(pk=submitter.pk).update(password=weak)
    assert Client().login(username="alice", password=PASSWORD)
    assert User.objects.get(pk=submitter.pk).password != weak  # it was re-hashed and saved
    assert ApiToken.objects.filter(user=submitter).count() == 1
    client = Client()
    client.force_login(User.objects.get(pk=submitter.pk))  # with the re-hashed password
    new = "another horse battery staple"
    changed = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert changed.status_code == 302 and changed["Location"] == "/accounts/password_change/done/"
    assert ApiToken.objects.filter(user=submitter).count() == 0
