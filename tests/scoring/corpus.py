"""Where the real IO500 corpus lives: `<repo>/../shared/io500-data`, here and in CI's clean clone.

Missing data is a broken setup, not a reason to skip, so asking for it fails the test loudly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "io500-data"


def data_root() -> Path:
    if not (DATA / "submissions").is_dir():
        pytest.fail(f"The IO500 corpus is missing: expected it at {DATA} (../shared/io500-data).")
    return DATA
