"""The scoring tests ask tests/support/data.py for the corpus and never skip: missing data fails."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
DATA_FOLDER = "io500" + "-data"  # spelled in two parts so that this file does not match itself


def _modules() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def test_no_scoring_test_skips() -> None:
    skips = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Attribute) and node.attr in ("skip", "skipif", "importorskip"):
                skips.append(f"{path.relative_to(TESTS)}:{node.lineno}: {ast.unparse(node)}")
    assert skips == []


def test_only_the_support_package_spells_where_the_corpus_is() -> None:
    spelled = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and DATA_FOLDER in node.value:
                spelled.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert spelled == []


def test_the_scan_reads_the_sub_folders() -> None:
    names = {path.relative_to(TESTS).as_posix() for path in _modules()}
    assert {"readers/test_c_app.py", "rules/test_physics.py", "corpus.py"} <= names
