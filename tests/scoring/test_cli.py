"""`python -m scoring verify`: exit codes, --json shape, and clear errors instead of tracebacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scoring.corpus import DATA, REPO

SUBMISSIONS = DATA / "submissions"
VALID_RUN = SUBMISSIONS / "submission-783"  # SC25 C-app run, valid
INVALID_RUN = SUBMISSIONS / "submission-642"  # the scc loophole: '; ERROR INVALID' in the header
SHELL_RUN = SUBMISSIONS / "submission-147"
# The io500_data fixture (conftest.py) fails the test, naming the path, when the corpus is missing.
needs_corpus = pytest.mark.usefixtures("io500_data")

JSON_KEYS = {"path", "era", "version", "phases", "claimed", "computed", "score_matches", "valid", "findings"}


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "verify", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


@needs_corpus
def test_a_valid_run_exits_0_with_one_json_line_per_run() -> None:
    result = run_cli(VALID_RUN, "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    record = json.loads(line)
    assert set(record) == JSON_KEYS
    assert record["valid"] is True and record["score_matches"] is True
    assert record["era"] == "c-isc25"
    assert set(record["claimed"]) == set(record["computed"]) == {"bw", "md", "score"}
    assert record["phases"]["ior-easy-write"]["unit"] == "GiB/s"
    assert set(record["phases"]["find"]) == {"value", "unit", "time_s"}
    assert all(set(f) == {"code", "severity", "phase", "message"} for f in record["findings"])


@needs_corpus
def test_an_invalid_run_exits_1_and_names_the_reason() -> None:
    result = run_cli(INVALID_RUN, "--json")
    assert result.returncode == 1
    record = json.loads(result.stdout)
    errors = [f for f in record["findings"] if f["severity"] == "error"]
    assert [f["code"] for f in errors] == ["result-error-comment"]


@needs_corpus
def test_the_readable_report_shows_the_verdict_and_the_findings() -> None:
    result = run_cli(INVALID_RUN)
    assert result.returncode == 1
    assert "INVALID" in result.stdout
    assert "result-error-comment" in result.stdout
    assert "mdtest-hard-delete" in result.stdout


@needs_corpus
def test_several_paths_report_the_worst_status(tmp_path: Path) -> None:
    junk = tmp_path / "junk.tgz"
    junk.write_bytes(b"\x00\xff" * 500)
    result = run_cli(VALID_RUN, SHELL_RUN, junk, "--json")
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 2
    assert "junk.tgz" in result.stderr


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("junk.tgz", b"\x1f\x8b\x08\x00 this is not really gzip"),
        ("random.bin", bytes(range(256)) * 40),
        ("empty.zip", b""),
    ],
)
def test_junk_input_exits_2_with_a_reason_and_no_traceback(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result = run_cli(path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert name in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_path_exits_2_with_a_reason(tmp_path: Path) -> None:
    result = run_cli(tmp_path / "does-not-exist")
    assert result.returncode == 2
    assert "does-not-exist" in result.stderr
    assert "Traceback" not in result.stderr


@needs_corpus
@pytest.mark.parametrize("bad", ["nan", "-5.0", "fast"])
def test_a_phase_value_that_is_not_a_usable_number_is_named_and_invalidates(tmp_path: Path, bad: str) -> None:
    run = tmp_path / "run"
    shutil.copytree(VALID_RUN, run)
    [result_txt] = run.rglob("result.txt")
    text = result_txt.read_text()
    assert "score           = 193.785662" in text
    result_txt.write_text(text.replace("score           = 193.785662", f"score           = {bad}"))
    result = run_cli(run, "--json")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    findings = json.loads(result.stdout)["findings"]
    unreadable = [f for f in findings if f["code"] == "read-value-unreadable"]
    assert unreadable and unreadable[0]["phase"] == "ior-easy-write" and bad in unreadable[0]["message"]
    assert "score-hash-mismatch" in {f["code"] for f in findings}


def test_usage_errors_exit_2_without_a_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scoring"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "usage" in result.stderr
    assert "Traceback" not in result.stderr
