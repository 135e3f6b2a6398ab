"""Fixtures shared by every test: personas, an isolated media folder, Celery modes, a real worker.

Django is imported lazily: the pure scoring tests also run without pytest-django
(`pytest -p no:django tests/scoring`), and this file must not break them.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.data import REPO, data_root, submissions_root

WORKER_START_TIMEOUT_S = 90
PASSWORD = "correct horse battery staple"

# Python's cycle collector, at its default thresholds, ran a young collection every 700 new objects
# and a full one every few dozen, each walking every object the process holds (Django, the imported
# history, hypothesis' data): 10.5 of rest-a's 84 CPU-s, 3.6 of a collection's 12. Rarer young
# collections here, and the objects that live through the collection frozen out of the full ones
# (pytest_collection_finish), cut that to about a third; garbage without cycles is still freed at once.
gc.set_threshold(50_000, 20, 100)


def _django_active(request: pytest.FixtureRequest) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    # scripts/pytest_groups.sh migrates one database per run and names it here: each group's test
    # database is a copy of it (pytest-django's `migrate` then has nothing left to apply) instead of
    # running every migration again.
    from django.conf import settings

    database = settings.DATABASES["default"]
    template = os.environ.get("TEST_DATABASE_TEMPLATE")
    if template:
        database.setdefault("TEST", {})["TEMPLATE"] = template
    if "postgresql" in database["ENGINE"]:
        # A test database is thrown away: its commits need not wait for the disk (PostgreSQL still
        # writes them, in the background), as thousands of commits of the live-server tests did.
        options = database.setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()


@pytest.fixture(scope="session")
def media_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One folder per session, shared with the real worker: archives are content-addressed and
    # write-once, so tests cannot disturb each other through it.
    return tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def _isolated_media_root(request: pytest.FixtureRequest, media_root: Path) -> None:
    if _django_active(request):
        request.getfixturevalue("settings").MEDIA_ROOT = str(media_root)


@pytest.fixture(autouse=True, scope="session")
def _cheap_flushes(request: pytest.FixtureRequest) -> Iterator[None]:
    # After each transactional test (tests/support/flush.py).
    if not _django_active(request):
        yield
        return
    from tests.support.flush import postgres_flushes_by_deleting

    with postgres_flushes_by_deleting():
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(request: pytest.FixtureRequest) -> None:
    # The personas log in a lot; the production hasher is deliberately slow.
    if _django_active(request):
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"
        ]


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request: pytest.FixtureRequest) -> None:
    # The limits stay on, at their production values; each test just counts in buckets of its own.
    if _django_active(request):
        request.getfixturevalue("settings").RATELIMIT_NAMESPACE = uuid.uuid4().hex


@pytest.fixture(autouse=True)
def eager_tasks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in-process, errors raised, unless the test is marked `worker` (a real one runs them)."""
    if not _django_active(request) or request.node.get_closest_marker("worker"):
        yield
        return
    from registry.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _bulk_downloads_built_on_demand(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in-process here, so every publish, release change and import would rebuild both bulk
    download files of the whole history (about 5 CPU-s each time) for tests that never read them.
    They are built when a test asks for one (the view queues the build, which runs at once); the
    tests of the rebuild after a change (marked `bulk_downloads`) and a real worker keep the receiver."""
    marked = request.node.get_closest_marker("bulk_downloads") or request.node.get_closest_marker("worker")
    if not _django_active(request) or marked:
        yield
        return
    with _bulk_rebuild_off():
        yield


@contextlib.contextmanager
def _bulk_rebuild_off() -> Iterator[None]:
    from frontend.lists.tasks import bulk_downloads_queue
    from registry.signals import lists_changed

    if not lists_changed.disconnect(dispatch_uid="frontend-bulk-downloads"):
        yield  # already off (the shared history is imported inside a test that has it off)
        return
    try:
        yield
    finally:
        lists_changed.connect(bulk_downloads_queue, dispatch_uid="frontend-bulk-downloads")


@pytest.fixture(scope="session")
def io500_submissions() -> Path:
    return submissions_root()


@pytest.fixture(autouse=True)
def _clear_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    # Lists and charts are cached by snapshot id and generation; ids restart in every test database.
    if not _django_active(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="session")
def io500_data() -> Path:
    return data_root()


# The imported IO500 history (lists and releases, no raw folders), loaded once for all the tests that
# read it: inside one transaction that stays open while they run (each test's own transaction is a
# savepoint in it, rolled back after the test) and is rolled back before any other test runs.


class _SharedHistory:
    def __init__(self, blocker: Any, data: Path) -> None:
        self.blocker, self.data = blocker, data
        self.atomic: Any = None

    def enter(self) -> None:
        if self.atomic is not None:
            return
        from django.core.management import call_command
        from django.db import connection, transaction

        with self.blocker.unblock():
            self.atomic = transaction.atomic()
            self.atomic.__enter__()
            with _bulk_rebuild_off():
                call_command("import_io500", str(self.data), "--skip-raw", stdout=io.StringIO())
            # The import's foreign keys checked here, once: PostgreSQL otherwise keeps their deferred
            # checks pending, and each test's teardown (SET CONSTRAINTS ALL IMMEDIATE, inside its
            # savepoint, undone with it) ran all of them again, about 45 ms a test.
            connection.check_constraints()

    def leave(self) -> None:
        if self.atomic is None:
            return
        from django.db import transaction

        with self.blocker.unblock():
            transaction.set_rollback(True)
            self.atomic.__exit__(None, None, None)
        self.atomic = None


_shared_history: _SharedHistory | None = None
_current_item: pytest.Item | None = None


def _reads_shared_history(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return "imported_history" in names and not _is_transactional(item)


def _is_transactional(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    marker = item.get_closest_marker("django_db")
    return (
        "transactional_db" in names
        or "live_server" in names
        or bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests that read the shared history one after the other (where the first of them
    is), so that it is imported once."""
    readers = [item for item in items if _reads_shared_history(item)]
    if not readers:
        return
    first = items.index(readers[0])
    others = [item for item in items if not _reads_shared_history(item)]
    items[:] = others[:first] + readers + others[first:]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Before the test's fixtures: its own transaction must open inside the shared one, never around it.
    global _current_item
    _current_item = item
    if _shared_history is None:
        return
    if _reads_shared_history(item):
        _shared_history.enter()
    else:
        _shared_history.leave()


@pytest.fixture(scope="session")
def _shared_history_holder(
    django_db_setup: None, django_db_blocker: Any, io500_data: Path
) -> Iterator[_SharedHistory]:
    global _shared_history
    _shared_history = _SharedHistory(django_db_blocker, io500_data)
    # Set up before every function-scoped fixture of the first test that reads it (scope order).
    if _current_item is not None and _reads_shared_history(_current_item):
        _shared_history.enter()
    yield _shared_history
    # Torn down before the test database it depends on.
    _shared_history.leave()
    _shared_history = None


@pytest.fixture
def imported_history(
    request: pytest.FixtureRequest, _shared_history_holder: _SharedHistory, db: None
) -> Path:
    """The IO500 history imported (releases, the published lists, their submissions). `db` is named
    here so that pytest-django sets the test database up for a session of such tests alone; for a
    live-server test it is the flushed transactional database."""
    from django.core.management import call_command

    if _is_transactional(request.node):
        # A live server needs committed rows: this test imports its own, flushed after it.
        call_command("import_io500", str(_shared_history_holder.data), "--skip-raw", stdout=io.StringIO())
    else:
        assert _shared_history_holder.atomic is not None, "the shared history is entered before each reader"
    return _shared_history_holder.data


# Personas, as in healthchecks' Alice/Bob/Charlie.


@pytest.fixture
def submitter(db: None) -> Any:
    from django.contrib.auth.models import User

    return User.objects.create_user("alice", "alice@example.org", PASSWORD)


@pytest.fixture
def other_submitter(db: None) -> Any:
    from django.contrib.auth.models import User

    return User.objects.create_user("bob", "bob@example.org", PASSWORD)


@pytest.fixture
def committee_member(db: None) -> Any:
    from django.contrib.auth.models import User

    from submissions.review.roles import committee_member_add

    user = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    committee_member_add(user=user)
    return user


@pytest.fixture
def anon() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


@pytest.fixture
def api_client_for() -> Any:
    """api_client_for(user) -> a DRF client authenticated with that user's token (None: anonymous)."""
    from rest_framework.test import APIClient

    from submissions.accounts.tokens import api_token_issue

    tokens: dict[int, str] = {}

    def make(user: Any | None) -> APIClient:
        client = APIClient()
        if user is not None:
            # Issuing replaces the user's earlier token, so one token per user serves every client.
            if user.pk not in tokens:
                tokens[user.pk] = api_token_issue(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[user.pk]}")
        return client

    return make


# The real worker.


def _database_url(settings_dict: dict[str, Any]) -> str:
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return (
        f"postgres://{credentials}{settings_dict.get('HOST') or '127.0.0.1'}:"
        f"{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}"
    )


def _wait_until_ready(process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + WORKER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if " ready." in text:
            return
        if process.poll() is not None:
            pytest.fail(f"The Celery worker exited with {process.returncode} while starting:\n{text[-4000:]}")
        time.sleep(0.2)
    pytest.fail(
        f"The Celery worker was not ready after {WORKER_START_TIMEOUT_S} s:\n{log.read_text()[-4000:]}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)  # warm shutdown of the worker and its pool child
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None,
    django_db_blocker: Any,
    media_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery -A registry worker` against the pytest-django test database.

    It consumes a queue of its own, so other workers on the same Redis never take its tasks.
    """
    from django.conf import settings
    from django.db import connection

    from registry.celery import app

    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.fail(
            "Tests marked `worker` need PostgreSQL and Redis: run them with DATABASE_URL=postgres://... "
            "and REDIS_URL=redis://... (as `make test` does)."
        )
    queue = f"pytest-{uuid.uuid4().hex[:12]}"
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "registry.settings",
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "MEDIA_ROOT": str(media_root),
        # No persistent connections: the test database is flushed and dropped under the worker.
        "CONN_MAX_AGE": "0",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    command = [sys.executable, "-m", "celery", "-A", "registry", "worker", "--loglevel=INFO"]
    command += ["--pool=prefork", "--concurrency=1", "-Q", queue, "-n", f"{queue}@%h"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    saved_queue, saved_eager = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = queue, False
    try:
        _wait_until_ready(process, log)
        yield process
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = saved_queue, saved_eager
        _stop(process)


@pytest.fixture
def worker(celery_worker_process: subprocess.Popen[bytes]) -> subprocess.Popen[bytes]:
    if celery_worker_process.poll() is not None:
        pytest.fail(f"The Celery worker died (exit code {celery_worker_process.returncode}).")
    return celery_worker_process
