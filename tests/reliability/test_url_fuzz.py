"""Every URL pattern of the site with odd values in its parameters and its query: never a 5xx.

The URLconf is walked (get_resolver()), so a new route is fuzzed without being listed here. Each path
parameter gets each odd value in turn (very long, unicode, "..", a NUL, negative and huge numbers,
"foo-bar"), and the path with plausible values gets odd values in every query parameter a view
reads; each is sent as GET and POST, anonymously and logged in as a committee member (who reaches
every page). A fixed plan of about 3,000 requests (about 3,900 under TEST_VOLUME=full, every
parameter given three odd values): one pass, no retries.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.reliability.records import record
from tests.support.chart_data import build_history
from tests.support.volume import volume

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

ODD_VALUES = (
    "a" * 3000,
    "ünïcødé-✓-\U0001d518",
    "..",
    "\x00",
    "-1",
    "0",
    "99999999999999999999999999",
    "foo-bar",
    "' OR 1=1--",
)
# Every query parameter a view of the site reads (and the API's pagination).
QUERY_NAMES = (
    "release", "kind", "ids", "phase", "filesystem", "vendor", "q", "o", "w_bw", "w_md", "version",
    "year", "nodes_min", "nodes_max", "page", "page_size", "next", "lang", "format",
)  # fmt: skip
# A group of a route: <converter:name> or (?P<name>...).
_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
_REGEX_PARAM = re.compile(r"\(\?P<(?P<name>\w+)>(?:[^()]|\([^()]*\))*\)")
# Each rotation gives every query parameter another odd value: the suite's share sends each parameter
# one of them, `make reliability` (TEST_VOLUME=full) three.
QUERY_ROTATIONS = volume(suite=1, full=3)
# The log-out form would end the logged-in visit half-way.
SKIPPED = {"accounts/logout/"}


def _template(pattern: Any) -> str:
    """A route as a format string: every parameter as {name}, regex anchors and escapes removed."""
    text = str(pattern.pattern)
    if "(?P<" in text or text.startswith("^"):
        text = _REGEX_PARAM.sub(lambda m: "{" + m["name"] + "}", text)
        text = text.lstrip("^").rstrip("$").replace("\\.", ".").replace("\\Z", "")
        # Admin's alternatives of fixed names, e.g. (auth|submissions): the first one.
        text = re.sub(r"\((?:\?:)?([\w-]+)(?:\|[\w-]+)*\)", r"\1", text)
        return text
    return _ROUTE_PARAM.sub(lambda m: "{" + m["name"] + "}", text)


def url_templates(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[str]:
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from url_templates(pattern.url_patterns, prefix + _template(pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + _template(pattern)


def _path(template: str, values: dict[str, str]) -> str:
    names = re.findall(r"\{(\w+)\}", template)
    filled = template
    for name in names:
        filled = filled.replace("{" + name + "}", quote(values.get(name, "1"), safe=""))
    return "/" + filled


def _query(rotation: int) -> str:
    """Every query parameter with an odd value, a different one each (rotated)."""
    return urlencode(
        {name: ODD_VALUES[(index + rotation) % len(ODD_VALUES)] for index, name in enumerate(QUERY_NAMES)}
    )


def _requests(template: str, plausible: dict[str, str]) -> Iterator[tuple[str, str, str]]:
    """(client, method, url) for one route: each odd value in every path parameter, then the path with
    plausible values and odd queries. Django's admin answers anyone but staff with its log-in page
    before reading anything, so it gets one GET per odd path."""
    names = re.findall(r"\{(\w+)\}", template)
    if template.startswith("admin/"):
        for value in ODD_VALUES if names else ODD_VALUES[:1]:
            yield ("signed-in", "GET", _path(template, dict.fromkeys(names, value)) + f"?{_query(0)}")
        return
    if names:
        for value in ODD_VALUES:
            url = _path(template, dict.fromkeys(names, value))
            yield ("anonymous", "GET", url)
            yield ("signed-in", "GET", url)
            yield ("signed-in", "POST", url)
    for rotation in range(QUERY_ROTATIONS):
        url = f"{_path(template, plausible)}?{_query(rotation)}"
        for client in ("anonymous", "signed-in"):
            yield (client, "GET", url)
            yield (client, "POST", url)


def test_no_odd_value_in_any_url_causes_a_server_error(committee_member: Any) -> None:
    history = build_history()
    submission = history.submissions[0]
    plausible = {
        "pk": str(submission.pk),
        "archive_id": "1",
        "release": history.new.slug,
        "kind": "io500",
        "fmt": "csv",
        "uidb64": "MQ",
        "token": "set-password",
        "object_id": str(submission.pk),
        "app_label": "submissions",
        "url": "x",
    }
    templates = sorted(set(url_templates()) - SKIPPED)
    assert len(templates) > 60
    anonymous = Client(raise_request_exception=False)
    signed_in = Client(raise_request_exception=False)
    plan = [request for template in templates for request in _requests(template, plausible)]
    server_errors: list[str] = []
    started = time.monotonic()
    logged_out, log_ins = True, 0
    for client_name, method, url in plan:
        if client_name == "signed-in" and logged_out:
            signed_in.force_login(committee_member)
            logged_out, log_ins = False, log_ins + 1
        client = signed_in if client_name == "signed-in" else anonymous
        if method == "GET":
            response = client.get(url)
        else:
            response = client.post(url, dict.fromkeys(QUERY_NAMES, "x"))
        if client is signed_in and settings.SESSION_COOKIE_NAME in response.cookies:
            # The session was changed or ended (its cookie set anew): still logged in? Reading the
            # session from the database before each request cost a tenth of the test.
            logged_out = "_auth_user_id" not in signed_in.session
        if response.status_code >= 500:
            server_errors.append(f"{method} {client_name} {url[:200]} -> {response.status_code}")
    elapsed = time.monotonic() - started
    assert server_errors == []
    record(
        "security",
        "url fuzz",
        routes=len(templates),
        requests=len(plan),
        log_ins=log_ins,
        server_errors=0,
        seconds=round(elapsed),
    )
