"""A small published history for the chart and page tests: two releases, ranked lists, phases."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from frontend.charts.digests import digests_refresh
from registry.models import ListSnapshot, Release
from scoring.model import SCORED_PHASES
from submissions.models import StorageSystem, Submission
from tests.factories import (
    add_phases,
    make_release,
    make_result,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)


@dataclass
class History:
    old: Release
    new: Release
    lustre: StorageSystem
    daos: StorageSystem
    old_list: ListSnapshot
    new_list: ListSnapshot
    submissions: list[Submission]


def build_history(entries_per_release: int = 3) -> History:
    old = make_release(name="SC40", publication_date=datetime.date(2040, 11, 15))
    new = make_release(name="ISC41", publication_date=datetime.date(2041, 6, 20))
    lustre = make_storage_system(name="Blue", filesystem_type="Lustre", vendor="DDN")
    daos = make_storage_system(name="Red", filesystem_type="DAOS", vendor="Intel")
    others = [
        make_storage_system(filesystem_type="BeeGFS", vendor="ThinkParQ") for _ in range(entries_per_release)
    ]
    made: list[Submission] = []
    lists = []
    for index, release in enumerate((old, new)):
        growth = 2.0**index
        ranked = [
            make_submission(release=release, storage_system=daos, bw=100.0 * growth, md=400.0 * growth),
            make_submission(release=release, storage_system=lustre, bw=50.0 * growth, md=50.0 * growth),
            *[
                make_submission(release=release, storage_system=system, bw=1.0 + n, md=4.0 + n)
                for n, system in enumerate(others)
            ],
        ]
        for submission in ranked:
            make_system_description(
                submission=submission, client_nodes=10 if submission.storage_system == lustre else 32
            )
        made.extend(ranked)
        lists.append(publish_list(release, "io500", ranked))
    return History(old, new, lustre, daos, lists[0], lists[1], made)


GIB = 1024**3


def rich_history() -> tuple[History, Submission]:
    """The chart history plus one submission with phases, per-rank rows and runner timelines."""
    history = build_history(entries_per_release=4)
    leader = history.submissions[len(history.submissions) // 2]  # Red in ISC41
    for offset, submission in enumerate(history.submissions):
        result = make_result(
            submission=submission, config={"global": {"api": "POSIX", "seed": str(offset % 2)}}
        )
        extra: dict[str, Any] = {}
        if submission == leader:
            times = [300.0 + (rank % 7) for rank in range(64)]
            times[41] = 520.0  # a straggler
            extra = {
                "ranks": [
                    {"rank": r, "time_s": t, "rate": 9000.0 / t, "items": None} for r, t in enumerate(times)
                ],
                "timeline": [
                    [rank, second, GIB * (1 + second % 5)] for rank in range(4) for second in range(40)
                ],
            }
        add_phases(
            result,
            {name: (index + 1) * (offset + 1) * 1.7 for index, name in enumerate(SCORED_PHASES)},
            **extra,
        )
    # The runs arrived after the lists were frozen: recompute their chart digests (the phase
    # medians), as the import does after reading raw folders.
    digests_refresh(kinds=["io500"])
    return history, leader
