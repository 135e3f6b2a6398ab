"""lists_changed: sent once after the commit that changed lists or releases, never for a rollback."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.db import transaction

from registry.models import Release
from registry.signals import lists_changed, lists_changed_now, lists_changed_on_commit, lists_changes_held

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


def test_held_changes_are_sent_once_when_the_held_work_ends_even_if_it_fails(
    received, django_capture_on_commit_callbacks
):
    with pytest.raises(RuntimeError), lists_changes_held():
        lists_changed_on_commit(snapshot_ids=[1])
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            lists_changed_on_commit(snapshot_ids=[2])
        lists_changed_now(everything=True)
        assert received == []
        raise RuntimeError("the import stopped half way")
    assert received == [{"snapshot_ids": {1, 2}, "everything": True}]


def test_an_import_announces_its_changes_once(received: Any, io500_data: Any) -> None:
    from django.core.management import call_command

    call_command("import_io500", str(io500_data), "--skip-raw", stdout=io.StringIO())
    assert len(received) == 1 and received[0]["everything"]
