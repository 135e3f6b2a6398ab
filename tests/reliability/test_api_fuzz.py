"""The API fuzzed from its own OpenAPI schema (schemathesis): no input may cause a server error.

A modest budget per operation keeps this in CI; `benchmarks/fuzz.py` runs the same against a live
stack with a large budget and reports how many inputs were tried.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from tests.reliability.records import record
from tests.support.volume import volume

pytestmark = pytest.mark.fuzz

EXAMPLES_PER_OPERATION = volume(suite=10, full=25)
_tried: dict[str, int] = {}


# Loaded at collection, in-process through WSGI: pytest-django has configured Django by then, and
# the schema view needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def fuzz_token(db: None, settings: Any) -> Iterator[str]:
    from django.contrib.auth.models import User

    from submissions.accounts.tokens import api_token_issue

    settings.UPLOAD_RATE = ""  # every generated upload reaches the upload code, none is throttled
    user, _ = User.objects.get_or_create(username="fuzzer")
    # Requests go through the real WSGI handler, which closes the database connection after each one;
    # inside the test's transaction that must not happen (Django's test client does the same).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield api_token_issue(user=user)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
@pytest.mark.django_db
def test_no_generated_request_causes_a_server_error(case: Any, fuzz_token: str) -> None:
    key = f"{case.operation.method.upper()} {case.operation.path}"
    _tried[key] = _tried.get(key, 0) + 1
    case.call_and_validate(headers={"Authorization": f"Token {fuzz_token}"}, checks=[not_a_server_error])
    record("fuzz-api-ci", key, operation=key, inputs=_tried[key], server_errors=0)
