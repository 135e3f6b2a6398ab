from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

# The shared data sits next to the repository in CI's clean clone as on the development machine.
IO500_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "io500-data"


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # List rows are cached per snapshot id; ids restart in every test database transaction.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def io500_data() -> Path:
    if not (IO500_DATA / "lists" / "listings_submissions.csv").is_file():
        pytest.fail(f"The shared IO500 data is missing at {IO500_DATA}; tests need ../shared/io500-data.")
    return IO500_DATA


@pytest.fixture
def imported_history(db: None, io500_data: Path) -> Path:
    call_command("import_io500", str(io500_data), "--skip-raw", stdout=io.StringIO())
    return io500_data
