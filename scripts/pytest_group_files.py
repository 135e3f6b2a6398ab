"""A pytest plugin for scripts/pytest_groups.sh: after one collection of the whole suite, writes for
each group the test files that hold at least one of its tests, so that each group's pytest imports
only those (collecting every module costs each process several CPU-seconds, the API fuzzer's schema
most of all) and still selects by the group's own marker expression.

PYTEST_GROUP_FILES=DIR and one line `name|marker expression|where` per group in PYTEST_GROUP_MARKERS,
`where` as the group would be run (paths, and --ignore=PATH to leave a path out; of the paths and the
left-out paths a test file is under, the longest decides, so a group may take back a file from a
folder it leaves out); DIR/NAME.files
gets one path a line, in collection order. `--share=K/N` in `where` keeps every N-th of those files
from the K-th on: N groups with the same markers and paths and K = 1..N split the files between them
(one long sequential group, the browser's, becomes two that overlap).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The very expression parser and matcher of `-m` (pytest is pinned in requirements.txt): a group gets
# the files of exactly the tests its `-m` would select.
from _pytest.mark import MarkMatcher
from _pytest.mark.expression import Expression


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    out = Path(os.environ["PYTEST_GROUP_FILES"])
    root = config.rootpath
    for line in os.environ["PYTEST_GROUP_MARKERS"].strip().splitlines():
        name, markers, where = line.split("|", 2)
        expression = Expression.compile(markers)
        inside = [_folder(word) for word in where.split() if not word.startswith("--")]
        ignored = [
            _folder(word.removeprefix("--ignore=")) for word in where.split() if word.startswith("--ignore=")
        ]
        share = next(
            (word.removeprefix("--share=") for word in where.split() if word.startswith("--share=")), "1/1"
        )
        share_index, share_count = (int(part) for part in share.split("/"))
        files: dict[str, None] = {}
        for item in items:
            path = str(item.path.relative_to(root))
            if _taken(_folder(path), inside, ignored) and expression.evaluate(
                MarkMatcher.from_markers(item.iter_markers())
            ):
                files[path] = None
        mine = list(files)[share_index - 1 :: share_count]
        (out / f"{name}.files").write_text("".join(f"{path}\n" for path in mine))


def _taken(path: str, inside: list[str], ignored: list[str]) -> bool:
    """Whether the most specific of the group's paths and left-out paths `path` is under is a path."""
    taking = max((len(folder) for folder in inside if path.startswith(folder)), default=-1)
    leaving = max((len(folder) for folder in ignored if path.startswith(folder)), default=-1)
    return taking > leaving


def _folder(path: str) -> str:
    """A path with one trailing slash, so that tests/scoring never takes in tests/scoring_more."""
    return path.rstrip("/") + "/"
