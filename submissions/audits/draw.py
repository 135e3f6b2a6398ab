"""The audit draw, pure: anyone holding the seed and the recorded candidates recomputes it.

ALGORITHM (recorded with every draw, docs/audits.md):
1. candidates: the release's submission ids in ascending order;
2. count = ceil(len(candidates) * share_percent / 100), at least 1 when there is any candidate;
3. drawn = random.Random(seed).sample(candidates, count) (Python's Mersenne Twister, a str seed);
4. each drawn submission's phase = random.Random(f"{seed}:{submission_id}").choice(phases), phases
   being the sorted names of its listed run's scored phases (scoring.model.SCORED_PHASES) whose
   value is above zero. v1 took every phase with a value, the readers' dummy "timestamp" phase
   (value 0) among them, which no re-run can confirm.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from scoring.model import SCORED_PHASES

ALGORITHM = "sorted-ids+random.Random(seed).sample/v2"


def drawn_count(candidates: int, share_percent: float) -> int:
    if candidates <= 0:
        return 0
    return min(candidates, max(1, math.ceil(candidates * share_percent / 100)))


def draw(candidates: Sequence[int], seed: str, share_percent: float) -> list[int]:
    """The drawn submission ids, in draw order."""
    ordered = sorted(candidates)
    return random.Random(seed).sample(ordered, drawn_count(len(ordered), share_percent))


def auditable_phases(phases: Mapping[str, tuple[float, str]]) -> list[str]:
    """The phases a re-run can confirm: those that count in the score, with a value above zero."""
    return sorted(name for name, (value, _unit) in phases.items() if name in SCORED_PHASES and value > 0)


def phase_of(seed: str, submission_id: int, phases: Sequence[str]) -> str | None:
    """The phase the drawn submission re-runs; None when its run has no phase with a value."""
    names = sorted(set(phases))
    if not names:
        return None
    return random.Random(f"{seed}:{submission_id}").choice(names)


# The re-run must land within this relative distance of the claim. Two runs of one phase on one
# system vary with the load of a shared machine, the placement of the job and the state of caches;
# IO500's own reproducibility discussions treat differences of about 10 % as ordinary run-to-run
# noise, so 15 % leaves room for that noise while catching a claim that the system cannot repeat.
TOLERANCE = 0.15


def deviation(claimed: float, rerun: float) -> float:
    """(re-run - claim) / claim; the claim is positive (a phase value with a unit)."""
    return (rerun - claimed) / claimed


def within_tolerance(claimed: float, rerun: float, tolerance: float = TOLERANCE) -> bool:
    # A small epsilon keeps the stated edge itself (exactly 15 %) inside despite binary fractions.
    return abs(deviation(claimed, rerun)) <= tolerance + 1e-12
