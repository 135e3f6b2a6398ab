"""The allowed import directions between the apps (docs/architecture.md), checked on the source.

Every `import` and `from ... import` of a project module, at any depth (function-level imports
included), must go from a layer to one it may use. Cross-app events go through signals, so the
domain never imports the presentation layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = ("registry", "submissions", "frontend", "scoring")

# Layer of a module: the longest prefix listed here. A layer may import itself and the layers named.
ALLOWED: dict[str, tuple[str, ...]] = {
    "scoring": (),
    "registry.core": (),
    "registry.models": ("registry.core",),
    "registry.signals": ("registry.models", "registry.core"),
    "registry.versions": ("registry.models", "registry.core", "scoring"),
    "submissions": ("registry.core", "registry.models", "registry.signals", "registry.versions", "scoring"),
    "registry.lists": ("registry", "submissions", "scoring"),
    "registry.importer": ("registry", "submissions", "scoring"),
    "registry.management": ("registry", "submissions", "scoring"),
    "registry.apps": ("registry",),
    "frontend": ("registry", "submissions", "scoring"),
    # The project's root wiring (URLs, settings, Celery, WSGI) may name every app.
    "registry.urls": ("registry", "submissions", "frontend"),
    "registry.settings": ("registry",),
    "registry.celery": (),
    "registry.wsgi": (),
    # The package's __init__ holds the Celery app only.
    "registry": ("registry.celery",),
}


def layer_of(module: str) -> str:
    candidates = [name for name in ALLOWED if module == name or module.startswith(name + ".")]
    if not candidates:
        raise AssertionError(f"{module} is in no layer; add it to ALLOWED and docs/architecture.md.")
    return max(candidates, key=len)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            # `from registry import signals` imports registry.signals.
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] in PROJECT_PACKAGES]


def may_import(importer: str, imported: str) -> bool:
    own = layer_of(importer)
    if imported == own or imported.startswith(own + ".") or own.startswith(imported + "."):
        return True
    targets = ALLOWED[own]
    return any(imported == target or imported.startswith(target + ".") for target in targets)


def source_files() -> list[Path]:
    files = []
    for package in PROJECT_PACKAGES:
        files += [p for p in (REPO / package).rglob("*.py") if "migrations" not in p.parts]
    return sorted(files)


def violations() -> list[str]:
    found = []
    for path in source_files():
        importer = module_name(path)
        for line, imported in imported_modules(path):
            if not _is_module(imported):
                continue
            if not may_import(importer, imported):
                found.append(
                    f"{path.relative_to(REPO)}:{line}: {importer} ({layer_of(importer)}) imports {imported}"
                )
    return found


def _is_module(name: str) -> bool:
    """`from x import name` also lists x.name, which is often a function, not a module."""
    relative = Path(*name.split("."))
    return (REPO / relative).with_suffix(".py").is_file() or (REPO / relative / "__init__.py").is_file()


def test_every_import_between_apps_follows_the_allowed_directions() -> None:
    assert violations() == []


def test_every_module_is_in_a_layer() -> None:
    for path in source_files():
        layer_of(module_name(path))


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("registry.lists.services", "frontend.charts.digests", False),
        ("submissions.views", "registry.lists.rows", False),
        ("registry.core.public_cache", "submissions.selectors", False),
        ("scoring.verify", "registry.models", False),
        ("frontend.lists.views", "registry.lists.rows", True),
        ("registry.lists.publishing", "submissions.review.services", True),
        ("submissions.services", "registry.models", True),
    ],
)
def test_the_rules_themselves_refuse_upward_imports(importer: str, imported: str, allowed: bool) -> None:
    assert may_import(importer, imported) is allowed
