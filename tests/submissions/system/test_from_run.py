"""What the run tells about the system (nodes, processes, version, file system), with its evidence."""

from __future__ import annotations

import pytest

import scoring
from scoring.model import Era, RunResult
from submissions.system.from_run import facts_from_run, filesystem_from_config
from tests.support.data import submission_folder


def _primary(number: int) -> RunResult:
    return scoring.verify(submission_folder(number))[0].result


def test_a_daos_run_tells_nodes_processes_version_and_the_file_system_by_its_api() -> None:
    facts = facts_from_run(_primary(774))
    assert (facts["client_nodes"].value, facts["procs_per_node"].value) == (10, 112)
    assert facts["io500_version"].value == "io500-isc25_v2-13"
    assert facts["filesystem_type"].value == "DAOS"
    assert "api = DFS" in facts["filesystem_type"].evidence


def test_a_lustre_data_directory_names_the_file_system_but_nodes_counted_as_processes_are_not_taken() -> None:
    facts = facts_from_run(_primary(585))
    assert facts["filesystem_type"].value == "Lustre"
    assert "/lustre06/" in facts["filesystem_type"].evidence
    # 640 nodes for 640 processes: the tools counted processes, so nothing is said about nodes.
    assert "client_nodes" not in facts and "procs_per_node" not in facts


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"global": {"datadir": "/gpfs/scratch/io500"}}, "SpectrumScale"),
        ({"global": {"datadir": "/mnt/beegfs/x", "api": "POSIX"}}, "BeeGFS"),
        ({"io500.sh": {"io500_workdir": "/weka/io500/datafiles"}}, "WekaIO"),
        ({"global": {"datadir": "./datadir", "api": "POSIX"}}, None),
        ({"ior-easy": {"API": "CEPHFS --cephfs.user=admin"}}, "Ceph"),
    ],
)
def test_the_file_system_is_read_from_the_api_or_the_data_directory(
    config: dict[str, dict[str, str]], expected: str | None
) -> None:
    found = filesystem_from_config(config)
    assert (found.value if found else None) == expected


def test_a_run_without_hosts_or_version_tells_nothing_of_them() -> None:
    run = RunResult(path=".", era=Era.SHELL, version=None, procs=16, nodes=None)
    assert facts_from_run(run) == {}
