"""The allowed import directions between the apps and their sub-packages (docs/architecture.md),
checked on the source: the Python modules and the templates.

Every `import` and `from ... import` of a project module, at any depth (function-level imports
included), must go from a layer to one it may use. A template uses other templates (`{% extends %}`,
`{% include %}`) and tag libraries (`{% load %}`): each belongs to a layer too, and the same table
says which it may use. Cross-app events go through signals, so the domain never imports the
presentation layer; the one thing every page shares is the site's layout, which it extends.
"""

from __future__ import annotations

import ast
import re
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
    # Leaves of the domain, which the rest of it calls into.
    "submissions.codes": ("scoring",),
    "submissions.io500_org": (),
    "submissions.system": (
        "registry.core",
        "registry.models",
        "scoring",
        "submissions.models",
        "submissions.json_input",
        "submissions.codes",
    ),
    "submissions.placement": (
        "registry.core",
        "registry.models",
        "registry.versions",
        "scoring",
        "submissions.models",
        "submissions.selectors",
        "submissions.io500_org",
    ),
    "submissions.accounts": ("registry.core", "submissions.models", "submissions.permissions"),
    "registry.lists": ("registry", "submissions", "scoring"),
    "registry.importer": ("registry", "submissions", "scoring"),
    "registry.management": ("registry", "submissions", "scoring"),
    "registry.apps": ("registry",),
    # The presentation layer: its top level (app config, public routes, the layout and shared partials)
    # may use every sub-package; charts use none, lists show the charts, pages show both.
    "frontend": ("registry", "submissions", "scoring"),
    "frontend.charts": ("registry", "submissions", "scoring"),
    "frontend.lists": ("registry", "submissions", "scoring", "frontend.charts"),
    "frontend.pages": ("registry", "submissions", "scoring", "frontend.charts", "frontend.lists"),
    # The project's root wiring (URLs, settings, Celery, WSGI) may name every app.
    "registry.urls": ("registry", "submissions", "frontend"),
    "registry.settings": ("registry",),
    "registry.celery": (),
    "registry.wsgi": (),
    # The package's __init__ holds the Celery app only.
    "registry": ("registry.celery",),
}


# Modules whose layer is not their package's: Django finds tag libraries in the app's templatetags
# package only, so each library is placed with the sub-package it serves.
MODULE_LAYERS = {
    "frontend.templatetags.chart_tags": "frontend.charts",
    "frontend.templatetags.citation_tags": "frontend.lists",
    "frontend.templatetags.description_tags": "frontend.lists",
    "frontend.templatetags.entity_tags": "frontend.pages",
}

TEMPLATE_APPS = ("registry", "submissions", "frontend")
# The module a template belongs to, by the longest prefix of its name; a template at the top of an
# app's templates folder (the error pages) belongs to that app.
TEMPLATE_MODULES = {
    "frontend/": "frontend",
    "frontend/charts/": "frontend.charts",
    "frontend/pages/": "frontend.pages",
    "frontend/list.html": "frontend.lists",
    "frontend/_list_body.html": "frontend.lists",
    "frontend/home_empty.html": "frontend.lists",
    "frontend/list_index.html": "frontend.lists",
    "frontend/_sublist_": "frontend.lists",
    "frontend/_citation.html": "frontend.lists",
    "frontend/_messaging_policy.html": "frontend.lists",
    "submissions/": "submissions",
    "submissions/review/": "submissions.review",
    "accounts/": "submissions.accounts",
    "registration/": "submissions.accounts",
    "registry/publishing/": "registry.lists",
}
# Every page extends the site's layout; nothing else of the presentation layer is open to the domain.
SITE_LAYOUT = "frontend/base.html"


def layer_of(module: str) -> str:
    if module in MODULE_LAYERS:
        return MODULE_LAYERS[module]
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
    imported = MODULE_LAYERS.get(imported, imported)
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


def project_templates() -> dict[str, Path]:
    """Every template of the project by its name (the path under its app's templates folder)."""
    found: dict[str, Path] = {}
    for app in TEMPLATE_APPS:
        folder = REPO / app / "templates"
        found |= {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file()}
    return found


def template_module(name: str, path: Path | None = None) -> str:
    prefixes = [prefix for prefix in TEMPLATE_MODULES if name.startswith(prefix)]
    if prefixes:
        return TEMPLATE_MODULES[max(prefixes, key=len)]
    if "/" not in name and path is not None:
        return path.relative_to(REPO).parts[0]
    raise AssertionError(f"template {name} belongs to no module; add it to TEMPLATE_MODULES.")


def tag_library_module(library: str) -> str | None:
    """The project module of a tag library, None for Django's and other packages' libraries."""
    for app in TEMPLATE_APPS:
        if (REPO / app / "templatetags" / f"{library}.py").is_file():
            return f"{app}.templatetags.{library}"
    return None


_USES = re.compile(r"{%\s*(extends|include)\s+[\"']([^\"']+)[\"']")
_LOADS = re.compile(r"{%\s*load\s+(.+?)\s*%}")


def template_uses(text: str) -> list[tuple[str, str]]:
    """(how, what): the templates a template extends or includes by name, the libraries it loads."""
    uses = [(how, name) for how, name in _USES.findall(text)]
    for names in _LOADS.findall(text):
        words = names.split()
        libraries = words[words.index("from") + 1 :] if "from" in words else words
        uses += [("load", library) for library in libraries]
    return uses


def template_may_use(name: str, module: str, how: str, used: str, templates: dict[str, Path]) -> bool | None:
    """Whether template `name` (of `module`) may use `used`; None when `used` is not the project's."""
    if how == "load":
        library = tag_library_module(used)
        return None if library is None else may_import(module, library)
    if used not in templates:
        return None  # Django's own templates (admin, forms)
    if how == "extends" and used == SITE_LAYOUT:
        return True
    return may_import(module, template_module(used, templates[used]))


def template_violations() -> list[str]:
    templates = project_templates()
    found = []
    for name, path in templates.items():
        module = template_module(name, path)
        for how, used in template_uses(path.read_text()):
            if template_may_use(name, module, how, used, templates) is False:
                found.append(f"{path.relative_to(REPO)}: {name} ({layer_of(module)}) {how} {used}")
    return found


def test_every_import_between_apps_follows_the_allowed_directions() -> None:
    assert violations() == []


def test_every_template_uses_only_templates_and_tags_its_layer_may_import() -> None:
    assert template_violations() == []


def test_every_template_is_in_a_layer() -> None:
    for name, path in project_templates().items():
        layer_of(template_module(name, path))


@pytest.mark.parametrize(
    ("module", "how", "used", "allowed"),
    [
        ("submissions", "include", "frontend/charts/_radar.html", False),
        ("submissions", "load", "citation_tags", False),
        ("submissions", "extends", SITE_LAYOUT, True),
        ("submissions", "include", SITE_LAYOUT, False),
        ("frontend.charts", "include", "frontend/pages/system.html", False),
        ("frontend.charts", "load", "citation_tags", False),
        ("frontend.charts", "load", "chart_tags", True),
        ("frontend.pages", "include", "frontend/charts/_submission_phases.html", True),
        ("frontend.pages", "include", "submissions/_status.html", True),
        ("registry.lists", "include", "submissions/_field.html", True),
        ("frontend.pages", "load", "static", None),
    ],
)
def test_the_template_rules_refuse_what_the_import_rules_refuse(
    module: str, how: str, used: str, allowed: bool | None
) -> None:
    assert template_may_use("the template", module, how, used, project_templates()) is allowed


def test_the_template_reader_sees_extends_include_and_every_loaded_library() -> None:
    text = (
        '{% extends "a.html" %}{% load static chart_tags %}{% include "b.html" with x=1 %}'
        "{% load t from lib %}"
    )
    assert template_uses(text) == [
        ("extends", "a.html"),
        ("include", "b.html"),
        ("load", "static"),
        ("load", "chart_tags"),
        ("load", "lib"),
    ]


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
        ("frontend.charts.views", "frontend.pages.views", False),
        ("frontend.charts.views", "frontend.lists.views", False),
        ("frontend.pages.views", "frontend.charts.views", True),
        ("frontend.templatetags.chart_tags", "frontend.charts.selectors", True),
        ("submissions.system.services", "submissions.ingest.record", False),
        ("submissions.system.services", "submissions.models", True),
        ("submissions.placement.selectors", "submissions.review.services", False),
    ],
)
def test_the_rules_themselves_refuse_upward_imports(importer: str, imported: str, allowed: bool) -> None:
    assert may_import(importer, imported) is allowed
