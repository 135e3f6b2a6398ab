"""A small published history for the chart and page tests: two releases, ranked lists, phases."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from registry.models import ListSnapshot, Release
from submissions.models import StorageSystem, Submission
from tests.factories import (
    make_release,
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
