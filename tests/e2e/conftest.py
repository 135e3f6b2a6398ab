"""The one browser fixture of the end-to-end tests."""

from __future__ import annotations

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


@pytest.fixture
def browser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls stay
    # synchronous, which Django refuses next to a running loop unless told it is safe: for this
    # test only (monkeypatch restores it), never for the rest of the session.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    monkeypatch.setenv("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    # The live server thread must not keep a connection open past a request: the test database is
    # dropped at the end of the session while that thread still lives.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        if request.node.stash.get(CALL_FAILED, False):
            screenshot_failed(launched, request.node.name)
        launched.close()
        # The test's ORM calls ran inside Playwright's greenlet, whose context holds a database
        # connection of its own that pytest-django never sees; left open, it blocks dropping the
        # test database at the end of the session.
        connections.close_all()


@pytest.fixture
def browsing(browser: Any) -> Browsing:
    """One page of one visitor."""
    return open_page(browser)
