"""The dependency audit: known vulnerabilities fail, an unreachable advisory service is never a pass."""

from __future__ import annotations

import json

import pytest

from scripts.audit_dependencies import evaluate

VULNERABLE = {
    "dependencies": [
        {
            "name": "django",
            "version": "5.2.19",
            "vulns": [{"id": "PYSEC-0000-1", "fix_versions": ["5.2.20"]}],
        },
        {"name": "celery", "version": "5.7.0", "vulns": []},
    ],
    "fixes": [],
}
CLEAN = {"dependencies": [{"name": "django", "version": "5.2.19", "vulns": []}], "fixes": []}
UNREACHABLE = {
    "dependencies": [
        {"name": "django", "skip_reason": "Dependency not found on PyPI and could not be audited"}
    ],
    "fixes": [],
}


def test_a_known_vulnerability_fails_the_audit(capsys: pytest.CaptureFixture[str]) -> None:
    assert evaluate(1, json.dumps(VULNERABLE), "") == 1
    assert "VULNERABLE django 5.2.19: PYSEC-0000-1 (fixed in 5.2.20)" in capsys.readouterr().out


def test_a_clean_audit_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert evaluate(0, json.dumps(CLEAN), "") == 0
    assert "No known vulnerabilities in 1 audited package" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("code", "out", "err"),
    [(0, json.dumps(UNREACHABLE), ""), (1, "", "requests.exceptions.ConnectionError: Failed to resolve")],
)
def test_an_unreachable_advisory_service_is_reported_not_passed(
    code: int, out: str, err: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert evaluate(code, out, err) == 0
    assert "DEPENDENCIES NOT AUDITED" in capsys.readouterr().out
    monkeypatch.setenv("AUDIT_STRICT", "1")
    assert evaluate(code, out, err) == 2
