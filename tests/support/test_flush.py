"""The flush after transactional tests (tests/support/flush.py) leaves the database as Django's would."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connection
from django.db.backends.postgresql.operations import DatabaseOperations

from submissions.models import Finding
from tests.factories import make_submission
from tests.support.flush import DJANGO_SQL_FLUSH, deleting_filled_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_foreign_key_waits_for_the_commit_so_rows_can_be_deleted_in_any_order() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint "
            "WHERE contype = 'f' AND NOT (condeferrable AND condeferred)"
        )
        immediate = cursor.fetchall()
        cursor.execute("SELECT count(*) FROM pg_constraint WHERE contype = 'f'")
        [(foreign_keys,)] = cursor.fetchall()
    assert foreign_keys > 20
    assert immediate == []


def _rows_after_a_flush(flush: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    submission = make_submission(submitter=User.objects.create_user("carol"))
    Finding.objects.create(submission=submission, code="x", severity="warning", message="m")
    User.objects.get(username="carol").groups.add(Group.objects.create(name="readers"))
    with monkeypatch.context() as patched:
        patched.setattr(DatabaseOperations, "sql_flush", flush)
        call_command("flush", interactive=False, verbosity=0)
    return {
        model._meta.db_table: model._default_manager.count()
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed
    }


def test_the_flush_leaves_the_rows_django_s_own_flush_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _rows_after_a_flush(deleting_filled_tables(DJANGO_SQL_FLUSH), monkeypatch)
    djangos = _rows_after_a_flush(DJANGO_SQL_FLUSH, monkeypatch)
    assert ours == djangos
    # What post_migrate writes (content types, permissions, the committee's group) and nothing else.
    assert ours["submissions_submission"] == ours["auth_user"] == ours["submissions_finding"] == 0
    assert ours["django_content_type"] > 0
