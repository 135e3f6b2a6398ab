"""scoring/ is pure Python: the registry, the CLI and the benchmarks share it without Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
DYNAMIC_IMPORTERS = ("import_module", "__import__")


def _is_django(name: str) -> bool:
    return name.split(".")[0] == "django"


def django_imports(source: str) -> list[str]:
    """Every django module the source imports: import statements and import_module("django...")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_django(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and _is_django(node.module):
            found.append(node.module)
        elif isinstance(node, ast.Call):
            callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if callee in DYNAMIC_IMPORTERS:
                found += [
                    arg.value
                    for arg in node.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _is_django(arg.value)
                ]
    return found


def test_no_module_of_scoring_imports_django() -> None:
    modules = sorted(SCORING.rglob("*.py"))
    assert len(modules) > 10  # the walk really found the package
    offenders = {
        str(path.relative_to(SCORING)): names
        for path in modules
        if (names := django_imports(path.read_text()))
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "import os, django.db as db",
        "from django.conf import settings",
        "importlib.import_module('django.db')",
        "__import__('django')",
    ],
)
def test_the_checker_sees_every_spelling_of_a_django_import(source: str) -> None:
    assert django_imports(source)


def test_the_checker_ignores_modules_that_only_look_alike() -> None:
    assert django_imports("import djangofake\nfrom mydjango import x\nimport scoring.django_free") == []
