"""Django's Redis cache, keeping one redis-py client per server instead of building one per call.

Django 5.2's RedisCacheClient.get_client() constructs a new `redis.Redis` for every cache operation;
each construction fills a table of some 170 response callbacks. A cached page costs a handful of
cache operations, so that set-up was most of its time. A redis-py client is thread-safe (it takes a
connection from its pool per command) and its pool reconnects after a fork, so one client per pool
is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Private members of Django's client, absent from the type stubs.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self._clients[index] = client
        return client


class ReusingRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
