"""Every internal link a visitor can reach from the home page of the imported history opens: no 404
and no error, at any depth. Pages are expanded (their links followed) up to a number per URL
pattern, so the crawl sees every kind of page without rendering all of the thousands of
submissions; every link found on an expanded page is still opened."""

from __future__ import annotations

import re
from collections import Counter, deque
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import Resolver404, resolve

pytestmark = [pytest.mark.crawl]

EXPANDED_PER_PATTERN = 12
HREF = re.compile(r'href="([^"]+)"')
# Links a crawler must not follow: logging out changes state; the admin asks for a log-in (302).
NOT_FOLLOWED = ("/accounts/logout/", "/admin/")


def internal_links(html: str) -> list[str]:
    links = []
    for raw in HREF.findall(html):
        href = urldefrag(raw.replace("&amp;", "&"))[0]
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not href.startswith("/") or href.startswith(NOT_FOLLOWED):
            continue
        links.append(href)
    return links


def pattern_of(url: str) -> str:
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return "unresolved"
    return match.route or match.url_name or "unnamed"


def test_every_link_reachable_from_home_opens(imported_history, client):
    seen: dict[str, str] = {"/": "start"}
    queue = deque(["/"])
    expanded: Counter[str] = Counter()
    broken: list[str] = []
    opened = 0
    while queue:
        url = queue.popleft()
        if url.startswith(
            settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL
        ):
            # Served by whitenoise or the web server, not by the test client: the file must exist.
            name = urlsplit(url).path.split("/static/", 1)[1]
            if finders.find(name) is None:
                broken.append(f"{url}: no such static file (linked from {seen[url]})")
            continue
        response = client.get(url)
        opened += 1
        if response.status_code not in (200, 302):
            broken.append(f"{url} -> {response.status_code} (linked from {seen[url]})")
            continue
        content_type = response.get("Content-Type", "")
        pattern = pattern_of(url)
        if response.status_code != 200 or "text/html" not in content_type:
            continue
        if expanded[pattern] >= EXPANDED_PER_PATTERN:
            continue
        expanded[pattern] += 1
        for link in internal_links(response.content.decode()):
            if link not in seen:
                seen[link] = url
                queue.append(link)
    assert broken == []
    # The crawl reached every kind of public page, not just the home page.
    for route in (
        "lists/",
        "history/",
        "compare/",
        "systems/<int:pk>/",
        "<int:pk>/",
        "rules/",
        "how-to-run/",
        "call/",
        "about/",
    ):
        assert any(route in pattern for pattern in expanded), (route, sorted(expanded))
    assert opened > 300
