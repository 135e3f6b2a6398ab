"""The runner takes the configuration a site already has: the example configurations of every IO500 tag,
the configurations of the real submissions in the shared corpus, and the per-release option tables
(release_configs/MANIFEST.json says where each file and each expected value comes from). It stops a run
on an I/O error with the cause, as the official application does.
"""

from __future__ import annotations

import json
import mmap
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.data import submission_folder
from tests.support.sc26_sample import SOURCE_SUBMISSION, derive_sc26_run

pytestmark = pytest.mark.runner

REPO = Path(__file__).resolve().parents[2]
RUNNER_DIR = REPO / "runner"
BINARY = RUNNER_DIR / "build" / "io500-runner"
CONFIGS = Path(__file__).resolve().parent / "release_configs"
MANIFEST = json.loads((CONFIGS / "MANIFEST.json").read_text())
TIMESTAMP = "2026.01.01-00.00.00"
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}
# Why a real configuration may be refused: an interface other than POSIX (named), a file-system library
# option of IOR's POSIX backend (named), an external find script. Anything else (an unknown section or
# key, a type error, a mix of releases) would be a failure to read a released configuration.
ALLOWED_REFUSALS = re.compile(
    r"asks for the (DFS|MPIIO|mpiio|IME|CHFS|\w+) interface, which io500-runner does not implement"
    r"|needs IOR built with the (GPFS|Lustre|BeeGFS) library"
    r"|\[find\] external-script = .* is not supported"
)


@pytest.fixture(scope="module")
def built() -> Path:
    make = subprocess.run(["make", "-C", str(RUNNER_DIR)], capture_output=True, text=True, check=False)
    assert make.returncode == 0, f"make -C runner failed:\n{make.stdout}{make.stderr}"
    return BINARY


def check_config(path: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BINARY), str(path), "--check-config"], capture_output=True, text=True, check=False, cwd=cwd
    )


def fields(output: str) -> dict[str, str]:
    return {k.strip(): v.strip() for k, _, v in (line.partition("=") for line in output.splitlines())}


def mpirun(
    args: list[str], cwd: Path, np: int = 2, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [*(prefix or []), "mpirun", "--oversubscribe", "-np", str(np), str(BINARY), *args]
    env = {**os.environ, **MPI_ENV}
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=cwd, env=env, check=False)


@pytest.mark.parametrize("example", MANIFEST["tag_examples"], ids=lambda e: e["file"])
def test_each_tags_example_config_is_accepted_with_the_official_config_hash(
    built: Path, example: dict[str, Any]
) -> None:
    done = check_config(CONFIGS / example["file"])
    if "official_refusal" in example:
        # config-some.ini of io500-isc20 has "[debug] drop-caches", which that release's own app refuses too.
        assert done.returncode == 2
        assert f"{example['official_refusal']} in section [debug]: no IO500 release has it" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    assert fields(done.stdout)["config-hash"] == example["official_config_hash"]


@pytest.mark.parametrize("config", MANIFEST["constructed"], ids=lambda c: c["file"])
def test_a_config_of_each_release_table_is_written_as_that_release_writes_config_ini(
    built: Path, config: dict[str, Any], tmp_path: Path
) -> None:
    checked = fields(check_config(CONFIGS / config["file"]).stdout)
    assert checked["release"] == config["release"]
    assert checked["config-hash"] == config["config_hash"]
    expected_not_run = ", ".join(f"[{s}]" for s in config["not_run"]) or "-"
    assert checked["not run"] == expected_not_run
    assert checked["not used"] == (", ".join(config["not_used"]) or "-")

    shutil.copy(CONFIGS / config["file"], tmp_path / "config.ini")
    done = mpirun(["config.ini", "--dry-run", f"--timestamp={TIMESTAMP}"], cwd=tmp_path, np=1)
    assert done.returncode == 0, done.stdout + done.stderr
    resdir = tmp_path / "results" / TIMESTAMP
    # Byte for byte what the official binary of that release wrote for the same file.
    assert (resdir / "config.ini").read_text() == (CONFIGS / config["config_ini"]).read_text()
    result = (resdir / "result.txt").read_text()
    assert f"config-hash     = {config['config_hash']}\n" in result
    if config["not_run"]:
        # Reported once: one comment in result.txt and one line on stdout.
        assert result.count("; NOTE not run: ") == 1
        assert f"; NOTE not run: {expected_not_run}\n" in result
        assert done.stdout.count("Not run: ") == 1
    else:
        assert "; NOTE not run" not in result


def corpus_configs(submissions: Path) -> list[Path]:
    return sorted(p for p in submissions.rglob("*.ini") if p.is_file())


def test_every_configuration_of_the_shared_corpus_is_read(built: Path, io500_submissions: Path) -> None:
    accepted, refused = 0, 0
    for path in corpus_configs(io500_submissions):
        done = check_config(path)
        if done.returncode == 0:
            accepted += 1
            assert fields(done.stdout)["release"], path
            continue
        refused += 1
        assert ALLOWED_REFUSALS.search(done.stderr), f"{path}: {done.stderr}"
    # Every file of the corpus is read; the refusals are the interfaces and tools the runner lacks.
    assert accepted + refused > 150
    assert accepted >= 90


def test_one_configuration_per_io500_version_of_the_corpus_runs_or_names_what_is_missing(
    built: Path, io500_submissions: Path
) -> None:
    """The files submissions ran with, one per version string of their result.txt (16+ versions)."""
    seen: dict[str, Path] = {}
    for result in sorted(io500_submissions.rglob("result.txt")):
        match = re.search(r"^version\s*=\s*(\S+)", result.read_text(errors="replace"), re.M)
        names = ("config-orig.ini", "config.ini")
        config = next((result.parent / n for n in names if (result.parent / n).is_file()), None)
        if match and config and match.group(1) not in seen:
            seen[match.group(1)] = config
    assert len(seen) >= 16
    for version, config in seen.items():
        done = check_config(config)
        refused_for_a_named_reason = ALLOWED_REFUSALS.search(done.stderr)
        assert done.returncode == 0 or refused_for_a_named_reason, f"{version} {config}: {done.stderr}"


def write_config(path: Path, body: str) -> Path:
    path.write_text(body)
    return path


GLOBAL = "[global]\ndatadir = d\n"
REFUSED = [
    (
        GLOBAL + "[ior-easy]\nAPI = DFS --dfs.pool=p --dfs.cont=c\n",
        "[ior-easy] API = DFS --dfs.pool=p --dfs.cont=c asks for the DFS interface",
    ),
    ("[global]\ndatadir = d\napi = MPIIO\n", "[global] api = MPIIO asks for the MPIIO interface"),
    (
        GLOBAL + "[ior-hard-write]\nAPI = POSIX --posix.lustre.stripecount=4\n",
        "--posix.lustre.stripecount=4 needs IOR built with the Lustre library",
    ),
    (
        GLOBAL + "[mdtest-easy]\nAPI = POSIX --posix.nosuchoption\n",
        "--posix.nosuchoption is not an option of IOR's POSIX backend",
    ),
    (
        GLOBAL + "[ior-easy]\nblocksz = 1m\n",
        'unknown option "blocksz" in section [ior-easy]: no IO500 release has it',
    ),
    (GLOBAL + "[ior-medium]\n", "unknown section [ior-medium]: no IO500 release has it"),
    # noRun of io500-isc20 .. sc20 and [ior-rnd4K] of sc21 .. isc26_v2 never were in one release.
    (
        GLOBAL + "[ior-easy]\nnoRun = FALSE\n[ior-rnd4K]\nrandomPrefill = 0\n",
        "no IO500 release accepts every section and option of this file: [ior-easy] noRun (line 4)",
    ),
    (
        GLOBAL + "[mdtest-easy]\nn = many\n",
        'option "n" in section [mdtest-easy] must be a whole number >= 0, but it is "many"',
    ),
]


@pytest.mark.parametrize(("body", "message"), REFUSED)
def test_it_refuses_what_it_cannot_honour_naming_it(
    built: Path, tmp_path: Path, body: str, message: str
) -> None:
    done = check_config(write_config(tmp_path / "c.ini", body))
    assert done.returncode == 2
    assert message in done.stderr


def test_posix_backend_options_of_every_form_are_accepted(built: Path, tmp_path: Path) -> None:
    for body in (
        "[global]\ndatadir = d\napi = POSIX --posix.odirect\n",
        "[global]\ndatadir = d\n[ior-hard]\nAPI = POSIX --posix.odirect --posix.rangelocks\n",
        "[global]\ndatadir = d\n[ior-easy]\nposix.odirect = TRUE\n[mdtest-hard-write]\nposix.odirect = 1\n",
    ):
        done = check_config(write_config(tmp_path / "c.ini", body))
        assert done.returncode == 0, f"{body}\n{done.stderr}"


def small_config(root: Path, extra: str = "", datadir: Path | None = None) -> Path:
    return write_config(
        root / "config.ini",
        f"""[global]
datadir = {datadir or root / "data"}
resultdir = {root}/results

[debug]
stonewall-time = 2

[ior-easy]
transferSize = 1m
blockSize = 64m

[mdtest-easy]
n = 3000

[ior-hard]
segmentCount = 400

[mdtest-hard]
n = 3000
{extra}""",
    )


def rejects_unaligned_direct_io(directory: Path) -> bool:
    """Whether a 47,008-byte O_DIRECT write (ior-hard's transfer) fails with EINVAL in this directory."""
    probe = directory / "odirect-probe"
    buffer = mmap.mmap(-1, 49152)  # page-aligned, as the runner's buffers are
    fd = os.open(probe, os.O_CREAT | os.O_RDWR | os.O_DIRECT, 0o644)
    try:
        os.write(fd, memoryview(buffer)[:47008])
    except OSError as error:
        return error.errno == 22
    finally:
        os.close(fd)
        probe.unlink()
    return False


@pytest.fixture
def disk_folder() -> Iterator[Path]:
    """A temporary folder on a disk's file system: scripts/pytest_groups.sh puts the suite's temporary
    files on a tmpfs and names the disk's temporary folder in TEST_DISK_TMPDIR."""
    folder = Path(tempfile.mkdtemp(dir=os.environ.get("TEST_DISK_TMPDIR") or None))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize(
    "extra",
    ["[ior-hard]\nAPI = POSIX --posix.odirect\n", "[ior-hard-write]\nposix.odirect = TRUE\n"],
    ids=["api-option", "isc20-key"],
)
def test_posix_odirect_takes_effect(built: Path, disk_folder: Path, extra: str) -> None:
    """With O_DIRECT, ior-hard's unaligned 47,008-byte writes fail on a file system that checks alignment
    (ext4, xfs), as they do under the official application: the run stops there with EINVAL."""
    if not rejects_unaligned_direct_io(disk_folder):
        pytest.fail(
            f"{disk_folder} accepts unaligned O_DIRECT writes; the test needs ext4 or xfs (as /tmp here)"
        )
    done = mpirun([str(small_config(disk_folder, extra)), f"--timestamp={TIMESTAMP}"], cwd=disk_folder)
    assert done.returncode == 3, done.stdout + done.stderr
    cause = (
        r"ior-hard-write: write of 47008 bytes failed on \S+/ior-hard/file at offset \d+: Invalid argument"
    )
    assert re.search(r"ERROR rank \d: " + cause, done.stdout)
    summary = (disk_folder / "results" / TIMESTAMP / "result_summary.txt").read_text()
    assert "[RESULT]       ior-easy-write" in summary  # the phases before it ran normally
    assert "ior-hard-write" not in summary.split("ERROR")[0]
    assert "[SCORE" not in summary


def test_a_full_file_system_stops_the_run_with_the_cause_and_no_score(built: Path, tmp_path: Path) -> None:
    """A 16 MiB tmpfs (mounted in a private mount namespace, so no root is needed) fills up during
    ior-easy-write: the run must stop there with ENOSPC, the file and the phase, and exit non-zero."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed to mount the small tmpfs")
    mount = tmp_path / "small"
    mount.mkdir()
    config = small_config(tmp_path, datadir=mount / "data")
    script = f'mount -t tmpfs -o size=16m tmpfs {mount} && exec "$@"'
    in_namespace = ["unshare", "-rm", "sh", "-c", script, "sh"]
    done = mpirun([str(config), f"--timestamp={TIMESTAMP}"], cwd=tmp_path, prefix=in_namespace)
    assert done.returncode == 3, done.stdout + done.stderr
    cause = re.compile(
        r"ior-easy-write: write (of \d+ bytes failed on|failed after \d+ of \d+ bytes of) "
        r"\S+/ior-easy/ior_file_easy\.0000000\d at offset \d+: No space left on device"
    )
    assert cause.search(done.stderr)  # every failing rank says it at once
    resdir = tmp_path / "results" / TIMESTAMP
    result = (resdir / "result.txt").read_text()
    assert re.search(r"^; ERROR rank \d: " + cause.pattern, result, re.M)
    assert "[SCORE]" not in result
    assert not re.search(r"^score\s*=", result.split("[ior-easy-write]")[1], re.M)
    summary = (resdir / "result_summary.txt").read_text()
    assert "The run stopped on this I/O error: no score." in summary
    assert "[RESULT]" not in summary
    # No log, table or status file from the phase that stopped, and its data is gone.
    assert not (resdir / "ior-easy-write.txt").exists()
    assert not (resdir / "ior-easy.stonewall").exists()


def test_only_the_io500_sc26_layout_gets_sc26s_random_read(built: Path, tmp_path: Path) -> None:
    # io500-sc26 passes -z -z -z and -s=-1 (IO500/io500 src/phase_ior_rnd4k_easy_read.c @701fee6c3e06);
    # a configuration with the [ior-rnd4K] sections of io500-isc25 .. isc26_v2 keeps their -z -z and
    # -s=10000000.
    commands = {}
    for name, text in {
        "sc26": GLOBAL + "[ior-easy]\nfilePerProc = TRUE\n",
        "isc26_v2": (CONFIGS / "io500-isc26_v2-extended-sections.ini").read_text(),
    }.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "config.ini").write_text(text)
        done = mpirun(["config.ini", "--dry-run", f"--timestamp={TIMESTAMP}"], cwd=folder, np=1)
        assert done.returncode == 0, done.stdout + done.stderr
        result = (folder / "results" / TIMESTAMP / "result.txt").read_text()
        section = result.split("[ior-rnd4K-easy-read]\n", 1)[1]
        commands[name] = fields(section.split("\n\n", 1)[0])["exe"]
    assert fields(check_config(tmp_path / "sc26" / "config.ini").stdout)["release"] == "main, io500-sc26"
    assert " -z -z -z " in commands["sc26"] and " -s=-1 " in commands["sc26"]
    assert " -z -z -a " in commands["isc26_v2"] and " -s=10000000 " in commands["isc26_v2"]


def test_an_io500_sc26_config_ini_is_accepted_with_its_config_hash(built: Path, tmp_path: Path) -> None:
    # The config.ini of an io500-sc26 run (tests/support/sc26_sample.py: main's layout) is chosen as
    # main, io500-sc26, and the runner's config hash is the one its result.txt carries.
    run = derive_sc26_run(submission_folder(SOURCE_SUBMISSION), tmp_path / "sc26")
    checked = fields(check_config(run / "config.ini").stdout)
    assert checked["release"] == "main, io500-sc26"
    assert f"config-hash     = {checked['config-hash']}\n" in (run / "result.txt").read_text()
