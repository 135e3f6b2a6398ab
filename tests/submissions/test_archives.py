"""Archive storage that hangs or refuses (submissions/archives.py): an upload answers 507 within the
timeouts and keeps nothing, a download answers 503 at once, and pages that need no storage never wait.

The object store here is a real S3 client (django-storages, boto3) talking to a local server that
accepts connections and never answers, or answers every request with an error.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.config import Config
from django.urls import reverse

from submissions import archives
from submissions.models import Submission
from tests.submissions.helpers import SYSTEM, real_tarball

pytestmark = pytest.mark.django_db

TIMEOUT_S = 0.5
STATIC = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}


class _Server:
    """A TCP server on localhost: `hang` accepts and never answers, otherwise every request gets `reply`."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                connection, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.held.append(connection)
            if self.reply is not None:
                threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        assert self.reply is not None
        connection.settimeout(2)
        try:
            while connection.recv(65536):
                connection.sendall(self.reply)
        except OSError:
            return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()
        for connection in self.held:
            connection.close()
        self.thread.join(timeout=2)


def _s3(settings: Any, endpoint: str) -> None:
    settings.STORAGES = {
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": "archives",
                "endpoint_url": endpoint,
                "access_key": "test",
                "secret_key": "test-secret",
                "region_name": "us-east-1",
                "file_overwrite": False,
                "client_config": Config(
                    connect_timeout=TIMEOUT_S, read_timeout=TIMEOUT_S, retries={"total_max_attempts": 1}
                ),
            },
        },
        "staticfiles": STATIC,
    }


@pytest.fixture(autouse=True)
def _no_pause(settings: Any) -> Iterator[None]:
    settings.STORAGE_HUNG_AFTER_S = TIMEOUT_S * 0.8
    archives._Pause.until = 0.0
    yield
    archives._Pause.until = 0.0


@pytest.fixture
def hung(settings: Any) -> Iterator[_Server]:
    server = _Server(reply=None)
    _s3(settings, server.endpoint)
    yield server
    server.close()


@pytest.fixture
def refusing(settings: Any) -> Iterator[_Server]:
    body = b"<Error><Code>InsufficientStorage</Code><Message>full</Message></Error>"
    server = _Server(
        reply=b"HTTP/1.1 507 Insufficient Storage\r\nContent-Type: application/xml\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    _s3(settings, server.endpoint)
    yield server
    server.close()


@pytest.fixture
def alice(api_client_for: Any, submitter: Any) -> Any:
    return api_client_for(submitter)


def _upload(client: Any) -> tuple[Any, float]:
    archive = real_tarball(33)
    started = time.monotonic()
    response = client.post("/api/v1/submissions/", {"archive": archive}, format="multipart")
    return response, time.monotonic() - started


def test_an_upload_to_a_hung_object_store_answers_507_within_the_timeouts_and_keeps_nothing(
    alice: Any, hung: _Server
) -> None:
    response, seconds = _upload(alice)
    assert response.status_code == 507
    assert "Nothing was kept" in response.json()["detail"]
    assert seconds < 10 * TIMEOUT_S
    assert not Submission.objects.exists()


def test_after_one_hung_call_the_next_uploads_fail_at_once_until_the_pause_ends(
    alice: Any, hung: _Server, settings: Any
) -> None:
    settings.STORAGE_PAUSE_AFTER_HANG_S = 30
    assert _upload(alice)[0].status_code == 507
    asked = len(hung.held)
    response, _ = _upload(alice)
    # Answered without asking the storage: no new connection reached it.
    assert response.status_code == 507 and len(hung.held) == asked
    archives._Pause.until = 0.0  # the pause ended: the storage is asked again (and hangs again)
    response, seconds = _upload(alice)
    assert response.status_code == 507 and seconds >= TIMEOUT_S and len(hung.held) > asked


def test_a_write_the_object_store_refuses_answers_507_not_500(
    alice: Any, refusing: _Server, settings: Any
) -> None:
    settings.STORAGE_HUNG_AFTER_S = 5.0  # a refusal answers at once, even on a busy machine
    response, _ = _upload(alice)
    assert response.status_code == 507
    assert "storage is full or unavailable" in response.json()["detail"]
    assert not Submission.objects.exists()
    # A quick refusal says nothing of a hang: the next upload asks the storage again.
    assert archives._Pause.until == 0.0


def test_the_upload_form_answers_a_refused_write_with_a_clear_507_page(
    client: Any, submitter: Any, refusing: _Server
) -> None:
    client.force_login(submitter)
    form = {**SYSTEM, "archive": real_tarball(33), "client_network_gbps": "200 Gbit/s"}
    response = client.post(reverse("submissions:upload"), form)
    assert response.status_code == 507
    assert "storage is full or unavailable" in response.content.decode()
    assert not Submission.objects.exists()


def test_a_download_whose_storage_hangs_answers_503_quickly(
    client: Any, submitter: Any, create: Any, settings: Any
) -> None:
    submission, _ = create(submitter, real_tarball(33))
    archive = submission.archives.get(kind="result")
    server = _Server(reply=None)
    _s3(settings, server.endpoint)
    try:
        client.force_login(submitter)
        started = time.monotonic()
        response = client.get(reverse("submissions:download", args=[submission.pk, archive.pk]))
        seconds = time.monotonic() - started
    finally:
        server.close()
    assert response.status_code == 503
    assert response["Retry-After"] and "cannot reach the storage" in response.content.decode()
    assert seconds < 10 * TIMEOUT_S


def test_pages_that_need_no_storage_never_connect_to_a_hung_one(client: Any, hung: _Server) -> None:
    for path in ("/", "/healthz", "/lists/"):
        assert client.get(path, follow=True).status_code < 500, path
    # Any request to the object store would have connected (and then waited out the timeout).
    assert not hung.held, "a page without files connected to the object store"
