"""A run's identity comes from what it measured and when, never from names its uploader chooses.

The same real run re-packed (folder renamed, archive renamed, another compressor, an unrelated file
added) keeps its fingerprint; another real run never shares it, over the whole shared corpus.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import importlib
import io
import lzma
import tarfile
import zipfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring.readers.locate import read_runs
from submissions.models import Result
from submissions.run_identity import PhaseIdentity, fingerprint_of, run_fingerprint
from tests.submissions.helpers import real_tarball
from tests.support.data import submission_folder, submissions_root

NOTE = b"re-packed by someone else\n"
# A C-application run with phase clocks and config.ini, and a shell-era run whose folder name is the
# timestamp the reader reports.
C_APP_RUN = submission_folder(33)
SHELL_RUN = submission_folder(3) / "data" / "results" / "2019.11.11-04.23.30"


def _members(folder: Path, top: str, extra: bool) -> list[tuple[str, bytes]]:
    members = [
        (f"{top}/{p.relative_to(folder)}", p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()
    ]
    if extra:
        members += [(f"{top}/NOTES.txt", NOTE), ("README", NOTE)]
    return members


def _tar(members: list[tuple[str, bytes]], compress: Callable[[bytes], bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return compress(buffer.getvalue())


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def _fingerprint(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    (run,) = read_runs(path)
    return run_fingerprint(run)


PACKINGS: dict[str, tuple[str, bool, str, Callable[[list[tuple[str, bytes]]], bytes]]] = {
    # name: (top folder, unrelated files added, archive name, packer)
    "renamed folder": ("renamed-by-someone-else", False, "run.tgz", lambda m: _tar(m, gzip.compress)),
    "renamed archive": ("ORIGINAL", False, "my-own-run.tar.gz", lambda m: _tar(m, gzip.compress)),
    "bzip2": ("ORIGINAL", False, "run.tar.bz2", lambda m: _tar(m, bz2.compress)),
    "xz": ("ORIGINAL", False, "run.tar.xz", lambda m: _tar(m, lzma.compress)),
    "zip": ("ORIGINAL", False, "run.zip", _zip),
    "unrelated file added": ("ORIGINAL", True, "run.tgz", lambda m: _tar(m, gzip.compress)),
    "all at once": ("results/elsewhere", True, "x.zip", _zip),
}


@pytest.mark.parametrize("folder", [C_APP_RUN, SHELL_RUN], ids=["c-app", "shell"])
@pytest.mark.parametrize("packing", list(PACKINGS))
def test_a_re_packed_run_keeps_its_fingerprint(tmp_path: Path, folder: Path, packing: str) -> None:
    original = _fingerprint(
        tmp_path, "original.tgz", _tar(_members(folder, folder.name, False), gzip.compress)
    )
    top, extra, name, pack = PACKINGS[packing]
    top = folder.name if top == "ORIGINAL" else top
    assert original
    assert _fingerprint(tmp_path, name, pack(_members(folder, top, extra))) == original


def test_another_real_run_has_another_fingerprint(tmp_path: Path) -> None:
    fingerprints = {
        _fingerprint(
            tmp_path, f"{number}.tgz", _tar(_members(submission_folder(number), "run", False), gzip.compress)
        )
        for number in (33, 585, 738, 762)
    }
    assert len(fingerprints) == 4


def test_a_changed_clock_or_value_is_another_run() -> None:
    phase = PhaseIdentity("ior-easy-write", 12.5, 300.1, {"t_start": "2020-07-10 17:14:50"})
    base = fingerprint_of([phase], era="c-isc20", config={})
    later = PhaseIdentity("ior-easy-write", 12.5, 300.1, {"t_start": "2020-07-10 17:14:51"})
    faster = PhaseIdentity("ior-easy-write", 12.6, 300.1, phase.values)
    assert (
        len(
            {
                base,
                fingerprint_of([later], era="c-isc20", config={}),
                fingerprint_of([faster], era="c-isc20", config={}),
            }
        )
        == 3
    )
    assert fingerprint_of([phase], era="c-isc20", config={"global": {"datadir": "/other"}}) != base


def test_a_run_without_a_printed_value_has_no_fingerprint() -> None:
    assert fingerprint_of([PhaseIdentity("ior-easy-write", None, None, {})], era="c-isc20", config={}) == ""


def test_no_two_distinct_real_runs_of_the_corpus_share_a_fingerprint() -> None:
    """Runs that share a fingerprint must be the same run: byte-identical summaries. The corpus has one
    such pair, the summary-only copy at the top of submission-714 and submission-717 (the data
    README's note on those folders); every other run's fingerprint is its own."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    runs = 0
    for folder in sorted(submissions_root().glob("submission-*")):
        if folder.name == "submission-177":  # only an io500.sh generator script, no result
            continue
        for run in read_runs(folder):
            runs += 1
            fingerprint = run_fingerprint(run)
            assert fingerprint, f"{folder.name}/{run.path} has no fingerprint"
            groups[fingerprint].append((folder.name, run.path))
    assert runs == 118
    shared = [members for members in groups.values() if len(members) > 1]
    for members in shared:
        summaries = {
            hashlib.sha256(
                (submissions_root() / folder / path / "result_summary.txt").read_bytes()
            ).hexdigest()
            for folder, path in members
        }
        assert len(summaries) == 1, f"distinct runs share a fingerprint: {members}"
    assert shared == [[("submission-714", "."), ("submission-717", ".")]]


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
