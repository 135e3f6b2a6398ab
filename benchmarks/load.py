"""Load on a production-like stack: concurrent uploaders of real tarballs and readers of the public site.

    .venv/bin/python benchmarks/load.py [--duration 120] [--uploaders 50] [--readers 200]

It starts a private stack on this machine (tests/reliability/stack.py: its own PostgreSQL cluster
and database, its own Redis, gunicorn, 2 Celery workers and beat), imports the published lists so
readers have pages to read, then for `--duration` seconds runs
  * uploaders: each its own account and token, POSTing real result folders of
    ../shared/io500-data/submissions packed on the fly, each upload a unique variant (an extra
    note file, so the bytes differ), and now and then the same bytes again (must answer 200 with
    the same submission);
  * readers: list pages, submission pages and chart JSON, found by crawling the site first.
It prints throughput, p50/p99 latency and errors per kind of request, waits until the workers have
verified everything, then checks that every upload exists exactly once with the verdict the scoring
engine gives the same folder. Exit status 0 only when there were no errors and nothing was lost.
Targets: zero errors, zero lost, reader p99 under 200 ms.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import io
import os
import random
import re
import secrets
import struct
import sys
import tarfile
import threading
import time
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import verify  # noqa: E402
from scoring.model import ReadError  # noqa: E402
from tests.reliability.records import record  # noqa: E402
from tests.reliability.stack import Stack  # noqa: E402

DATA = REPO.parent / "shared" / "io500-data"
MAX_FOLDER_BYTES = 3 * 1024 * 1024
FINAL = {"verified", "invalid", "rejected"}
READER_P99_TARGET_MS = 200


@dataclass(frozen=True)
class Folder:
    """A real result folder, gzip-compressed once up to a flush point so variants cost almost nothing."""

    name: str
    gz_prefix: bytes  # gzip header + the folder's tar, deflated up to a full flush
    crc: int  # CRC-32 of the uncompressed tar so far
    length: int  # its uncompressed length
    expected: str  # the status the registry must reach: what the scoring engine says of the folder


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors[kind].append(error)


@dataclass
class Upload:
    sha256: str
    expected: str
    submission_id: int


def expected_status(folder: Path) -> str:
    try:
        verifications = verify(folder)
    except ReadError:
        return "rejected"
    return "verified" if any(v.valid for v in verifications) else "invalid"


def load_folders(limit: int) -> list[Folder]:
    folders = []
    for path in sorted((DATA / "submissions").glob("submission-*"), key=lambda p: int(p.name.split("-")[1])):
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        if size > MAX_FOLDER_BYTES:
            continue
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
            tar.add(path, arcname=path.name)
        plain = buffer.getvalue().rstrip(b"\0")
        plain += b"\0" * (-len(plain) % tarfile.BLOCKSIZE)
        engine = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        # After a full flush deflate starts afresh, so any tail can be compressed on its own later.
        prefix = _GZIP_HEADER + engine.compress(plain) + engine.flush(zlib.Z_FULL_FLUSH)
        folders.append(Folder(path.name, prefix, zlib.crc32(plain), len(plain), expected_status(path)))
        if len(folders) == limit:
            break
    return folders


_GZIP_HEADER = b"\x1f\x8b\x08\x00" + bytes(4) + b"\x00\xff"


def variant(folder: Folder, tag: str) -> bytes:
    """The folder plus a small note file, as a valid .tar.gz: unique bytes, the same result."""
    note = f"load-test variant {tag}\n".encode()
    info = tarfile.TarInfo(f"{folder.name}/load-variant-{tag}.note")
    info.size = len(note)
    tail = info.tobuf(tarfile.PAX_FORMAT) + note + b"\0" * (-len(note) % tarfile.BLOCKSIZE)
    tail += b"\0" * (2 * tarfile.BLOCKSIZE)
    engine = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    crc = zlib.crc32(tail, folder.crc)
    trailer = struct.pack("<2L", crc & 0xFFFFFFFF, (folder.length + len(tail)) & 0xFFFFFFFF)
    return folder.gz_prefix + engine.compress(tail) + engine.flush() + trailer


def multipart(data: bytes, filename: str) -> tuple[bytes, str]:
    boundary = secrets.token_hex(16)
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Client:
    """One keep-alive connection per simulated user, reopened after any failure."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        try:
            self.connection.request(method, path, body=body, headers=headers or {})
            response = self.connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            raise


def crawl(stack: Stack) -> list[str]:
    """Reader URLs: list pages, submission pages and chart JSON that the site links to."""
    client = Client(stack.web_port)
    status, body = client.request("GET", "/")
    if status != 200:
        raise SystemExit(f"The home page answered {status}; the lists import did not work.")
    lists = sorted(set(re.findall(r'href="(/lists/[a-z0-9]+/[a-z0-9-]+/)"', body.decode())))
    if not lists:
        raise SystemExit("The home page links no list; the lists import did not work.")
    submissions: set[str] = set()
    systems: set[str] = set()
    for url in lists[:12]:
        page = client.request("GET", url)[1].decode()
        submissions.update(re.findall(r'href="(/submissions/\d+/)"', page))
        systems.update(re.findall(r'href="(/systems/\d+/)"', page))
    sample = sorted(submissions)[:60]
    charts = [f"/charts{url}phases.json" for url in sample[:30]] + [
        f"/charts{url}ranks.json" for url in sample[:30]
    ]
    charts += [f"/charts{url}history.json" for url in sorted(systems)[:20]]
    charts += ["/charts/history/points.json", "/charts/history/trends.json"]
    urls = ["/", *lists, *sample, *sorted(systems)[:20], *charts]
    bad = [url for url in urls if client.request("GET", url)[0] != 200]
    if bad:
        raise SystemExit(f"{len(bad)} crawled URLs do not answer 200, e.g. {bad[:5]}")
    return urls


READ_KINDS = (
    (re.compile(r"^/$"), "read home"),
    (re.compile(r"^/lists/"), "read list page"),
    (re.compile(r"^/submissions/"), "read submission page"),
    (re.compile(r"^/systems/"), "read system page"),
    (re.compile(r"^/charts/submissions/"), "read submission chart JSON"),
    (re.compile(r"^/charts/systems/"), "read system chart JSON"),
    (re.compile(r"^/charts/"), "read history chart JSON"),
)


def read_kind(url: str) -> str:
    """The kind of page a reader URL is, so that each kind's latency is reported on its own line."""
    return next((kind for pattern, kind in READ_KINDS if pattern.search(url)), "read other")


def reader(
    port: int, urls: list[str], stop: threading.Event, stats: Stats, think_s: float, seed: int
) -> None:
    rng = random.Random(seed)
    client = Client(port)
    # Users arrive over time: a synchronized first request of every thread is no real traffic.
    stop.wait(rng.uniform(0, 2 * think_s))
    while not stop.is_set():
        url = rng.choice(urls)
        kind = read_kind(url)
        started = time.perf_counter()
        try:
            status, _ = client.request("GET", url)
            error = None if status == 200 else f"{status} {url}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__} {url}"
        stats.add(kind, time.perf_counter() - started, error)
        if think_s:
            stop.wait(rng.uniform(0, 2 * think_s))


def uploader(
    port: int,
    token: str,
    folders: list[Folder],
    stop: threading.Event,
    stats: Stats,
    uploads: dict[str, Upload],
    uploads_lock: threading.Lock,
    think_s: float,
    seed: int,
) -> None:
    rng = random.Random(seed)
    client = Client(port)
    previous: tuple[bytes, int] | None = None
    stop.wait(rng.uniform(0, 2 * think_s))
    while not stop.is_set():
        again = previous is not None and rng.random() < 0.1
        if again and previous is not None:
            data, expected_id = previous
            kind = "upload (same bytes again)"
        else:
            folder = rng.choice(folders)
            data, expected_id = variant(folder, secrets.token_hex(8)), 0
            kind = "upload"
        body, content_type = multipart(data, "result.tgz")
        headers = {
            "Authorization": f"Token {token}",
            "Content-Type": content_type,
            "Accept": "application/json",
        }
        started = time.perf_counter()
        error = None
        try:
            status, answer = client.request("POST", "/api/v1/submissions/", body, headers)
            if again:
                same = status == 200 and f'"id":{expected_id},' in answer.decode()
                error = None if same else f"{status} instead of 200 with submission {expected_id}"
            elif status != 202:
                error = f"{status} {answer[:200]!r}"
            else:
                submission_id = int(re.search(rb'"id":(\d+)', answer).group(1))  # type: ignore[union-attr]
                sha = hashlib.sha256(data).hexdigest()
                with uploads_lock:
                    uploads[sha] = Upload(sha, folder.expected, submission_id)
                previous = (data, submission_id)
        except (OSError, http.client.HTTPException) as exc:
            error = type(exc).__name__
        stats.add(kind, time.perf_counter() - started, error)
        if think_s:
            stop.wait(rng.uniform(0, 2 * think_s))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# What each service of the stack is counted as; the rest of the machine is "other work".
CPU_GROUPS = {
    "web": "web (gunicorn)",
    "nginx": "nginx",
    "worker1": "Celery",
    "worker2": "Celery",
    "beat": "Celery",
}


def _proc_stat(pid: int | str) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, ...); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds_by_group(stack: Stack) -> dict[str, float]:
    """CPU time (user + system) used so far by each part of this stack and by this load driver, read
    from /proc, and by the whole machine: where the cores went during the run.

    Only the stack's own processes count (each service's process group, its own postmaster and its
    backends, its Redis): other stacks and test runs on the machine run gunicorn, Celery and
    PostgreSQL too, and counted by command name their CPU was added to this stack's. What the machine
    used beyond the stack and the driver is "other work"."""
    tick = os.sysconf("SC_CLK_TCK")
    groups = {service.process.pid: CPU_GROUPS.get(service.name, service.name) for service in stack.services}
    try:
        postmaster = int((stack.postgres.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        postmaster = -1
    redis_pid = stack.redis.process.pid if stack.redis.process is not None else -1
    s3 = stack.objects.process if stack.objects is not None else None
    s3_pid = s3.pid if s3 is not None else -1
    totals: dict[str, float] = defaultdict(float)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _proc_stat(entry.name)
        if fields is None:
            continue
        pid, ppid, pgrp = int(entry.name), int(fields[1]), int(fields[2])
        if pid == os.getpid():
            group: str | None = "load driver"
        elif postmaster in (pid, ppid):
            group = "PostgreSQL"
        elif pid == redis_pid:
            group = "Redis"
        elif pid == s3_pid:
            group = "S3 (moto)"
        else:
            group = groups.get(pgrp)
        if group:
            # utime and stime are fields 14 and 15 of /proc/<pid>/stat (12 and 13 after the name).
            totals[group] += (int(fields[11]) + int(fields[12])) / tick
    # The first line of /proc/stat: all cores' time as user, nice, system, idle, iowait, irq, softirq.
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    totals["machine"] = (sum(ticks) - ticks[3] - ticks[4]) / tick
    return totals


def issue_tokens(stack: Stack, count: int) -> list[str]:
    script = (
        "from django.contrib.auth.models import User\n"
        "from submissions.accounts.tokens import api_token_issue\n"
        f"for i in range({count}):\n"
        "    user, _ = User.objects.get_or_create(username=f'uploader{i:03d}')\n"
        "    print(api_token_issue(user=user))\n"
    )
    if count == 0:
        return []
    return stack.manage("shell", "-c", script).split()[-count:]


def wait_until_final(stack: Stack, timeout_s: float) -> tuple[float, list[dict[str, object]]]:
    started = time.monotonic()
    while True:
        rows = [r for r in stack.submissions() if r["status"] not in FINAL and r["status"] != "recorded"]
        if not rows or time.monotonic() - started > timeout_s:
            return time.monotonic() - started, rows
        time.sleep(1)


def check_uploads(stack: Stack, uploads: dict[str, Upload]) -> dict[str, int]:
    rows = stack.postgres.sql(
        stack.database,
        "SELECT a.sha256, a.submission_id, s.status, count(*) OVER (PARTITION BY a.sha256) "
        "FROM submissions_archive a JOIN submissions_submission s ON s.id = a.submission_id "
        "WHERE a.kind = 'result' AND s.source = 'upload'",
    )
    stored = {sha: (submission_id, status, copies) for sha, submission_id, status, copies in rows}
    lost = [u for u in uploads.values() if u.sha256 not in stored]
    doubled = [sha for sha, (_, _, copies) in stored.items() if copies != 1]
    wrong_id = [u for u in uploads.values() if u.sha256 in stored and stored[u.sha256][0] != u.submission_id]
    wrong_verdict = [
        (u, stored[u.sha256][1])
        for u in uploads.values()
        if u.sha256 in stored and stored[u.sha256][1] != u.expected
    ]
    unexpected = len(stored) - len(uploads)
    for upload, status in wrong_verdict[:5]:
        print(f"  submission {upload.submission_id}: {status}, expected {upload.expected}")
    return {
        "uploads": len(uploads),
        "stored": len(stored),
        "lost": len(lost),
        "duplicated": len(doubled),
        "wrong_id": len(wrong_id),
        "wrong_verdict": len(wrong_verdict),
        "unexpected_rows": unexpected,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of load (default 120)")
    parser.add_argument("--uploaders", type=int, default=50)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--reader-think", type=float, default=1.0, help="mean pause between reads, s")
    parser.add_argument("--uploader-think", type=float, default=2.0, help="mean pause between uploads, s")
    parser.add_argument("--folders", type=int, default=40, help="distinct real folders to upload from")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--web-threads", type=int, default=8)
    parser.add_argument("--drain-timeout", type=float, default=600.0)
    parser.add_argument(
        "--worker-nice", type=int, default=19, help="niceness of the Celery workers (0: none)"
    )
    parser.add_argument(
        "--object-storage",
        action="store_true",
        help=(
            "archives in the stack's S3-compatible server (moto, on the same cores), a local folder "
            "per service, as deployed on several machines"
        ),
    )
    args = parser.parse_args()

    print("packing real folders and computing their verdicts ...", flush=True)
    folders = load_folders(args.folders)
    verdicts: dict[str, int] = defaultdict(int)
    for folder in folders:
        verdicts[folder.expected] += 1
    print(f"  {len(folders)} folders: {dict(verdicts)}")
    env = {"UPLOAD_RATE": "", "UPLOAD_BYTES_PER_DAY": "0", "CONN_MAX_AGE": "60"}
    with Stack.create(database="io500_load", env=env, object_storage=args.object_storage) as stack:
        print("importing the published lists for the readers ...", flush=True)
        stack.manage("import_io500", str(DATA), "--skip-raw", timeout=900)
        stack.start_web(workers=args.web_workers, threads=args.web_threads)
        # Verification is background work: niced, it never takes the CPU from a page being served.
        stack.start_worker("worker1", nice=args.worker_nice)
        stack.start_worker("worker2", nice=args.worker_nice)
        stack.start_beat()
        urls = crawl(stack)
        tokens = issue_tokens(stack, args.uploaders)
        print(f"  {len(urls)} reader URLs, {len(tokens)} uploader accounts")

        uploads: dict[str, Upload] = {}
        stats, uploads_lock, stop = Stats(), threading.Lock(), threading.Event()
        threads = [
            threading.Thread(
                target=reader, args=(stack.web_port, urls, stop, stats, args.reader_think, i), daemon=True
            )
            for i in range(args.readers)
        ]
        threads += [
            threading.Thread(
                target=uploader,
                args=(
                    stack.web_port,
                    token,
                    folders,
                    stop,
                    stats,
                    uploads,
                    uploads_lock,
                    args.uploader_think,
                    1000 + i,
                ),
                daemon=True,
            )
            for i, token in enumerate(tokens)
        ]
        print(
            f"load: {args.readers} readers, {args.uploaders} uploaders for {args.duration:.0f} s ...",
            flush=True,
        )
        started = time.monotonic()
        cpu_before = cpu_seconds_by_group(stack)
        for thread in threads:
            thread.start()
        time.sleep(args.duration)
        cpu_used = {
            group: round(seconds - cpu_before.get(group, 0.0), 1)
            for group, seconds in cpu_seconds_by_group(stack).items()
        }
        machine = cpu_used.pop("machine")
        cpu_used["other work"] = round(machine - sum(cpu_used.values()), 1)
        # Other work on the machine shares its cores; the load average puts the figures in context.
        load_average = round(os.getloadavg()[0], 1)
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
        elapsed = time.monotonic() - started

        print(f"\n{'kind':28} {'requests':>8} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        summary = {}
        for kind in sorted(stats.latencies):
            values = stats.latencies[kind]
            row = {
                "requests": len(values),
                "per_s": round(len(values) / elapsed, 1),
                "p50_ms": round(percentile(values, 0.50) * 1000, 1),
                "p99_ms": round(percentile(values, 0.99) * 1000, 1),
                "errors": len(stats.errors[kind]),
            }
            summary[kind] = row
            cells = (row["requests"], row["per_s"], row["p50_ms"], row["p99_ms"])
            print(f"{kind:28} " + " ".join(f"{cell:>8}" for cell in cells) + f" {row['errors']:>7}")
            for error in stats.errors[kind][:3]:
                print(f"    e.g. {error}")
        print("CPU seconds during the load: " + ", ".join(f"{g} {s}" for g, s in sorted(cpu_used.items())))
        reads = [v for kind, values in stats.latencies.items() if kind.startswith("read") for v in values]
        reader_p99 = percentile(reads, 0.99) * 1000 if reads else float("nan")
        print(f"\nall reads: p50 {percentile(reads, 0.5) * 1000:.1f} ms, p99 {reader_p99:.1f} ms")

        print("waiting for the workers to finish every upload ...", flush=True)
        drained_s, unfinished = wait_until_final(stack, args.drain_timeout)
        checks = check_uploads(stack, uploads)
        print(f"drained in {drained_s:.1f} s; unfinished: {len(unfinished)}")
        print("checks: " + ", ".join(f"{key} {value}" for key, value in checks.items()))
        errors = sum(len(v) for v in stats.errors.values())
        ok = (
            errors == 0
            and not unfinished
            and checks["lost"] == 0
            and checks["duplicated"] == 0
            and checks["wrong_id"] == 0
            and checks["wrong_verdict"] == 0
            and checks["unexpected_rows"] == 0
        )
        record(
            "load",
            f"{args.readers} readers think {args.reader_think} s, {args.uploaders} uploaders think "
            f"{args.uploader_think} s" + (", object storage" if args.object_storage else ""),
            duration_s=round(elapsed, 1),
            archives="S3-compatible server (moto), a local folder per service"
            if args.object_storage
            else "one local folder",
            readers=args.readers,
            uploaders=args.uploaders,
            reader_think_s=args.reader_think,
            worker_nice=args.worker_nice,
            machine_load_average=load_average,
            cpu_seconds=cpu_used,
            cpus=os.cpu_count(),
            web=f"gunicorn {args.web_workers} workers x {args.web_threads} threads",
            uploader_think_s=args.uploader_think,
            kinds=summary,
            reader_p50_ms=round(percentile(reads, 0.5) * 1000, 1) if reads else None,
            reader_p99_ms=round(reader_p99, 1),
            reader_p99_target_ms=READER_P99_TARGET_MS,
            errors=errors,
            unfinished=len(unfinished),
            drained_s=round(drained_s, 1),
            **checks,
            verdict="pass" if ok and reader_p99 < READER_P99_TARGET_MS else ("no loss" if ok else "FAIL"),
        )
        if reader_p99 >= READER_P99_TARGET_MS:
            print(f"reader p99 {reader_p99:.0f} ms is above the {READER_P99_TARGET_MS} ms target")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
