"""An ORM query compiled to SQL once per process and run with fresh parameters on every call.

For the few queries on the hottest path (the visibility check of every anonymous page view), building
the QuerySet and compiling it costs several times more than running it. The query is still written
with the ORM, so the rule it encodes lives in one place; it is compiled with stand-in values for its
late-bound parameters, whose positions among the SQL parameters are then found by value.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections
from django.db.models import QuerySet

# Stand-ins no real query uses: found among the compiled parameters, replaced on every call.
STAND_IN_INT = -7_344_031_913_287
STAND_IN_TIME = datetime.datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=datetime.UTC)


class CompiledQuery:
    """`build(pk, now)` returns the QuerySet for one row id and one moment (the time an embargo is
    compared with); `rows(pk, now)` runs its SQL, compiled on first use, and returns tuples."""

    def __init__(
        self, build: Callable[[int, datetime.datetime], QuerySet[Any, Any]], using: str = "default"
    ) -> None:
        self._build = build
        self._using = using
        self._compiled: tuple[str, list[Any], list[tuple[int, str]]] | None = None
        self._lock = threading.Lock()

    def _compile(self) -> tuple[str, list[Any], list[tuple[int, str]]]:
        connection = connections[self._using]
        queryset = self._build(STAND_IN_INT, STAND_IN_TIME)
        sql, params = queryset.query.get_compiler(using=self._using).as_sql()
        adapted_time = connection.ops.adapt_datetimefield_value(STAND_IN_TIME)
        slots: list[tuple[int, str]] = []
        for index, value in enumerate(params):
            if value == STAND_IN_INT and not isinstance(value, bool):
                slots.append((index, "pk"))
            elif value == STAND_IN_TIME:
                slots.append((index, "time"))
            elif value == adapted_time and adapted_time != STAND_IN_TIME:
                slots.append((index, "adapted time"))
        if not any(kind == "pk" for _, kind in slots):
            raise ValueError("the compiled query does not use its row id as a parameter")
        return sql, list(params), slots

    def rows(self, pk: int, now: datetime.datetime) -> Sequence[tuple[Any, ...]]:
        if self._compiled is None:
            with self._lock:
                if self._compiled is None:
                    self._compiled = self._compile()
        sql, params, slots = self._compiled
        connection = connections[self._using]
        bound = list(params)
        for index, kind in slots:
            if kind == "pk":
                bound[index] = pk
            elif kind == "time":
                bound[index] = now
            else:
                bound[index] = connection.ops.adapt_datetimefield_value(now)
        with connection.cursor() as cursor:
            cursor.execute(sql, bound)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows
