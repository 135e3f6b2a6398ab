"""lists_changed: sent once after the commit that changed lists or releases, never for a rollback."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import transaction

from registry.models import Release
from registry.signals import lists_changed, lists_changed_on_commit

pytestmark = pytest.mark.django_db


@pytest.fixture
def received() -> Any:
    calls: list[dict[str, Any]] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        calls.append({"snapshot_ids": set(kwargs["snapshot_ids"]), "everything": kwargs["everything"]})

    lists_changed.connect(receiver, dispatch_uid="test-receiver")
    yield calls
    lists_changed.disconnect(dispatch_uid="test-receiver")


def test_the_calls_of_one_transaction_send_one_signal_after_it_commits(
    received, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        lists_changed_on_commit(snapshot_ids=[1])
        lists_changed_on_commit(snapshot_ids=[2, 3])
        lists_changed_on_commit(everything=True)
        assert received == []
    assert received == [{"snapshot_ids": {1, 2, 3}, "everything": True}]


def test_a_rolled_back_savepoint_sends_nothing(received, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                lists_changed_on_commit(snapshot_ids=[7])
                raise RuntimeError("abandon")
        except RuntimeError:
            pass
    assert received == []


def test_a_release_change_is_announced_once_on_commit(received, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        release = Release.objects.create(
            name="ISC41", slug="isc41", publication_date=datetime.date(2041, 6, 1)
        )
        release.embargo_end = None
        release.save()
    assert received == [{"snapshot_ids": set(), "everything": False}]
