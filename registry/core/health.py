"""Health endpoints for load balancers and container orchestrators.

/healthz answers whether this process can serve: the database answers `SELECT 1` and, when a broker is
configured, Redis answers PING. /readyz adds what a fresh deployment may still lack: unapplied
migrations and an archive storage that cannot be reached. Both answer 200 or 503 with JSON naming
each check, so an operator sees at once which dependency failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

_TIMEOUT_S = 2.0


def check_database() -> None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=_TIMEOUT_S, socket_timeout=_TIMEOUT_S
    )
    try:
        client.ping()
    finally:
        client.close()


def check_migrations() -> None:
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        raise RuntimeError(f"{len(pending)} migration(s) not applied")


def check_storage() -> None:
    # Listing the archive prefix is a read-only round trip to the local folder or the bucket.
    default_storage.exists("archives")


def _run(checks: dict[str, Callable[[], None]]) -> JsonResponse:
    results: dict[str, str] = {}
    for name, check in checks.items():
        try:
            check()
        except Exception as exc:  # any failure of a dependency is a 503, never a traceback
            logger.warning("health check %s failed: %s", name, exc)
            results[name] = f"failed: {type(exc).__name__}"
        else:
            results[name] = "ok"
    failed = [name for name, outcome in results.items() if outcome != "ok"]
    body = {"status": "ok" if not failed else "unavailable", "checks": results, "failed": failed}
    return JsonResponse(body, status=200 if not failed else 503)


def _dependency_checks() -> dict[str, Callable[[], None]]:
    checks: dict[str, Callable[[], None]] = {"database": check_database}
    if settings.REDIS_URL:
        checks["redis"] = check_redis
    return checks


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return _run(_dependency_checks())


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    return _run({**_dependency_checks(), "migrations": check_migrations, "storage": check_storage})
