"""The proxy in front of the registry (docker/nginx-main.conf and docker/nginx.conf, as compose runs
them) on the private stack: request bodies, many slow connections, the Host it passes on.

Attacks of issue 23: four anonymous connections held 4 GB of proxy disk with 1.1 GB bodies; 2,043
slow connections from 46 addresses (each under the per-address limit) failed every health probe; a
password-reset mail sent through the proxy on another port than 80 lost the port.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import secrets
import select
import socket
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from typing import Any

import pytest

from tests.reliability.records import record
from tests.reliability.stack import Stack, http, json_body

pytestmark = pytest.mark.faults

USER, EMAIL, PASSWORD = "proxy-tester", "proxy-tester@example.org", "a proxied pass phrase 23"
UPLOAD_API, UPLOAD_FORM = "/api/v1/submissions/", "/submissions/upload/"
# Far above the 1 MiB every other location takes, far below the uploads' 1,100 MiB.
BIG_BODY = 200 * 2**20
CHUNK = 256 * 1024
ANSWER_WITHIN_S = 2.0
# The flood's senders are answered by the same question to Django while uploads run beside them.
JUNK_ANSWER_WITHIN_S = 10.0


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with Stack.create(
        database="io500_proxy", env={"UPLOAD_RATE": "", "UPLOAD_BYTES_PER_DAY": "0"}
    ) as running:
        running.start_web(workers=2, threads=4)
        running.manage(
            "shell",
            "-c",
            "from django.contrib.auth.models import User; "
            f"User.objects.create_user({USER!r}, {EMAIL!r}, {PASSWORD!r})",
        )
        yield running


@pytest.fixture(scope="module")
def token(stack: Stack) -> str:
    return stack.api_token(USER)


def _status(answer: bytes) -> int | None:
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(match.group(1)) if match else None


def _post_a_big_body(
    stack: Stack, path: str, headers: str = "", seconds: float = ANSWER_WITHIN_S
) -> dict[str, Any]:
    """POSTs the head of a BIG_BODY request, then body bytes as fast as nginx takes them, until the
    answer comes or `seconds` pass; meanwhile samples what nginx holds in its body temp files."""
    connection = socket.create_connection(("127.0.0.1", stack.proxy_port), timeout=5)
    connection.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{stack.proxy_port}\r\n{headers}"
        f"Content-Type: application/octet-stream\r\nContent-Length: {BIG_BODY}\r\n\r\n".encode()
    )
    connection.setblocking(False)
    chunk, sent, answer, peak = os.urandom(CHUNK), 0, b"", 0
    started = time.monotonic()
    next_sample = started
    try:
        while time.monotonic() - started < seconds and b"\r\n" not in answer:
            readable, writable, _ = select.select([connection], [connection], [], 0.05)
            if readable:
                with contextlib.suppress(BlockingIOError):
                    received = connection.recv(4096)
                    if not received:
                        break
                    answer += received
            elif writable and sent < BIG_BODY:
                with contextlib.suppress(BlockingIOError, ConnectionError):
                    sent += connection.send(chunk[: BIG_BODY - sent])
            if time.monotonic() >= next_sample:
                peak = max(peak, stack.proxy_body_bytes())
                next_sample = time.monotonic() + 0.1
        elapsed = time.monotonic() - started
        peak = max(peak, stack.proxy_body_bytes())
    finally:
        connection.close()
    return {"status": _status(answer), "seconds": round(elapsed, 3), "sent": sent, "temp_bytes": peak}


def test_anonymous_big_bodies_are_refused_before_nginx_spools_them(stack: Stack) -> None:
    """The issue's attack: every URL took 1.1 GB bodies into nginx's temp files, anonymous ones too."""
    elsewhere = _post_a_big_body(stack, "/accounts/login/")
    upload = _post_a_big_body(stack, UPLOAD_API)
    form = _post_a_big_body(stack, UPLOAD_FORM)
    # A stale or made-up token is no credential either.
    forged = _post_a_big_body(stack, UPLOAD_API, "Authorization: Token io500_made-up\r\n")
    record(
        "proxy-bodies",
        "anonymous bodies",
        body_mib=BIG_BODY // 2**20,
        outcomes={
            "other URL": elsewhere,
            "upload API": upload,
            "upload form": form,
            "upload API, made-up token": forged,
        },
        loadavg=os.getloadavg(),
    )
    assert elsewhere["status"] == 413, elsewhere
    for refused in (upload, form, forged):
        assert refused["status"] == 401, refused
    for outcome in (elsewhere, upload, form, forged):
        assert outcome["seconds"] < ANSWER_WITHIN_S and outcome["temp_bytes"] == 0, outcome
    # The refusal says why and what to do, as the API's own answers do.
    status, headers, body = _api_upload(stack, None, b"small")
    assert status == 401 and headers["WWW-Authenticate"] == "Token" and b"API token" in body


class Browser:
    """A cookie-keeping client through the proxy: logs in with the form, as a person does."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def csrf_token(self, path: str) -> str:
        page = self.get(path)[1].decode()
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert match, page[:500]
        return match.group(1)

    def get(self, path: str) -> tuple[int, bytes]:
        with self.opener.open(self.stack.url(path), timeout=30) as response:
            return response.status, response.read()

    def post(self, path: str, data: bytes, content_type: str) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(
            self.stack.url(path), data=data, method="POST", headers={"Content-Type": content_type}
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        fields = {**fields, "csrfmiddlewaretoken": self.csrf_token(path)}
        return self.post(path, urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded")

    def log_in(self) -> None:
        status, _, _ = self.post_form("/accounts/login/", {"username": USER, "password": PASSWORD})
        assert any(cookie.name == "sessionid" for cookie in self.cookies), status


def _multipart(fields: dict[str, str], name: str, content: bytes) -> tuple[bytes, str]:
    boundary = secrets.token_hex(16)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _api_upload(stack: Stack, token: str | None, archive: bytes) -> tuple[int, dict[str, str], bytes]:
    return http("POST", stack.url(UPLOAD_API), token=token, files={"archive": ("run.tgz", archive)})


def test_logged_in_uploads_larger_than_a_form_still_reach_the_registry(stack: Stack, token: str) -> None:
    archive = os.urandom(3 * 2**20)  # three times what any other location takes
    status, _, body = http(
        "POST", stack.url(UPLOAD_API), token=token, files={"archive": ("big.tgz", archive)}
    )
    assert status == 202, body[:500]
    assert json_body(body)["id"]
    browser = Browser(stack)
    browser.log_in()
    data, content_type = _multipart(
        {"csrfmiddlewaretoken": browser.csrf_token(UPLOAD_FORM)}, "other.tgz", os.urandom(3 * 2**20)
    )
    status, headers, body = browser.post(UPLOAD_FORM, data, content_type)
    # The registry's own answer (the form again with what is missing, or the new submission's page),
    # not the proxy's 401 or 413: only Django sets the Content-Security-Policy.
    assert status in (200, 400), body[:500]
    assert "Content-Security-Policy" in headers and b"upload" in body.lower()
    record("proxy-bodies", "logged-in uploads", body_mib=3, api_status=202, form_status=status)


def test_anonymous_junk_on_the_upload_url_does_not_take_the_upload_slots(stack: Stack, token: str) -> None:
    """Four anonymous senders (the site's upload budget) keep posting to the upload URL; a token's
    upload still goes through."""
    stop = threading.Event()
    refused: list[int | None] = []

    def junk() -> None:
        # Each sender waits for its answer: on a loaded machine Django's answer to nginx's question
        # can take more than a second, and an unanswered post says nothing either way.
        while not stop.is_set():
            refused.append(_post_a_big_body(stack, UPLOAD_API, seconds=JUNK_ANSWER_WITHIN_S)["status"])

    senders = [threading.Thread(target=junk, daemon=True) for _ in range(4)]
    for sender in senders:
        sender.start()
    try:
        time.sleep(0.5)
        statuses = [_api_upload(stack, token, os.urandom(2**20))[0] for _ in range(3)]
    finally:
        stop.set()
        for sender in senders:
            sender.join(timeout=JUNK_ANSWER_WITHIN_S + 5)
    assert statuses == [202, 202, 202]
    assert refused and set(refused) == {401}, refused


# --- many slow connections --------------------------------------------------------------------------

# Old settings (the nginx image's): 1,024 connections per worker, 2 workers on the 2-core test box.
SLOW_ADDRESSES = 42
SLOW_PER_ADDRESS = 60  # under the per-address limit of 64
SLOW_ATTACK_S = 4.0


def _raise_descriptor_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= needed, "raise the hard limit of open files"


def _slow_connection(port: int, address: str, number: int) -> socket.socket | None:
    """Half send a request head without its end (a slowloris), half a POST head and part of a body
    under the 1 MiB limit: both hold a connection without ever finishing a request."""
    connection = socket.socket()
    connection.settimeout(5)
    try:
        connection.bind((address, 0))
        connection.connect(("127.0.0.1", port))
        if number % 2:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        else:
            connection.sendall(
                b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 900000\r\n\r\nx"
            )
    except OSError:
        connection.close()
        return None
    return connection


def _probe(url: str, until: float) -> tuple[list[float], int]:
    latencies, failures = [], 0
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=3) as response:
                response.read()
            latencies.append(time.monotonic() - started)
        except (OSError, urllib.error.URLError):
            failures += 1
        time.sleep(0.1)
    return latencies, failures


def test_health_probes_pass_while_many_addresses_hold_slow_connections(stack: Stack) -> None:
    total = SLOW_ADDRESSES * SLOW_PER_ADDRESS
    _raise_descriptor_limit(total + 512)
    started = time.monotonic()
    held = [
        connection
        for a in range(SLOW_ADDRESSES)
        for n in range(SLOW_PER_ADDRESS)
        if (connection := _slow_connection(stack.proxy_port, f"127.0.0.{a + 2}", n)) is not None
    ]
    opened_s = time.monotonic() - started
    try:
        latencies, failures = _probe(stack.url("/healthz"), time.monotonic() + SLOW_ATTACK_S)
        # What the attack still holds at the end: connections nginx has neither answered nor closed.
        answered = select.poll()
        for connection in held:
            answered.register(connection, select.POLLIN)
        still_held = len(held) - len(answered.poll(0))
    finally:
        for connection in held:
            connection.close()
    median_ms = round(statistics.median(latencies) * 1000, 1) if latencies else None
    record(
        "proxy-connections",
        "slow connections from many addresses",
        addresses=SLOW_ADDRESSES,
        connections=total,
        opened=len(held),
        opened_s=round(opened_s, 2),
        still_held=still_held,
        probes=len(latencies) + failures,
        probe_failures=failures,
        healthz_median_ms=median_ms,
        healthz_max_ms=round(max(latencies) * 1000, 1) if latencies else None,
        loadavg=os.getloadavg(),
    )
    assert len(held) == total, "the attack could not even connect"
    assert failures == 0 and latencies, (failures, latencies)
    assert max(latencies) < 2.0, latencies


# --- the Host header ---------------------------------------------------------------------------------


def test_a_password_reset_mail_through_the_proxy_keeps_the_port(stack: Stack) -> None:
    assert stack.proxy_port != 80
    browser = Browser(stack)
    status, _, _ = browser.post_form("/accounts/password_reset/", {"email": EMAIL})
    assert status == 200  # the "mail sent" page, after the redirect
    web_log = next(service.log for service in stack.services if service.name == "web")
    deadline = time.monotonic() + 10
    links: list[str] = []
    while not links and time.monotonic() < deadline:
        links = re.findall(r"https?://\S+/accounts/reset/\S+", web_log.read_text(errors="replace"))
        time.sleep(0.1)
    assert links, "no reset mail was printed"
    origin = f"http://127.0.0.1:{stack.proxy_port}/"
    record("proxy-host", "password reset link", port_kept=links[-1].startswith(origin), link_origin=origin)
    assert links[-1].startswith(origin), links[-1]
    # And the link works through the proxy: it leads to the form for the new password.
    assert browser.get(links[-1].removeprefix(origin[:-1]))[0] == 200
