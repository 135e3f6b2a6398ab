"""The one browser fixture of the end-to-end tests."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from django.db import connections

from tests.e2e.browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Browsing, open_page, screenshot_failed

CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


class _Chromium:
    """One Playwright driver and one chromium for a run of consecutive browser tests (starting them
    costs about 1.7 CPU-seconds, once per test before); each test still gets contexts of its own
    (cookies, storage, cache: one person each), all closed after it."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        # Playwright's sync API keeps an event loop running in this thread while it lives; the
        # tests' own ORM calls stay synchronous, which Django refuses next to a running loop unless
        # told it is safe: only while this driver lives (the browser tests run one after the
        # other, and it is stopped before any other test), never for the rest of the session.
        self.saved = {name: os.environ.get(name) for name in _ENVIRONMENT}
        os.environ.update(_ENVIRONMENT)
        self.manager = sync_playwright()
        self.playwright = self.manager.__enter__()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    def stop(self) -> None:
        try:
            self.browser.close()
            self.manager.__exit__(None, None, None)
        finally:
            for name, value in self.saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            # The tests' ORM calls ran inside Playwright's greenlet, whose context holds a database
            # connection of its own that pytest-django never sees; left open, it blocks dropping
            # the test database at the end of the session.
            connections.close_all()


_ENVIRONMENT = {"DJANGO_ALLOW_ASYNC_UNSAFE": "true", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
_chromium: _Chromium | None = None


def _uses_browser(item: pytest.Item | None) -> bool:
    return item is not None and "browser" in getattr(item, "fixturenames", ())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    global _chromium
    try:
        return (yield)
    finally:
        if _chromium is not None and not _uses_browser(nextitem):
            stopping = _chromium
            _chromium = None
            stopping.stop()


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The pages' requests reach the live server as production's reach gunicorn: each request thread
    keeps its database connection (CONN_MAX_AGE) for its kept-alive HTTP connection, not one per
    request; Django closes it when that HTTP connection ends (ThreadedWSGIServer.close_request), and
    the teardown waits for those threads once the pages are closed."""
    global _chromium
    if _chromium is not None and not _chromium.browser.is_connected():
        crashed = _chromium
        _chromium = None
        crashed.stop()
    if _chromium is None:
        _chromium = _Chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    launched = _chromium.browser
    yield launched
    if request.node.stash.get(CALL_FAILED, False):
        screenshot_failed(launched, request.node.name)
    for context in launched.contexts:
        context.close()
    _live_server_requests_finished()
    # See _Chromium.stop: the connection this test's ORM calls opened in Playwright's greenlet.
    connections.close_all()


# A request the closed pages left in flight (a status poll, a chart's data) still runs in the live
# server's thread; the transactional test's flush that follows truncates every table, and Postgres
# once broke the resulting lock cycle by failing the flush, which left the rows to the next test.
REQUEST_THREADS_TIMEOUT_S = 30.0


def _live_server_requests_finished() -> None:
    """Waits for the live server's request threads (socketserver names them after their target);
    each ends when its request does, or its kept-alive connection was closed with the pages."""
    deadline = time.monotonic() + REQUEST_THREADS_TIMEOUT_S
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)") and thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))
            assert not thread.is_alive(), f"a live-server request still runs after the test: {thread.name}"


@pytest.fixture
def browsing(browser: Any) -> Browsing:
    """One page of one visitor."""
    return open_page(browser)
