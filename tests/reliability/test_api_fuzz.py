"""The API fuzzed from its own OpenAPI schema (schemathesis): no input may cause a server error.

Generated bodies must reach the code that reads them: a request that carries a body is sent to a
draft submission of the fuzzer's own and to an open release, where random path ids would find nothing
(every such request answered 404 before its body was read); requests without a body keep their
generated ids. A modest budget per operation keeps this in CI: the schema's examples (it has none
now) and generated inputs; under TEST_VOLUME=full, schemathesis's coverage phase as well (boundary
values of every field, hundreds of inputs per operation). `benchmarks/fuzz.py` runs the same against
a live stack with a large budget and reports how many inputs were tried.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from tests.reliability.records import record
from tests.support.volume import FULL, volume

pytestmark = pytest.mark.fuzz

EXAMPLES_PER_OPERATION = volume(suite=10, full=25)
_tried: dict[str, int] = {}
_reached: dict[str, int] = {}  # answers other than 404, per operation


# Loaded at collection, in-process through WSGI: pytest-django has configured Django by then, and
# the schema view needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.phases.coverage.enabled = FULL


@dataclass
class Fuzzer:
    token: str
    # What a path parameter of a request with a body is set to: objects that exist and are the
    # fuzzer's to change.
    path: dict[str, str | int]


@pytest.fixture
def fuzzer(db: None, settings: Any) -> Iterator[Fuzzer]:
    from django.contrib.auth.models import User

    from submissions.accounts.tokens import api_token_issue
    from submissions.models import Submission
    from tests.factories import make_submission, make_system_description
    from tests.submissions.review.helpers import open_release

    settings.UPLOAD_RATE = ""  # every generated upload reaches the upload code, none is throttled
    user, _ = User.objects.get_or_create(username="fuzzer")
    release = open_release()
    draft = make_submission(source=Submission.Source.UPLOAD, submitter=user, release=release)
    make_system_description(submission=draft)
    # Requests go through the real WSGI handler, which closes the database connection after each one;
    # inside the test's transaction that must not happen (Django's test client does the same).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield Fuzzer(api_token_issue(user=user), {"id": draft.pk, "release": release.slug})
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
def test_no_generated_request_causes_a_server_error(case: Any, fuzzer: Fuzzer) -> None:
    key = f"{case.operation.method.upper()} {case.operation.path}"
    _tried[key] = _tried.get(key, 0) + 1
    if case.operation.body and case.path_parameters:
        for name in case.path_parameters.keys() & fuzzer.path.keys():
            case.path_parameters[name] = fuzzer.path[name]
    response = case.call_and_validate(
        headers={"Authorization": f"Token {fuzzer.token}"}, checks=[not_a_server_error]
    )
    _reached[key] = _reached.get(key, 0) + (response.status_code != 404)
    record(
        "fuzz-api-ci", key, operation=key, inputs=_tried[key], answered_not_404=_reached[key], server_errors=0
    )
