"""Where the real IO500 corpus lives: tests/support/data.py says it for every test folder.

Missing data is a broken setup, not a reason to skip, so asking for it fails the test loudly.
"""

from __future__ import annotations

from functools import cache

from scoring import ReadError
from scoring.model import RunResult
from scoring.readers.locate import read_runs
from tests.support.data import IO500_DATA as DATA
from tests.support.data import REPO, data_root, submissions_root

__all__ = ["DATA", "REPO", "corpus_runs", "data_root", "readable_corpus_runs", "submissions_root"]


@cache
def corpus_runs(folder: str) -> tuple[RunResult, ...]:
    """The runs of the corpus folder `folder` (submission-N), read once per session: several tests
    go through the whole corpus (what the readers find, the verification, the scale), and reading is
    most of their work. The readers hand out fresh objects; a test must not change them. A folder that
    cannot be read raises ReadError on every call (an exception is not cached)."""
    return tuple(read_runs(submissions_root() / folder))


def readable_corpus_runs() -> tuple[tuple[str, RunResult], ...]:
    """Every run of every corpus folder a reader can read, as ("submission-N/<run path>", run), in
    folder order: what the corpus-wide rule tests walk. A folder that cannot be read is left out here;
    test_corpus.py names the one that is expected (a generator script without results)."""
    runs: list[tuple[str, RunResult]] = []
    for folder in sorted(path for path in submissions_root().iterdir() if path.is_dir()):
        try:
            runs.extend((f"{folder.name}/{run.path}", run) for run in corpus_runs(folder.name))
        except ReadError:
            continue
    return tuple(runs)
