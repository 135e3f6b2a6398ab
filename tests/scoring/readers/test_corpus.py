"""Every real submission folder of the shared corpus reads, and agrees with the published lists."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest

from scoring.model import SCORED_PHASES, Era, ReadError
from scoring.readers.locate import read_runs
from tests.scoring.corpus import corpus_runs, data_root

FOLDERS = sorted(
    (path for path in (data_root() / "submissions").iterdir() if path.name.startswith("submission-")),
    key=lambda path: int(path.name.split("-")[1]),
)

# submission-177 is only an io500.sh generator script: the data README lists it as "no-result-files".
NO_RESULTS = {"submission-177"}
# Folders that hold more than one run: a summary-only result_summary.txt at the top that differs from
# the full run below it (a copy of another run's summary, identical in both folders).
TWO_RUNS = {"submission-714", "submission-717"}


def test_the_corpus_has_all_117_submission_folders() -> None:
    assert len(FOLDERS) == 117


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda path: path.name)
def test_every_submission_folder_reads(folder: Path) -> None:
    if folder.name in NO_RESULTS:
        with pytest.raises(ReadError, match="No IO500 result was found"):
            read_runs(folder)
        return
    runs = corpus_runs(folder.name)
    assert len(runs) == (2 if folder.name in TWO_RUNS else 1)
    for run in runs:
        assert set(run.phases) == set(SCORED_PHASES), run.path
        for phase in run.phases.values():
            assert phase.value > 0, (run.path, phase.name)
            assert phase.time_s is not None and phase.time_s > 0, (run.path, phase.name)
        if run.era is Era.DEV_SCRIPT:
            assert run.claimed is None  # io-500-dev printed no score
        else:
            assert run.claimed is not None
            assert run.claimed.bw and run.claimed.md and run.claimed.score
        assert not [note for note in run.read_notes if note.code == "read-value-unreadable"]


def test_the_no_summary_folder_198_is_an_io500_dev_run_with_every_phase(submissions: Path) -> None:
    (run,) = read_runs(submissions / "submission-198")
    assert run.era is Era.DEV_SCRIPT
    assert run.version is None
    assert run.timestamp == "2019.02.20-21.58.30"
    assert run.config_source == "io500.cfg"
    # [IOR EASY WRITE]: "write 9976 ..." with "Max Write: 9976.40 MiB/sec" -> GiB/s.
    assert run.phases["ior-easy-write"].value == pytest.approx(9976.40 / 1024)
    # The time between the section's "time:" mark and the next one.
    assert run.phases["ior-easy-write"].time_s == pytest.approx(1550718251.919542881 - 1550717910.090851233)
    # find: MATCHED 1905/3942726 between the marks 1550719430.51 and 1550719542.97.
    find = run.phases["find"]
    assert find.raw is not None and find.raw.found == 1905 and find.raw.items == 3942726
    assert find.value == pytest.approx(3942726 / (1550719542.968952076 - 1550719430.513828695) / 1000)
    assert run.nodes == 96 and run.procs == 960


def _list_rows() -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    with open(data_root() / "lists" / "submissions.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            match = re.search(r"/(submission-\d+)$", row.get("repository_url") or "")
            if match:
                rows[match.group(1)] = row
    return rows


LIST_ROWS = _list_rows()
# The published SC18-era lists carry the committee's corrected mdtest write rates (mdtest's stonewall
# rate bug) instead of the rates the files print, so MD differs for these; BW still matches.
LIST_MD_CORRECTED = {
    f"submission-{n}" for n in (18, 60, 99, 162, 165, 168, 180, 183, 186, 189, 192, 195, 210, 216, 219)
}
# The list row of submission-201 holds numbers of another run than the files in the folder.
LIST_OTHER_RUN = {"submission-201"}


@pytest.mark.parametrize(
    "folder",
    [path for path in FOLDERS if path.name in LIST_ROWS and path.name not in NO_RESULTS],
    ids=lambda path: path.name,
)
def test_bandwidth_and_metadata_agree_with_the_published_list(folder: Path) -> None:
    row = LIST_ROWS[folder.name]
    (run,) = read_runs(folder)
    if run.claimed is None:
        phases = run.phases.values()
        bw = math.prod(p.value for p in phases if p.name.startswith("ior")) ** (1 / 4)
        md = math.prod(p.value for p in phases if not p.name.startswith("ior")) ** (1 / 8)
    else:
        assert run.claimed.bw is not None and run.claimed.md is not None
        bw, md = run.claimed.bw, run.claimed.md
    listed_bw, listed_md = float(row["io500_bw"]), float(row["io500_md"])
    if folder.name in LIST_OTHER_RUN:
        assert bw != pytest.approx(listed_bw, rel=0.01)
        return
    # The list keeps 2 decimals; a unit mistake (GB vs GiB, kIOPS vs IOPS) would be far off.
    assert bw == pytest.approx(listed_bw, rel=0.01, abs=0.01)
    if folder.name in LIST_MD_CORRECTED:
        assert md > listed_md * 1.05
    else:
        assert md == pytest.approx(listed_md, rel=0.01, abs=0.01)
