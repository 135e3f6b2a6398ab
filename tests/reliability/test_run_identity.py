"""Run identity against the uploader's names, and across the whole shared corpus.

The attack (issue 23): renaming the result folder of someone else's published run removed
`run-already-submitted`, because the fingerprint hashed the folder's name and the timestamp IO500
takes from it. Here a real C-application run and a real shell-era run are re-packed every way an
uploader can without changing what the run measured (folder renamed, archive renamed, bzip2, xz,
zip, unrelated files added, all at once): each must keep its fingerprint. And over every run of the
shared corpus, a shared fingerprint must mean the same run (byte-identical summaries).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import defaultdict
from pathlib import Path

from scoring.readers.locate import read_runs
from submissions.run_identity import run_fingerprint
from tests.reliability.records import record
from tests.submissions.repacking import (
    C_APP_RUN,
    PACKINGS,
    SHELL_RUN,
    original_fingerprint,
    repacked_fingerprint,
)
from tests.support.data import submissions_root

# Only an io500.sh generator script, no result (the data README: "no-result-files").
NO_RESULT = "submission-177"


def test_re_packing_a_real_run_every_way_keeps_its_fingerprint(tmp_path: Path) -> None:
    kept, tried = 0, 0
    for folder in (C_APP_RUN, SHELL_RUN):
        original = original_fingerprint(tmp_path, folder)
        for packing in PACKINGS:
            tried += 1
            kept += repacked_fingerprint(tmp_path, folder, packing) == original
    record("run-identity", "re-packing", packings=tried, recognised=kept)
    assert kept == tried


def test_no_two_distinct_real_runs_of_the_corpus_share_a_fingerprint() -> None:
    """Runs that share a fingerprint must be the same run: byte-identical summaries. The corpus has one
    such pair, the summary-only copy at the top of submission-714 and submission-717 (the data
    README's note on those folders); every other run's fingerprint is its own."""
    started = time.perf_counter()
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    runs = 0
    for folder in sorted(submissions_root().glob("submission-*")):
        if folder.name == NO_RESULT:
            continue
        for run in read_runs(folder):
            runs += 1
            fingerprint = run_fingerprint(run)
            assert fingerprint, f"{folder.name}/{run.path} has no fingerprint"
            groups[fingerprint].append((folder.name, run.path))
    shared = [members for members in groups.values() if len(members) > 1]
    distinct_content_shared = 0
    for members in shared:
        summaries = {
            hashlib.sha256(
                (submissions_root() / folder / path / "result_summary.txt").read_bytes()
            ).hexdigest()
            for folder, path in members
        }
        distinct_content_shared += len(summaries) > 1
    record(
        "run-identity",
        "corpus",
        runs=runs,
        fingerprints=len(groups),
        shared_by_copies=len(shared) - distinct_content_shared,
        shared_by_distinct_runs=distinct_content_shared,
        seconds=round(time.perf_counter() - started, 1),
        load_average=round(os.getloadavg()[0], 2),
    )
    assert runs == 118
    assert distinct_content_shared == 0, shared
    assert shared == [[("submission-714", "."), ("submission-717", ".")]]
