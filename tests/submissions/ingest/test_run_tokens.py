"""Run tokens end to end: the bundled runner under `mpirun -np 2 --oversubscribe` with
`--timestamp=<token>`, packed by `io500-runner --pack`, uploaded and ingested. The token run verifies;
a reused, expired, foreign or edited token is refused with its finding."""

from __future__ import annotations

import base64
import datetime as dt
import io
import os
import secrets
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from registry.models import Release
from scoring.tokens import TOKEN_PREFIX, expected_seeds
from submissions.models import Finding, Submission
from submissions.run_tokens.models import RunToken
from tests.factories import make_release

pytestmark = [pytest.mark.runner, pytest.mark.django_db]

REPO = Path(__file__).resolve().parents[3]
RUNNER = REPO / "runner" / "build" / "io500-runner"
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


def _token() -> str:
    # The registry's format (submissions/run_tokens/services.py), made here because the run happens
    # once for the module, before any test's database exists; each test then records it as issued.
    return TOKEN_PREFIX + base64.b32encode(secrets.token_bytes(16)).decode().rstrip("=").lower()


@dataclass(frozen=True)
class TokenRun:
    token: str
    started_before: dt.datetime  # just before mpirun started: the earliest the token can have been issued
    resdir: Path
    archive: Path  # made by io500-runner --pack


@pytest.fixture(scope="module")
def token_run(tmp_path_factory: pytest.TempPathFactory) -> TokenRun:
    make = subprocess.run(["make", "-C", str(REPO / "runner")], capture_output=True, text=True, check=False)
    assert make.returncode == 0, make.stdout + make.stderr
    root = tmp_path_factory.mktemp("token-run")
    ini = root / "config.ini"
    ini.write_text(
        f"[global]\ndatadir = {root}/data\nresultdir = {root}/results\n[debug]\nstonewall-time = 2\n"
        "[ior-easy]\ntransferSize = 1m\nblockSize = 8m\n[mdtest-easy]\nn = 500\n"
        "[ior-hard]\nsegmentCount = 200\n[mdtest-hard]\nn = 200\n"
    )
    token = _token()
    started_before = timezone.now() - dt.timedelta(seconds=1)
    env = {**os.environ, **MPI_ENV, "OMPI_MCA_orte_tmpdir_base": str(root)}
    command = ["mpirun", "--oversubscribe", "-np", "2", str(RUNNER), str(ini), f"--timestamp={token}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    resdir = root / "results" / token
    out = root / "packed"
    out.mkdir()
    pack = [str(RUNNER), "--pack", str(resdir), "--output", str(out)]
    packed = subprocess.run(pack, capture_output=True, text=True, check=False)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    (archive,) = out.glob("*.tgz")
    return TokenRun(token, started_before, resdir, archive)


def _tar(folder: Path, name: str) -> ContentFile[bytes]:
    """The folder as a .tgz whose top folder is `name` (fresh bytes on every call)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(folder, arcname=name)
        # A member of its own makes every archive's bytes differ, so an upload is never the same bytes
        # as an earlier one (which the registry answers with the earlier submission).
        note = secrets.token_hex(8).encode()
        info = tarfile.TarInfo(f"{name}/upload-note.txt")
        info.size = len(note)
        tar.addfile(info, io.BytesIO(note))
    return ContentFile(buffer.getvalue(), name=f"{name}.tgz")


def _issue(token: str, user: Any, release: Release, issued_at: dt.datetime, hours: float = 168) -> RunToken:
    return RunToken.objects.create(
        user=user,
        release=release,
        system_name="Test cluster",
        token=token,
        issued_at=issued_at,
        expires_at=issued_at + dt.timedelta(hours=hours),
    )


def _token_findings(submission: Submission) -> dict[str, Finding]:
    submission.refresh_from_db()
    assert submission.status in (Submission.Status.VERIFIED, Submission.Status.INVALID), submission.error
    rows = Finding.objects.filter(result__submission=submission, code__startswith="token-")
    return {f.code: f for f in rows}


@pytest.fixture
def release() -> Release:
    return make_release()


def test_a_run_made_with_its_token_verifies_and_uses_the_token_up(
    token_run: TokenRun, submitter: Any, release: Release, create: Any
) -> None:
    issued = _issue(token_run.token, submitter, release, token_run.started_before)
    archive = ContentFile(token_run.archive.read_bytes(), name=token_run.archive.name)
    submission, created = create(submitter, archive, release=release)
    assert created
    findings = _token_findings(submission)
    assert set(findings) == {"token-verified"}, {code: f.message for code, f in findings.items()}
    # Every seeded phase of the standard mode (ior-rnd4K-easy-read included, with ior-easy's seed), in
    # result.txt and in the tools' own outputs.
    assert "the seeds of its 12 seeded phase(s)" in findings["token-verified"].message
    # The seeds the runner printed are the ones recomputed from the token.
    result_txt = (token_run.resdir / "result.txt").read_text()
    seeds = expected_seeds(token_run.token)
    assert f"-G {seeds['ior-easy']} " in result_txt and f"-G={seeds['mdtest-hard']} " in result_txt
    issued.refresh_from_db()
    assert issued.used_by_id == submission.pk


def test_the_same_run_uploaded_again_is_refused_as_a_reused_token(
    token_run: TokenRun, submitter: Any, release: Release, create: Any
) -> None:
    _issue(token_run.token, submitter, release, token_run.started_before)
    first, _ = create(submitter, _tar(token_run.resdir, token_run.token), release=release)
    assert set(_token_findings(first)) == {"token-verified"}
    again, created = create(submitter, _tar(token_run.resdir, token_run.token), release=release)
    assert created
    findings = _token_findings(again)
    assert set(findings) == {"token-reused"}
    again.refresh_from_db()
    assert again.status == Submission.Status.INVALID and not again.valid


def test_a_run_with_an_expired_token_is_refused(
    token_run: TokenRun, submitter: Any, release: Release, create: Any
) -> None:
    # Issued ten days before the run and valid for one day: the run started far past the expiry.
    _issue(token_run.token, submitter, release, token_run.started_before - dt.timedelta(days=10), hours=24)
    submission, _ = create(submitter, _tar(token_run.resdir, token_run.token), release=release)
    assert set(_token_findings(submission)) == {"token-started-after-expiry"}


def test_a_run_with_another_accounts_token_is_refused(
    token_run: TokenRun, submitter: Any, other_submitter: Any, release: Release, create: Any
) -> None:
    issued = _issue(token_run.token, other_submitter, release, token_run.started_before)
    submission, _ = create(submitter, _tar(token_run.resdir, token_run.token), release=release)
    assert set(_token_findings(submission)) == {"token-foreign"}
    issued.refresh_from_db()
    assert issued.used_by is None


def test_a_run_edited_to_name_a_fresh_token_is_refused_by_its_seeds(
    token_run: TokenRun, submitter: Any, release: Release, create: Any, tmp_path: Path
) -> None:
    # The submitter asks for a token after the run and renames the run to it, in the folder and in
    # every file that names the directory: only the seeds still tell the old timestamp.
    fresh = _token()
    _issue(fresh, submitter, release, timezone.now())
    edited = tmp_path / fresh
    shutil.copytree(token_run.resdir, edited)
    for path in edited.iterdir():
        if path.suffix in (".txt", ".ini"):
            path.write_text(path.read_text().replace(token_run.token, fresh))
    submission, _ = create(submitter, _tar(edited, fresh), release=release)
    findings = _token_findings(submission)
    assert "token-seed-mismatch" in findings and "token-verified" not in findings
    mismatches = Finding.objects.filter(submission=submission, code="token-seed-mismatch")
    assert {f.phase for f in mismatches} >= {"ior-easy-write", "mdtest-hard-write"}
    assert any("in the tool's output" in f.message for f in mismatches)
    assert any("in result.txt" in f.message for f in mismatches)


def test_a_runner_run_far_below_its_hosts_memory_is_flagged_cache_by_the_runners_own_facts(
    token_run: TokenRun, submitter: Any, release: Release, create: Any
) -> None:
    # No description declares memory: the client-facts.json the runner packed reports this host's
    # MemTotal, far above the little the two ranks wrote (issue 27, docs/plausibility.md).
    _issue(token_run.token, submitter, release, token_run.started_before)
    archive = ContentFile(token_run.archive.read_bytes(), name=token_run.archive.name)
    submission, _ = create(submitter, archive, release=release)
    _token_findings(submission)  # ingested (invalid only for its 2-second stonewall)
    cache = Finding.objects.get(submission=submission, code="plausibility-cache")
    assert "memory from the client facts reported by the runner on" in cache.message
    read = Finding.objects.get(submission=submission, code="runner-facts-read")
    assert "client-facts.json" in read.message
