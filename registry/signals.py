"""What the lists tell the rest of the site: `lists_changed`, sent once after the commit that changed
them.

Publishing, a correction, an import and any change to a release (its name, lists or embargo) change
what every cached list page, download and chart shows. The domain does not know those caches: it
sends this signal, and the presentation layer's receiver (frontend.charts.receivers) refreshes the
charts' digests of the frozen lists and moves the cache generations on. One transaction sends the
signal once, however many lists it published.

Arguments: `snapshot_ids`, the list snapshots published or corrected (their chart digests are made
now, so that no reader pays for them); `everything`, True when any published list may have changed
(an import), so every digest is remade.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterable, Iterator
from typing import Any

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal

from registry.models import Release

lists_changed = Signal()

# Set while `lists_changes_held` runs: what the held work changed, sent once when it ends.
_held: contextvars.ContextVar[_Changes | None] = contextvars.ContextVar("lists_changes_held", default=None)


class _Changes:
    """What one transaction changed so far; sent once, by the first of its commit callbacks to run."""

    def __init__(self) -> None:
        self.snapshot_ids: set[int] = set()
        self.everything = False
        self.sent = False
        self.waiting = False  # held by `lists_changes_held`, to be sent when it ends


class _SendOnCommit:
    """A commit callback of one `lists_changed_on_commit` call. The connection drops it with the
    transaction or savepoint it was made in; the first one to run sends the shared changes."""

    def __init__(self, changes: _Changes) -> None:
        self.changes = changes

    def __call__(self) -> None:
        if self.changes.sent:
            return
        self.changes.sent = True
        if _hold(self.changes.snapshot_ids, self.changes.everything):
            return
        lists_changed.send(
            sender=Release,
            snapshot_ids=frozenset(self.changes.snapshot_ids),
            everything=self.changes.everything,
        )


def _pending_changes() -> _Changes | None:
    for entry in connection.run_on_commit:
        callback = entry[1]
        if isinstance(callback, _SendOnCommit) and not callback.changes.sent:
            return callback.changes
    return None


@contextlib.contextmanager
def lists_changes_held() -> Iterator[None]:
    """Hold every `lists_changed` the enclosed work sends and send them as one when it ends (also
    when it fails: what it committed before the error changed the lists too). An import saves each
    release and publishes many lists outside of one transaction: without this, every save refreshed
    the charts and rebuilt the bulk downloads again."""
    if _held.get() is not None:
        yield
        return
    changes = _Changes()
    token = _held.set(changes)
    try:
        yield
    finally:
        _held.reset(token)
        if changes.waiting:
            lists_changed.send(
                sender=Release, snapshot_ids=frozenset(changes.snapshot_ids), everything=changes.everything
            )


def _hold(snapshot_ids: Iterable[int], everything: bool) -> bool:
    """Whether the change was held (recorded for the one signal `lists_changes_held` sends)."""
    changes = _held.get()
    if changes is None:
        return False
    changes.waiting = True
    changes.snapshot_ids.update(snapshot_ids)
    changes.everything = changes.everything or everything
    return True


def lists_changed_on_commit(*, snapshot_ids: Iterable[int] = (), everything: bool = False) -> None:
    """Send `lists_changed` after the current transaction commits (at once outside of one); the
    calls of one transaction send one signal with everything they named."""
    if not connection.in_atomic_block:
        if _hold(snapshot_ids, everything):
            return
        lists_changed.send(sender=Release, snapshot_ids=frozenset(snapshot_ids), everything=everything)
        return
    changes = _pending_changes() or _Changes()
    changes.snapshot_ids.update(snapshot_ids)
    changes.everything = changes.everything or everything
    transaction.on_commit(_SendOnCommit(changes))


def lists_changed_now(*, everything: bool = False) -> None:
    """Send `lists_changed` now: for work done outside of any transaction (an import's last step)."""
    if _hold((), everything):
        return
    lists_changed.send(sender=Release, snapshot_ids=frozenset(), everything=everything)


def _release_changed(sender: type[Release], **kwargs: Any) -> None:
    # Release names, the release picker and embargo ends are on every cached list page and chart.
    lists_changed_on_commit()


def connect() -> None:
    post_save.connect(_release_changed, sender=Release, dispatch_uid="registry-release-saved")
    post_delete.connect(_release_changed, sender=Release, dispatch_uid="registry-release-deleted")
