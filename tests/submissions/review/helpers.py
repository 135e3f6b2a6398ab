"""Builders for the review tests: a verified upload ready to submit, questionnaire answers, releases."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from registry.models import Release
from submissions.models import Institution, StorageSystem, Submission, SystemDescription
from submissions.review.models import QUESTIONNAIRE_SECTIONS

# The people of the authorisation matrix, as the test fixtures name them.
PERSONAS = ("anonymous", "submitter", "other_submitter", "committee", "admin")
ISC_KINDS = ["production", "research", "ten-node-production", "ten-node-research", "full", "historical"]


def answers(words: int = 12) -> dict[str, str]:
    """A complete questionnaire: every section answered with `words` words."""
    return {name: " ".join([f"{name}-word"] * words) for name in QUESTIONNAIRE_SECTIONS}


def open_release(name: str = "ISC40", **fields: Any) -> Release:
    """A release still taking submissions (deadline in a month, publication in two)."""
    today = timezone.localdate()
    defaults: dict[str, Any] = {
        "slug": name.lower(),
        "submission_deadline": today + datetime.timedelta(days=30),
        "publication_date": today + datetime.timedelta(days=60),
        "list_kinds": ISC_KINDS,
    }
    defaults.update(fields)
    return Release.objects.create(name=name, **defaults)


def storage(name: str = "Wolf", institution: str = "Intel", filesystem: str = "DAOS") -> StorageSystem:
    owner, _ = Institution.objects.get_or_create(name=institution)
    system, _ = StorageSystem.objects.get_or_create(name=name, institution=owner, filesystem_type=filesystem)
    return system


def verified_upload(
    submitter: Any,
    release: Release | None,
    *,
    system: StorageSystem | None = None,
    score: float = 100.0,
    nodes: int = 10,
    **fields: Any,
) -> Submission:
    """An uploaded submission the pipeline verified (no archive: the workflow does not read it)."""
    row = Submission.objects.create(
        source=Submission.Source.UPLOAD,
        submitter=submitter,
        release=release,
        storage_system=system if system is not None else storage(),
        status=Submission.Status.VERIFIED,
        progress=100,
        valid=True,
        score=score,
        bw=score,
        md=score,
        **fields,
    )
    SystemDescription.objects.create(submission=row, client_nodes=nodes, procs_per_node=16)
    return row


def client_for(user: User | None) -> Client:
    """A test client logged in as `user` (anonymous for None)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
