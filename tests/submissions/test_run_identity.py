"""A run's identity comes from what it measured and when, never from names its uploader chooses.

The same real run re-packed (folder renamed, archive renamed, another compressor, an unrelated file
added) keeps its fingerprint; another real run never shares it, over the whole shared corpus.
"""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path
from typing import Any

import pytest

from scoring.readers.locate import read_runs
from submissions.models import Result
from submissions.run_identity import PhaseIdentity, fingerprint_of, run_fingerprint
from tests.submissions.helpers import real_tarball
from tests.submissions.repacking import (
    C_APP_RUN,
    PACKINGS,
    SHELL_RUN,
    fingerprint_in,
    members_of,
    original_fingerprint,
    repacked_fingerprint,
    tar_of,
)
from tests.support.data import submission_folder


@pytest.mark.parametrize("folder", [C_APP_RUN, SHELL_RUN], ids=["c-app", "shell"])
@pytest.mark.parametrize("packing", list(PACKINGS))
def test_a_re_packed_run_keeps_its_fingerprint(tmp_path: Path, folder: Path, packing: str) -> None:
    original = original_fingerprint(tmp_path, folder)
    assert original
    assert repacked_fingerprint(tmp_path, folder, packing) == original


def test_another_real_run_has_another_fingerprint(tmp_path: Path) -> None:
    fingerprints = {
        fingerprint_in(
            tmp_path, f"{n}.tgz", tar_of(members_of(submission_folder(n), "run", False), gzip.compress)
        )
        for n in (33, 585, 738, 762)
    }
    assert len(fingerprints) == 4


def test_a_changed_clock_or_value_is_another_run() -> None:
    phase = PhaseIdentity("ior-easy-write", 12.5, 300.1, {"t_start": "2020-07-10 17:14:50"})
    base = fingerprint_of([phase], era="c-isc20", config={})
    later = PhaseIdentity("ior-easy-write", 12.5, 300.1, {"t_start": "2020-07-10 17:14:51"})
    faster = PhaseIdentity("ior-easy-write", 12.6, 300.1, phase.values)
    others = {fingerprint_of([changed], era="c-isc20", config={}) for changed in (later, faster)}
    assert len({base, *others}) == 3
    assert fingerprint_of([phase], era="c-isc20", config={"global": {"datadir": "/other"}}) != base


def test_a_run_without_a_printed_value_has_no_fingerprint() -> None:
    assert fingerprint_of([PhaseIdentity("ior-easy-write", None, None, {})], era="c-isc20", config={}) == ""


@pytest.mark.django_db
@pytest.mark.parametrize("number", [33, 714])
def test_the_migration_recomputes_stored_fingerprints_as_ingest_computes_them(
    number: int, submitter: Any, create: Any
) -> None:
    from django.apps import apps

    submission, _ = create(submitter, real_tarball(number))
    expected = [run_fingerprint(run) for run in read_runs(submission_folder(number))]
    Result.objects.filter(submission=submission).update(fingerprint="stale: folder name and timestamp")
    recompute = importlib.import_module("submissions.migrations.0011_recompute_run_fingerprints").recompute
    recompute(apps, None)
    stored = Result.objects.filter(submission=submission).values_list("fingerprint", flat=True)
    assert sorted(stored) == sorted(expected)
