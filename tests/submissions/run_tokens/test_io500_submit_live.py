"""runner/io500-submit asks the real registry (a live server) for a run token with an API token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from submissions.accounts.tokens import api_token_issue
from submissions.run_tokens.models import RunToken
from tests.factories import make_release

SUBMIT = Path(__file__).resolve().parents[3] / "runner" / "io500-submit"


@pytest.mark.django_db(transaction=True)
def test_io500_submit_gets_a_run_token_bound_to_the_api_tokens_account(
    live_server: Any, submitter: Any
) -> None:
    release = make_release()
    api_token = api_token_issue(user=submitter)
    command = [sys.executable, str(SUBMIT), "--new-run-token", "--url", live_server.url, "--token", api_token]
    done = subprocess.run(
        [*command, "--release", release.slug, "--system-name", "Lab cluster"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    issued = RunToken.objects.get()
    assert done.stdout.strip() == issued.token
    assert issued.user == submitter and issued.release == release and issued.system_name == "Lab cluster"
    closed = subprocess.run(
        [*command, "--release", "no-such-release", "--system-name", "Lab cluster"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert closed.returncode == 2 and "400" in closed.stderr
