from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # Lists and charts are cached by snapshot id and generation; ids restart in every test database.
    cache.clear()
    yield
    cache.clear()
