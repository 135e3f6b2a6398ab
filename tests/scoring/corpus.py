"""Where the real IO500 corpus lives: tests/support/data.py says it for every test folder.

Missing data is a broken setup, not a reason to skip, so asking for it fails the test loudly.
"""

from __future__ import annotations

from tests.support.data import IO500_DATA as DATA
from tests.support.data import REPO, data_root, submissions_root

__all__ = ["DATA", "REPO", "data_root", "submissions_root"]
