"""The bundled runner's io500-submit drives the whole journey against the real API (issue 28, item 4):
upload a real run with its system description, wait for the ingest's verdict, answer the
questionnaire from a file and submit for review, with nothing but the token."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from submissions.accounts.tokens import api_token_issue
from submissions.models import ReviewState, Submission
from tests.submissions.archives import pack_folder
from tests.submissions.helpers import SYSTEM
from tests.submissions.review.helpers import answers, open_release
from tests.support.data import submission_folder

SUBMIT = Path(__file__).resolve().parents[2] / "runner" / "io500-submit"


@pytest.mark.django_db(transaction=True)
def test_io500_submit_uploads_waits_answers_and_submits_for_review(
    live_server: Any, submitter: Any, tmp_path: Path, settings: Any
) -> None:
    settings.SITE_URL = live_server.url
    release = open_release()
    tarball = tmp_path / "io500-run.tgz"
    tarball.write_bytes(pack_folder(submission_folder(33)))
    (tmp_path / "system.json").write_text(json.dumps(SYSTEM))
    (tmp_path / "answers.json").write_text(json.dumps(answers()))
    command = [
        sys.executable, str(SUBMIT), str(tarball), "--url", live_server.url,
        "--token", api_token_issue(user=submitter), "--system", str(tmp_path / "system.json"),
        "--questionnaire", str(tmp_path / "answers.json"), "--submit", "--release", release.slug,
        "--interval", "0.2", "--timeout", "120",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "status: verified" in done.stdout and "review: submitted" in done.stdout
    submission = Submission.objects.get(submitter=submitter)
    assert submission.review_state == ReviewState.SUBMITTED and submission.release == release
    assert submission.storage_system is not None and submission.storage_system.name == SYSTEM["system_name"]
    assert submission.questionnaire.system_purpose == answers()["system_purpose"]
