"""Push every shared real submission through the API and one real Celery worker, and time it.

    .venv/bin/python benchmarks/ingest.py [--data ../shared/io500-data] [--concurrency 1]

It builds a fresh PostgreSQL database (io500_bench by default) and uses its own Redis database, starts
gunicorn and `celery -A registry worker --concurrency=1`, creates an API token, packs each folder of
<data>/submissions as .tgz (before the clock starts), uploads them one after the other (or
--concurrency at a time) and polls each until it reaches a final status. It prints submissions per
second over the whole corpus and the 50th/95th percentile of upload-to-final time per submission.

Targets (issue 3): the whole corpus verified within 60 s with one worker, p95 under 2 s.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
FINAL = {"verified", "invalid", "rejected"}
TARGET_TOTAL_S = 60.0
TARGET_P95_S = 2.0
POLL_S = 0.02


@dataclass
class Outcome:
    folder: str
    status: str
    seconds: float
    score: float | None


def pack(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(folder, arcname=folder.name)
    return buffer.getvalue()


def multipart(fields: dict[str, tuple[str, bytes] | str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = io.BytesIO()
    for name, value in fields.items():
        body.write(f"--{boundary}\r\n".encode())
        if isinstance(value, tuple):
            filename, data = value
            body.write(f'Content-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'.encode())
            body.write(b"Content-Type: application/gzip\r\n\r\n" + data + b"\r\n")
        else:
            body.write(f'Content-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    body.write(f"--{boundary}--\r\n".encode())
    return body.getvalue(), f"multipart/form-data; boundary={boundary}"


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}

    def _call(self, request: urllib.request.Request) -> tuple[int, dict[str, object]]:
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def upload(self, name: str, data: bytes) -> tuple[int, dict[str, object]]:
        body, content_type = multipart({"archive": (name, data)})
        request = urllib.request.Request(
            f"{self.base}/api/v1/submissions/",
            data=body,
            method="POST",
            headers={**self.headers, "Content-Type": content_type},
        )
        return self._call(request)

    def get(self, url: str) -> dict[str, object]:
        return self._call(urllib.request.Request(url, headers=self.headers))[1]


def run_one(api: Api, folder: str, data: bytes) -> Outcome:
    started = time.perf_counter()
    code, body = api.upload(f"{folder}.tgz", data)
    if code not in (200, 202):
        print(f"{folder}: upload answered {code}: {body}", file=sys.stderr)
        return Outcome(folder, f"http-{code}", time.perf_counter() - started, None)
    url = str(body["url"])
    while True:
        state = api.get(url)
        if state.get("status") in FINAL:
            score = state.get("score")
            return Outcome(
                folder,
                str(state["status"]),
                time.perf_counter() - started,
                float(score) if isinstance(score, int | float) else None,
            )
        time.sleep(POLL_S)


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def wait_for(predicate: object, what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return
        time.sleep(0.2)
    raise SystemExit(f"{what} did not come up within {timeout_s:.0f} s")


def free_port() -> int:
    # Other services on this machine may hold any fixed port; let the kernel pick one.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "io500-data")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/io500_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--concurrency", type=int, default=1, help="uploads in flight at once")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    folders = sorted(
        (p for p in (args.data / "submissions").iterdir() if p.is_dir() and p.name.startswith("submission-")),
        key=lambda p: int(p.name.split("-")[1]),
    )
    if not folders:
        raise SystemExit(f"no submission folders under {args.data / 'submissions'}")
    packed = [(p.name, pack(p)) for p in folders]
    print(f"{len(packed)} folders packed ({sum(len(d) for _, d in packed) / 2**20:.1f} MiB of .tgz)")

    recreate_database(args.database_url)
    flush_redis(args.redis_url)
    scratch = Path(tempfile.mkdtemp(prefix="io500-bench-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "registry.settings",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CACHE_URL": args.redis_url,
        "MEDIA_ROOT": str(scratch / "media"),
        "DEBUG": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
    }
    manage(env, "migrate", "--noinput", "-v", "0")
    token = manage(env, "create_api_token", "benchmark").strip().splitlines()[-1]

    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    worker_log = scratch / "worker.log"
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "registry.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        ),
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "registry",
                "worker",
                "--concurrency=1",
                "--loglevel=INFO",
            ],
            cwd=REPO,
            env=env,
            stdout=worker_log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ),
    ]
    try:
        wait_for(lambda: healthy(base), "gunicorn")
        wait_for(lambda: " ready." in worker_log.read_text(errors="replace"), "the Celery worker")
        api = Api(base, token)
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            outcomes = list(pool.map(lambda item: run_one(api, *item), packed))
        total = time.perf_counter() - started
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)

    latencies = [o.seconds for o in outcomes]
    p50, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    print(f"statuses: {dict(Counter(o.status for o in outcomes))}")
    print(f"total {total:.2f} s for {len(outcomes)} submissions = {len(outcomes) / total:.2f} submissions/s")
    worst = max(latencies)
    print(
        f"upload to final status: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {worst * 1000:.0f} ms"
    )
    slowest = sorted(outcomes, key=lambda o: o.seconds, reverse=True)[:5]
    print("slowest: " + ", ".join(f"{o.folder} {o.seconds * 1000:.0f} ms ({o.status})" for o in slowest))
    all_final = all(o.status in FINAL for o in outcomes)
    met = all_final and total <= TARGET_TOTAL_S and p95 <= TARGET_P95_S
    verdict = "met" if met else "MISSED" + ("" if all_final else " (some uploads failed)")
    print(f"targets (corpus <= {TARGET_TOTAL_S:.0f} s, p95 <= {TARGET_P95_S:.0f} s): {verdict}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
