"""What the archive attacks of issue 23 cost each reader: seconds, peak memory, folders and scratch.

Usage: python benchmarks/archive_walk.py [--dot-gib 4] [--deep-files 2000] [--zip-folders 400000]

Three attacks, each through the upload sandbox (extract) and the scoring engine (scoring), each in a
child process of its own so that its peak RSS is its own:
* dot: a bzip2 tar whose member "." holds N GiB of zeros, then a real run (100 GiB is 0.6 MB; it once
  cost a worker 289 s);
* deep: files 61 folders deep on paths of their own (10,300 of them, 50 KB of tar, once made
  630,000 folders, 2.4 GiB of scratch in 128 s);
* zipdirs: a zip of only folder entries (4 million once took a worker to 1.9 GiB).
Run it from another checkout's root (`cd ../old && python /path/to/benchmarks/archive_walk.py
--code .`) to measure that checkout's readers. Prints the load average before and after.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.reliability.hostile import Context, skipped_data  # noqa: E402  (the repository root goes on sys.path first)
from tests.support.data import IO500_DATA  # noqa: E402

GIB = 1024**3


def dot_archive(gib: int) -> bytes:
    run = IO500_DATA / "submissions" / "submission-33"
    return skipped_data(Context(run=run, shell_run=run, canary=Path("/nonexistent")), ".", zeros=gib * GIB)


def deep_archive(files: int) -> bytes:
    buffer = io.BytesIO()
    chain = "d/" * 60
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for index in range(files):
            tar.addfile(tarfile.TarInfo(f"run/f{index}/{chain}x"), io.BytesIO(b""))
    return buffer.getvalue()


def zip_of_folders(count: int) -> bytes:
    """A zip of `count` empty folder entries, written directly (zipfile's writer would keep them all)."""
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, 2, 0) + b"d/"
    records = bytearray()
    for index in range(count):
        name = f"d{index}/".encode()
        records += struct.pack(
            "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0x10, 0
        )
        records += name
    start, size = len(local), len(records)
    end64 = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, size, start)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, start + size, 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return local + bytes(records) + end64 + locator + end


def measure_child(code: Path, reader: str, archive: Path) -> None:
    """In the child: read `archive` with `reader` from the checkout `code`; print outcome and scratch."""
    sys.path.insert(0, str(code))
    out = archive.parent / "out"
    out.mkdir()
    started = time.monotonic()
    try:
        if reader == "extract":
            from submissions.ingest.unpack import extract_archive

            extract_archive(archive, out)
        else:
            from scoring.readers.locate import read_runs

            read_runs(archive)
        outcome = "accepted"
    except Exception as error:  # the outcome is what is measured, whatever it is
        outcome = f"refused: {str(error)[:110]}"
    seconds = time.monotonic() - started
    folders = scratch = 0
    for folder, _, files in os.walk(out):
        folders += 1
        scratch += sum((Path(folder) / name).lstat().st_blocks * 512 for name in [*files, "."])
    # The high-water mark of this process since exec (wait4's ru_maxrss would include the parent's).
    status = Path("/proc/self/status").read_text()
    peak_kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    print(f"{seconds:.2f}\t{folders - 1}\t{scratch}\t{peak_kib}\t{outcome}", flush=True)


def run_case(code: Path, name: str, data: bytes, reader: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "upload.bin"
        archive.write_bytes(data)
        child = subprocess.Popen(
            [sys.executable, __file__, "--child", reader, "--archive", str(archive), "--code", str(code)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        line = child.stdout.read().strip()
        child.wait()
        seconds, folders, scratch, peak_kib, outcome = line.split("\t", 4)
        peak_mib = int(peak_kib) / 1024
        print(
            f"{name:<8} {reader:<8} {len(data):>10,} B  {float(seconds):>7.2f} s  peak {peak_mib:>7.1f} MiB  "
            f"{int(folders):>8,} folders  {int(scratch) / 2**20:>8.1f} MiB scratch  {outcome}",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dot-gib", type=int, default=4)
    parser.add_argument("--deep-files", type=int, default=2_000)
    parser.add_argument("--zip-folders", type=int, default=400_000)
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout whose readers are measured")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--archive", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure_child(args.code.resolve(), args.child, args.archive)
        return 0
    print(f"load average before: {os.getloadavg()}; code: {args.code.resolve()}", flush=True)
    cases = {
        "dot": dot_archive(args.dot_gib),
        "deep": deep_archive(args.deep_files),
        "zipdirs": zip_of_folders(args.zip_folders),
    }
    for name, data in cases.items():
        for reader in ("extract", "scoring"):
            run_case(args.code.resolve(), name, data, reader)
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
