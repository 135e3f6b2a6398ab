"""How many inputs the volume tests send: the suite's share on every run, the full count in
`make reliability` (TEST_VOLUME=full), whose figures docs/reliability.md reports.

Both sizes exercise every kind of input the test makes (each junk-query kind, each API operation,
each mutation); the full size only sends more of them. The suite has to fit the CI time budget on a
two-core machine; the full run is where the recorded figures come from.
"""

from __future__ import annotations

import os

FULL = os.environ.get("TEST_VOLUME", "") == "full"


def volume(*, suite: int, full: int) -> int:
    """The count for this run: `full` under TEST_VOLUME=full, `suite` otherwise."""
    return full if FULL else suite
