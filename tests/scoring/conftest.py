"""Shared fixtures for the scoring tests: the real IO500 corpus beside the repository."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.scoring.corpus import data_root


@pytest.fixture(scope="session")
def io500_data() -> Path:
    return data_root()


@pytest.fixture(scope="session")
def submissions(io500_data: Path) -> Path:
    return io500_data / "submissions"


@pytest.fixture(scope="session")
def submission(submissions: Path) -> Callable[[int], Path]:
    """submission(582) -> the folder of that real submission."""

    def folder(number: int) -> Path:
        path = submissions / f"submission-{number}"
        if not path.is_dir():
            pytest.fail(f"submission-{number} is not in the corpus at {submissions}.")
        return path

    return folder
