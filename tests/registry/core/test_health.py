"""Health endpoints: 200 when the dependencies answer, 503 naming the one that does not."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

# Nothing listens on port 1; connecting fails at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"


def test_healthz_answers_200_when_the_database_and_redis_answer(client: Any, settings: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    if settings.REDIS_URL:
        assert body["checks"]["redis"] == "ok"


def test_healthz_answers_503_naming_redis_when_it_is_down(client: Any, settings: Any) -> None:
    settings.REDIS_URL = DEAD_REDIS
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["redis"]
    assert response.json()["checks"]["database"] == "ok"


def test_healthz_skips_redis_in_the_embedded_mode(client: Any, settings: Any) -> None:
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert "redis" not in response.json()["checks"]


def test_healthz_answers_503_naming_the_database_when_it_fails(client: Any, monkeypatch: Any) -> None:
    from registry.core import health

    def broken() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(health, "check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "database" in response.json()["failed"]
    assert "connection refused" not in response.content.decode()  # no internals leak out


def test_readyz_also_checks_migrations_and_storage(client: Any) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert {"database", "migrations", "storage"} <= set(response.json()["checks"])
