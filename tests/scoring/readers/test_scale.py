"""Node and task counts and the start clock, read from each run's own outputs (issue 26, item 4)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from scoring.model import RunResult
from scoring.readers.locate import read_runs
from tests.scoring.corpus import corpus_runs, data_root

Submission = Callable[[int], Path]

FOLDERS = sorted(
    path for path in (data_root() / "submissions").iterdir() if path.name.startswith("submission-")
)


def _runs() -> list[RunResult]:
    runs: list[RunResult] = []
    for folder in FOLDERS:
        if folder.name != "submission-177":  # only an io500.sh generator script, no result
            runs.extend(corpus_runs(folder.name))
    return runs


def test_the_start_comment_dates_a_run_whose_folder_name_is_no_timestamp(submission: Submission) -> None:
    # results/result_466: result.txt "; START 2025-11-04 15:24:13", a folder name that is no clock.
    (run,) = read_runs(submission(777))
    assert run.timestamp is None
    assert run.started == dt.datetime(2025, 11, 4, 15, 24, 13)


def test_a_c_app_run_counts_nodes_and_tasks_from_its_tools(submission: Submission) -> None:
    # Narval: IOR prints "nodes : 640", "tasks : 640", "clients per node : 1"; mdtest "640 total
    # task(s) on 640 node(s)". One process per node is a real count, not a guess. io500-sc21's
    # result.txt has no `procs` line, so the tasks come from a tool too.
    (run,) = read_runs(submission(585))
    assert (run.nodes, run.procs) == (640, 640)
    assert run.nodes_source is not None and run.nodes_source in run.files
    assert run.procs_source is not None and run.procs_source in run.files
    assert run.started == dt.datetime(2021, 10, 20, 18, 11, 23)


def test_result_txt_procs_is_the_task_count_when_it_is_printed(submission: Submission) -> None:
    # io500-sc24 prints `procs = 3840` in [run]; IOR agrees with 240 nodes of 16 tasks.
    run = next(run for run in read_runs(submission(714)) if run.path != ".")
    assert (run.nodes, run.procs, run.procs_source) == (240, 3840, "result.txt")


def test_a_script_era_run_takes_its_tasks_from_the_tools(submission: Submission) -> None:
    # io500.sh era: no result.txt; mdtest 1.9.3 "was launched with 16 total task(s) on 16 node(s)".
    (run,) = read_runs(submission(135))
    assert (run.nodes, run.procs) == (16, 16)
    assert run.procs_source is not None and run.procs_source.endswith(".txt")
    assert run.started is not None and run.started.date() == dt.date(2018, 8, 28)


def test_a_summary_only_run_has_no_count_whatever_the_description_says(submission: Submission) -> None:
    # submission-714's top-level result_summary.txt is the only file of that run: no tool output.
    summary_only = next(run for run in read_runs(submission(714)) if run.path == ".")
    assert summary_only.nodes is None and summary_only.nodes_source is None
    assert summary_only.procs is None and summary_only.started is None


def test_every_count_of_the_corpus_comes_from_an_output_that_printed_it() -> None:
    known: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for run in _runs():
        total[run.era.value] += 1
        raws = [phase.raw for phase in (*run.phases.values(), *run.extra_phases.values()) if phase.raw]
        printed = {raw.file: raw.nodes for raw in raws if raw.nodes}
        if run.nodes is None:
            contradicted = [note for note in run.read_notes if note.code == "read-nodes-contradicted"]
            assert not printed or contradicted, run.path
            continue
        known[run.era.value] += 1
        assert printed[run.nodes_source or ""] == run.nodes == max(printed.values()), run.path
        if run.procs_source != "result.txt":
            assert run.procs in {raw.tasks for raw in raws}, run.path
    # The figures docs/list-rules.md quotes ("Node counts in the raw corpus").
    assert sum(total.values()) == 118
    assert known == {
        "shell": 41,
        "shell-gib": 5,
        "io-500-dev": 1,
        "c-isc20": 9,
        "c-sc20": 7,
        "c-isc21": 5,
        "c-sc21": 33,
        "c-isc25": 12,
    }
    assert total["shell"] == 43 and total["c-isc21"] == 7


def test_a_node_count_the_node_map_contradicts_is_not_known(submission: Submission) -> None:
    # submission-12 (ISC20 script half): IOR 3.3 "nodes : 420", "tasks : 420", "clients per node : 1"
    # and mdtest "420 total task(s) on 420 node(s)", but mdtest's Nodemap marks 42 ranks on rank 0's
    # host (ranks placed round-robin). The declared 10 nodes are not taken instead.
    (run,) = read_runs(submission(12))
    assert run.procs == 420
    assert run.nodes is None and run.nodes_source is None
    (contradicted,) = [note for note in run.read_notes if note.code == "read-nodes-contradicted"]
    assert "42 ranks on the host of rank 0" in contradicted.message
    # One task per node with a Nodemap that agrees (Narval: a single rank on rank 0's host) stands.
    (narval,) = read_runs(submission(585))
    assert narval.nodes == 640


def test_every_run_with_a_tool_output_has_a_start_clock() -> None:
    for run in _runs():
        if run.result_recorded or any(name.startswith(("ior", "mdtest")) for name in run.files):
            assert run.started is not None, run.path
