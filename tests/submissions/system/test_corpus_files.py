"""Every system-information file of the real corpus, parsed: what each yields and what it could not.

The table is written to test-artifacts/system-information-corpus.md (and printed with -s): one row per
file with its format, the fields recovered and the problems named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from submissions.system.description import system_description_read
from submissions.system.files import decode_system_bytes, read_system_text
from tests.support.data import submissions_root

TABLE = Path("test-artifacts") / "system-information-corpus.md"

# What each file says, read by eye from the files themselves (a subset of the fields per file).
EXPECTED: dict[str, dict[str, Any]] = {
    "submission-21": {"system_name": "BeeGFS on Oracle Cloud", "client_nodes": 270, "ds_servers": 270},
    "submission-66": {"filesystem_type": "Lustre", "client_nodes": 10, "procs_per_node": 16, "ds_servers": 2},
    "submission-108": {"filesystem_name": "10-nodes-HPC-BeeGFS", "client_os": "Oracle Linux UEK 7.7"},
    "submission-456": {"filesystem_type": "GekkoFS", "usage": "research", "server_network": "Omnipath"},
    "submission-459": {
        "client_nodes": 48,
        "procs_per_node": 26,
        "ds_servers": 20,
        "storage_vendor": "WekaIO",
    },
    "submission-465": {"client_nodes": 42, "filesystem_version": "3.7.2", "client_os": "RHEL 7.7"},
    "submission-471": {"system_name": "JASMIN 4", "filesystem_type": "Quobyte", "ds_servers": 87},
    "submission-474": {"filesystem_name": "Ext4", "client_nodes": 1, "procs_per_node": 16},
    "submission-546": {"filesystem_type": "DAOS", "client_nodes": 36, "procs_per_node": 96, "md_servers": 0},
    "submission-585": {
        "system_name": "Narval",
        "filesystem_type": "Lustre",
        "md_servers": 4,
        "ds_servers": 22,
    },
    "submission-594": {"system_name": "MCK", "client_nodes": 44, "ds_servers": 10},
    "submission-669": {"filesystem_version": "2.3.105-1", "client_nodes": 10, "procs_per_node": 112},
    "submission-684": {
        "client_nodes": 90,
        "procs_per_node": 72,
        "ds_servers": 42,
        "server_network": "InfiniBand HDR",
    },
    "submission-774": {"client_nodes": 10, "procs_per_node": 112, "client_os": "SLES 15-SP5 15.5"},
    "submission-780": {"system_name": "HPE-DL320-SS400", "procs_per_node": 128, "ds_servers": 8},
}


def _read(path: Path) -> tuple[str, dict[str, Any], list[str]]:
    text, problems = decode_system_bytes(path.read_bytes())
    read = read_system_text(text)
    clean = system_description_read(read.data)
    return read.format, clean.fields, [*problems, *read.problems, *clean.problems]


def _row(submission: str, relative: str, fmt: str, fields: dict[str, Any], problems: list[str]) -> str:
    recovered = ", ".join(f"{name}={value}" for name, value in sorted(fields.items()))
    said = "<br>".join(problem.replace("|", "/") for problem in problems) or "none"
    return f"| {submission} | {relative} | {fmt} | {len(fields)}: {recovered.replace('|', '/')} | {said} |"


def test_every_system_information_file_of_the_corpus_yields_its_fields() -> None:
    SUBMISSIONS = submissions_root()
    files = sorted(
        SUBMISSIONS.rglob("system-information.txt"),
        key=lambda p: int(p.relative_to(SUBMISSIONS).parts[0].split("-")[1]),
    )
    rows = ["| submission | file | format | fields recovered | problems |", "| --- | --- | --- | --- | --- |"]
    seen = set()
    for path in files:
        submission = path.relative_to(SUBMISSIONS).parts[0]
        fmt, fields, problems = _read(path)
        rows.append(
            _row(submission, path.relative_to(SUBMISSIONS / submission).as_posix(), fmt, fields, problems)
        )
        seen.add(submission)
        for name, value in EXPECTED[submission].items():
            assert fields.get(name) == value, (submission, name, fields.get(name))
        # The IO500 identity is in every file; the info creator's files also give the client nodes
        # (the 2021 document's IO500 part is empty: the run itself tells those).
        assert {"system_name", "institution_name", "filesystem_type"} <= set(fields), submission
        assert fmt == "community-json" or "client_nodes" in fields, submission
    assert seen == set(EXPECTED)
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text("\n".join(rows) + "\n")
    print("\n".join(rows))  # noqa: T201 - the table is the test's report


def test_only_the_broken_2021_document_needs_recovering_and_says_what_it_lost() -> None:
    SUBMISSIONS = submissions_root()
    with_problems = {}
    for path in SUBMISSIONS.rglob("system-information.txt"):
        _, _, problems = _read(path)
        if problems:
            with_problems[path.relative_to(SUBMISSIONS).parts[0]] = problems
    assert set(with_problems) == {"submission-585"}
    problems = with_problems["submission-585"]
    assert "line breaks fall inside strings" in problems[0]
    # io500.org's 2021 editor wrote an IO500 part the schema no longer has, and a free-text OS.
    assert sum("Site.IO500." in problem for problem in problems) == 6
    assert sum("Rocky 8" in problem for problem in problems) == 3


def test_a_file_that_repeats_a_name_with_another_value_says_which_one_is_used() -> None:
    read = read_system_text('io500_info_system="A"\nio500_info_system="B"\nnot an assignment\n')
    assert read.data == {"io500_info_system": "B"}
    assert any("given twice" in problem for problem in read.problems)
    assert any("Line 3" in problem for problem in read.problems)
