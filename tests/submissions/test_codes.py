"""The ingest layer's finding codes: one table (submissions/codes.py), no code written inline."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scoring.codes import CODES as SCORING_CODES
from scoring.model import Severity
from submissions.codes import CODES, finding

SUBMISSIONS = Path(__file__).resolve().parents[2] / "submissions"


def test_no_code_means_two_things() -> None:
    assert set(CODES) & set(SCORING_CODES) == set()


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def test_no_module_of_submissions_writes_a_finding_code_inline() -> None:
    """A finding is made by `finding(code, ...)` with a code of the table, never built from a literal code."""
    wrong = []
    for path in sorted(SUBMISSIONS.rglob("*.py")):
        if path.name == "codes.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(SUBMISSIONS.parent)}:{node.lineno}"
            name = _callee(node)
            first = _literal(node.args[0]) if node.args else None
            code = next((_literal(k.value) for k in node.keywords if k.arg == "code"), None)
            if name == "finding" and first not in CODES:
                wrong.append(f"{where}: finding({first!r}) names no code of submissions/codes.py")
            elif name in ("Finding", "ScoringFinding", "create", "bulk_create") and (first or code):
                wrong.append(f"{where}: {name}(...) with the literal code {first or code!r}")
    assert wrong == []


def test_a_finding_takes_its_severity_and_message_from_the_table() -> None:
    made = finding("nodes-mismatch", declared=10, nodes=12)
    assert made.severity is Severity.WARNING
    assert made.message.startswith("The system description declares 10 client nodes")


def test_a_caller_may_choose_only_the_entrys_other_severity() -> None:
    assert finding("nodes-unknown", severity=Severity.WARNING).severity is Severity.WARNING
    with pytest.raises(ValueError, match="never error"):
        finding("nodes-unknown", severity=Severity.ERROR)
