"""The client facts the bundled runner writes (client-facts.json, runner/README.md "Client facts"):
one small run under `mpirun -np 2` on this machine, whose facts must agree with what the machine says
of itself, and which the registry's reader takes as the runner wrote it."""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from submissions.system.document import read_document
from submissions.system.runner_facts import FACTS_FILE, FoundFacts, read_client_facts

pytestmark = pytest.mark.runner

RUNNER_DIR = Path(__file__).resolve().parents[2] / "runner"
BINARY = RUNNER_DIR / "build" / "io500-runner"
TIMESTAMP = "facts-run"
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


@pytest.fixture(scope="module")
def resdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    make = subprocess.run(["make", "-C", str(RUNNER_DIR)], capture_output=True, text=True, check=False)
    assert make.returncode == 0, make.stdout + make.stderr
    root = tmp_path_factory.mktemp("facts")
    ini = root / "config.ini"
    ini.write_text(
        f"[global]\ndatadir = {root}/data\nresultdir = {root}/results\n[debug]\nstonewall-time = 1\n"
        "[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n[mdtest-easy]\nn = 100\n"
        "[ior-hard]\nsegmentCount = 50\n[mdtest-hard]\nn = 100\n"
    )
    done = subprocess.run(
        ["mpirun", "--oversubscribe", "-np", "2", str(BINARY), str(ini), f"--timestamp={TIMESTAMP}"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **MPI_ENV, "OMPI_MCA_orte_tmpdir_base": str(root)},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "results" / TIMESTAMP


def _facts(resdir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resdir / FACTS_FILE).read_text())
    return data


def _mem_total_kib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1])
    raise AssertionError("no MemTotal in /proc/meminfo")


def test_the_two_ranks_on_one_node_write_one_group_that_agrees_with_this_machine(resdir: Path) -> None:
    data = _facts(resdir)
    [machine] = data["DATA"]["childs"]
    [nodes] = machine["childs"]  # two ranks, one host: one group of one node, not two copies
    assert nodes["type"] == "Nodes" and nodes["att"]["count"] == 1
    assert nodes["att"]["kernel version"] == os.uname().release
    [memory] = [part for part in nodes["childs"] if part["type"] == "Memory"]
    assert memory["att"]["net capacity"] == f"{_mem_total_kib()} KiB"
    interfaces = data["runner"]["groups"][0]["network interfaces"]
    expected = sorted(path.name for path in Path("/sys/class/net").iterdir() if path.name != "lo")
    assert [nic["name"] for nic in interfaces] == expected
    for nic in interfaces:
        try:
            speed = int(Path(f"/sys/class/net/{nic['name']}/speed").read_text())
        except OSError:
            speed = -1
        assert nic["speed"] == (f"{speed} Mbit/s" if speed > 0 else "unknown")


def test_the_data_directory_mount_is_the_longest_matching_mount_point(resdir: Path) -> None:
    directory = _facts(resdir)["runner"]["groups"][0]["data directory"]
    datadir = str(resdir.parents[1] / "data")
    points = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    longest = max((p for p in points if datadir == p or datadir.startswith(p.rstrip("/") + "/")), key=len)
    assert directory["mount point"] == longest
    assert directory["file system"] != "unknown" and directory["mount options"] != "unknown"


def test_no_hostname_or_address_is_written(resdir: Path) -> None:
    text = (resdir / FACTS_FILE).read_text()
    assert os.uname().nodename not in text
    for interface in Path("/sys/class/net").iterdir():
        try:
            mac = (interface / "address").read_text().strip()
        except OSError:
            continue
        if mac and mac != "00:00:00:00:00:00":
            assert mac not in text


def test_the_registry_reads_the_facts_as_a_valid_client_part_of_the_schema(resdir: Path) -> None:
    data = _facts(resdir)
    assert read_document({"DATA": data["DATA"]}).errors == {}
    facts = read_client_facts(FoundFacts(FACTS_FILE, (resdir / FACTS_FILE).read_text()))
    assert facts.problems == []
    assert facts.nodes == 1
    assert facts.memory_per_node_bytes == _mem_total_kib() * 1024
    assert facts.kernel == os.uname().release


def test_pack_puts_the_facts_in_the_submission_tarball(resdir: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BINARY), "--pack", str(resdir), "--output", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    with tarfile.open(done.stdout.strip()) as tar:
        assert f"{TIMESTAMP}/{FACTS_FILE}" in tar.getnames()
