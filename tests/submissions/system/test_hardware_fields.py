"""Memory per client node and the data storage devices' peak throughput, declared on the upload form
(before, only a community-schema document could declare them): stored in bytes, checked as at upload,
and used by the plausibility checks ahead of the runner's facts."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from submissions.models import Finding, Submission, SystemDescription
from submissions.review.services import system_description_edit, system_description_values
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.submissions.review.helpers import client_for, open_release, verified_upload

pytestmark = pytest.mark.django_db
GIB = 2**30


@pytest.fixture
def alice_client(client: Any, submitter: Any) -> Any:
    client.force_login(submitter)
    return client


def _post(alice_client: Any, capture: Any, **fields: Any) -> Any:
    with capture(execute=True):
        return alice_client.post(
            reverse("submissions:upload"), {**SYSTEM, "archive": real_tarball(33), **fields}
        )


def test_the_upload_form_offers_memory_device_count_and_peak_throughput(alice_client: Any) -> None:
    html = alice_client.get(reverse("submissions:upload")).content.decode()
    for name in ("client_memory_bytes", "storage_device_count", "storage_peak_bytes_s"):
        assert f'name="{name}"' in html


def test_declared_memory_is_stored_in_bytes_and_flags_the_cache_naming_the_description(
    alice_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # 900 TiB per node: more than any real run writes per node, so the data fits in memory.
    response = _post(alice_client, django_capture_on_commit_callbacks, client_memory_bytes="900 TiB")
    assert response.status_code == 302, response.content.decode()[:3000]
    description = SystemDescription.objects.get()
    assert description.client_memory_bytes == 900 * 2**40
    cache = Finding.objects.get(code="plausibility-cache")
    assert "(memory from the system description)" in cache.message


def test_a_bare_number_is_in_the_default_unit(
    alice_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _post(
        alice_client,
        django_capture_on_commit_callbacks,
        client_memory_bytes="512",
        storage_device_count="4",
        storage_peak_bytes_s="2",
    )
    description = SystemDescription.objects.get()
    assert description.client_memory_bytes == 512 * GIB
    assert (description.storage_device_count, description.storage_peak_bytes_s) == (4, 2e9)
    # 4 devices at 2 GB/s together: every bandwidth phase of the run above 1.86 GiB/s is flagged.
    storage = Finding.objects.filter(code="plausibility-storage")
    assert storage.exists() and all("4 declared storage device(s)" in f.message for f in storage)


@pytest.mark.parametrize(
    ("value", "named"),
    [("-5 GiB", "above 0"), ("lots", "number with its unit"), ("5 parsecs", "unit"), ("9 EiB", "beyond")],
)
def test_a_wrong_amount_is_refused_with_a_sentence(alice_client: Any, value: str, named: str) -> None:
    response = alice_client.post(
        reverse("submissions:upload"), {**SYSTEM, "archive": real_tarball(33), "client_memory_bytes": value}
    )
    assert response.status_code == 400
    assert named in response.content.decode()
    assert not Submission.objects.exists()


def test_the_submitter_declares_memory_later_and_the_edit_page_shows_it_in_its_unit(submitter: Any) -> None:
    draft = verified_upload(submitter, open_release())
    system_description_edit(user=submitter, submission=draft, fields={"client_memory_bytes": "1 TiB"})
    description = SystemDescription.objects.get(submission=draft)
    assert description.client_memory_bytes == 2**40
    # Shown back in GiB with its unit: saving the page unchanged keeps 1 TiB, not 2**40 GiB.
    assert system_description_values(description)["client_memory_bytes"] == "1024 GiB"
    page = client_for(submitter).get(f"/submissions/{draft.pk}/system/").content.decode()
    assert 'name="client_memory_bytes"' in page and 'value="1024 GiB"' in page
