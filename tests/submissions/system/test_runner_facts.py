"""The client facts the bundled runner writes (client-facts.json) read from an uploaded archive: they
fill what the description leaves blank, never what the submitter declared, stand in for the memory
and network the description does not declare in the plausibility checks (named as their source), and
a broken or absurd file is a finding, never a failed ingest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from submissions.models import Finding, Submission, SystemDescription
from tests.submissions.helpers import SYSTEM
from tests.submissions.system.facts_files import FACTS_MEMBER, TIB_KIB, facts
from tests.submissions.system.test_upload_paths import tarball_with

pytestmark = pytest.mark.django_db
API = "/api/v1/submissions/"


def _upload(api: Any, capture: Any, members: dict[str, bytes], system: dict[str, Any] | None) -> Submission:
    archive = tarball_with(33, members)
    form: dict[str, Any] = {"archive": archive}
    if system is not None:
        form["system"] = json.dumps(system)
    with capture(execute=True):
        response = api.post(API, form, format="multipart")
    assert response.status_code == 202, response.content
    return Submission.objects.get()


def _codes(submission: Submission) -> dict[str, Finding]:
    return {f.code: f for f in Finding.objects.filter(submission=submission)}


def test_facts_fill_an_empty_description_and_say_who_reported_them(
    api_client_for: Any, submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_client_for(submitter)
    submission = _upload(api, django_capture_on_commit_callbacks, {FACTS_MEMBER: facts()}, None)
    assert submission.status == Submission.Status.VERIFIED, submission.error
    description = SystemDescription.objects.get()
    assert description.client_kernel == "6.1.0-runner"
    assert description.filesystem_version == "2.15.4"
    assert description.client_network_gbps == pytest.approx(1.0)
    assert description.client_memory_bytes == 900 * 2**40
    source = description.field_sources["client_kernel"]
    assert (
        source.startswith("the client facts reported by the runner on 2026-11-20") and "not proof" in source
    )
    assert "runner-facts-read" in _codes(submission)


def test_a_declared_value_wins_over_the_facts(
    api_client_for: Any, submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_client_for(submitter)
    system = {**SYSTEM, "client_kernel": "5.14.0-declared", "client_memory_bytes": "2 TiB"}
    submission = _upload(api, django_capture_on_commit_callbacks, {FACTS_MEMBER: facts()}, system)
    description = SystemDescription.objects.get()
    assert description.client_kernel == "5.14.0-declared" and "client_kernel" not in description.field_sources
    assert description.client_network_gbps == 200  # declared in SYSTEM
    assert (
        description.client_memory_bytes == 2 * 2**40
        and "client_memory_bytes" not in description.field_sources
    )
    cache = Finding.objects.get(submission=submission, code="plausibility-cache")
    assert "(memory from the system description)" in cache.message and "2,048.0 GiB" in cache.message
    # The network check therefore uses the declared 200 Gbit/s, not the facts' 1 Gbit/s (which flags).
    network = Finding.objects.filter(submission=submission, code="plausibility-network")
    assert not any("client facts" in f.message for f in network)


def test_memory_reported_by_the_runner_above_the_data_written_flags_the_cache(
    api_client_for: Any, submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_client_for(submitter)
    submission = _upload(api, django_capture_on_commit_callbacks, {FACTS_MEMBER: facts()}, SYSTEM)
    found = _codes(submission)
    assert "plausibility-cache" in found, sorted(found)
    message = found["plausibility-cache"].message
    assert "900.0 GiB" not in message and "921,600.0 GiB" in message
    assert "memory from the client facts reported by the runner on 2026-11-20" in message


def test_without_the_facts_file_the_memory_is_not_checked_as_before(
    api_client_for: Any, submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_client_for(submitter)
    submission = _upload(api, django_capture_on_commit_callbacks, {}, SYSTEM)
    found = _codes(submission)
    assert "plausibility-cache" not in found and "runner-facts-read" not in found
    assert "memory per client node not declared" in found["plausibility-not-checked"].message
    assert SystemDescription.objects.get().runner_facts == {}


@pytest.mark.parametrize(
    ("memory", "nic", "named"),
    [
        ("-4 GiB", None, "cannot be negative"),
        ("lots", None, "must be a number and its unit"),
        ("2000 PiB", None, "not believable"),
        (f"{TIB_KIB} KiB", {"speed": "fast", "peak throughput": "very"}, "not one of the choices"),
    ],
)
def test_malformed_or_absurd_facts_are_a_finding_and_never_used(
    api_client_for: Any,
    submitter: Any,
    django_capture_on_commit_callbacks: Any,
    memory: str,
    nic: dict[str, str] | None,
    named: str,
) -> None:
    api = api_client_for(submitter)
    members = {FACTS_MEMBER: facts(memory, nic)}
    submission = _upload(api, django_capture_on_commit_callbacks, members, SYSTEM)
    assert submission.status == Submission.Status.VERIFIED, submission.error
    found = _codes(submission)
    assert named in found["runner-facts-problems"].message
    if nic is None:  # the memory was the broken value: the cache check falls back to "not declared"
        assert "plausibility-cache" not in found


def test_a_facts_file_that_is_not_json_is_a_finding(
    api_client_for: Any, submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_client_for(submitter)
    submission = _upload(api, django_capture_on_commit_callbacks, {FACTS_MEMBER: b"{nope"}, SYSTEM)
    assert submission.status == Submission.Status.VERIFIED, submission.error
    assert "not JSON" in _codes(submission)["runner-facts-problems"].message
