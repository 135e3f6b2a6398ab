"""The scoring engine's finding codes: one table (scoring/codes.py) holds every code of a finding."""

from __future__ import annotations

import ast
from pathlib import Path

from scoring.codes import CODES, finding, note
from scoring.model import Severity

SCORING = Path(__file__).resolve().parents[2] / "scoring"
# The helpers that turn a code into a Finding: finding(code, ...) for rules, note(code, message) for readers.
MAKERS = ("finding", "note")


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _literal_codes() -> list[tuple[str, str, str]]:
    """(where, callee, code) of every literal code a module of scoring/ hands to finding(), note()
    or Finding()."""
    found = []
    for path in sorted(SCORING.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = _callee(node)
            first = _literal(node.args[0]) if node.args else None
            keyword = next((_literal(k.value) for k in node.keywords if k.arg == "code"), None)
            code = first if name in MAKERS else keyword if name == "Finding" else None
            if code is not None:
                found.append((f"{path.relative_to(SCORING.parent)}:{node.lineno}", name, code))
    return found


def test_every_literal_code_of_scoring_is_in_the_table() -> None:
    missing = [f"{where}: {name}({code!r})" for where, name, code in _literal_codes() if code not in CODES]
    assert missing == []


def test_the_scan_sees_the_rules_and_the_readers() -> None:
    """Guards the test above against a scan that finds nothing (a moved folder, a renamed helper)."""
    codes = {code for _, _, code in _literal_codes()}
    assert {"phase-missing", "read-value-unreadable", "read-member-link"} <= codes


def test_no_module_builds_a_finding_from_a_literal_code() -> None:
    """Finding(code="...") would bypass the table's severity and message: findings are made by
    finding() or note(), which look the code up."""
    inline = [
        f"{where}: Finding(code={code!r})" for where, name, code in _literal_codes() if name == "Finding"
    ]
    assert inline == []


def test_a_read_note_keeps_the_readers_message_whole_and_takes_its_severity_from_the_table() -> None:
    message = "result.txt: the value {x} of 'score' is not a number; " + "x" * 5_000
    made = note("read-value-unreadable", message, phase="ior-easy-write")
    assert (made.code, made.severity, made.message, made.phase) == (
        "read-value-unreadable",
        Severity.ERROR,
        message,
        "ior-easy-write",
    )
    assert note("read-file-missing", "no find.csv").severity is Severity.INFO


def test_a_rules_message_is_filled_from_its_template() -> None:
    made = finding("phase-missing", phase="find")
    assert made.severity is Severity.ERROR
    assert made.message.startswith("The phase find has no result.")
