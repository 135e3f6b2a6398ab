"""Fixtures of the reliability tests: the hostile corpus context, its cached bytes, the canary."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.reliability.hostile import HOSTILE, Context, Hostile

SHELL_RUN = "submission-3/data/results/2019.11.11-04.23.30"


@pytest.fixture(scope="session")
def canary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An absolute folder every escaping member aims at; after each attack it must still be empty."""
    return tmp_path_factory.mktemp("canary")


@pytest.fixture(scope="session")
def hostile_context(io500_submissions: Path, canary: Path) -> Context:
    return Context(
        run=io500_submissions / "submission-33", shell_run=io500_submissions / SHELL_RUN, canary=canary
    )


@pytest.fixture(scope="session")
def hostile_bytes(hostile_context: Context) -> Callable[[Hostile], bytes]:
    """Builds each attack once per session: the bombs and the 100,000-member tar take seconds."""
    cache: dict[str, bytes] = {}

    def build(hostile: Hostile) -> bytes:
        if hostile.kind not in cache:
            cache[hostile.kind] = hostile.build(hostile_context)
        return cache[hostile.kind]

    return build


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def by_kind(*kinds: str) -> list[Hostile]:
    chosen = [h for h in HOSTILE if h.kind in kinds]
    missing = set(kinds) - {h.kind for h in chosen}
    assert not missing, f"unknown hostile kinds: {missing}"
    return chosen
