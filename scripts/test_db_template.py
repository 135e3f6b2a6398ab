"""The migrated database that every test database of one `make pytest` run is copied from.

    scripts/test_db_template.py create|drop DATABASE_URL   (prints the template's name)

Each pytest process of scripts/pytest_groups.sh would otherwise create its test database by running
every migration itself; PostgreSQL copies a migrated one (CREATE DATABASE ... TEMPLATE) in a fraction
of that CPU. The template is made anew by every run (dropped first), from the migrations of the
checkout, so a clean clone tests exactly what it would without it; pytest-django still runs
`migrate` on each copy, which then finds nothing to apply. tests/conftest.py reads the name from
TEST_DATABASE_TEMPLATE.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def main(action: str, url: str) -> int:
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        print(f"a template database needs PostgreSQL, not {parts.scheme}", file=sys.stderr)
        return 2
    name = f"test_{parts.path.lstrip('/')}_template"
    import psycopg

    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as maintenance:
        maintenance.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if action == "create":
            maintenance.execute(f'CREATE DATABASE "{name}"')
    if action == "create":
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "registry.settings")
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import django
        from django.core.management import call_command
        from django.db import connections

        django.setup()
        # As Django's create_test_db migrates a test database.
        call_command("migrate", interactive=False, run_syncdb=True, verbosity=0)
        # No session may stay on a template while PostgreSQL copies it.
        connections.close_all()
    print(name)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("create", "drop"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
