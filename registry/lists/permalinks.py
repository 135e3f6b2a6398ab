"""Permalinks and citable ids: the list-entry id, the list's and the submission's permalinks on the
registry's canonical address (registry.core.site), and what every row of one list shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from registry.core.messaging import is_official_provenance, list_messaging_status
from registry.core.site import site_url
from registry.models import ListSnapshot


def list_entry_id(*, release_slug: str, kind: str, version: int, rank: int) -> str:
    return f"io500-{release_slug}-{kind}-v{version}-{rank}"


def list_permalink(snapshot: ListSnapshot) -> str:
    path = reverse("frontend:list", kwargs={"release": snapshot.release.slug, "kind": snapshot.kind})
    return site_url(f"{path}?version={snapshot.version}")


def submission_permalink(pk: int) -> str:
    return site_url(reverse("submissions:detail", kwargs={"pk": pk}))


def submission_path_prefix() -> str:
    """The path of a submission's page without its id, so that rows need no URL reversing each."""
    sample = reverse("submissions:detail", kwargs={"pk": 0})
    return sample[: -len("0/")]


def _submission_permalink_prefix() -> str:
    """The permalink of a submission without its id, so that rows need no URL reversing each."""
    sample = submission_permalink(0)
    return sample[: -len("0/")]


@dataclass(frozen=True)
class ListIdentity:
    """What every row of one list shares: its columns, and the start of its rows' entry ids."""

    columns: dict[str, Any]
    entry_id_prefix: str
    submission_url_prefix: str


def list_identity(snapshot: ListSnapshot) -> ListIdentity:
    columns = {
        "list_provenance": snapshot.provenance,
        "list_release": snapshot.release.name,
        "list_label": snapshot.label or snapshot.release.name,
        "list_kind": snapshot.kind,
        "list_version": snapshot.version,
        "list_status": snapshot.status,
        "list_published_at": snapshot.published_at.isoformat() if snapshot.published_at else None,
        "list_official": is_official_provenance(snapshot.provenance),
        "messaging_term": list_messaging_status(snapshot.provenance).term,
        "list_url": list_permalink(snapshot),
    }
    prefix = list_entry_id(
        release_slug=snapshot.release.slug, kind=snapshot.kind, version=snapshot.version, rank=0
    )
    return ListIdentity(
        columns=columns,
        entry_id_prefix=prefix[: -len("0")],
        submission_url_prefix=_submission_permalink_prefix(),
    )
