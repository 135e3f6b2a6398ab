"""The bundled MPI runner end to end: build it, run it under `mpirun -np 2` with a 2-second stonewall,
and check what it wrote the way the registry and the official tools would.

The five runs start together in one session fixture, so each is made once: side by side they take
little more than one (most of a run is the second mdtest sleeps before every phase), and pytest-django
runs this module's database test before the others of the session, which would set a module fixture
up twice. Every test reads their files.
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import tarfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scoring import verify
from scoring.rules.plausibility import DeclaredFacts, declared_plausibility_findings, written_bytes

pytestmark = pytest.mark.runner

REPO = Path(__file__).resolve().parents[2]
RUNNER_DIR = REPO / "runner"
BINARY = RUNNER_DIR / "build" / "io500-runner"
TIMESTAMP = "2026.01.01-00.00.00"
RANKS = 2
TRANSFER_MIB = 1
# Seeds of the official app for TIMESTAMP (runner-semantics.md section 1, checked against io500 itself).
OFFICIAL_SEEDS = {
    "ior-easy": "-G 1767022899",
    "ior-hard": "-G=1767033587",
    "mdtest-easy": "-G -1641766603",
    "mdtest-hard": "-G=-1641755915",
}
PHASE_ORDER = [
    "ior-easy-write",
    "mdtest-easy-write",
    "timestamp",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
    "ior-rnd4K-easy-read",
]
PHASE_LINE = re.compile(
    r"\[(RESULT|      )\] [ \w-]{20} [ \d.]{15} (GiB/s|kIOPS) : time \d+\.\d{3} seconds( \[INVALID\])?"
)
WRITE_PHASES = ["ior-easy-write", "mdtest-easy-write", "ior-hard-write", "mdtest-hard-write"]
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


@dataclass(frozen=True)
class Run:
    resdir: Path
    datadir: Path
    stdout: str
    stderr: str


def mpirun(
    args: list[str], np: int = RANKS, timeout: int = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = ["mpirun", "--oversubscribe", "-np", str(np), str(BINARY), *args]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **MPI_ENV, **(env or {})},
        check=False,
    )


# Sizes where the 2-second stonewall, not the data, ends the metadata write phases.
STONEWALL_SIZES = {
    "ior_easy_block": "256m",
    "mdtest_easy_n": 20000,
    "ior_hard_segments": 4000,
    "mdtest_hard_n": 5000,
}
# Sizes the data ends quickly: enough for a few transfers and files of every phase.
SMALL_SIZES = {"ior_easy_block": "8m", "mdtest_easy_n": 500, "ior_hard_segments": 200, "mdtest_hard_n": 200}


def write_ini(
    path: Path, root: Path, extra_global: str = "", extra: str = "", sizes: dict[str, Any] = STONEWALL_SIZES
) -> Path:
    path.write_text(
        f"""[global]
datadir = {root}/data
resultdir = {root}/results
{extra_global}
[debug]
stonewall-time = 2

[ior-easy]
transferSize = {TRANSFER_MIB}m
blockSize = {sizes["ior_easy_block"]}

[mdtest-easy]
n = {sizes["mdtest_easy_n"]}

[ior-hard]
segmentCount = {sizes["ior_hard_segments"]}

[mdtest-hard]
n = {sizes["mdtest_hard_n"]}
{extra}"""
    )
    return path


@dataclass
class PendingRun:
    """A benchmark started under mpirun; its output goes to files so that several can run at once."""

    root: Path
    process: subprocess.Popen[bytes]

    def wait(self) -> Run:
        returncode = self.process.wait(timeout=600)
        stdout = (self.root / "stdout.txt").read_text()
        stderr = (self.root / "stderr.txt").read_text()
        assert returncode == 0, stdout + stderr
        return Run(self.root / "results" / TIMESTAMP, self.root / "data" / TIMESTAMP, stdout, stderr)


def start_benchmark(
    root: Path,
    extra_global: str = "",
    env: dict[str, str] | None = None,
    sizes: dict[str, Any] = STONEWALL_SIZES,
) -> PendingRun:
    ini = write_ini(root / "config.ini", root, extra_global, sizes=sizes)
    command = [
        "mpirun",
        "--oversubscribe",
        "-np",
        str(RANKS),
        str(BINARY),
        str(ini),
        f"--timestamp={TIMESTAMP}",
    ]
    with (root / "stdout.txt").open("wb") as stdout, (root / "stderr.txt").open("wb") as stderr:
        # Runs started at the same moment race to create Open MPI's shared session directory.
        session = {"OMPI_MCA_orte_tmpdir_base": str(root)}
        process = subprocess.Popen(
            command, stdout=stdout, stderr=stderr, env={**os.environ, **MPI_ENV, **session, **(env or {})}
        )
    return PendingRun(root, process)


@pytest.fixture(scope="session")
def built() -> Path:
    make = subprocess.run(["make", "-C", str(RUNNER_DIR)], capture_output=True, text=True, check=False)
    assert make.returncode == 0, (
        f"make -C runner failed (is Open MPI installed?):\n{make.stdout}{make.stderr}"
    )
    return BINARY


PACKETS = ["offset", "incompressible", "random"]


@pytest.fixture(scope="session")
def runs(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """The normal run, the corrupted run and one small run per data packet, started side by side."""
    pending = {
        "normal": start_benchmark(tmp_path_factory.mktemp("normal")),
        "corrupted": start_corrupted_run(tmp_path_factory.mktemp("corrupted")),
        **{
            f"packet-{packet}": start_packet_run(tmp_path_factory.mktemp(f"packet-{packet}"), packet)
            for packet in PACKETS
        },
    }
    try:
        return {name: run.wait() for name, run in pending.items()}
    finally:
        for run in pending.values():
            if run.process.poll() is None:
                run.process.kill()
                run.process.wait()


@pytest.fixture(scope="session")
def normal_run(runs: dict[str, Run]) -> Run:
    return runs["normal"]


@pytest.fixture(scope="session")
def corrupted_run(runs: dict[str, Run]) -> Run:
    return runs["corrupted"]


def start_corrupted_run(root: Path) -> PendingRun:
    """The drop-caches command runs on every rank before every phase (an official option), so a script
    there can overwrite 16 bytes of every data file written so far; the reads must notice.

    The same run puts a logging `sync` first in PATH: mdtest -Y runs the sync command (system("sync")),
    not the sync() system call, and the runner must do the same work."""
    data = root / "data" / TIMESTAMP
    bin_dir = root / "bin"
    bin_dir.mkdir()
    fake_sync = bin_dir / "sync"
    fake_sync.write_text(f"#!/bin/sh\necho $$ >> {root}/sync.log\nexec /bin/sync\n")
    fake_sync.chmod(0o755)
    script = root / "corrupt.sh"
    script.write_text(
        f"""#!/bin/sh
for f in {data}/ior-easy/ior_file_easy.* {data}/ior-hard/file \\
         {data}/mdtest-hard/test-dir.0-0/mdtest_tree.0/file.mdtest.*.[0-4]; do
  [ -f "$f" ] && printf 'CORRUPTCORRUPTXX' | dd of="$f" bs=1 seek=8 conv=notrunc status=none
done
exit 0
"""
    )
    script.chmod(0o755)
    return start_benchmark(
        root,
        f"drop-caches = TRUE\ndrop-caches-cmd = {script}\n",
        env={"PATH": f"{bin_dir}:{os.environ['PATH']}"},
    )


def sections(result_txt: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    current = ""
    for line in result_txt.read_text().splitlines():
        header = re.fullmatch(r"\[([\w-]+)\]", line)
        if header:
            current = header.group(1)
        elif line.strip():
            found[current].append(line)
    return found


def pairs(lines: list[str]) -> dict[str, str]:
    return {
        k.strip(): v.strip()
        for k, _, v in (line.partition("=") for line in lines if not line.startswith(";"))
    }


def mdtest_items(resdir: Path, phase: str) -> int:
    """The per-rank item count mdtest writes in the `all` row of its CSV."""
    rows = list(csv.reader((resdir / f"{phase}.csv").open()))
    assert rows[1][0] == "all"
    return int(rows[1][1])


def timeline(resdir: Path, phase: str) -> dict[int, list[int]]:
    path = resdir / f"{phase}.timeline.csv"
    with path.open() as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == ["rank", "second", "amount"]
        per_rank: dict[int, list[int]] = defaultdict(list)
        for row in reader:
            rank, second = int(row["rank"]), int(row["second"])
            assert second == len(per_rank[rank]), f"{path.name}: seconds of rank {rank} are not consecutive"
            per_rank[rank].append(int(row["amount"]))
    return per_rank


def test_a_short_stonewall_makes_the_run_invalid_as_the_official_app_says(normal_run: Run) -> None:
    summary = (normal_run.resdir / "result_summary.txt").read_text().splitlines()
    result = sections(normal_run.resdir / "result.txt")
    assert "; ERROR INVALID stonewall-time 2s != 300s" in result["run"]
    for phase in WRITE_PHASES:
        assert "; ERROR INVALID Runtime is smaller than expected minimum runtime" in result[phase]
        line = next(line for line in summary if f" {phase} " in line)
        assert line.endswith(" [INVALID]")
    assert re.fullmatch(
        r"\[SCORE \] Bandwidth \S+ GiB/s : IOPS \S+ kiops : TOTAL \S+ \[INVALID\]", summary[-1]
    )
    assert pairs(result["SCORE"])["SCORE"].endswith(" [INVALID]")


def test_every_phase_is_reported_in_the_official_order_and_format(normal_run: Run) -> None:
    summary = (normal_run.resdir / "result_summary.txt").read_text().splitlines()
    assert summary[0] == "IO500 version io500-runner-1.0.0 (standard)"
    names = [line[8:].split()[0] for line in summary[1:-1]]
    assert names == PHASE_ORDER
    for line in summary[1:-1]:
        assert PHASE_LINE.fullmatch(line), line
    result = sections(normal_run.resdir / "result.txt")
    assert pairs(result["run"]) | {"result-dir": ""} == {
        "procs": str(RANKS),
        "version": "io500-runner-1.0.0",
        "config-hash": pairs(result["run"])["config-hash"],
        "result-dir": "",
        "mode": "standard",
    }
    for name in ("config.ini", "config-orig.ini", "find.csv", "timestampfile"):
        assert (normal_run.resdir / name).is_file(), name
    for phase in PHASE_ORDER:
        if phase not in ("timestamp", "find"):
            assert (normal_run.resdir / f"{phase}.txt").is_file(), phase
            assert (normal_run.resdir / f"{phase}.csv").is_file(), phase


def test_phases_use_the_official_seeds_and_fixed_parameters(normal_run: Run) -> None:
    result = sections(normal_run.resdir / "result.txt")
    exe = {phase: pairs(lines).get("exe", "") for phase, lines in result.items()}
    assert OFFICIAL_SEEDS["ior-easy"] in exe["ior-easy-write"]
    assert OFFICIAL_SEEDS["ior-hard"] in exe["ior-hard-read"]
    assert OFFICIAL_SEEDS["mdtest-easy"] in exe["mdtest-easy-stat"]
    assert OFFICIAL_SEEDS["mdtest-hard"] in exe["mdtest-hard-read"]
    assert "-t 47008 -b 47008 -s 4000" in exe["ior-hard-write"]
    assert "-w 3901 -e 3901" in exe["mdtest-hard-write"]
    assert "-r -R" in exe["ior-easy-read"] and "-E -X" in exe["mdtest-hard-read"]


def test_reads_stats_and_deletes_process_exactly_the_written_count(normal_run: Run) -> None:
    resdir = normal_run.resdir
    easy = mdtest_items(resdir, "mdtest-easy-write")
    hard = mdtest_items(resdir, "mdtest-hard-write")
    assert easy > 0 and hard > 0
    assert mdtest_items(resdir, "mdtest-easy-stat") == easy
    assert mdtest_items(resdir, "mdtest-easy-delete") == easy
    for phase in ("mdtest-hard-stat", "mdtest-hard-read", "mdtest-hard-delete"):
        assert mdtest_items(resdir, phase) == hard
    # Wear-out: every rank ends with the same count, which the timelines record item by item.
    for phase, count in (
        ("mdtest-easy-write", easy),
        ("mdtest-easy-delete", easy),
        ("mdtest-hard-read", hard),
    ):
        assert {rank: sum(bins) for rank, bins in timeline(resdir, phase).items()} == dict.fromkeys(
            range(RANKS), count
        )
    for easy_or_hard, transfer in (("ior-easy", TRANSFER_MIB * 2**20), ("ior-hard", 47008)):
        log = (resdir / f"{easy_or_hard}-write.txt").read_text()
        accessed = re.search(r"stonewalling pairs accessed min: \d+ max: (\d+)", log)
        assert accessed, log
        pairs_max = int(accessed.group(1))
        expected = dict.fromkeys(range(RANKS), pairs_max * transfer)
        assert {r: sum(b) for r, b in timeline(resdir, f"{easy_or_hard}-write").items()} == expected
        assert {r: sum(b) for r, b in timeline(resdir, f"{easy_or_hard}-read").items()} == expected


def test_reads_are_verified_and_find_no_error_in_a_clean_run(normal_run: Run) -> None:
    text = (normal_run.resdir / "result.txt").read_text()
    assert "Errors (" not in text
    assert "read wrong data" not in text
    for phase in ("ior-easy-read", "ior-hard-read"):
        assert "Incorrect data" not in (normal_run.resdir / f"{phase}.txt").read_text()


def test_corrupted_data_is_detected_by_the_read_phases(corrupted_run: Run) -> None:
    result = sections(corrupted_run.resdir / "result.txt")
    summary = (corrupted_run.resdir / "result_summary.txt").read_text()
    for phase in ("ior-easy-read", "ior-hard-read"):
        errors = [line for line in result[phase] if "Errors (" in line]
        assert errors, f"{phase} did not notice the overwritten bytes"
        reported = re.search(r"Errors \((\d+)\) occured during phase in IOR", errors[0])
        assert reported and int(reported.group(1)) >= 1, errors[0]
        assert re.search(rf" {phase} .* \[INVALID\]", summary)
        assert "Incorrect data on read" in (corrupted_run.resdir / f"{phase}.txt").read_text()
    # Five files per rank were overwritten; mdtest reports one error per file, as the official tool.
    warning = next(line for line in result["mdtest-hard-read"] if "mdtest-hard-read read wrong data" in line)
    assert warning.startswith(f"; WARNING {RANKS * 5} files")


def start_packet_run(root: Path, packet: str) -> PendingRun:
    """A small run with another IOR data packet. The drop-caches command (run before every phase)
    hard-links rank 0's ior-easy file into keep/, so its bytes survive the cleanup for the test to read."""
    keep = root / "keep"
    keep.mkdir()
    script = root / "keep.sh"
    script.write_text(
        f"""#!/bin/sh
f={root}/data/{TIMESTAMP}/ior-easy/ior_file_easy.00000000
[ -f "$f" ] && [ ! -e {keep}/ior_file_easy.00000000 ] && ln "$f" {keep}/ 2>/dev/null
exit 0
"""
    )
    script.chmod(0o755)
    return start_benchmark(
        root,
        f"dataPacketType = {packet}\ndrop-caches = TRUE\ndrop-caches-cmd = {script}\n",
        sizes=SMALL_SIZES,
    )


@pytest.fixture(params=PACKETS)
def packet_run(request: pytest.FixtureRequest, runs: dict[str, Run]) -> tuple[str, Run]:
    return request.param, runs[f"packet-{request.param}"]


def test_every_data_packet_type_is_written_and_verified_like_ior(packet_run: tuple[str, Run]) -> None:
    # IOR and mdtest update the buffer before every write for these packets (offset stamps every 4 KiB,
    # or a whole new random block) and check every word on read; a clean run has no error.
    packet, run = packet_run
    result = sections(run.resdir / "result.txt")
    exe = {phase: pairs(lines).get("exe", "") for phase, lines in result.items()}
    for phase in ("ior-easy-write", "ior-hard-read", "mdtest-hard-write", "mdtest-hard-read"):
        assert f"--dataPacketType={packet}" in exe[phase], exe[phase]
    text = (run.resdir / "result.txt").read_text()
    assert "Errors (" not in text
    assert "read wrong data" not in text
    assert mdtest_items(run.resdir, "mdtest-hard-read") == mdtest_items(run.resdir, "mdtest-hard-write")
    kept = run.resdir.parents[1] / "keep" / "ior_file_easy.00000000"
    if packet != "offset":
        return
    # The offset packet: the timestamp words, except that the first word of every 4 KiB holds
    # (uint32)(file offset of the transfer) * k | rank << 32 for the k-th 4 KiB of the transfer.
    seed = int(OFFICIAL_SEEDS["ior-easy"].split()[-1])
    transfer = TRANSFER_MIB * 2**20
    data = kept.read_bytes()
    assert len(data) >= 2 * transfer
    for t in (0, 1, len(data) // transfer - 1):
        words = memoryview(data)[t * transfer : (t + 1) * transfer].cast("Q")
        for i in (0, 1, 511, 512, 513, 1024, len(words) - 1):
            if i % 512 == 0:
                expected = ((t * transfer) & 0xFFFFFFFF) * (i // 512 + 1) & 0xFFFFFFFF
            else:
                expected = (seed + i) & 0xFFFFFFFFFFFFFFFF  # rank 0: no rank bits
            assert words[i] == expected, (t, i)


def test_an_unknown_data_packet_type_is_refused(built: Path, tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "config.ini", tmp_path, extra_global="dataPacketType = zeros\n")
    done = mpirun([str(ini)])
    assert done.returncode == 2
    assert "[global] dataPacketType = zeros is not a packet type" in done.stderr


def test_create_phases_run_the_sync_command_on_every_rank_like_mdtest(corrupted_run: Run) -> None:
    # mdtest -Y: POSIX_Sync calls system("sync") on every rank at the end of each create phase, inside
    # the timed region: mdtest-easy-write and mdtest-hard-write, so two calls per rank.
    calls = (corrupted_run.resdir.parents[1] / "sync.log").read_text().split()
    assert len(calls) == 2 * RANKS


def test_find_counts_the_files_that_really_match_the_official_rule(normal_run: Run) -> None:
    resdir = normal_run.resdir
    easy = mdtest_items(resdir, "mdtest-easy-write")
    hard = mdtest_items(resdir, "mdtest-hard-write")
    find = pairs(sections(resdir / "result.txt")["find"])
    # Only mdtest-hard files have 3901 bytes and are newer than the timestamp; "*01*" selects by name.
    expected_found = sum("01" in f"file.mdtest.{r}.{i}" for r in range(RANKS) for i in range(hard))
    # Every non-directory entry is counted: one ior-easy file per rank, the ior-hard file, all mdtest files.
    expected_total = RANKS + 1 + RANKS * easy + RANKS * hard
    assert int(find["found"]) == expected_found
    assert int(find["total-files"]) == expected_total
    rows = list(csv.reader((resdir / "find.csv").open(), skipinitialspace=True))
    assert rows[0][0].startswith("runtime: ")
    assert sum(int(row[4]) for row in rows[2:]) == expected_total
    assert sum(int(row[3]) for row in rows[2:]) == expected_found
    assert sum(sum(bins) for bins in timeline(resdir, "find").values()) == expected_total


def test_every_phase_has_a_timeline_for_every_rank(normal_run: Run) -> None:
    for phase in PHASE_ORDER:
        if phase == "timestamp":
            assert not (normal_run.resdir / "timestamp.timeline.csv").exists()
            continue
        bins = timeline(normal_run.resdir, phase)
        # A rank that had nothing to do still has its seconds, as zeros: idle ranks must be visible.
        assert set(bins) == set(range(RANKS)), phase
        assert all(amount >= 0 for per_rank in bins.values() for amount in per_rank), phase
        assert sum(sum(per_rank) for per_rank in bins.values()) > 0, phase


def test_scoring_reads_every_phase_and_recomputes_the_claimed_score(normal_run: Run) -> None:
    verifications = verify(normal_run.resdir)
    assert len(verifications) == 1
    verification = verifications[0]
    run = verification.result
    assert set(PHASE_ORDER) - {"timestamp", "ior-rnd4K-easy-read"} <= set(run.phases)
    assert verification.score_matches
    assert run.claimed is not None
    assert run.claimed.score == pytest.approx(verification.computed.score, rel=1e-5)
    codes = {finding.code for finding in verification.findings}
    # The short stonewall was recorded by the runner itself, so the hash verifies as an invalid run.
    assert "score-hash-invalid-run" in codes
    assert "config-hash-verified" in codes
    assert not verification.valid


def test_a_run_with_data_far_below_the_hosts_memory_is_flagged_plausibility_cache(normal_run: Run) -> None:
    # The two ranks wrote under 1 GiB on this one host; declared with the host's own memory, every read
    # could have come from the page cache (issue 27, docs/plausibility.md).
    run = verify(normal_run.resdir)[0].result
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    written = written_bytes(run)
    assert written is not None and written < memory
    found = declared_plausibility_findings(run, DeclaredFacts(client_nodes=1, memory_per_node_bytes=memory))
    cache = [finding for finding in found if finding.code == "plausibility-cache"]
    assert len(cache) == 1 and "on 1 node(s)" in cache[0].message


def test_peak_memory_per_rank_stays_under_64_mib_plus_the_transfer_buffer(normal_run: Run) -> None:
    match = re.search(r"Peak RSS per rank: ([\d.]+) MiB", normal_run.stdout)
    assert match, normal_run.stdout
    assert float(match.group(1)) < 64 + TRANSFER_MIB


def test_the_data_directory_is_removed_after_the_run(normal_run: Run) -> None:
    assert not normal_run.datadir.exists()
    assert not list(normal_run.resdir.glob("*.stonewall"))


def test_pack_makes_a_tarball_that_scoring_accepts(normal_run: Run, tmp_path: Path) -> None:
    system = tmp_path / "mine.json"
    system.write_text('{"name": "test system"}\n')
    done = subprocess.run(
        [str(BINARY), "--pack", str(normal_run.resdir), "--system", str(system), "--output", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    archive = Path(done.stdout.strip())
    assert archive.name == f"io500-{os.uname().nodename}-{TIMESTAMP}.tgz"
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
        assert all(member.isfile() or member.isdir() for member in tar.getmembers())
    assert {f"{TIMESTAMP}/result.txt", f"{TIMESTAMP}/result_summary.txt", "system.json"} <= names
    verification = verify(archive)[0]
    assert verification.score_matches


def test_pack_refuses_a_result_directory_with_a_symlink(built: Path, tmp_path: Path) -> None:
    resdir = tmp_path / TIMESTAMP
    resdir.mkdir()
    for name in ("result.txt", "result_summary.txt", "config.ini"):
        (resdir / name).write_text("x\n")
    (resdir / "passwd").symlink_to("/etc/passwd")
    done = subprocess.run([str(BINARY), "--pack", str(resdir)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "symbolic link" in done.stderr
    assert not list(Path.cwd().glob(f"io500-*-{TIMESTAMP}.tgz"))


def test_dry_run_prints_every_command_and_does_no_io(built: Path, tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "config.ini", tmp_path)
    done = mpirun([str(ini), "--dry-run", f"--timestamp={TIMESTAMP}"])
    assert done.returncode == 0, done.stderr
    resdir = tmp_path / "results" / TIMESTAMP
    result = sections(resdir / "result.txt")
    assert "; ERROR INVALID DRY RUN MODE ACTIVATED" in result["run"]
    for phase in PHASE_ORDER:
        if phase != "timestamp":
            assert pairs(result[phase])["exe"].startswith(("./ior ", "./mdtest ", "./pfind ")), phase
            assert float(pairs(result[phase])["score"]) == 0.0
    data = tmp_path / "data" / TIMESTAMP
    assert sorted(p.name for p in data.iterdir()) == ["ior-easy", "ior-hard"]
    assert not any(p.is_file() for p in data.rglob("*"))
    assert not list(resdir.glob("*.timeline.csv"))


def test_it_rejects_unknown_ini_keys_with_a_clear_message(built: Path, tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "config.ini", tmp_path, extra="\n[ior-easy]\nblocksz = 1m\n")
    done = mpirun([str(ini)])
    assert done.returncode == 2
    assert 'unknown option "blocksz" in section [ior-easy]' in done.stderr
    assert "transferSize" in done.stderr  # it lists what the section does accept
    assert not (tmp_path / "results").exists()


def test_it_rejects_unknown_sections_with_a_clear_message(built: Path, tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "config.ini", tmp_path, extra="\n[ior-medium]\nn = 1\n")
    done = mpirun([str(ini)])
    assert done.returncode == 2
    assert "unknown section [ior-medium]" in done.stderr


def test_it_refuses_an_api_it_does_not_implement(built: Path, tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "config.ini", tmp_path, extra_global="api = MPIIO\n")
    done = mpirun([str(ini)])
    assert done.returncode == 2
    assert "[global] api = MPIIO asks for the MPIIO interface, which io500-runner does not" in done.stderr


def test_config_hash_equals_the_official_value(built: Path, tmp_path: Path) -> None:
    # config-minimal.ini of IO500/io500 hashes to 9736CCCB with the official binary (runner-semantics.md 5).
    ini = tmp_path / "config-minimal.ini"
    ini.write_text("[global]\ndatadir = ./datafiles\n")
    done = mpirun([str(ini), "--config-hash"], np=1)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "config-hash     = 9736CCCB"


@pytest.mark.django_db
def test_a_runner_result_uploaded_to_the_registry_is_known_as_the_bundled_runner(
    normal_run: Run, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    import datetime

    from django.core.files import File
    from django.utils import timezone

    from registry.lists.selectors import list_candidates
    from registry.models import Release
    from submissions.models import Submission
    from submissions.services import submission_create

    done = subprocess.run(
        [str(BINARY), "--pack", str(normal_run.resdir), "--output", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    archive = Path(done.stdout.strip())
    today = timezone.localdate()
    release = Release.objects.create(
        name="ISC40",
        slug="isc40",
        publication_date=today + datetime.timedelta(days=60),
        submission_deadline=today + datetime.timedelta(days=30),
        list_kinds=["research", "full", "historical"],
        bundled_runner_kinds=["full", "historical"],
    )
    with archive.open("rb") as handle, django_capture_on_commit_callbacks(execute=True):
        submission, created = submission_create(
            submitter=None, archive=File(handle), original_name=archive.name, release=release
        )
    assert created
    submission.refresh_from_db()
    assert submission.status == Submission.Status.INVALID, (submission.status, submission.error)
    findings = {finding.code: finding.message for finding in submission.findings.all()}
    assert "version-bundled-runner" in findings and "version-unrecognised" not in findings
    assert (
        "ISC40 takes results of the registry's bundled runner on these lists only: Full, Historical"
        in (findings["bundled-runner-lists"])
    )
    (candidate,) = [c for c in list_candidates(release=release) if c.submission_id == submission.pk]
    assert candidate.bundled_runner


def test_a_configuration_in_the_io500_sc26_layout_runs_sc26s_random_read(normal_run: Run) -> None:
    # The test configuration has main's sections, which io500-sc26 shares (runner/README.md), so the
    # phase runs with io500-sc26's arguments: -z -z -z and -s=-1, -C -Q 2 with a file per process.
    assert "Configuration of main, io500-sc26:" in normal_run.stdout
    rnd = pairs(sections(normal_run.resdir / "result.txt")["ior-rnd4K-easy-read"])
    assert " -r -D 2 -z -z -z -a POSIX " in rnd["exe"]
    assert rnd["exe"].endswith(" -t=4096 -b=4096 -s=-1 -O stoneWallingWearOut=1 -C -Q 2")
    assert float(rnd["score"]) > 0 and float(rnd["t_delta"]) >= 2
    # Unscored as in the application: a '[      ]' summary line and no part of [SCORE].
    summary = (normal_run.resdir / "result_summary.txt").read_text()
    assert re.search(r"^\[      \]  ior-rnd4K-easy-read +[\d.]+ GiB/s : time [\d.]+ seconds$", summary, re.M)
    log = (normal_run.resdir / "ior-rnd4K-easy-read.txt").read_text()
    assert f"Command line        : {rnd['exe']}\n" in log
    assert "segments            : -1\n" in log and "ordering in a file  : random\n" in log
    run = verify(normal_run.resdir)[0].result
    assert run.extra_phases["ior-rnd4K-easy-read"].value == pytest.approx(float(rnd["score"]))
