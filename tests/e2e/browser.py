"""Headless chromium (Debian's, driven by Playwright) for the end-to-end tests: pages that record
every console error and uncaught exception, and where screenshots go."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 900}


@dataclass
class Browsing:
    """A chromium page and every console error or uncaught exception it reported."""

    page: Any
    problems: list[str] = field(default_factory=list)

    def on_console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(message.text)

    def on_page_error(self, error: Any) -> None:
        self.problems.append(str(error))


def open_page(browser: Any, problems: list[str] | None = None) -> Browsing:
    """A page in a context of its own (its own cookies: one person), reporting into `problems`."""
    page = browser.new_context(viewport=VIEWPORT, accept_downloads=True).new_page()
    session = Browsing(page, problems if problems is not None else [])
    page.on("console", session.on_console)
    page.on("pageerror", session.on_page_error)
    return session
